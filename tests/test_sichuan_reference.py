"""Sichuan scoring against a slow, obviously-correct Python reference on seeded random hands.

The reference below does not use the core: it enumerates every reading of a hand itself (all pungs
and chows by brute force, seven pairs by counting), applies the fan table of RULES.md §2 to each,
and keeps the best total. `sichuan.score` (core decompositions + the module's pattern code) and
`sichuan.score_waits` must agree with it on every hand.
"""

from __future__ import annotations

import random
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

import mahjong_core as mc
from mahjong_core.rules import sichuan
from mahjong_core.rules.sichuan import Rules

Set_ = Tuple[str, int]  # ("pung" | "chow" | "kong", lowest tile)


def ref_standard_readings(counts: List[int], n_sets: int) -> Iterator[Tuple[List[Set_], int]]:
    """Every (sets, pair) split of the concealed counts into n_sets pungs/chows and a pair.

    Works on `counts` in place (restored when the generator runs to the end): pass a copy."""
    for pair in range(27):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for sets in _ref_sets(counts, n_sets):
                yield sets, pair
            counts[pair] += 2


def _ref_sets(counts: List[int], n_sets: int) -> Iterator[List[Set_]]:
    first = next((k for k in range(27) if counts[k]), None)
    if first is None:
        if n_sets == 0:
            yield []
        return
    if n_sets == 0:
        return
    if counts[first] >= 3:
        counts[first] -= 3
        for rest in _ref_sets(counts, n_sets - 1):
            yield [("pung", first)] + rest
        counts[first] += 3
    if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for k in (first, first + 1, first + 2):
            counts[k] -= 1
        for rest in _ref_sets(counts, n_sets - 1):
            yield [("chow", first)] + rest
        for k in (first, first + 1, first + 2):
            counts[k] += 1


