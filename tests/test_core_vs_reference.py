"""The core's analysis functions against the slow Python reference (tests/reference.py).

The reference follows the definitions literally and is slow, so these runs use thousands of
biased hands (near every form, with 0..4 melds, four copies of a kind, one-suit hands) rather than
hundreds of thousands; the bulk comparisons against independent libraries live in
test_core_shanten_oracles.py. Cheap self-consistency checks (effective tiles and discard options
against the core's own, separately tested, shanten) run on more hands.
"""

from __future__ import annotations

import random

import pytest

import mahjong_core as mc
import reference as R
import reference_hands as H
from mahjong_core import Forms

SINGLE_FORMS = (
    Forms.STANDARD,
    Forms.SEVEN_PAIRS,
    Forms.THIRTEEN_ORPHANS,
    Forms.HONORS_KNITTED,
    Forms.KNITTED_STRAIGHT,
)
PRESETS = (Forms.MCR, Forms.SICHUAN, Forms.CHANGBAI)


def _applicable(form: Forms, melds: int) -> bool:
    return bool(R.applicable_forms(int(form), melds))


# ---------------------------------------------------------------------------------------------
# Shanten


@pytest.mark.parametrize("size", ["waiting", "complete"])
def test_shanten_every_form_and_definition_vs_reference(size):
    cases = H.mixed_cases(seed=1000 + len(size), n=H.scaled(250), size=size)
    mismatches = []
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        for forms in SINGLE_FORMS + PRESETS:
            if not _applicable(forms, melds):
                with pytest.raises(mc.InvalidHandError):
                    mc.shanten(hand, forms)
                continue
            for limited in (False, True):
                ours = mc.shanten(hand, forms, exclude_exhausted=limited)
                expected = R.shanten(case.counts, melds, int(forms), limited=limited)
                if ours != expected:
                    mismatches.append((str(hand), forms.name, "limited" if limited else "phantom", ours, expected))
    assert not mismatches, H.report(mismatches, "shanten (forms, definition, ours, reference)", len(cases))


def test_seven_pairs_and_thirteen_orphans_vs_reference():
    """A quad counts as two pairs (unlike Riichi's chiitoitsu); many hands, cheap references."""
    cases = []
    for name in ("near_seven_pairs", "near_thirteen_orphans", "random", "four_copies"):
        for size in ("waiting", "complete"):
            cases += H.cases(name, seed=1100 + len(name) + len(size), n=H.scaled(800), size=size)
    mismatches = []
    for case in cases:
        raw = bytes(case.counts)
        for form, reference in (
            (Forms.SEVEN_PAIRS, R.seven_pairs_distance),
            (Forms.THIRTEEN_ORPHANS, R.thirteen_orphans_distance),
        ):
            ours, expected = mc.shanten(raw, form), reference(case.counts) - 1
            if ours != expected:
                mismatches.append((H.notation(case.counts), form.name, ours, expected))
    assert not mismatches, H.report(mismatches, "shanten (form, ours, reference)", len(cases))


def test_quads_count_as_two_pairs():
    assert mc.shanten("1111223344556m", Forms.SEVEN_PAIRS) == 0
    assert mc.waits("1111223344556m", Forms.SEVEN_PAIRS) == (mc.Tile.M6,)
    assert mc.is_winning("11112222333344m", Forms.SEVEN_PAIRS)
    assert mc.shanten("11112222333344m", Forms.SEVEN_PAIRS) == -1
    (d,) = mc.decompositions("11112222333344m", Forms.SEVEN_PAIRS)
    assert sorted(d.pairs) == [mc.Tile.M1, mc.Tile.M1, mc.Tile.M2, mc.Tile.M2, mc.Tile.M3, mc.Tile.M3, mc.Tile.M4]


# ---------------------------------------------------------------------------------------------
# Win detection and waits


def test_is_winning_vs_reference():
    cases = H.mixed_cases(seed=1200, n=H.scaled(6_000), size="complete")
    cases += H.cases("one_suit", seed=1201, n=H.scaled(1_000), size="complete")
    mismatches = []
    complete = 0
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        for forms in (Forms.MCR, Forms.STANDARD, Forms.SICHUAN, Forms.CHANGBAI):
            expected = R.is_complete(case.counts, melds, int(forms))
            complete += expected
            for ours in (mc.is_winning(hand, forms), mc.is_winning(bytes(case.counts), forms, melds=melds)):
                if ours != expected:
                    mismatches.append((str(hand), forms.name, ours, expected))
    assert not mismatches, H.report(mismatches, "is_winning (forms, ours, reference)", len(cases))
    assert complete > len(cases) // 2  # the corpus really holds many complete hands


