"""Seeded hand generators for the differential tests, and converters to the oracles' formats.

Uniformly random hands are almost never near a special form, rarely ready and never hold a
phantom wait, so besides `random_hand` there are biased generators that start from a complete
hand of one form and perturb it (remove a tile, swap a few tiles): every form and edge case is
exercised. Every generator takes a `random.Random` and returns a `Case`; all are deterministic
for a given seed.

A meld is a `MeldSpec(kind, tile, concealed)` with kind "chow" / "pung" / "kong" (tile = lowest).
"""

from __future__ import annotations

import random
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import reference as R
from depth import scaled  # noqa: F401 - the differential tests call it as H.scaled

KINDS = 34


class MeldSpec(NamedTuple):
    kind: str  # "chow", "pung" or "kong"
    tile: int
    concealed: bool = False

    @property
    def tiles(self) -> Tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)


class Case(NamedTuple):
    counts: Tuple[int, ...]  # 34 concealed counts
    melds: Tuple[MeldSpec, ...] = ()

    @property
    def n_tiles(self) -> int:
        return sum(self.counts)

    @property
    def meld_counts(self) -> Tuple[int, ...]:
        out = [0] * KINDS
        for m in self.melds:
            for t in m.tiles:
                out[t] += 1
        return tuple(out)


# ---------------------------------------------------------------------------------------------
# Building blocks


class Pool:
    """The tiles still available (4 of each kind minus those used)."""

    def __init__(self) -> None:
        self.left = [4] * KINDS

    def can_take(self, tiles: Sequence[int]) -> bool:
        need = [0] * KINDS
        for t in tiles:
            need[t] += 1
        return all(need[t] <= self.left[t] for t in set(tiles))

    def take(self, tiles: Sequence[int]) -> None:
        assert self.can_take(tiles)
        for t in tiles:
            self.left[t] -= 1

    def give_back(self, tiles: Sequence[int]) -> None:
        for t in tiles:
            self.left[t] += 1

    def draw(self, rng: random.Random) -> int:
        """A random available tile (weighted by copies left)."""
        pick = rng.randrange(sum(self.left))
        for k in range(KINDS):
            if pick < self.left[k]:
                self.left[k] -= 1
                return k
            pick -= self.left[k]
        raise AssertionError("empty pool")


def random_block(rng: random.Random, honor_bias: float = 0.25) -> Tuple[int, ...]:
    """A random chow or pung."""
    if rng.random() < 0.5:
        suit, rank = rng.randrange(3), rng.randrange(7)
        start = 9 * suit + rank
        return (start, start + 1, start + 2)
    kind = rng.randrange(27, 34) if rng.random() < honor_bias else rng.randrange(27)
    return (kind,) * 3


def random_melds(rng: random.Random, pool: Pool, n: int) -> Tuple[MeldSpec, ...]:
    melds = []
    while len(melds) < n:
        roll = rng.random()
        if roll < 0.4:
            suit, rank = rng.randrange(3), rng.randrange(7)
            meld = MeldSpec("chow", 9 * suit + rank)
        elif roll < 0.75:
            meld = MeldSpec("pung", rng.randrange(KINDS))
        else:
            meld = MeldSpec("kong", rng.randrange(KINDS), concealed=roll > 0.9)
        if pool.can_take(meld.tiles):
            pool.take(meld.tiles)
            melds.append(meld)
    return tuple(melds)


def _counts(tiles: Sequence[int]) -> Tuple[int, ...]:
    return tuple(R.counts_of(tiles))


def perturb(rng: random.Random, tiles: List[int], pool: Pool, swaps: int) -> List[int]:
    """Replace `swaps` random tiles of the hand by random tiles from the pool."""
    tiles = list(tiles)
    for _ in range(swaps):
        out = tiles.pop(rng.randrange(len(tiles)))
        tiles.append(pool.draw(rng))
        pool.give_back([out])
    return tiles


def finish(rng: random.Random, tiles: List[int], pool: Pool, melds: Tuple[MeldSpec, ...], size: str) -> Case:
    """Trim a complete-size hand (14 - 3m tiles) to the requested size: "waiting" drops one tile,
    "complete" keeps it, "either" picks at random."""
    tiles = list(tiles)
    if size == "either":
        size = rng.choice(("waiting", "complete"))
    if size == "waiting":
        out = tiles.pop(rng.randrange(len(tiles)))
        pool.give_back([out])
    return Case(_counts(tiles), melds)


