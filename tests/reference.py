"""Slow, obviously-correct Python references for the core's hand analysis.

Nothing here looks at the C++ core or its tables; everything follows the definitions directly and
is meant to be read. Tiles are the 34 kind indices of mahjong_core (0..8 1m..9m, 9..17 1p..9p,
18..26 1s..9s, 27..33 E S W N C F P); a hand is 34 counts of its concealed tiles plus the number of
exposed melds `melds` (concealed kongs included).

Definitions (mahjong_core's, see cpp/include/mahjong_core/shanten.h):

* A *target* is a complete concealed part for the form: for the standard form `4 - melds` sets
  (chow or pung) and a pair; seven pairs (a kind may give two pairs = a quad); thirteen orphans;
  honours-and-knitted (14 distinct kinds among the 7 honours and the 9 tiles of one knitted
  arrangement); knitted straight (the 9 tiles of one arrangement, `1 - melds` sets and a pair).
* The *distance* of a hand H to a target T is the number of tiles of T that H lacks,
  |T \\ H| = sum_k max(0, T[k] - H[k]) — the tiles still to be drawn (and as many to throw away).
* shanten = min over targets of the distance, minus one. -1: complete; 0: ready.
  By default targets may hold any number of copies of a kind ("phantom" copies: a hand whose only
  wait is a kind it holds four of counts as ready); `limited=True` forbids targets with more than
  four copies of a kind (the definition of Riichi tools such as the `mahjong` package).
* waits: kinds t such that H + t is complete (a fifth copy included: phantom waits).
* effective tiles: kinds t, drawable (the player does not hold all four copies, melds included),
  with shanten(H + t) < shanten(H).

The standard-form search (`standard_distance`) enumerates targets block by block. To keep the
number of targets small it always looks at the lowest tile k still unexplained in H and decides
its fate: either that copy is not used by the target (it will be thrown away), or the target has a
block containing k (a pung or pair of k, or one of the chows through k), which is taken now and
takes from H every tile of it that H still has. Blocks that share no tile with what is left of H
cost their full size (3 for a set, 2 for a pair). Every target is reachable this way, and each
step's cost is exactly the tiles of that block H does not supply, so the minimum is the distance.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

KINDS = 34
HONORS = tuple(range(27, 34))
ORPHANS = (0, 8, 9, 17, 18, 26) + HONORS

STANDARD = 1
SEVEN_PAIRS = 2
THIRTEEN_ORPHANS = 4
HONORS_KNITTED = 8
KNITTED_STRAIGHT = 16
ALL_FORMS = 31

# A knitted arrangement: which suit (0 m, 1 p, 2 s) holds the 147, the 258 and the 369 run.
# Indexed like mahjong_core's `Decomposition.arrangement`: the permutations in lexicographic order.
ARRANGEMENTS: Tuple[Tuple[int, int, int], ...] = tuple(itertools.permutations((0, 1, 2)))


def knitted_kinds(arrangement: int) -> Tuple[int, ...]:
    """The nine tile kinds of a knitted arrangement, sorted."""
    suits = ARRANGEMENTS[arrangement]
    return tuple(sorted(suits[run] * 9 + run + 3 * step for run in range(3) for step in range(3)))


def is_suited(kind: int) -> bool:
    return kind < 27


def chows_containing(kind: int) -> List[Tuple[int, int, int]]:
    """Every chow (three consecutive ranks of one suit) that contains `kind`."""
    if not is_suited(kind):
        return []
    rank = kind % 9
    return [(s, s + 1, s + 2) for s in range(kind - 2, kind + 1) if s >= kind - rank and s % 9 <= 6 and s >= 0]


def tiles_of(counts: Sequence[int]) -> Tuple[int, ...]:
    """The tiles of 34 counts as a sorted tuple of kinds (the form the searches use)."""
    return tuple(k for k in range(KINDS) for _ in range(counts[k]))


def counts_of(tiles: Iterable[int]) -> List[int]:
    counts = [0] * KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def _take(remaining: Tuple[int, ...], block: Sequence[int]) -> Tuple[Tuple[int, ...], int]:
    """Remove the block's tiles that `remaining` has; also return how many it lacked."""
    rest = list(remaining)
    missing = 0
    for t in block:
        if t in rest:
            rest.remove(t)
        else:
            missing += 1
    return tuple(rest), missing


# ---------------------------------------------------------------------------------------------
# Standard form: n sets + a pair