@pytest.mark.parametrize("forms", [Forms.MCR, Forms.SICHUAN, Forms.STANDARD])
def test_waits_vs_reference(forms):
    cases = H.mixed_cases(seed=1300 + int(forms), n=H.scaled(450), size="waiting")
    cases += H.cases("four_copies", seed=1310 + int(forms), n=H.scaled(100), melds=1)
    mismatches = []
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        if not _applicable(forms, melds):
            continue
        expected = tuple(mc.Tile(t) for t in R.waits(case.counts, melds, int(forms)))
        held = [a + b for a, b in zip(case.counts, case.meld_counts)]
        expected_live = tuple(t for t in expected if held[t] < 4)
        got = (mc.waits(hand, forms), mc.waits(bytes(case.counts), forms, melds=melds))
        got_live = mc.waits(hand, forms, exclude_exhausted=True)
        if got != (expected, expected) or got_live != expected_live:
            mismatches.append((str(hand), got, got_live, expected, expected_live))
    assert not mismatches, H.report(mismatches, f"waits {forms.name} (ours, ours live, reference, live)", len(cases))


def test_waits_are_exactly_the_ready_hands():
    """waits is non-empty exactly when shanten is 0 (phantom definition) — many hands."""
    cases = H.mixed_cases(seed=1400, n=H.scaled(20_000), size="waiting")
    for case in cases:
        hand = H.to_hand(case)
        assert bool(mc.waits(hand)) == (mc.shanten(hand) == 0), str(hand)


def test_phantom_wait_examples():
    # 1111m456p789p123s: the only wait is a fifth 1m.
    hand = mc.parse("1111m456p789p123s")
    assert mc.shanten(hand, Forms.STANDARD) == 0
    assert mc.shanten(hand, Forms.STANDARD, exclude_exhausted=True) == 1
    assert mc.waits(hand, Forms.STANDARD) == (mc.Tile.M1,)
    assert mc.waits(hand, Forms.STANDARD, exclude_exhausted=True) == ()
    # The same with the four copies split between a meld and the hand.
    hand = mc.parse("[111m]1m456p789p123s")
    assert mc.waits(hand, Forms.STANDARD) == (mc.Tile.M1,)
    assert mc.waits(hand, Forms.STANDARD, exclude_exhausted=True) == ()
    assert mc.effective_tiles(hand, Forms.STANDARD) == {}


# ---------------------------------------------------------------------------------------------
# Effective tiles and discard options


def _visible(rng: random.Random, case: H.Case):
    """Random extra seen tiles that keep every kind at 4 copies or fewer."""
    held = [a + b for a, b in zip(case.counts, case.meld_counts)]
    return [rng.randint(0, 4 - held[k]) if rng.random() < 0.3 else 0 for k in range(34)]


@pytest.mark.parametrize("forms", [Forms.MCR, Forms.SICHUAN])
def test_effective_tiles_vs_reference(forms):
    rng = random.Random(1500 + int(forms))
    cases = H.mixed_cases(seed=1500 + int(forms), n=H.scaled(90), size="waiting")
    mismatches = []
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        if not _applicable(forms, melds):
            continue
        visible = _visible(rng, case)
        expected = R.effective_tiles(case.counts, melds, int(forms), case.meld_counts, visible)
        got = mc.effective_tiles(hand, forms, visible)
        if {int(t): n for t, n in got.items()} != expected:
            mismatches.append((str(hand), visible, got, expected))
    assert not mismatches, H.report(mismatches, f"effective tiles {forms.name}", len(cases))


def test_effective_tiles_consistent_with_shanten():
    """effective_tiles == drawable kinds t with shanten(H + t) < shanten(H), unseen counts right."""
    rng = random.Random(1600)
    cases = H.mixed_cases(seed=1600, n=H.scaled(3_000), size="waiting")
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        visible = _visible(rng, case)
        base = mc.shanten(hand)
        held = [a + b for a, b in zip(case.counts, case.meld_counts)]
        expected = {}
        for t in range(34):
            if held[t] >= 4:
                continue
            grown = list(case.counts)
            grown[t] += 1
            if mc.shanten(grown, melds=melds) < base:
                expected[mc.Tile(t)] = 4 - held[t] - visible[t]
        assert mc.effective_tiles(hand, Forms.MCR, visible) == expected, str(hand)
        # Raw counts (no meld tiles known) agree when no meld kind is affected.
        if not case.melds:
            assert mc.effective_tiles(bytes(case.counts), Forms.MCR, bytes(visible)) == expected


def test_discard_options_vs_reference():
    rng = random.Random(1700)
    cases = H.mixed_cases(seed=1700, n=H.scaled(12), size="complete")
    mismatches = []
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        visible = _visible(rng, case)
        expected = R.discard_options(case.counts, melds, int(Forms.MCR), case.meld_counts, visible)
        got = [(int(o.tile), o.shanten, {int(t): n for t, n in o.effective.items()}) for o in mc.discard_options(hand, Forms.MCR, visible)]
        if got != expected:
            mismatches.append((str(hand), got, expected))
    assert not mismatches, H.report(mismatches, "discard options", len(cases))


