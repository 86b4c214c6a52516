"""The Python reference itself: known answers, and agreement with the independent libraries on a
few hundred hands — so a disagreement between the core and the reference points at the core."""

from __future__ import annotations

import MahjongGB as GB
import pytest
from mahjong.shanten import Shanten as RiichiShanten

import mahjong_core as mc
import reference as R
import reference_hands as H


def counts(text: str):
    return R.counts_of(int(t) for t in mc.parse_tiles(text))


@pytest.mark.parametrize(
    "text, melds, forms, expected",
    [
        ("1112345678999m", 0, R.STANDARD, 0),
        ("123m456p789s11sEE", 0, R.STANDARD, 0),
        ("123m456p789s1sESW", 0, R.STANDARD, 2),
        ("1111m456p789p123s", 0, R.STANDARD, 0),  # phantom wait on a fifth 1m
        ("1111m", 3, R.STANDARD, 0),
        ("1m", 4, R.STANDARD, 0),
        ("1m", 4, R.SEVEN_PAIRS | R.STANDARD, 0),
        ("19m19p19s1234567z", 0, R.THIRTEEN_ORPHANS, 0),
        ("19m19p19s123456z", 0, R.THIRTEEN_ORPHANS, 1),
        ("1111223344556m", 0, R.SEVEN_PAIRS, 0),  # a quad is two pairs
        ("11112222333344m", 0, R.SEVEN_PAIRS, -1),
        ("147m258p369sESWN", 0, R.HONORS_KNITTED, 0),
        ("147m258p369sESWNC", 0, R.HONORS_KNITTED, -1),
        ("147m25p36sESWNCFP", 0, R.HONORS_KNITTED, -1),  # 七星不靠 with 14 distinct tiles
        ("147m258p369s123mC", 0, R.KNITTED_STRAIGHT, 0),
        ("147m258p369sC", 1, R.KNITTED_STRAIGHT, 0),
        ("147m258p369sCC", 1, R.KNITTED_STRAIGHT, -1),
        ("123456789m", 1, R.KNITTED_STRAIGHT, 6),  # six knitted tiles and a pair tile missing
    ],
)
def test_known_shanten(text, melds, forms, expected):
    assert R.shanten(counts(text), melds, forms) == expected


def test_known_limited_shanten():
    assert R.shanten(counts("1111m456p789p123s"), 0, R.STANDARD, limited=True) == 1
    assert R.shanten(counts("1111m"), 3, R.STANDARD, limited=True) == 1
    assert R.shanten(counts("1112345678999m"), 0, R.STANDARD, limited=True) == 0


def test_known_waits():
    assert R.waits(counts("1112345678999m")) == list(range(9))  # nine gates
    assert R.waits(counts("19m19p19s1234567z"), 0, R.THIRTEEN_ORPHANS) == list(R.ORPHANS)
    assert R.waits(counts("1111m456p789p123s"), 0, R.STANDARD) == [0]
    assert R.waits(counts("1111223344556m"), 0, R.SEVEN_PAIRS) == [5]


def test_known_decompositions():
    readings = R.decompositions(counts("11122233344455m"))
    chow, pung = "chow", "pung"
    for sets, pair in (
        (((chow, 0), (chow, 0), (chow, 0), (pung, 3)), 4),  # 123 123 123 444 55
        (((pung, 0), (pung, 1), (pung, 2), (pung, 3)), 4),  # 111 222 333 444 55
        (((pung, 0), (chow, 1), (chow, 1), (chow, 1)), 4),  # 111 234 234 234 55
        (((chow, 0), (chow, 1), (chow, 2), (chow, 2)), 0),  # 11 123 234 345 345? no: uses 5 twice
    ):
        reading = (R.STANDARD, tuple(sorted((k, t, True, None) for k, t in sets)), pair, (), ())
        if pair == 0:
            assert reading not in readings
        else:
            assert reading in readings
    # 111222333m beside a concealed kong: three pungs or three identical chows.
    readings = R.decompositions(counts("111222333mCC"), meld_blocks=[("kong", 27, True, 0)])
    assert {tuple(b[0] for b in r[1]) for r in readings} == {("kong", "chow", "chow", "chow"), ("kong", "pung", "pung", "pung")}


def test_reference_vs_pymahjonggb():
    cases = H.mixed_cases(seed=7000, n=H.scaled(120), size="waiting", max_melds=0)
    functions = {
        R.STANDARD: GB.RegularShanten,
        R.SEVEN_PAIRS: GB.SevenPairsShanten,
        R.THIRTEEN_ORPHANS: GB.ThirteenOrphansShanten,
        R.HONORS_KNITTED: GB.HonorsAndKnittedTilesShanten,
        R.KNITTED_STRAIGHT: GB.KnittedStraightShanten,
    }
    for case in cases:
        gb_hand = H.to_gb_hand(case.counts)
        for form, oracle in functions.items():
            assert R.form_shanten(case.counts, 0, form) == oracle(gb_hand)[0], (H.notation(case.counts), form)


def test_reference_limited_vs_mahjong():
    cases = H.mixed_cases(seed=7100, n=H.scaled(70), size="either")
    cases += H.cases("four_copies", seed=7101, n=H.scaled(30), size="waiting")
    riichi = RiichiShanten()
    for case in cases:
        expected = riichi.calculate_shanten_for_regular_hand(list(case.counts))
        assert R.shanten(case.counts, len(case.melds), R.STANDARD, limited=True) == expected, H.notation(case.counts)


def test_reference_waits_agree_with_its_shanten():
    for case in H.mixed_cases(seed=7200, n=H.scaled(100), size="waiting"):
        melds = len(case.melds)
        ready = R.shanten(case.counts, melds) == 0
        assert bool(R.waits(case.counts, melds)) == ready, H.notation(case.counts, case.melds)