# ---------------------------------------------------------------------------------------------
# Generators. Each: (rng, melds=..., size=...) -> Case


def random_hand(rng: random.Random, melds: int = 0, size: str = "waiting") -> Case:
    pool = Pool()
    meld_specs = random_melds(rng, pool, melds)
    n = 14 - 3 * melds
    tiles = [pool.draw(rng) for _ in range(n)]
    return finish(rng, tiles, pool, meld_specs, size)


def near_standard(rng: random.Random, melds: int = 0, size: str = "waiting", max_swaps: int = 2) -> Case:
    """A complete standard hand (sets and a pair), then 0..max_swaps random swaps."""
    while True:
        pool = Pool()
        meld_specs = random_melds(rng, pool, melds)
        tiles: List[int] = []
        ok = True
        for _ in range(4 - melds):
            for _attempt in range(20):
                block = random_block(rng)
                if pool.can_take(block):
                    break
            else:
                ok = False
                break
            pool.take(block)
            tiles.extend(block)
        pair_kind = rng.randrange(KINDS)
        if not ok or not pool.can_take((pair_kind, pair_kind)):
            continue
        pool.take((pair_kind, pair_kind))
        tiles.extend((pair_kind, pair_kind))
        tiles = perturb(rng, tiles, pool, rng.randint(0, max_swaps))
        return finish(rng, tiles, pool, meld_specs, size)


def one_suit(rng: random.Random, melds: int = 0, size: str = "waiting") -> Case:
    """Every concealed tile from one suit (flush-like hands: many overlapping readings)."""
    pool = Pool()
    meld_specs = random_melds(rng, pool, melds)
    suit = rng.randrange(3)
    for k in range(KINDS):
        if not 9 * suit <= k < 9 * suit + 9:
            pool.left[k] = 0
    if rng.random() < 0.5:
        # Start from a complete one-suit hand when the pool allows it.
        tiles: List[int] = []
        for _ in range(4 - melds):
            for _attempt in range(20):
                block = tuple(9 * suit + (t % 9) for t in random_block(rng, honor_bias=0.0))
                if pool.can_take(block):
                    pool.take(block)
                    tiles.extend(block)
                    break
        n = 14 - 3 * melds
        while len(tiles) < n and sum(pool.left):
            tiles.append(pool.draw(rng))
        if len(tiles) == n:
            tiles = perturb(rng, tiles, pool, rng.randint(0, 1))
            return finish(rng, tiles, pool, meld_specs, size)
        return one_suit(rng, melds, size)
    n = 14 - 3 * melds
    if sum(pool.left) < n:
        return one_suit(rng, melds, size)
    tiles = [pool.draw(rng) for _ in range(n)]
    return finish(rng, tiles, pool, meld_specs, size)


def four_copies(rng: random.Random, melds: int = 0, size: str = "waiting") -> Case:
    """A hand holding all four copies of a kind concealed (phantom waits, kong-like shapes):
    k k k k plus blocks, e.g. 1111m 234p ... or a pung of k next to a chow through k."""
    while True:
        pool = Pool()
        meld_specs = random_melds(rng, pool, melds)
        k = rng.randrange(KINDS)
        if not pool.can_take((k,) * 4):
            continue
        pool.take((k,) * 4)
        tiles = [k] * 4
        n = 14 - 3 * melds
        sets_needed = (n - 4) // 3
        for _ in range(sets_needed):
            for _attempt in range(20):
                block = random_block(rng)
                if pool.can_take(block):
                    pool.take(block)
                    tiles.extend(block)
                    break
        while len(tiles) < n:
            tiles.append(pool.draw(rng))
        if rng.random() < 0.3:
            tiles = perturb_keeping(rng, tiles, pool, keep=k, swaps=1)
        # Drop a tile other than k for a waiting hand, so all four copies stay.
        if size == "either":
            size = rng.choice(("waiting", "complete"))
        if size == "waiting":
            others = [i for i, t in enumerate(tiles) if t != k]
            pool.give_back([tiles.pop(rng.choice(others))])
        return Case(_counts(tiles), meld_specs)


