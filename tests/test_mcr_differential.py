"""Differential tests of the MCR scorer.

* `botzone` against PyMahjongGB 1.4.0 (black-box oracle) on seeded random winning hands built by
  tests/mcr_handgen.py: 0-4 exposed melds, concealed/melded/promoted kongs, seven pairs, knitted
  forms, thirteen orphans, nine gates, every context flag, winds and flowers. Fan lists must be
  identical.
* `official` against PyMahjongGB where they differ only by documented keys: 明暗杠 is 明杠 + 暗杠
  (mil_concealed_melded_kong=False), no flowers (flowers=False), consistent context flags.
* The C++ evaluator against the slow Python reference (tests/mcr_reference.py), fan lists and
  chosen decomposition, under both presets; and the batch path against single calls.

Scale: MCR_DIFF_HANDS hands for the PyMahjongGB run (default 100,000 at the test depth, tests/depth.py).

One difference from PyMahjongGB is known and asserted narrowly: when two readings tie and differ
only in 边张 versus 嵌张 and both make a 一色三同顺 with one of two melded chows (two hand shapes,
e.g. [123p][234p]1122344p+3p), PyMahjongGB reports the other wait fan than the reading order it
uses everywhere else predicts. The totals are identical; such hands are about 1 in 100000.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

import pytest

import mahjong_core as mc
from depth import scaled
import mcr_handgen
import mcr_reference as ref
from mahjong_core.rules import mcr

oracle = pytest.importorskip("mcr_oracle")
if oracle.MahjongGB is None:  # pragma: no cover
    pytest.skip("PyMahjongGB is not installed (pip install PyMahjongGB==1.4.0)", allow_module_level=True)

N_HANDS = int(os.environ.get("MCR_DIFF_HANDS", str(scaled(100_000))))
# PyMahjongGB 1.4.0 is a later fan calculator than the Botzone judge's: it also reads a 组合龙 tile as
# 边张/嵌张/单钓将 (the judge does not; the `botzone` preset follows the judge, tests/test_botzone*.py).
BOTZONE = dataclasses.replace(mcr.Rules.presets["botzone"], knitted_straight_wait_counts=True, flowers=True)
OFFICIAL = mcr.Rules.presets["official"]
WAIT_FANS = {"BIANZHANG", "KANZHANG", "DANDIAOJIANG"}


def _known_wait_tie(hand: mc.Hand, ours: Counter, theirs: Counter) -> bool:
    """The documented PyMahjongGB difference (see the module docstring)."""
    diff = (ours - theirs) + (theirs - ours)
    chow_melds = [m for m in hand.melds if m.kind == mc.MeldKind.CHOW]
    return (
        set(diff) <= WAIT_FANS
        and sum(diff.values()) == 2
        and sum(ours.values()) == sum(theirs.values())
        and "YISESANTONGSHUN" in ours
        and len(chow_melds) == 2
        and all(m.tile // 9 == hand.win_tile // 9 for m in chow_melds)
    )


@pytest.mark.slow   # 100,000 hands at full depth: started first (conftest)
def test_botzone_matches_pymahjonggb():
    rng = random.Random(20240601)
    mismatches, known = [], []
    for _ in range(N_HANDS):
        hand = mc.parse(mcr_handgen.random_hand(rng))
        theirs = oracle.gb_fans(hand)
        ours = Counter(mcr.score(hand, rules=BOTZONE).fan_ids)
        if ours != theirs:
            (known if _known_wait_tie(hand, ours, theirs) else mismatches).append((str(hand), dict(ours), dict(theirs)))
    assert not mismatches, f"{len(mismatches)} of {N_HANDS} hands differ, e.g. {mismatches[:5]}"
    assert len(known) <= max(3, N_HANDS // 10_000), known


def _official_expectation(theirs: Counter) -> Counter:
    expected = Counter(theirs)
    if expected.pop("MINGANGANG", 0):
        expected["MINGGANG"] += 1
        expected["ANGANG"] += 1
    return expected


def test_official_matches_pymahjonggb_except_documented_keys():
    rng = random.Random(7)
    n = max(1000, N_HANDS // 4)
    mismatches, mil_hands = [], 0
    for _ in range(n):
        hand = mc.parse(mcr_handgen.random_hand(rng, consistent=True, flowers=False))
        theirs = oracle.gb_fans(hand)
        mil_hands += "MINGANGANG" in theirs
        ours = Counter(mcr.score(hand, rules=OFFICIAL).fan_ids)
        expected = _official_expectation(theirs)
        if ours != expected and not _known_wait_tie(hand, ours, expected):
            mismatches.append((str(hand), dict(ours), dict(theirs)))
    assert not mismatches, f"{len(mismatches)} of {n} hands differ, e.g. {mismatches[:5]}"
    assert mil_hands > 0, "the corpus must exercise the 明暗杠 difference"


def test_official_and_botzone_differ_exactly_on_melded_plus_concealed_kong():
    hand = "[1111s][2222m,1]333444p88s"
    assert Counter(mcr.score(hand, rules=BOTZONE).fan_ids)["MINGANGANG"] == 1
    official = Counter(mcr.score(hand, rules=OFFICIAL).fan_ids)
    assert official["MINGGANG"] == 1 and official["ANGANG"] == 1 and "MINGANGANG" not in official
    assert mcr.score(hand, rules=BOTZONE).total - mcr.score(hand, rules=OFFICIAL).total == 5 - 3


def test_strict_context_differs_from_pymahjonggb_only_by_raising():
    # PyMahjongGB silently ignores 抢杠和 on a tile the winner holds; official rejects it.
    hand = "123m456p789s11s99m9m|EE0001"
    assert "QIANGGANGHU" not in oracle.gb_fans(mc.parse(hand))
    assert "QIANGGANGHU" not in mcr.score(hand, rules=BOTZONE).fan_ids
    with pytest.raises(mc.InvalidHandError, match="抢杠和"):
        mcr.score(hand, rules=OFFICIAL)


@pytest.mark.parametrize("rules", [BOTZONE, OFFICIAL], ids=["botzone", "official"])
def test_cpp_matches_python_reference(rules):
    options = ref.Options(
        mil_concealed_melded_kong=rules.mil_concealed_melded_kong,
        knitted_straight_wait_counts=rules.knitted_straight_wait_counts,
        phantom_waits_count=rules.phantom_waits_count,
    )
    rng = random.Random(99)
    for _ in range(max(500, N_HANDS // 25)):
        hand = mc.parse(mcr_handgen.random_hand(rng, consistent=True, flowers=rules.flowers))
        total, fans, decomposition = ref.score(hand, options)
        ours = mcr.score(hand, rules=rules)
        assert Counter(ours.fan_ids) == fans, str(hand)
        assert ours.total == total
        assert ours.decomposition == decomposition, str(hand)


@pytest.mark.parametrize("rules", [mcr.Rules(knitted_straight_wait_counts=False), mcr.Rules(phantom_waits_count=False)],
                         ids=["knitted-wait-off", "phantom-waits-off"])
def test_cpp_matches_python_reference_for_other_switches(rules):
    options = ref.Options(knitted_straight_wait_counts=rules.knitted_straight_wait_counts,
                          phantom_waits_count=rules.phantom_waits_count)
    rng = random.Random(5)
    for _ in range(max(300, N_HANDS // 50)):
        hand = mc.parse(mcr_handgen.random_hand(rng, consistent=True, flowers=False))
        assert Counter(mcr.score(hand, rules=rules).fan_ids) == ref.score(hand, options)[1], str(hand)


def test_batch_equals_single_calls():
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    hands = [mc.parse(mcr_handgen.random_hand(rng)) for _ in range(2000)]
    totals, counts = mcr.score_batch(hands, BOTZONE, with_fans=True)
    for i, hand in enumerate(hands):
        single = mcr.score(hand, rules=BOTZONE)
        assert totals[i] == single.total
        assert {mcr.FANS[j].id: int(c) for j, c in enumerate(counts[i]) if c} == {f.id: f.count for f in single.fans}
    assert np.array_equal(mcr.score_batch(mcr.encode_batch(hands), BOTZONE), totals)
