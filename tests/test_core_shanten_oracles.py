"""Shanten against independent libraries, on many seeded random and biased hands.

Oracles (black boxes):
* PyMahjongGB 1.4.0 (`MahjongGB`): MCR shanten per form — RegularShanten, SevenPairsShanten,
  ThirteenOrphansShanten, HonorsAndKnittedTilesShanten, KnittedStraightShanten — and
  MahjongShanten (all forms, with packs for melded hands). Its definition matches our default:
  targets may use a fifth copy of a kind ("phantom" waits count), and a quad counts as two pairs.
* mahjong 2.1.0 (`mahjong.shanten.Shanten`): Riichi regular-hand shanten, which never uses a fifth
  copy of a kind held four times: our `exclude_exhausted=True`.

Every comparison must agree on every hand. Sizes scale with MAHJONG_CORE_DIFF_SCALE.
"""

from __future__ import annotations

import random

import MahjongGB as GB
import pytest
from mahjong.shanten import Shanten as RiichiShanten

import mahjong_core as mc
import reference_hands as H
from mahjong_core import Forms

GB_FORM_FUNCTIONS = {
    Forms.STANDARD: GB.RegularShanten,
    Forms.SEVEN_PAIRS: GB.SevenPairsShanten,
    Forms.THIRTEEN_ORPHANS: GB.ThirteenOrphansShanten,
    Forms.HONORS_KNITTED: GB.HonorsAndKnittedTilesShanten,
    Forms.KNITTED_STRAIGHT: GB.KnittedStraightShanten,
}


def _gb_all_forms(pack, hand) -> int:
    return GB.MahjongShanten(pack=pack, hand=hand)


# ---------------------------------------------------------------------------------------------
# Uniformly random concealed 13-tile hands (bulk)


def test_all_forms_vs_pymahjonggb_uniform():
    n = H.scaled(100_000)
    draws = H.uniform_draws(seed=101, n=n)
    counts = H.counts_from_draws(draws)
    gb_hands = H.gb_hands_from_draws(draws)
    mismatches = []
    for row, gb_hand in zip(counts, gb_hands):
        raw = row.tobytes()
        ours = mc.shanten(raw)
        theirs = _gb_all_forms((), gb_hand)
        if ours != theirs:
            mismatches.append((H.notation(raw), ours, theirs))
    assert not mismatches, H.report(mismatches, "MCR shanten (ours, MahjongShanten)", n)


@pytest.mark.parametrize(
    "form, n",
    [
        (Forms.SEVEN_PAIRS, 50_000),
        (Forms.THIRTEEN_ORPHANS, 50_000),
        (Forms.HONORS_KNITTED, 50_000),
        (Forms.STANDARD, 8_000),  # RegularShanten costs ~120 µs a hand
        (Forms.KNITTED_STRAIGHT, 4_000),  # ~170 µs a hand
    ],
    ids=lambda v: v.name if isinstance(v, Forms) else str(v),
)
def test_each_form_vs_pymahjonggb_uniform(form, n):
    n = H.scaled(n)
    draws = H.uniform_draws(seed=200 + int(form), n=n)
    counts = H.counts_from_draws(draws)
    gb_hands = H.gb_hands_from_draws(draws)
    oracle = GB_FORM_FUNCTIONS[form]
    mismatches = []
    for row, gb_hand in zip(counts, gb_hands):
        raw = row.tobytes()
        ours = mc.shanten(raw, form)
        theirs = oracle(gb_hand)[0]
        if ours != theirs:
            mismatches.append((H.notation(raw), ours, theirs))
    assert not mismatches, H.report(mismatches, f"{form.name} shanten (ours, PyMahjongGB)", n)


# ---------------------------------------------------------------------------------------------
# Biased concealed hands: near every form, four copies of a kind, one-suit hands


def test_each_form_vs_pymahjonggb_biased():
    cases = H.mixed_cases(seed=301, n=H.scaled(4_000), size="waiting", max_melds=0)
    mismatches = []
    for case in cases:
        raw = bytes(case.counts)
        gb_hand = H.to_gb_hand(case.counts)
        for form, oracle in GB_FORM_FUNCTIONS.items():
            ours = mc.shanten(raw, form)
            theirs = oracle(gb_hand)[0]
            if ours != theirs:
                mismatches.append((H.notation(case.counts), form.name, ours, theirs))
        ours, theirs = mc.shanten(raw), _gb_all_forms((), gb_hand)
        if ours != theirs:
            mismatches.append((H.notation(case.counts), "MCR", ours, theirs))
    assert not mismatches, H.report(mismatches, "per-form shanten (form, ours, PyMahjongGB)", len(cases))


def test_biased_generators_reach_every_form():
    """The biased corpus really exercises each special form near completion (else the per-form
    comparisons above would say little)."""
    cases = H.mixed_cases(seed=301, n=H.scaled(4_000), size="waiting", max_melds=0)
    ready_by_form = {form: 0 for form in GB_FORM_FUNCTIONS}
    for case in cases:
        raw = bytes(case.counts)
        for form in GB_FORM_FUNCTIONS:
            if mc.shanten(raw, form) == 0:
                ready_by_form[form] += 1
    for form, ready in ready_by_form.items():
        assert ready >= len(cases) // 40, (form.name, ready)