def set_tiles(s: Set_) -> List[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == "chow" else [t] * (4 if kind == "kong" else 3)


def ref_value(concealed: Sequence[int], melds: Sequence[mc.Meld], *, void: Optional[str] = None,
              first_draw: bool = False, extras: int = 0, gen_counts_kongs: bool = False
              ) -> Optional[Tuple[int, int]]:
    """(total 番 before any cap, base pattern 番) of the best reading, or None if no win."""
    total = list(concealed)
    meld_sets: List[Set_] = []
    for m in melds:
        kind = "kong" if m.kind == mc.MeldKind.KONG else "pung"
        meld_sets.append((kind, int(m.tile)))
        for t in set_tiles(meld_sets[-1]):
            total[t] += 1
    suits = {"mps"[k // 9] for k in range(27) if total[k]}
    if len(suits) == 3 or void in suits:
        return None
    pure = len(suits) == 1
    kong_tiles = {t for kind, t in meld_sets if kind == "kong"}
    roots = sum(1 for k in range(27) if total[k] == 4 and (gen_counts_kongs or k not in kong_tiles))

    candidates: List[Tuple[int, int]] = []  # (base 番, 根 used)
    readings = list(ref_standard_readings(list(concealed), 4 - len(melds)))
    seven_pairs = not melds and all(n % 2 == 0 for n in concealed)
    if not readings and not seven_pairs:
        return None
    if first_draw:
        candidates.append((6, 0))
    if seven_pairs:
        quad = any(n == 4 for n in concealed)
        candidates.append((6 if pure and quad else 5 if quad or pure else 3, 1 if quad else 0))
    for sets, pair in readings:
        blocks = meld_sets + sets
        pungs = all(kind != "chow" for kind, _ in blocks)
        outside = all(any(t % 9 in (0, 8) for t in set_tiles(b)) for b in blocks) and pair % 9 in (0, 8)
        only_258 = all(t % 9 in (1, 4, 7) for b in blocks for t in set_tiles(b)) and pair % 9 in (1, 4, 7)
        fans = [1]
        fans += [2] if pungs else []
        fans += [3] if pure or outside else []
        fans += [4] if pungs and (pure or only_258) else []
        fans += [5] if pure and outside else []
        candidates.append((max(fans), 0))
    base, used = max(candidates, key=lambda c: (c[0] - c[1], c[0]))
    return base - used + roots + extras, base


# ---------------------------------------------------------------------------------------------
# Random hands

def random_melds(rng: random.Random, suits: Sequence[int], n: int, ranks: Sequence[int]) -> List[mc.Meld]:
    melds = []
    for _ in range(n):
        tile = rng.choice(suits) * 9 + rng.choice(ranks)
        kind = rng.choice(["pung", "kong", "concealed", "added"])
        if kind == "pung":
            melds.append(mc.Meld.pung(tile, rng.randint(1, 3)))
        elif kind == "kong":
            melds.append(mc.Meld.kong(tile, rng.randint(1, 3)))
        elif kind == "concealed":
            melds.append(mc.Meld.kong(tile, concealed=True))
        else:
            melds.append(mc.Meld.kong(tile, rng.randint(1, 3), added=True))
    return melds


def random_hand(rng: random.Random) -> Optional[mc.Hand]:
    """A random 14 − 3m hand of one to three suits: mostly complete, sometimes not."""
    suits = rng.sample(range(3), rng.choice([1, 2, 2, 2, 3]))
    counts = [0] * 34
    style = rng.random()
    if style < 0.25:  # seven pairs
        melds: List[mc.Meld] = []
        for _ in range(7):
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
    elif style < 0.9:  # melds + sets + pair; some hands only from terminal or 2/5/8 blocks
        ranks, starts = rng.choice([(range(9), range(7))] * 3 + [((0, 8), (0, 6)), ((1, 4, 7), ())])
        melds = random_melds(rng, suits, rng.choice([0, 0, 1, 1, 2, 3, 4]), ranks)
        for _ in range(4 - len(melds)):
            suit = rng.choice(suits)
            if starts and rng.random() < 0.5:
                start = suit * 9 + rng.choice(starts)
                for k in range(3):
                    counts[start + k] += 1
            else:
                counts[suit * 9 + rng.choice(ranks)] += 3
        counts[rng.choice(suits) * 9 + rng.choice(ranks)] += 2
    else:  # anything
        melds = []
        for _ in range(14):
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 1
    try:
        return mc.Hand.from_counts(counts, melds)
    except mc.InvalidHandError:
        return None  # more than four copies somewhere


def random_hands(seed: int, n: int) -> Iterator[mc.Hand]:
    rng = random.Random(seed)
    made = 0
    while made < n:
        hand = random_hand(rng)
        if hand is not None:
            made += 1
            yield hand


# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_score_matches_reference(seed):
    rng = random.Random(1000 + seed)
    rules_plain, rules_kongs = Rules(), Rules(gen_counts_kongs=True)
    wins = 0
    for hand in random_hands(seed, 1500):
        void = rng.choice([None, None, "m", "p", "s"])
        gen = rng.random() < 0.3
        kong_melds = any(m.kind == mc.MeldKind.KONG for m in hand.melds)
        flags = rng.choice([{}, {"self_drawn": True}, {"after_kong_discard": True}, {"robbed_kong": True}]
                           + ([{"self_drawn": True, "kong_replacement": True}] if kong_melds else [])
                           + ([{"self_drawn": True, "first_draw": True, "dealer": rng.random() < 0.5}]
                              if not hand.melds else []))
        extras = int(flags.get("kong_replacement", False)) + int(flags.get("after_kong_discard", False))
        expected = ref_value(hand.counts, hand.melds, void=void, first_draw=flags.get("first_draw", False),
                             extras=extras, gen_counts_kongs=gen)
        got = sichuan.score(hand, void_suit=void, rules=rules_kongs if gen else rules_plain, **flags)
        assert sichuan.is_winning(hand, void_suit=void) is (expected is not None)
        if expected is None:
            assert got is None, f"{hand} void={void}: reference says no win, got {got!r}"
            continue
        wins += 1
        assert got is not None, f"{hand} void={void}: reference says {expected}, got no win"
        assert (got.uncapped_fan, got.pattern.fan) == expected, f"{hand} {flags} void={void}: {got!r} vs {expected}"
        assert got.fan == got.uncapped_fan and got.points == 6 * 2 ** (got.fan - 1)
    assert wins > 600  # the generator makes mostly winning hands: the comparison is not vacuous


@pytest.mark.parametrize("seed", range(2))
def test_score_waits_matches_reference(seed):
    rng = random.Random(2000 + seed)
    checked = 0
    for hand in random_hands(100 + seed, 500):
        tile = rng.choice(hand.tiles)
        waiting = hand.without_tile(tile)
        void = rng.choice([None, "m", "p", "s"])
        total = [a + b for a, b in zip(waiting.counts, waiting.meld_counts)]
        expected: Dict[mc.Tile, Optional[int]] = {}
        for t in range(27):
            if total[t] >= 4:
                continue  # can never arrive
            counts = list(waiting.counts)
            counts[t] += 1
            complete = (any(True for _ in ref_standard_readings(list(counts), 4 - waiting.n_melds))
                        or (not waiting.melds and all(n % 2 == 0 for n in counts)))
            if complete:
                value = ref_value(counts, waiting.melds, void=void)
                expected[mc.Tile(t)] = None if value is None else value[0]
        got = sichuan.score_waits(waiting, void_suit=void)
        assert {t: (None if v is None else v.fan) for t, v in got.items()} == expected, str(waiting)
        best = sichuan.best_ready_value(waiting, void_suit=void)
        values = [v for v in expected.values() if v is not None]
        assert (best.fan if best else None) == (max(values) if values else None)
        checked += bool(expected)
    assert checked > 200