@pytest.mark.parametrize("forms", [Forms.MCR, Forms.SICHUAN, Forms.STANDARD])
def test_discard_options_consistent_with_single_calls(forms):
    """Each option is the discard's shanten and effective tiles (the discarded copy counts as
    seen); one option per distinct kind held; ordered best first."""
    rng = random.Random(1800 + int(forms))
    cases = H.mixed_cases(seed=1800 + int(forms), n=H.scaled(1_000), size="complete")
    for case in cases:
        hand = H.to_hand(case)
        melds = len(case.melds)
        if not _applicable(forms, melds):
            continue
        visible = _visible(rng, case)
        options = mc.discard_options(hand, forms, visible)
        assert sorted(int(o.tile) for o in options) == [k for k in range(34) if case.counts[k]], str(hand)
        held = [a + b for a, b in zip(case.counts, case.meld_counts)]
        for o in options:
            after = list(case.counts)
            after[o.tile] -= 1
            after_hand = mc.Hand.from_counts(after, hand.melds)
            assert o.shanten == mc.shanten(after_hand, forms), (str(hand), o)
            eff = mc.effective_tiles(after_hand, forms)
            assert set(o.effective) == set(eff), (str(hand), o)
            for t, n in o.effective.items():
                assert n == 4 - held[t] - visible[t], (str(hand), o, t)
            assert o.total == sum(o.effective.values())
        keys = [(o.shanten, -o.total, int(o.tile)) for o in options]
        assert keys == sorted(keys), str(hand)


# ---------------------------------------------------------------------------------------------
# Decompositions


def canonical(d: mc.Decomposition, n_melds: int) -> R.Reading:
    """A core decomposition in the reference's comparable form (checks the meld-first order)."""
    sets = [(b.kind.name.lower(), int(b.tile), b.concealed, b.meld) for b in d.sets]
    meld_sets = [s for s in sets if s[3] is not None]
    assert sets[: len(meld_sets)] == meld_sets, f"exposed melds must come first: {d}"
    assert [s[3] for s in meld_sets] == list(range(len(meld_sets))), f"melds out of order: {d}"
    hand_sets = sorted(s for s in sets if s[3] is None)
    pair = None if d.pair is None else int(d.pair)
    pairs = tuple(sorted(int(t) for t in d.pairs))
    knitted = tuple(sorted(int(t) for t in d.knitted))
    return (int(d.form), tuple(meld_sets) + tuple(hand_sets), pair, pairs, knitted)


def test_decompositions_vs_reference():
    cases = H.mixed_cases(seed=1900, n=H.scaled(5_000), size="complete")
    cases += H.cases("one_suit", seed=1901, n=H.scaled(1_500), size="complete")
    cases += H.cases("near_seven_pairs", seed=1902, n=H.scaled(500), size="complete")
    mismatches = []
    readings = 0
    for case in cases:
        hand = H.to_hand(case)
        got = mc.decompositions(hand)
        canon = [canonical(d, len(case.melds)) for d in got]
        expected = R.decompositions(case.counts, int(Forms.MCR), H.meld_blocks(case))
        readings += len(expected)
        if len(canon) != len(set(canon)) or set(canon) != expected:
            mismatches.append((str(hand), sorted(canon), sorted(expected)))
        assert bool(got) == mc.is_winning(hand), str(hand)
    assert not mismatches, H.report(mismatches, "decompositions (ours, reference)", len(cases))
    assert readings > len(cases) // 5


@pytest.mark.parametrize("forms", [f for f in SINGLE_FORMS] + [Forms.SICHUAN, Forms.CHANGBAI])
def test_decompositions_respect_forms(forms):
    cases = H.mixed_cases(seed=2000 + int(forms), n=H.scaled(1_500), size="complete", max_melds=0)
    for case in cases:
        hand = H.to_hand(case)
        got = {canonical(d, 0) for d in mc.decompositions(hand, forms)}
        assert got == R.decompositions(case.counts, int(forms)), str(hand)


def test_decomposition_examples():
    (d,) = mc.decompositions("19m19p19s1234567z1z")
    assert d.form == Forms.THIRTEEN_ORPHANS and d.pair == mc.Tile.EAST
    (d,) = mc.decompositions("147m258p369sESWNC")
    assert d.form == Forms.HONORS_KNITTED
    assert set(d.knitted) == set(mc.parse_tiles("147m258p369s"))
    (d,) = mc.decompositions("[CCC,1]147m258p369s5p5p")
    assert d.form == Forms.KNITTED_STRAIGHT and d.pair == mc.Tile.P5
    assert [(b.kind, b.tile, b.meld) for b in d.sets] == [(mc.BlockKind.PUNG, mc.Tile.RED, 0)]
    # 111222333m + pair: three pungs or three identical chows.
    ds = mc.decompositions("[EEEE]111222333mCC")
    assert len(ds) == 2
    for d in ds:
        assert d.sets[0].kind == mc.BlockKind.KONG and d.sets[0].concealed and d.sets[0].meld == 0
    # Nine gates completed with 5m: several readings, all of them found.
    hand = mc.parse("1112345678999m5m")
    assert {canonical(d, 0) for d in mc.decompositions(hand)} == R.decompositions(hand.counts)
