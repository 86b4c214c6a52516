"""rules.mcr API: Rules and presets, score() arguments, MCRScore, helpers, settlement, CLI."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import tempfile
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import mahjong_core as mc
from mahjong_core.rules import mcr
from mahjong_core.rules.ledger import Ledger, Transfer

HAND = "[123m,1][345m,1]567m34sCC5s|EE1000"  # 一色三步高 喜相逢 缺一门 自摸 = 19


# ---------------------------------------------------------------------------------------------
# Rules


def test_default_rules_are_the_official_preset():
    assert mcr.Rules() == mcr.Rules.presets["official"]
    assert mcr.Rules().preset_name == "official"
    assert set(mcr.Rules.presets) == {"official", "classic", "botzone"}
    assert all(isinstance(r, mcr.Rules) for r in mcr.Rules.presets.values())


def test_rule_keys_of_rules_md():
    keys = {f.name for f in dataclasses.fields(mcr.Rules)}
    assert {"min_fan", "flowers", "declared_ready_fan", "mil_concealed_melded_kong", "knitted_straight_wait_counts",
            "phantom_waits_count", "multiple_winners", "dealer_rule", "false_win_penalty"} <= keys
    official = mcr.Rules()
    assert (official.min_fan, official.flowers, official.declared_ready_fan, official.mil_concealed_melded_kong,
            official.knitted_straight_wait_counts, official.phantom_waits_count, official.multiple_winners,
            official.dealer_rule, official.false_win_penalty) == (8, False, False, False, True, True, False,
                                                                   "seed000", 10)


def test_presets():
    classic, botzone = mcr.Rules.presets["classic"], mcr.Rules.presets["botzone"]
    assert classic.declared_ready_fan and not classic.flowers
    assert botzone.mil_concealed_melded_kong and not botzone.strict_context and botzone.table == "botzone"
    assert not botzone.flowers and not botzone.knitted_straight_wait_counts  # the judge's calculator


def test_overrides_replace_and_unknown_keys():
    r = mcr.Rules(min_fan=0, mil_concealed_melded_kong=True)
    assert r.min_fan == 0 and r.mil_concealed_melded_kong and r.preset_name is None
    assert dataclasses.replace(mcr.Rules(), mil_concealed_melded_kong=True, knitted_straight_wait_counts=False,
                               strict_context=False, table="botzone") == mcr.Rules.presets["botzone"]
    with pytest.raises(mc.RulesError, match="unknown MCR rule key.*min_fans.*valid keys: min_fan"):
        mcr.Rules(min_fans=8)
    with pytest.raises(ValueError, match="min_fan"):
        mcr.Rules(min_fan=-1)
    with pytest.raises(ValueError, match="flowers"):
        mcr.Rules(flowers="yes")
    with pytest.raises(ValueError, match="dealer_rule"):
        mcr.Rules(dealer_rule="random")
    with pytest.raises(dataclasses.FrozenInstanceError):
        mcr.Rules().min_fan = 5  # type: ignore[misc]


def test_rules_round_trip_through_a_dict_and_hash():
    for r in mcr.Rules.presets.values():
        assert mcr.Rules(**r.to_dict()) == r
        assert hash(mcr.Rules(**r.to_dict())) == hash(r)


# ---------------------------------------------------------------------------------------------
# score()


def test_score_from_notation_with_context():
    s = mcr.score(HAND)
    assert s.total == 19 and s.self_drawn and s.win_tile == mc.Tile.S5
    assert [f.name_zh for f in s.fans] == ["一色三步高", "喜相逢", "缺一门", "自摸"]
    assert all(isinstance(f, mcr.Fan) for f in s.fans)
    assert s.fans[0] == mcr.Fan("一色三步高", "Pure Shifted Chows", 16, 1, "YISESANBUGAO")


def test_score_with_keyword_context_equals_the_suffix():
    by_suffix = mcr.score("[123m,1][345m,1]567m34sCC5s|SW1100")
    by_keywords = mcr.score("[123m,1][345m,1]567m34sCC5s", self_drawn=True, last_copy=True, seat_wind=2,
                            prevalent_wind=1)
    assert by_suffix.fans == by_keywords.fans and by_suffix.total == by_keywords.total


def test_score_rejects_context_twice():
    with pytest.raises(mc.InvalidHandError, match="suffix already gives the context"):
        mcr.score(HAND, self_drawn=True)


def test_score_with_win_tile_on_a_ready_hand_and_on_raw_counts():
    ready = mc.parse("[123m,1][345m,1]567m34sCC")
    s = mcr.score(ready, win_tile="5s", self_drawn=True)
    assert s.total == 19 and s.hand.n_tiles == 8
    counts = list(mc.parse("123m456p789s11sEEE").counts)
    assert mcr.score(counts, win_tile=mc.Tile.EAST).total == mcr.score("123m456p789s11sEEE").total


def test_win_tile_overrides_the_last_written_tile():
    a = mcr.score("123m456p789s11s99m9m")  # won on 9m
    b = mcr.score("123m456p789s11s99m9m", win_tile="1s")
    assert a.win_tile == mc.Tile.M9 and b.win_tile == mc.Tile.S1
    assert "DANDIAOJIANG" not in a.fan_ids


def test_non_winning_hand_is_none():
    assert mcr.score("123m456p789s11sEWN") is None
    assert mcr.score("19m19p18sESWNCFPP") is None


@pytest.mark.parametrize("bad,error", [
    ("123m456p789s11sEE", mc.InvalidHandError),  # 13 tiles, no win tile
    ("123m456p789s11sEEEE", mc.InvalidHandError),  # 15 tiles
    ("123m456p789s11sEEX", mc.ParseError),
    ("11111m456p789s11sEE", mc.InvalidHandError),
    ("123m456p789s11sEEE|EE1000|3", mc.InvalidHandError),  # flowers under a 136-tile rule set
])
def test_malformed_input_raises(bad, error):
    with pytest.raises(error):
        mcr.score(bad)


def test_errors_are_mahjong_errors():
    with pytest.raises(mc.MahjongError):
        mcr.score("123m456p789s11sEEE", win_tile="9p")  # win tile not in the hand
    with pytest.raises(mc.MahjongError):
        mcr.score("123m456p789s11sEEE", seat_wind=4)
    with pytest.raises(mc.MahjongError):
        mcr.score("123m456p789s11sEEE", rules=mcr.Rules(flowers=True), flowers=9)
    with pytest.raises(mc.MahjongError, match="declared_ready"):
        mcr.score("123m456p789s11sEEE", declared_ready=True)
    with pytest.raises(ValueError, match="unknown MCR preset"):
        mcr.score(HAND, rules="tournament")


def test_declared_ready_fan_in_classic():
    s = mcr.score("123m456p789s1122s1s", rules="classic", declared_ready=True)
    assert "TINGPAI" in s.fan_ids
    assert "TINGPAI" not in mcr.score("123m456p789s1122s1s", rules="classic").fan_ids


def test_flowers_count_but_not_toward_the_minimum():
    s = mcr.score("[123m,1][345m,1]678p56sWW7s|EE0000|5", rules=mcr.Rules(flowers=True))
    assert s.total == 13 and s.base_total == 8 and s.meets_minimum
    s = mcr.score("[123m,1][345m,1]678p56sWW7s|EE1000|8", rules=mcr.Rules(flowers=True))
    assert s.total == 9 and s.flowers == 8 and s.base_total == 1 and not s.meets_minimum


# ---------------------------------------------------------------------------------------------
# MCRScore


def test_decomposition_and_attribution():
    s = mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000")
    d = s.decomposition
    assert isinstance(d, mc.Decomposition) and d.form == mc.Forms.STANDARD
    assert d in mc.decompositions(s.hand)
    uses = {u.fan.id: u for u in s.attribution}
    assert set(uses) == {"YISESANBUGAO", "XIXIANGFENG", "QUEYIMEN", "ZIMO"}
    assert [repr(b) for b in uses["YISESANBUGAO"].blocks] == ["[123m]", "[345m]", "567m"]
    assert [repr(b) for b in uses["XIXIANGFENG"].blocks] == ["[345m]", "345s"]
    assert uses["QUEYIMEN"].whole_hand and uses["ZIMO"].win_tile == mc.Tile.S5


def test_attribution_has_one_entry_per_count():
    s = mcr.score("[WWW,2][NNNN,3][111p,2]99s55m9s|ES1000")
    assert sum(u.fan.id == "YAOJIUKE" for u in s.attribution) == 4
    assert sorted(repr(u.blocks[0]) for u in s.attribution if u.fan.id == "YAOJIUKE") == \
        sorted(["[WWW]", "[NNNN]", "[111p]", "999s"])
    assert sum(u.fan.total for u in s.attribution) == s.total


def test_attribution_of_special_forms_and_flowers():
    s = mcr.score("14m369p25sESWNPFC|EE1000|h", rules=mcr.Rules(flowers=True))
    uses = {u.fan.id: u for u in s.attribution}
    assert uses["QIXINGBUKAO"].whole_hand and uses["HUAPAI"].flowers == 1
    s = mcr.score("[FFF,2]147m258p39sWW6s")
    assert {u.fan.id: u for u in s.attribution}["ZUHELONG"].knitted


def test_repr_and_table():
    s = mcr.score(HAND)
    assert repr(s) == "MCRScore(19: 一色三步高 16, 喜相逢 1, 缺一门 1, 自摸 1)"
    table = str(s)
    for text in ("一色三步高", "Pure Shifted Chows", "[123m] [345m] 567m", "19", "total"):
        assert text in table
    assert json.loads(json.dumps(s.to_json(), ensure_ascii=False))["total"] == 19


def test_score_is_frozen_and_compares_by_value():
    a, b = mcr.score(HAND), mcr.score(HAND)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != mcr.score(HAND, rules="botzone") and a != mcr.score("[123m,1][345m,1]567m34sCC5s|EE0000")
    for name in ("total", "fans", "hand", "rules"):
        with pytest.raises(AttributeError):
            setattr(a, name, None)


def test_score_pickles():
    import pickle

    s = mcr.score("[1111s][2222m,1]333444p88s", rules="botzone")
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.decomposition == s.decomposition and t.rules is not None


# ---------------------------------------------------------------------------------------------
# Helpers


def test_meets_minimum():
    assert mcr.meets_minimum(HAND)
    assert not mcr.meets_minimum("[123m,1][345m,1]678p56sWW7s|EE1000")  # 自摸 1 + 缺一门? < 8
    assert mcr.meets_minimum(mcr.score("[123m,1][345m,1]678p56sWW7s|EE1000"), rules=mcr.Rules(min_fan=1))
    assert not mcr.meets_minimum("123m456p789s11sEWN")  # not a winning hand


def test_score_waits():
    waits = mcr.score_waits("[123m,1][345m,1]567m34sCC", self_drawn=True)
    assert set(waits) == {mc.Tile.S2, mc.Tile.S5}
    assert waits[mc.Tile.S5].total == 19
    assert all(s.win_tile == t for t, s in waits.items())
    legal = {t for t, s in waits.items() if s.meets_minimum}
    assert mc.Tile.S5 in legal
    with pytest.raises(mc.InvalidHandError, match="ready hand"):
        mcr.score_waits(HAND)


def test_score_waits_skips_kinds_held_four_times():
    waits = mcr.score_waits("1111234m456p789s")
    assert mc.Tile.M1 not in waits and mc.Tile.M4 in waits


# ---------------------------------------------------------------------------------------------
# Settlement


def test_settle_discard_win():
    s = mcr.score("[123m,1][345m,1]567m34sCC5s|EE0000")
    assert s.total == 18
    ledger = mcr.settle(s, winner=2, discarder=0)
    assert isinstance(ledger, Ledger)
    assert ledger.totals() == [-8 - 18, -8, 34 + 8, -8]
    assert sum(ledger.totals()) == 0
    assert all(isinstance(t, Transfer) and t.payee == 2 for t in ledger)


def test_settle_self_draw():
    s = mcr.score(HAND)
    ledger = mcr.settle(s, winner=1)
    assert ledger.totals() == [-(8 + 19), 3 * (8 + 19), -(8 + 19), -(8 + 19)]


def test_settle_checks_its_input():
    s = mcr.score(HAND)
    with pytest.raises(mc.IllegalActionError, match="self-drawn"):
        mcr.settle(s, 1, discarder=0)
    with pytest.raises(mc.IllegalActionError, match="discarder"):
        mcr.settle(mcr.score("[123m,1][345m,1]567m34sCC5s|EE0000"), 1)
    with pytest.raises(ValueError):
        mcr.settle(s, 4)
    small = mcr.score("[123m,1][345m,1]678p56sWW7s|EE1000")
    with pytest.raises(mc.IllegalActionError, match="false win"):
        mcr.settle(small, 0)


def test_false_win_penalty():
    ledger = mcr.false_win_penalty(3)
    assert ledger.totals() == [10, 10, 10, -30]
    assert mcr.false_win_penalty(0, mcr.Rules(false_win_penalty=5)).totals() == [-15, 5, 5, 5]
    assert len(mcr.false_win_penalty(0, mcr.Rules(false_win_penalty=0))) == 0


# ---------------------------------------------------------------------------------------------
# Threads, CLI


def test_one_rules_object_shared_by_a_thread_pool():
    hands = ["[123m,1][345m,1]567m34sCC5s|EE1000", "11123456789999m|EE1000", "19m19p119sESWNPFC|EE1000",
             "[1111s][2222m,1]333444p88s"] * 50
    rules = mcr.Rules.presets["botzone"]
    expected = [mcr.score(h, rules=rules).total for h in hands]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda h: mcr.score(h, rules=rules).total, hands))
    assert got == expected


def test_module_docstring_examples():
    import doctest

    assert doctest.testmod(mcr, raise_on_error=False).failed == 0


def _cli(*args):
    # Run outside the checkout: `python -m` puts the working directory first on sys.path, where the
    # source folder (without the compiled extension of a regular install) would shadow the package.
    return subprocess.run([sys.executable, "-m", "mahjong_core", "score", "mcr", *args], capture_output=True,
                          text=True, encoding="utf-8", cwd=tempfile.gettempdir())


def test_cli_table():
    out = _cli(HAND)
    assert out.returncode == 0, out.stderr
    assert "一色三步高" in out.stdout and "Pure Shifted Chows" in out.stdout and "19" in out.stdout


def test_cli_json_rules_and_overrides():
    out = _cli("[1111s][2222m,1]333444p88s", "--json", "--rules", "botzone")
    data = json.loads(out.stdout)
    assert data["winning"] and "MINGANGANG" in [f["id"] for f in data["fans"]]
    out = _cli("[1111s][2222m,1]333444p88s", "--json", "--set", "mil_concealed_melded_kong=false", "--rules",
               "botzone")
    assert "MINGANGANG" not in [f["id"] for f in json.loads(out.stdout)["fans"]]


def test_cli_errors_and_non_winning():
    assert _cli("123m456p789s11sEWN").returncode == 1
    out = _cli("123m456p789s11sEEX")
    assert out.returncode == 2 and "error" in out.stderr
    out = _cli(HAND, "--set", "nope=1")
    assert out.returncode != 0 and "nope" in out.stderr


def test_text_fast_path_scores_as_the_parsed_hand():
    """`score(text)` with no other argument goes through one native call (`_native.score_text`);
    it must give what scoring the parsed Hand gives, context, flowers and non-wins included."""
    import random

    import mcr_handgen

    rng = random.Random(14)
    rules = mcr.Rules(flowers=True)
    wins = 0
    for _ in range(1500):
        text = mcr_handgen.random_hand(rng, consistent=True)
        fast, slow = mcr.score(text, rules=rules), mcr.score(mc.parse(text), rules=rules)
        assert (fast is None) == (slow is None), text
        if fast is not None:
            wins += 1
            assert (fast.total, fast.fans, repr(fast)) == (slow.total, slow.fans, repr(slow)), text
    assert wins > 500
    with pytest.raises(mc.InvalidHandError, match="no winning tile"):
        mcr.score("123m456p789s1122z")