def standard_distance(
    counts: Sequence[int],
    sets: int,
    pair: bool = True,
    *,
    limited: bool = False,
    target_start: Sequence[int] = (),
) -> int:
    """Fewest tiles missing from `counts` for a target of `sets` sets (+ a pair if `pair`).

    `limited`: no target kind may exceed four copies; `target_start` lists tiles the target
    already holds besides these blocks (the knitted tiles of a knitted straight).
    """
    remaining = tiles_of(counts)
    target = _window(tuple(sorted(target_start)), remaining) if limited else None
    return _search(remaining, sets, pair, target)


def _window(target: Tuple[int, ...], remaining: Tuple[int, ...]) -> Tuple[int, ...]:
    """The target tiles that can still matter for the four-copy limit: every later block contains
    the then-lowest remaining tile (>= remaining[0]), so none of its tiles is below remaining[0] - 2."""
    if not remaining:
        return ()
    return tuple(t for t in target if t >= remaining[0] - 2)


@lru_cache(maxsize=400_000)  # shared across calls: the searches of H and H + t overlap a lot
def _search(remaining: Tuple[int, ...], sets: int, pair: bool, target: Optional[Tuple[int, ...]]) -> int:
    """Distance of the sorted tiles `remaining` to `sets` sets (+ a pair). `target` is None when
    any number of copies is allowed, else the (relevant) tiles the target already holds."""
    if not remaining:
        # Nothing of the hand left: every further block is built from fresh tiles (there are
        # always unused kinds with room for them, so this is possible even when limited).
        return 3 * sets + (2 if pair else 0)
    k = remaining[0]
    # Either this copy of k is not part of the target (it will be thrown away) ...
    best = _search(remaining[1:], sets, pair, None if target is None else _window(target, remaining[1:]))
    # ... or the target has a block containing k: take it now, with the tiles of it the hand has.
    blocks: List[Tuple[Tuple[int, ...], int, bool]] = []
    if sets:
        blocks.append(((k, k, k), sets - 1, pair))
        blocks.extend((chow, sets - 1, pair) for chow in chows_containing(k))
    if pair:
        blocks.append(((k, k), sets, False))
    for block, sets_left, pair_left in blocks:
        rest, missing = _take(remaining, block)
        new_target = None
        if target is not None:
            grown = tuple(sorted(target + block))
            if any(grown.count(t) > 4 for t in block):
                continue  # the target would need a fifth copy
            new_target = _window(grown, rest)
        best = min(best, missing + _search(rest, sets_left, pair_left, new_target))
    return best


# ---------------------------------------------------------------------------------------------
# Special forms


def seven_pairs_distance(counts: Sequence[int]) -> int:
    """Seven pairs; a kind may give two pairs (a quad). Decide kind by kind how many pairs (0..2)
    it gives, exactly seven in all, matching as many held tiles as possible.

    (Allowing a third pair of one kind — six copies, a phantom target — never helps: that pair
    costs at least 2, like a pair of one of the many unused kinds.)
    """
    best_matched = [0] + [-1] * 7  # best_matched[p]: most held tiles p pairs can use (-1: impossible)
    # Kinds not held all behave alike (their pairs match nothing): four of them can give the seven
    # pairs, so the others need no step of their own (this oracle runs for every shanten query).
    empty = [kind for kind in range(KINDS) if not counts[kind]][:4]
    for kind in [k for k in range(KINDS) if counts[k]] + empty:
        grown = list(best_matched)
        for placed in range(8):
            if best_matched[placed] < 0:
                continue
            for n in (1, 2):  # this kind gives n pairs
                if placed + n <= 7:
                    grown[placed + n] = max(grown[placed + n], best_matched[placed] + min(2 * n, counts[kind]))
        best_matched = grown
    return 14 - best_matched[7]


def thirteen_orphans_distance(counts: Sequence[int]) -> int:
    """One of each of the 13 terminals and honours, plus a second copy of one of them."""
    best = 99
    for extra in ORPHANS:
        target = counts_of(ORPHANS + (extra,))
        best = min(best, sum(max(0, target[k] - counts[k]) for k in range(KINDS)))
    return best


def honors_knitted_distance(counts: Sequence[int]) -> int:
    """14 distinct kinds out of the 7 honours and the 9 tiles of one knitted arrangement.

    Only whether a kind is held matters (one copy of each is used); the best 14 kinds of the 16
    are held ones first, so each missing one of those 14 costs a tile."""
    best = 99
    for arrangement in range(6):
        pool = HONORS + knitted_kinds(arrangement)
        held = sum(1 for k in pool if counts[k] > 0)
        best = min(best, 14 - min(14, held))
    return best


