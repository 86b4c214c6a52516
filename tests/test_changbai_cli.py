"""`python -m mahjong_core score changbai ...` and the module docstrings' examples."""

import doctest
import json

import pytest

from mahjong_core import parse
from mahjong_core.cli import main
from mahjong_core.rules import changbai
from mahjong_core.rules.changbai import settlement as changbai_settlement


def run(capsys, *argv):
    code = main(["score", "changbai", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_itemised_table(capsys):
    code, out, _ = run(capsys, "123m456p789s123sEE", "--ready", "--self-drawn", "--plain")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "hand      123m456p123789sEE"
    assert lines[1] == "win       E self-drawn, declared ready"
    assert lines[2] == "reading   STANDARD: 123m 456p 123s 789s EE"
    assert [line.split()[0] for line in lines[3:6]] == ["夹胡(单吊)", "门清", "单吊幺九"]
    assert all(line.rstrip().endswith(" 1") for line in lines[3:6])
    assert "Single wait on a terminal or honour" in lines[5]
    assert lines[6] == "total     3 doublings = 8 x base"


def test_payment_line_with_a_loser(capsys):
    code, out, _ = run(capsys, "123m456p789s123sEE", "--loser", "123m456p789s12sCC",
                       "--dealer", "loser", "--piao", "4", "2", "--plain")
    assert code == 0
    assert "门清" in out.split("loser")[1]
    assert out.splitlines()[-1] == "payment   1 x 2^(3 + 1 + 1 dealer) + 飘 4 + 2 = 38"


def test_thirteen_orphans_after_a_kong(capsys):
    code, out, _ = run(capsys, "19m19p19s12345667z", "--after-kong-discard", "--plain")
    assert code == 0
    assert "P on the discard after a kong" in out
    assert "total     2 doublings x 13 = 52 x base" in out


def test_kong_replacement_implies_self_drawn(capsys):
    code, out, _ = run(capsys, "[EEEE]123m456p789s5s5s", "--kong-replacement", "--plain")
    assert code == 0
    assert "5s self-drawn on a kong replacement" in out
    assert "total     4 doublings = 16 x base" in out


def test_json(capsys):
    code, out, _ = run(capsys, "[123m,1][123m,3]456p789s5s5s", "--json", "--set", "base=2",
                       "--loser", "[123m,1][123m,2][123m,3]789s5s")
    data = json.loads(out)
    assert code == 0
    assert (data["win"], data["doublings"], data["multiplier"], data["value"]) == (True, 2, 1, 4)
    assert [(i["name_zh"], i["doublings"]) for i in data["items"]] == [("夹胡(单吊)", 1), ("一般高(明)", 1)]
    assert data["rules"]["base"] == 2
    assert data["payment"]["loser_doublings"] == 2
    assert data["payment"]["amount"] == 2 * 2**4


def test_not_a_win_prints_the_reason_and_exits_1(capsys):
    code, out, _ = run(capsys, "123m456p789s123sEE", "--not-ready")
    assert code == 1
    assert "报听" in out
    code, out, _ = run(capsys, "123m456p789s23sEE1s", "--json")
    data = json.loads(out)
    assert code == 1
    assert sorted(data) == ["hand", "reason", "win", "winning"]
    assert data["hand"] == str(parse("123m456p789s23sEE1s")) and data["win"] is False
    assert "waits on 2 kinds (14s)" in data["reason"]


def test_rule_overrides(capsys):
    code, out, _ = run(capsys, "123m456p789s23sEE1s", "--set", "ready_required=false", "--plain")
    assert code == 0 and "门清" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["123m456p789s123sXX"], "unexpected character"),
        (["123m456p789s123sEE", "--set", "foo=1"], "unknown Changbai rule key"),
        (["123m456p789s123sEE", "--set", "base"], "KEY=VALUE"),
        (["123m456p789s123sEE", "--self-drawn", "--robbed-kong"], "cannot be self_drawn"),
        (["123m456p789s123sEE", "--win-tile", "9p"], "not among the concealed tiles"),
        (["123m456p789s123sEE", "--loser", "123m456p789s123sEE"], "13 concealed tiles"),
        (["123m456p789s123sEE", "--loser", "123m456p789s12sCC", "--piao", "3", "0"], "piao_winner"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


def test_ready_and_not_ready_are_exclusive(capsys):
    with pytest.raises(SystemExit):
        main(["score", "changbai", "123m456p789s123sEE", "--ready", "--not-ready"])


@pytest.mark.parametrize("module", [changbai, changbai_settlement])
def test_docstring_examples_hold(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
