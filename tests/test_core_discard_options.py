"""discard_options (one kernel call sharing the per-suit work across discards, options built as a C
type with lazily created mappings) against its definition: for each distinct discard, remove the
tile and ask the per-hand functions (`shanten`, `effective_tiles`). Hands lean towards the knitted
forms (most of one knitted arrangement, honours, orphans), where the shared per-arrangement work of
the kernel could go wrong; the pure-Python reference (tests/reference.py) checks a smaller sample.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import List, Optional, Tuple

import pytest

import mahjong_core as mc
import reference as R
from reference_hands import scaled

Forms = mc.Forms
KNITTED = [R.knitted_kinds(a) for a in range(6)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def deal(rng: random.Random, melds: int, style: Optional[int] = None) -> List[int]:
    """A 14 - 3*melds hand in one of five styles (random by default): 0 random, 1 near a knitted
    straight, 2 near honours-and-knitted, 3 near thirteen orphans, 4 near seven pairs."""
    tiles = 14 - 3 * melds
    counts = [0] * 34
    style = rng.randrange(5) if style is None else style

    def add(k: int) -> None:
        if counts[k] < 4 and sum(counts) < tiles:
            counts[k] += 1

    if style in (1, 2):
        for k in KNITTED[rng.randrange(6)]:
            if rng.random() < 0.8:
                add(k)
    if style == 4:
        for k in rng.sample(range(34), 7):
            add(k)
            if rng.random() < 0.8:
                add(k)
    while sum(counts) < tiles:
        if style == 2 and rng.random() < 0.6:
            add(27 + rng.randrange(7))
        elif style == 3 and rng.random() < 0.7:
            add(rng.choice(ORPHANS))
        else:
            add(rng.randrange(34))
    return counts


def seen(rng: random.Random, counts: List[int]) -> Optional[List[int]]:
    if rng.random() < 0.5:
        return None
    return [rng.randint(0, 4 - counts[k]) if rng.random() < 0.3 else 0 for k in range(34)]


def per_discard(counts: List[int], melds: int, forms: int, visible: Optional[List[int]]) -> List[Tuple[int, int, dict]]:
    """The slow, obviously correct path: one shanten and one effective_tiles call per discard (the
    discarded copy counts as seen), ordered by shanten, then more unseen tiles, then tile."""
    out = []
    vis = list(visible) if visible is not None else [0] * 34
    for x in range(34):
        if not counts[x]:
            continue
        after = list(counts)
        after[x] -= 1
        vis_x = list(vis)
        vis_x[x] += 1
        shanten = mc.shanten(after, forms, melds=melds)
        effective = dict(mc.effective_tiles(after, forms, vis_x, melds=melds))
        out.append((x, shanten, {int(t): n for t, n in effective.items()}))
    out.sort(key=lambda o: (o[1], -sum(o[2].values()), o[0]))
    return out


def got_of(options) -> List[Tuple[int, int, dict]]:
    return [(int(o.tile), o.shanten, {int(t): n for t, n in o.effective.items()}) for o in options]


FORM_SETS = [int(Forms.MCR), int(Forms.STANDARD), int(Forms.STANDARD | Forms.KNITTED_STRAIGHT),
             int(Forms.KNITTED_STRAIGHT), int(Forms.HONORS_KNITTED | Forms.KNITTED_STRAIGHT),
             int(Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS | Forms.HONORS_KNITTED)]


def test_discard_options_vs_per_discard_calls():
    rng = random.Random(14_003)
    n = scaled(4000)
    mismatches = []
    knitted_decided = 0
    for _ in range(n):
        melds = 1 if rng.random() < 0.15 else 0
        forms = int(Forms.MCR) if rng.random() < 0.6 else rng.choice(FORM_SETS)
        if melds and not forms & int(Forms.STANDARD | Forms.KNITTED_STRAIGHT):
            forms |= int(Forms.KNITTED_STRAIGHT)
        counts = deal(rng, melds)
        visible = seen(rng, counts)
        vis_arg = bytes(visible) if visible is not None else None
        options = mc.discard_options(bytes(counts), forms, vis_arg, melds=melds)
        expected = per_discard(counts, melds, forms, visible)
        got = got_of(options)
        if got != expected:
            mismatches.append((counts, melds, forms, got, expected))
        for o in options:
            assert o.total == sum(o.effective.values())
        if forms & int(Forms.KNITTED_STRAIGHT):
            for x, shanten, _ in expected:
                after = list(counts)
                after[x] -= 1
                if mc.shanten(after, Forms.KNITTED_STRAIGHT, melds=melds) == shanten < mc.shanten(after, Forms.STANDARD, melds=melds):
                    knitted_decided += 1
    assert not mismatches, f"{len(mismatches)} of {n} hands differ; first: {mismatches[0]}"
    assert knitted_decided > n // 4, knitted_decided  # the knitted straight really decided options


def test_discard_options_vs_python_reference():
    """The pure-Python reference (search over every form, no tables; ~1 s a hand) on hands near
    the knitted forms."""
    rng = random.Random(14_004)
    n = scaled(10)
    for i in range(n):
        counts = deal(rng, 0, style=1 + i % 2)
        visible = seen(rng, counts)
        expected = R.discard_options(counts, 0, R.ALL_FORMS, None, visible)
        got = got_of(mc.discard_options(bytes(counts), Forms.MCR, bytes(visible) if visible else None))
        assert got == expected, counts


def test_hand_with_melds_matches_raw_counts():
    hand = mc.Hand.parse("[CCC]147m258p369s55m")
    options = mc.discard_options(hand)
    counts = list(hand.counts)
    meld_tiles = [0] * 34
    meld_tiles[31] = 3
    expected = per_discard(counts, 1, int(Forms.MCR), meld_tiles)
    assert got_of(options) == expected


# ---- the option objects ------------------------------------------------------------------


def sample_options():
    return mc.discard_options("123m456p78s19pESWN")


def test_option_fields_and_lazy_mapping():
    options = sample_options()
    assert type(options) is list and all(type(o) is mc.DiscardOption for o in options)
    o = options[0]
    assert isinstance(o.tile, mc.Tile) and isinstance(o.shanten, int)
    total_before = o.total  # computed without the mapping
    eff = o.effective
    assert isinstance(eff, mc._core.EffectiveTiles)
    assert o.effective is eff  # built once
    assert total_before == o.total == sum(eff.values()) == eff.total
    assert repr(o) == f"DiscardOption({o.tile}: shanten {o.shanten}, {o.total} tiles {''.join(str(t) for t in eff)})"


def test_option_constructor_equality_and_hash():
    o = sample_options()[0]
    same = mc.DiscardOption(o.tile, o.shanten, dict(o.effective))
    assert o == same and not (o != same)
    assert mc.DiscardOption(tile=o.tile, shanten=o.shanten, effective=dict(o.effective)) == o
    assert mc.DiscardOption(o.tile, o.shanten + 1, dict(o.effective)) != o
    assert mc.DiscardOption(mc.Tile.M1, 2).effective == {}
    assert mc.DiscardOption(mc.Tile.M1, 2).total == 0
    assert o != (o.tile, o.shanten, o.effective)
    # frozen, so hashable: equal options hash alike (the stub said so; it raised TypeError)
    assert hash(o) == hash(same) and len({o, same, *sample_options()}) == len(sample_options())
    assert hash(mc.DiscardOption(mc.Tile.M1, 2)) == hash(mc.DiscardOption(mc.Tile.M1, 2, {}))
    assert mc.model.DiscardOption is mc.DiscardOption


def test_option_made_without_init_is_empty_not_a_crash():
    o = mc.DiscardOption.__new__(mc.DiscardOption)
    assert o.effective == {} and o.total == 0 and o.tile is None


def test_option_is_frozen():
    o = sample_options()[0]
    for name in ("tile", "shanten", "effective", "other"):
        with pytest.raises(AttributeError):
            setattr(o, name, 1)
    with pytest.raises(AttributeError):
        del o.tile


def test_option_pickles_and_copies():
    for o in sample_options():
        for back in (pickle.loads(pickle.dumps(o)), copy.copy(o), copy.deepcopy(o)):
            assert back == o and back.total == o.total and repr(back) == repr(o)