def knitted_straight_distance(counts: Sequence[int], melds: int, *, limited: bool = False) -> int:
    """The 9 tiles of one knitted arrangement, then `1 - melds` sets and a pair."""
    best = 99
    for arrangement in range(6):
        knitted = knitted_kinds(arrangement)
        rest = list(counts)
        missing = 0
        for k in knitted:
            if rest[k]:
                rest[k] -= 1
            else:
                missing += 1
        best = min(best, missing + standard_distance(rest, 1 - melds, True, limited=limited, target_start=knitted))
    return best


# ---------------------------------------------------------------------------------------------
# Shanten, completeness, waits, effective tiles, discards


def applicable_forms(forms: int, melds: int) -> List[int]:
    out = []
    for form in (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT):
        if not forms & form:
            continue
        if form in (SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED) and melds:
            continue
        if form == KNITTED_STRAIGHT and melds > 1:
            continue
        out.append(form)
    return out


def form_distance(counts: Sequence[int], melds: int, form: int, *, limited: bool = False) -> int:
    """Distance to the nearest target of `form`."""
    if form == STANDARD:
        return standard_distance(counts, 4 - melds, True, limited=limited)
    if form == SEVEN_PAIRS:
        return seven_pairs_distance(counts)
    if form == THIRTEEN_ORPHANS:
        return thirteen_orphans_distance(counts)
    if form == HONORS_KNITTED:
        return honors_knitted_distance(counts)
    if form == KNITTED_STRAIGHT:
        return knitted_straight_distance(counts, melds, limited=limited)
    raise ValueError(form)


def shanten(counts: Sequence[int], melds: int = 0, forms: int = ALL_FORMS, *, limited: bool = False) -> Optional[int]:
    """Reference shanten, or None when no requested form can apply with this many melds."""
    usable = applicable_forms(forms, melds)
    if not usable:
        return None
    return min(form_distance(counts, melds, f, limited=limited) for f in usable) - 1


def form_shanten(counts: Sequence[int], melds: int, form: int, *, limited: bool = False) -> int:
    return form_distance(counts, melds, form, limited=limited) - 1


def is_complete(counts: Sequence[int], melds: int = 0, forms: int = ALL_FORMS) -> bool:
    """Exact check (any counts, fifth copies included): does the hand split into a form?"""
    return bool(decompositions(counts, forms, meld_blocks=[None] * melds))


def waits(counts: Sequence[int], melds: int = 0, forms: int = ALL_FORMS) -> List[int]:
    """Kinds whose addition completes the hand (phantom fifth copies included)."""
    out = []
    for t in range(KINDS):
        grown = list(counts)
        grown[t] += 1
        if is_complete(grown, melds, forms):
            out.append(t)
    return out


def drawable(counts: Sequence[int], meld_counts: Sequence[int]) -> List[bool]:
    return [counts[k] + meld_counts[k] < 4 for k in range(KINDS)]


def effective_kinds(
    counts: Sequence[int], melds: int, forms: int, meld_counts: Sequence[int]
) -> List[int]:
    """Drawable kinds t with shanten(H + t) < shanten(H)."""
    base = shanten(counts, melds, forms)
    can_draw = drawable(counts, meld_counts)
    out = []
    for t in range(KINDS):
        if not can_draw[t]:
            continue
        grown = list(counts)
        grown[t] += 1
        if shanten(grown, melds, forms) < base:
            out.append(t)
    return out


def unseen(counts: Sequence[int], meld_counts: Sequence[int], visible: Optional[Sequence[int]]) -> List[int]:
    vis = visible if visible is not None else [0] * KINDS
    return [4 - counts[k] - meld_counts[k] - vis[k] for k in range(KINDS)]


def effective_tiles(
    counts: Sequence[int],
    melds: int = 0,
    forms: int = ALL_FORMS,
    meld_counts: Optional[Sequence[int]] = None,
    visible: Optional[Sequence[int]] = None,
) -> Dict[int, int]:
    meld_counts = meld_counts if meld_counts is not None else [0] * KINDS
    left = unseen(counts, meld_counts, visible)
    return {t: left[t] for t in effective_kinds(counts, melds, forms, meld_counts)}