def perturb_keeping(rng: random.Random, tiles: List[int], pool: Pool, keep: int, swaps: int) -> List[int]:
    tiles = list(tiles)
    for _ in range(swaps):
        others = [i for i, t in enumerate(tiles) if t != keep]
        out = tiles.pop(rng.choice(others))
        tiles.append(pool.draw(rng))
        pool.give_back([out])
    return tiles


def near_seven_pairs(rng: random.Random, melds: int = 0, size: str = "waiting", max_swaps: int = 2) -> Case:
    """Seven pairs (often with a quad = two pairs), then 0..max_swaps swaps. Always concealed."""
    pool = Pool()
    pairs: List[int] = []
    while len(pairs) < 7:
        k = rng.randrange(KINDS)
        if pool.left[k] >= 2 and (pairs.count(k) == 0 or rng.random() < 0.35):
            pool.take((k, k))
            pairs.append(k)
    tiles = [k for k in pairs for _ in range(2)]
    tiles = perturb(rng, tiles, pool, rng.randint(0, max_swaps))
    return finish(rng, tiles, pool, (), size)


def near_thirteen_orphans(rng: random.Random, melds: int = 0, size: str = "waiting", max_swaps: int = 3) -> Case:
    pool = Pool()
    tiles = list(R.ORPHANS) + [rng.choice(R.ORPHANS)]
    pool.take(tiles)
    tiles = perturb(rng, tiles, pool, rng.randint(0, max_swaps))
    return finish(rng, tiles, pool, (), size)


def near_honors_knitted(rng: random.Random, melds: int = 0, size: str = "waiting", max_swaps: int = 3) -> Case:
    pool = Pool()
    kinds = list(R.HONORS + R.knitted_kinds(rng.randrange(6)))
    tiles = rng.sample(kinds, 14)
    pool.take(tiles)
    tiles = perturb(rng, tiles, pool, rng.randint(0, max_swaps))
    return finish(rng, tiles, pool, (), size)


def near_knitted_straight(rng: random.Random, melds: Optional[int] = None, size: str = "waiting", max_swaps: int = 2) -> Case:
    """The nine knitted tiles + a set + a pair, or with one exposed meld + a pair."""
    if melds is None:
        melds = rng.choice((0, 0, 1))
    while True:
        pool = Pool()
        knitted = list(R.knitted_kinds(rng.randrange(6)))
        pool.take(knitted)
        meld_specs = random_melds(rng, pool, melds)
        tiles = list(knitted)
        if melds == 0:
            block = random_block(rng)
            if not pool.can_take(block):
                continue
            pool.take(block)
            tiles.extend(block)
        pair_kind = rng.randrange(KINDS)
        if not pool.can_take((pair_kind, pair_kind)):
            continue
        pool.take((pair_kind, pair_kind))
        tiles.extend((pair_kind, pair_kind))
        tiles = perturb(rng, tiles, pool, rng.randint(0, max_swaps))
        return finish(rng, tiles, pool, meld_specs, size)


GENERATORS: Dict[str, Callable[..., Case]] = {
    "random": random_hand,
    "near_standard": near_standard,
    "one_suit": one_suit,
    "four_copies": four_copies,
    "near_seven_pairs": near_seven_pairs,
    "near_thirteen_orphans": near_thirteen_orphans,
    "near_honors_knitted": near_honors_knitted,
    "near_knitted_straight": near_knitted_straight,
}
CONCEALED_ONLY = {"near_seven_pairs", "near_thirteen_orphans", "near_honors_knitted"}


def mixed_cases(seed: int, n: int, size: str = "waiting", max_melds: int = 4) -> List[Case]:
    """`n` cases cycling through every generator (melds drawn at random where they apply)."""
    rng = random.Random(seed)
    names = list(GENERATORS)
    out = []
    for i in range(n):
        name = names[i % len(names)]
        if name in CONCEALED_ONLY:
            out.append(GENERATORS[name](rng, 0, size))
        elif name == "near_knitted_straight":
            out.append(GENERATORS[name](rng, None if max_melds else 0, size))
        else:
            melds = rng.choice([0, 0, 0] + list(range(1, max_melds + 1)))
            if name == "four_copies":
                melds = min(melds, 3)  # 14 - 3*4 = 2 concealed tiles cannot hold four copies
            out.append(GENERATORS[name](rng, melds, size))
    return out


