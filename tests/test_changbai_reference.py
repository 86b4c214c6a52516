"""Slow, obviously-correct pure-Python references for Changbai, compared on random hands.

The references use no core call (no `waits`, no `decompositions`) and are written straight from
RULES.md §3: complete-hand tests by brute-force recursion, winning kinds by trying all 34 tiles,
the winner's doublings by enumerating every split into sets and every block the winning tile can
sit in, and the loser's doublings from the melds.
"""

from collections import Counter
from typing import Iterator, List, Optional, Sequence, Tuple

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from depth import examples

from mahjong_core import Hand, Meld, MeldKind, Tile, parse
from mahjong_core.rules.changbai import Rules, can_declare_ready, loser_doublings, ready_wait, score, winning_kinds

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _terminal_or_honour(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


def _splits(counts: List[int], n: int) -> Iterator[Tuple[Tuple[str, int], ...]]:
    """Every multiset of `n` sets (("pung"|"chow", lowest tile)) that uses up `counts` exactly."""
    first = next((t for t in range(34) if counts[t]), None)
    if first is None:
        if n == 0:
            yield ()
        return
    if n == 0:
        return
    if counts[first] >= 3:
        counts[first] -= 3
        for rest in _splits(counts, n - 1):
            yield (("pung", first),) + rest
        counts[first] += 3
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for t in (first, first + 1, first + 2):
            counts[t] -= 1
        for rest in _splits(counts, n - 1):
            yield (("chow", first),) + rest
        for t in (first, first + 1, first + 2):
            counts[t] += 1


def standard_readings(counts: Sequence[int], n_sets: int) -> List[Tuple[Tuple[Tuple[str, int], ...], int]]:
    """Every (sets, pair) of the concealed tiles."""
    out = []
    c = list(counts)
    for pair in range(34):
        if c[pair] >= 2:
            c[pair] -= 2
            out += [(sets, pair) for sets in _splits(c, n_sets)]
            c[pair] += 2
    return out


def is_seven_pairs(counts: Sequence[int], rules: Rules) -> bool:
    if sum(counts) != 14 or any(n not in (0, 2, 4) for n in counts):
        return False
    return not rules.seven_pairs_need_terminal or any(counts[t] for t in range(34) if _terminal_or_honour(t))


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    return all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14 == sum(counts)


def is_complete(counts: Sequence[int], melds: Sequence[Meld], rules: Rules) -> bool:
    if standard_readings(counts, 4 - len(melds)):
        return True
    if melds:
        return False
    return is_seven_pairs(counts, rules) or (rules.thirteen_orphans and is_thirteen_orphans(counts))


def reference_winning_kinds(counts: Sequence[int], melds: Sequence[Meld], rules: Rules) -> Tuple[Tile, ...]:
    meld_counts = [0] * 34
    for m in melds:
        for t in m.tiles:
            meld_counts[t] += 1
    out = []
    for t in range(34):
        if counts[t] + meld_counts[t] >= 4 and not rules.phantom_waits_count:
            continue  # a phantom: all four copies are the player's own
        c = list(counts)
        c[t] += 1
        if is_complete(c, melds, rules):
            out.append(Tile(t))
    return tuple(out)


def _chow_doublings(chow_tiles: Sequence[int]) -> int:
    """一般高 1 per pair of identical chows, 两般高 2 for three or more."""
    return sum(1 if n == 2 else 2 if n >= 3 else 0 for n in Counter(chow_tiles).values())


def reference_score(hand: Hand, rules: Rules, *, kong_replacement=False, after_kong_discard=False) -> Optional[Tuple[int, int]]:
    """(doublings, multiplier) of the best reading, or None when the hand does not win."""
    w = int(hand.win_tile)
    counts = list(hand.counts)
    before = list(counts)
    before[w] -= 1
    kinds = reference_winning_kinds(before, hand.melds, rules)
    if w not in kinds or (rules.ready_required and len(kinds) != 1):
        return None
    melds = hand.melds
    all_counts = list(counts)
    for m in melds:
        for t in m.tiles:
            all_counts[t] += 1
    exposed = [m for m in melds if not m.concealed]

    shared = 0
    suits = {t // 9 for t in range(27) if all_counts[t]}
    honours = any(all_counts[27:])
    if len(suits) + honours == 1:
        shared += 2  # 清一色 (one suit, or honours only)
    elif len(suits) == 1 and honours:
        shared += 1  # 混一色
    kong_tiles = {m.tile for m in melds if m.kind == MeldKind.KONG}
    shared += sum(1 for t in range(27) if all_counts[t] == 4 and t not in kong_tiles)  # 四归一
    if len(melds) == 4 and len(exposed) == 4:
        shared += 1  # 手把一
    shared += 2 * kong_replacement + 2 * after_kong_discard

    candidates = []
    if not melds and rules.thirteen_orphans and is_thirteen_orphans(counts):
        candidates.append((shared, 13))
    if not melds and is_seven_pairs(counts, rules):
        candidates.append((shared + 2, 1))
    meld_sets = [("chow" if m.kind == MeldKind.CHOW else "pung", int(m.tile)) for m in melds]
    for sets, pair in standard_readings(counts, 4 - len(melds)):
        d = shared + _chow_doublings([t for k, t in list(sets) + meld_sets if k == "chow"])
        if all(k == "pung" for k, _ in list(sets) + meld_sets):
            d += 1  # 飘胡
        if not exposed:
            d += 1  # 门清
        places = []
        if pair == w:
            places.append(1 + _terminal_or_honour(w))  # 单吊 (+ 单吊幺九)
        for kind, t in sets:
            if kind == "pung" and t == w:
                places.append(0)
            elif kind == "chow" and t <= w <= t + 2:
                middle = w == t + 1
                edge = (t % 9 == 0 and w == t + 2) or (t % 9 == 6 and w == t)
                places.append(1 if middle or edge else 0)
        candidates += [(d + p, 1) for p in places]
    return max(candidates, key=lambda c: 2 ** c[0] * c[1])


def reference_loser_doublings(hand: Hand) -> int:
    melds = hand.melds
    d = _chow_doublings([m.tile for m in melds if m.kind == MeldKind.CHOW])
    visible = Counter(t for m in melds if m.kind != MeldKind.KONG for t in m.tiles)
    d += sum(1 for t, n in visible.items() if n == 4 and t < 27)  # 四归一 (明)
    if len(melds) == 4 and not any(m.concealed for m in melds):
        d += 1  # 手把一
    if all(m.concealed for m in melds):
        d += 1  # 门清
    return d


# ---------------------------------------------------------------------------------------------
# Random hands: melds plus a concealed shape that is complete (or one tile from it), drawn from a
# narrow pool so that identical chows, quads, flushes and single waits come up often.

POOLS = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 31],  # one suit + two honours
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],  # one and a bit suits
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 18, 26, 27, 28, 31, 33],  # everything, orphan-heavy
    [27, 28, 29, 30, 31, 32, 33],  # honours
]


