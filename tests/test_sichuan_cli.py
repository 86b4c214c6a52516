"""`python -m mahjong_core score sichuan ...` (dispatched by mahjong_core.cli to the sichuan module)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mahjong_core.cli import main


def run(capsys, *args):
    code = main(["score", "sichuan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_itemised_score(capsys):
    code, out, _ = run(capsys, "[5555p,1]11112233m999p", "--void", "s", "--self-drawn", "--kong-replacement")
    assert code == 0
    for text in ("平胡", "Basic win", "杠上花", "根", "total 3 番", "24 points", "pays 30"):
        assert text in out


def test_json_output(capsys):
    code, out, _ = run(capsys, "111222444m33399p", "--self-drawn", "--json")
    result = json.loads(out)
    assert code == 0 and result["winning"] is True
    assert result["score"]["fan"] == 2 and result["score"]["payment"] == 18  # the seed's 18
    assert result["score"]["items"] == [{"name_zh": "对对胡", "name_en": "All pungs", "fan": 2}]
    assert result["preset"] == "qq"


def test_rule_overrides(capsys):
    code, out, _ = run(capsys, "11112222m334455m", "--set", "max_fan=4", "--set", "zimo_bonus=add_fan",
                       "--self-drawn", "--json")
    result = json.loads(out)
    assert result["rules"]["max_fan"] == 4 and result["preset"] is None
    assert (result["score"]["fan"], result["score"]["uncapped_fan"], result["score"]["payment"]) == (4, 7, 48)


def test_not_winning_says_why(capsys):
    code, out, _ = run(capsys, "111222444m33399p", "--void", "p")
    assert code == 1 and "void suit p" in out
    code, out, _ = run(capsys, "123m456p789s11m456m")
    assert code == 1 and "three suits" in out


def test_waiting_hand_lists_wait_values(capsys):
    code, out, _ = run(capsys, "1122334455667s", "--json")
    result = json.loads(out)
    assert code == 0 and result["ready"] is True
    assert {t: v["fan"] for t, v in result["waits"].items()} == {"1s": 3, "4s": 3, "7s": 5}
    assert result["best"]["points"] == 96
    code, out, _ = run(capsys, "1122334455667s")
    assert "查大叫" in out and "96" in out


@pytest.mark.parametrize("args, message", [
    (["[123m,1]111222m44499p"], "no chow"),
    (["111222444m33399p", "--set", "colour=red"], "unknown Sichuan rule key"),
    (["111222444m33399p", "--set", "max_fan"], "KEY=VALUE"),
    (["111222444m33399p", "--win-tile", "9z"], "not a tile"),
    (["[555p,1]11223344m999p", "--first-draw"], "first_draw"),
])
def test_errors_are_reported_not_raised(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err


def test_module_entry_point(tmp_path):
    # Run outside the checkout so the installed package is imported, not the source folder.
    proc = subprocess.run([sys.executable, "-m", "mahjong_core", "score", "sichuan", "111222444m33399p",
                           "--void", "s", "--self-drawn"], capture_output=True, text=True, check=False,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "对对胡" in proc.stdout and "pays 18" in proc.stdout


def test_kong_replacement_and_first_draw_imply_a_self_draw(capsys):
    code, out, _ = run(capsys, "[5555p]11223344m999p", "--kong-replacement", "--json")
    assert code == 0
    result = json.loads(out)["score"]
    assert result["self_drawn"] and "杠上花" in [i["name_zh"] for i in result["items"]]
    code, out, _ = run(capsys, "111222444m33399p", "--first-draw", "--json")
    assert code == 0 and json.loads(out)["score"]["pattern"] == "地胡"