def discard_options(
    counts: Sequence[int],
    melds: int = 0,
    forms: int = ALL_FORMS,
    meld_counts: Optional[Sequence[int]] = None,
    visible: Optional[Sequence[int]] = None,
) -> List[Tuple[int, int, Dict[int, int]]]:
    """(discard, shanten after it, {effective kind: unseen copies}) for each distinct discard,
    sorted by shanten, then most unseen effective copies, then tile order. Unseen copies are
    counted with the discarded tile still in hand (it is seen)."""
    meld_counts = meld_counts if meld_counts is not None else [0] * KINDS
    left = unseen(counts, meld_counts, visible)
    out = []
    for d in range(KINDS):
        if not counts[d]:
            continue
        after = list(counts)
        after[d] -= 1
        eff = {t: left[t] for t in effective_kinds(after, melds, forms, meld_counts)}
        out.append((d, shanten(after, melds, forms), eff))
    out.sort(key=lambda o: (o[1], -sum(o[2].values()), o[0]))
    return out


# ---------------------------------------------------------------------------------------------
# Decompositions

# A block is (kind, tile, concealed, meld_index) with kind "chow" / "pung" / "kong";
# a decomposition is (form, sorted blocks, pair, pairs, knitted kinds).

Block = Tuple[str, int, bool, Optional[int]]
Reading = Tuple[int, Tuple[Block, ...], Optional[int], Tuple[int, ...], Tuple[int, ...]]


def exact_splits(counts: Sequence[int], sets: int, pair: bool) -> Set[Tuple[Tuple[Tuple[str, int], ...], Optional[int]]]:
    """Every distinct way to split `counts` exactly into `sets` sets and (if `pair`) one pair:
    a set of (sorted ((kind, lowest tile), ...), pair tile)."""
    out: Set[Tuple[Tuple[Tuple[str, int], ...], Optional[int]]] = set()

    def search(remaining: Tuple[int, ...], sets: int, pair: Optional[int], pair_needed: bool, chosen: tuple) -> None:
        if not remaining:
            if sets == 0 and not pair_needed:
                out.add((tuple(sorted(chosen)), pair))
            return
        k = remaining[0]  # the lowest tile must belong to a block that starts with it
        options = []
        if sets:
            options.append((("pung", k), (k, k, k)))
            if is_suited(k) and k % 9 <= 6:
                options.append((("chow", k), (k, k + 1, k + 2)))
        if pair_needed:
            options.append((("pair", k), (k, k)))
        for label, block in options:
            rest, missing = _take(remaining, block)
            if missing:
                continue
            if label[0] == "pair":
                search(rest, sets, k, False, chosen)
            else:
                search(rest, sets - 1, pair, pair_needed, chosen + (label,))

    search(tiles_of(counts), sets, None, pair, ())
    return out


def decompositions(
    counts: Sequence[int], forms: int = ALL_FORMS, meld_blocks: Sequence[Optional[Block]] = ()
) -> Set[Reading]:
    """Every distinct reading of a complete hand. `meld_blocks` describes the exposed melds as
    blocks (None entries when only their number matters)."""
    melds = len(meld_blocks)
    fixed = tuple(b for b in meld_blocks if b is not None)
    out: Set[Reading] = set()
    total = sum(counts)
    if total != 14 - 3 * melds:
        return out
    usable = applicable_forms(forms, melds)
    if STANDARD in usable:
        for blocks, pair in exact_splits(counts, 4 - melds, True):
            hand_blocks = tuple((kind, tile, True, None) for kind, tile in blocks)
            out.add((STANDARD, fixed + tuple(sorted(hand_blocks)), pair, (), ()))
    if SEVEN_PAIRS in usable:
        if all(c % 2 == 0 for c in counts):
            pairs = tuple(k for k in range(KINDS) for _ in range(counts[k] // 2))
            out.add((SEVEN_PAIRS, (), None, pairs, ()))
    if THIRTEEN_ORPHANS in usable:
        for extra in ORPHANS:
            if list(counts) == counts_of(ORPHANS + (extra,)):
                out.add((THIRTEEN_ORPHANS, (), extra, (), ()))
    if HONORS_KNITTED in usable:
        for arrangement in range(6):
            pool = set(HONORS + knitted_kinds(arrangement))
            if all(c <= 1 for c in counts) and all(counts[k] == 0 or k in pool for k in range(KINDS)):
                out.add((HONORS_KNITTED, (), None, (), knitted_kinds(arrangement)))
    if KNITTED_STRAIGHT in usable:
        for arrangement in range(6):
            knitted = knitted_kinds(arrangement)
            rest = list(counts)
            for k in knitted:
                rest[k] -= 1
            if min(rest) < 0:
                continue
            for blocks, pair in exact_splits(rest, 1 - melds, True):
                hand_blocks = tuple((kind, tile, True, None) for kind, tile in blocks)
                out.add((KNITTED_STRAIGHT, fixed + hand_blocks, pair, (), knitted))
    return out