@st.composite
def melds_from(draw, pool: List[int], most: int) -> List[Meld]:
    melds: List[Meld] = []
    chow_starts = [t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool]
    for _ in range(draw(st.integers(0, most))):
        kind = draw(st.sampled_from(["chow", "pung", "kong"] if chow_starts else ["pung", "kong"]))
        if kind == "chow":
            melds.append(Meld.chow(draw(st.sampled_from(chow_starts)), draw(st.integers(1, 3))))
        elif kind == "pung":
            melds.append(Meld.pung(draw(st.sampled_from(pool)), draw(st.integers(1, 3))))
        elif draw(st.booleans()):
            melds.append(Meld.kong(draw(st.sampled_from(pool)), concealed=True))
        else:
            melds.append(Meld.kong(draw(st.sampled_from(pool)), draw(st.integers(1, 3)), added=draw(st.booleans())))
    return melds


def _shape(draw, pool: List[int], n_melds: int) -> List[int]:
    """14 - 3*melds concealed tiles of a complete shape (standard, seven pairs or thirteen orphans)."""
    shape = draw(st.sampled_from(["sets"] * 4 + ["pairs", "orphans"])) if n_melds == 0 else "sets"
    if shape == "pairs":
        return [t for t in draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7)) for _ in range(2)]
    if shape == "orphans":
        return list(ORPHANS) + [draw(st.sampled_from(ORPHANS))]
    tiles = [draw(st.sampled_from(pool))] * 2
    for _ in range(4 - n_melds):
        start = draw(st.sampled_from(pool))
        chow = start < 27 and start % 9 <= 6 and draw(st.booleans())
        tiles += [start, start + 1, start + 2] if chow else [start] * 3
    return tiles