# ---------------------------------------------------------------------------------------------
# Hands with exposed melds


@pytest.mark.parametrize("melds", [1, 2, 3, 4])
def test_melded_hands_vs_pymahjonggb(melds):
    rng_seed = 400 + melds
    cases = []
    for name in ("random", "near_standard", "one_suit", "four_copies"):
        if name == "four_copies" and melds == 4:
            continue
        cases += H.cases(name, seed=rng_seed, n=H.scaled(1_000), melds=melds, size="waiting")
    if melds == 1:
        rng = random.Random(rng_seed)
        cases += [H.near_knitted_straight(rng, 1) for _ in range(H.scaled(1_000))]
    mismatches = []
    for case in cases:
        hand = H.to_hand(case)
        gb_hand = H.to_gb_hand(case.counts)
        pack = H.to_gb_pack(case.melds)
        raw = bytes(case.counts)
        # All forms: through a Hand (melds carried) and through raw bytes + melds=<count>.
        theirs = _gb_all_forms(pack, gb_hand)
        for ours in (mc.shanten(hand), mc.shanten(raw, melds=melds)):
            if ours != theirs:
                mismatches.append((str(hand), "MCR", ours, theirs))
        ours, theirs = mc.shanten(hand, Forms.STANDARD), GB.RegularShanten(gb_hand)[0]
        if ours != theirs:
            mismatches.append((str(hand), "STANDARD", ours, theirs))
        if melds == 1:
            ours, theirs = mc.shanten(hand, Forms.KNITTED_STRAIGHT), GB.KnittedStraightShanten(gb_hand)[0]
            if ours != theirs:
                mismatches.append((str(hand), "KNITTED_STRAIGHT", ours, theirs))
    assert not mismatches, H.report(mismatches, "melded shanten (form, ours, PyMahjongGB)", len(cases))


# ---------------------------------------------------------------------------------------------
# Standard form with the four-copy limit vs the `mahjong` package


@pytest.mark.parametrize("tiles, n", [(13, 15_000), (14, 8_000)])
def test_standard_limited_vs_mahjong_uniform(tiles, n):
    n = H.scaled(n)
    counts = H.counts_from_draws(H.uniform_draws(seed=500 + tiles, n=n, tiles=tiles))
    riichi = RiichiShanten()
    mismatches = []
    for row in counts:
        raw = row.tobytes()
        ours = mc.shanten(raw, Forms.STANDARD, exclude_exhausted=True)
        theirs = riichi.calculate_shanten_for_regular_hand(list(raw))
        if ours != theirs:
            mismatches.append((H.notation(raw), ours, theirs))
    assert not mismatches, H.report(mismatches, "standard shanten, exclude_exhausted (ours, mahjong)", n)


@pytest.mark.parametrize("size", ["waiting", "complete"])
def test_standard_limited_vs_mahjong_biased(size):
    cases = H.mixed_cases(seed=600 + len(size), n=H.scaled(8_000), size=size)
    cases += H.cases("four_copies", seed=611, n=H.scaled(2_000), size=size)
    riichi = RiichiShanten()
    mismatches = []
    for case in cases:
        raw = bytes(case.counts)
        melds = len(case.melds)
        theirs = riichi.calculate_shanten_for_regular_hand(list(case.counts))
        ours = mc.shanten(raw, Forms.STANDARD, melds=melds, exclude_exhausted=True)
        if ours != theirs:
            mismatches.append((H.notation(case.counts, case.melds), ours, theirs))
    assert not mismatches, H.report(mismatches, "standard shanten, exclude_exhausted (ours, mahjong)", len(cases))


def test_phantom_and_limited_definitions_really_differ():
    """The corpus contains hands where the two definitions disagree (so both are really tested),
    and the difference is always the limited one being one higher (never lower)."""
    cases = H.cases("four_copies", seed=611, n=H.scaled(2_000), size="waiting")
    differ = 0
    for case in cases:
        raw = bytes(case.counts)
        phantom = mc.shanten(raw, Forms.STANDARD)
        limited = mc.shanten(raw, Forms.STANDARD, exclude_exhausted=True)
        assert limited in (phantom, phantom + 1), H.notation(raw)
        differ += limited != phantom
    assert differ >= len(cases) // 50


def test_phantom_standard_vs_pymahjonggb_four_copies():
    cases = []
    for melds in range(4):
        cases += H.cases("four_copies", seed=620 + melds, n=H.scaled(750), melds=melds, size="waiting")
    mismatches = []
    for case in cases:
        gb_hand = H.to_gb_hand(case.counts)
        ours = mc.shanten(bytes(case.counts), Forms.STANDARD, melds=len(case.melds))
        theirs = GB.RegularShanten(gb_hand)[0]
        if ours != theirs:
            mismatches.append((H.notation(case.counts, case.melds), ours, theirs))
    assert not mismatches, H.report(mismatches, "phantom standard shanten (ours, RegularShanten)", len(cases))