def cases(name: str, seed: int, n: int, melds: int = 0, size: str = "waiting") -> List[Case]:
    rng = random.Random(seed)
    gen = GENERATORS[name]
    return [gen(rng, melds, size) for _ in range(n)]


# ---------------------------------------------------------------------------------------------
# Converters


def to_mc_melds(case: Case):
    import mahjong_core as mc

    out = []
    for m in case.melds:
        if m.kind == "chow":
            out.append(mc.Meld.chow(m.tile))
        elif m.kind == "pung":
            out.append(mc.Meld.pung(m.tile))
        else:
            out.append(mc.Meld.kong(m.tile, concealed=m.concealed))
    return tuple(out)


def to_hand(case: Case):
    import mahjong_core as mc

    return mc.Hand.from_counts(case.counts, to_mc_melds(case))


GB_CODES = (
    [f"W{r}" for r in range(1, 10)]  # characters
    + [f"B{r}" for r in range(1, 10)]  # dots
    + [f"T{r}" for r in range(1, 10)]  # bamboo
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # winds E S W N, dragons 中 发 白
)


def to_gb_hand(counts: Sequence[int]) -> Tuple[str, ...]:
    return tuple(GB_CODES[k] for k in range(KINDS) for _ in range(counts[k]))


def to_gb_pack(melds: Sequence[MeldSpec]) -> Tuple[Tuple[str, str, int], ...]:
    """PyMahjongGB packs: ("CHI", middle tile, 1) / ("PENG", tile, 1) / ("GANG", tile, 0|1)."""
    out = []
    for m in melds:
        if m.kind == "chow":
            out.append(("CHI", GB_CODES[m.tile + 1], 1))
        elif m.kind == "pung":
            out.append(("PENG", GB_CODES[m.tile], 1))
        else:
            out.append(("GANG", GB_CODES[m.tile], 0 if m.concealed else 1))
    return tuple(out)


def meld_blocks(case: Case) -> Tuple[R.Block, ...]:
    """The melds as reference blocks (kind, tile, concealed, meld index)."""
    return tuple((m.kind, m.tile, m.concealed, i) for i, m in enumerate(case.melds))


def uniform_draws(seed: int, n: int, tiles: int = 13):
    """`n` uniformly random hands of `tiles` tiles drawn from the 136-tile wall: an (n, tiles)
    array of sorted tile kinds (NumPy, fast enough for hundreds of thousands of hands)."""
    import numpy as np

    gen = np.random.default_rng(seed)
    walls = np.tile(np.arange(136, dtype=np.int16), (n, 1))  # slot // 4 = tile kind
    rows = np.arange(n)
    for i in range(tiles):  # a partial Fisher-Yates shuffle of every row at once
        j = gen.integers(i, 136, size=n)
        drawn = walls[rows, j].copy()
        walls[rows, j] = walls[rows, i]
        walls[rows, i] = drawn
    return np.sort(walls[:, :tiles] // 4, axis=1)


def counts_from_draws(draws):
    """(n, tiles) tile kinds -> (n, 34) uint8 counts."""
    import numpy as np

    n = draws.shape[0]
    flat = (np.arange(n)[:, None] * KINDS + draws).ravel()
    return np.bincount(flat, minlength=n * KINDS).astype(np.uint8).reshape(n, KINDS)


def gb_hands_from_draws(draws) -> List[Tuple[str, ...]]:
    codes = GB_CODES.__getitem__
    return [tuple(map(codes, row)) for row in draws.tolist()]


def notation(counts: Sequence[int], melds: Sequence[MeldSpec] = ()) -> str:
    """Readable notation of a case for failure messages (melds, then sorted concealed tiles)."""
    import mahjong_core as mc

    tiles = [k for k in range(KINDS) for _ in range(int(counts[k]))]
    text = "".join(str(m) for m in to_mc_melds(Case(tuple(counts), tuple(melds))))
    return text + mc.format_tiles(tiles)


def report(mismatches: Sequence[tuple], what: str, checked: int, limit: int = 12) -> str:
    """Failure message: how many of `checked` hands disagreed, with the first examples."""
    lines = [f"{len(mismatches)} of {checked} hands disagree on {what}; first examples:"]
    lines += [f"  {m}" for m in mismatches[:limit]]
    return "\n".join(lines)