def _hand(concealed: List[int], melds: List[Meld], win_tile: Optional[int] = None) -> Hand:
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    used = list(counts)
    for m in melds:
        for t in m.tiles:
            used[t] += 1
    assume(all(n <= 4 for n in used))
    return Hand.from_counts(counts, melds, win_tile=win_tile)


@st.composite
def complete_hands(draw) -> Hand:
    pool = draw(st.sampled_from(POOLS))
    melds = draw(melds_from(pool, 4))
    tiles = _shape(draw, pool, len(melds))
    return _hand(tiles, melds, win_tile=draw(st.sampled_from(tiles)))


@st.composite
def waiting_hands(draw) -> Hand:
    """13 - 3*melds tiles: a complete shape minus one tile (often ready), or random tiles."""
    pool = draw(st.sampled_from(POOLS))
    melds = draw(melds_from(pool, 2))
    if draw(st.integers(0, 4)) == 0:
        size = 13 - 3 * len(melds)
        tiles = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    else:
        tiles = _shape(draw, pool, len(melds))
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return _hand(tiles, melds)


RULE_VARIANTS = [
    Rules(),
    Rules(phantom_waits_count=True),
    Rules(seven_pairs_need_terminal=False),
    Rules(thirteen_orphans=False),
    Rules(ready_required=False),
]
SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@SETTINGS
@given(waiting_hands(), st.sampled_from(RULE_VARIANTS))
def test_winning_kinds_match_the_reference(hand, rules):
    expected = reference_winning_kinds(hand.counts, hand.melds, rules)
    assert winning_kinds(hand, rules) == expected
    assert can_declare_ready(hand, rules) is (len(expected) == 1)
    assert ready_wait(hand, rules) == (expected[0] if len(expected) == 1 else None)


@SETTINGS
@given(complete_hands(), st.sampled_from(RULE_VARIANTS), st.sampled_from(["discard", "self", "kong", "after_kong"]))
def test_score_matches_the_reference(hand, rules, how):
    if how == "kong" and not any(m.kind == MeldKind.KONG for m in hand.melds):
        how = "self"  # 杠上花 needs the kong the winner just made
    flags = dict(
        self_drawn=how in ("self", "kong"),
        kong_replacement=how == "kong",
        after_kong_discard=how == "after_kong",
    )
    expected = reference_score(hand, rules, kong_replacement=flags["kong_replacement"],
                               after_kong_discard=flags["after_kong_discard"])
    result = score(hand, rules=rules, **flags)
    if expected is None:
        assert result is None
    else:
        assert result is not None
        assert (result.doublings, result.multiplier) == expected


@SETTINGS
@given(waiting_hands())
def test_loser_doublings_match_the_reference(hand):
    assert loser_doublings(hand) == reference_loser_doublings(hand)


def test_references_agree_on_known_hands():
    # The references themselves, on hands worked out by hand in test_changbai_score.py.
    assert reference_score(parse("1122334455669m9m"), Rules()) == (7, 1)
    assert reference_score(parse("19m19p19s12345667z"), Rules()) == (0, 13)
    assert reference_score(parse("19m19p19s1234567z7z"), Rules()) is None
    assert reference_score(parse("1222233455mEEE5m"), Rules()) == (4, 1)
    assert reference_loser_doublings(parse("[123m,1][123m,3][456p,1][456p,2]E")) == 3
    assert len(reference_winning_kinds(parse("19m19p19s1234567z").counts, (), Rules())) == 13
