"""Walls: the tile sets, the seeded shuffle, the deal layout, and a helper that builds scripted walls.

## Shuffle (deterministic on every platform and Python version)

`shuffled_wall(tiles, seed, hand_no)` runs a Fisher–Yates shuffle driven by a counter-based
generator: block `i` of random bytes is BLAKE2b(i as 8 little-endian bytes; key = the seed as 32
little-endian bytes, salt = the hand number as 16 little-endian bytes, person = "mjc-wall-v1",
64-byte digest). Each block gives 32 little-endian 16-bit words; the shuffle takes one word per
position and reduces it modulo the range, rejecting the few words above the largest multiple of the
range (so the shuffle is exactly uniform). BLAKE2b and integer arithmetic are the same everywhere,
so a (seed, hand number) pair names one wall forever; the log stores the wall anyway.

## Deal layout (which wall position goes where)

The wall is a sequence drawn from the front (the head); kong replacements and 补花 come from the back
(the tail). With dealer D, seat (D + k) % 4 receives wall[13k : 13k + 13] for k = 0..3, the dealer's
fourteenth tile is wall[52], and play draws from wall[53] on. (Any fixed layout deals uniformly from a
uniform wall; this one makes scripted walls easy to write.) Flowers (MCR, `flowers=True`) are tiles
34..41 (a..h = 春夏秋冬梅兰竹菊); they are set aside and replaced from the tail.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from mahjong_core._core import _blake2b, _blake2b_stream, _shuffle_with_words
from mahjong_core.errors import InvalidArgumentError, InvalidHandError
from mahjong_core.notation import parse_tiles

__all__ = [
    "FLOWER_LETTERS", "tile_set", "standard_tiles", "shuffled_wall", "seeded_dealer", "tile_name", "tile_from_name",
    "build_wall", "check_wall", "check_seed",
]

FLOWER_LETTERS = "abcdefgh"
_PERSON = b"mjc-wall-v1"
_SEED_BYTES = 32

_NAMES = tuple(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + list(FLOWER_LETTERS)
)
_BY_NAME = {name: i for i, name in enumerate(_NAMES)}


def tile_name(tile: int) -> str:
    """Log notation of a wall tile: "1m".."9s", "E" "S" "W" "N" "C" "F" "P", flowers "a".."h"."""
    return _NAMES[tile]


def tile_from_name(name: str) -> int:
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidHandError(f"{name!r} is not a wall tile (1m..9s, E S W N C F P, flowers a..h)") from None


_SETS = {
    (True, False): tuple(t for t in range(34) for _ in range(4)),
    (True, True): tuple(t for t in range(34) for _ in range(4)) + tuple(range(34, 42)),
    (False, False): tuple(t for t in range(27) for _ in range(4)),
    (False, True): tuple(t for t in range(27) for _ in range(4)) + tuple(range(34, 42)),
}


def standard_tiles(*, honours: bool = True, flowers: bool = False) -> List[int]:
    """Four of each kind (suits, and honours unless `honours=False`), plus the eight flowers
    34..41 with `flowers`, in canonical order (a new list). Rulesets build their `tiles` from it."""
    return list(_SETS[(bool(honours), bool(flowers))])


def tile_set(ruleset: str, flowers: bool = False) -> List[int]:
    """The full tile multiset of a ruleset, in canonical order (a new list): the ruleset's `Game.tiles`."""
    from .registry import game_class  # the registry knows the rulesets; this module does not

    return game_class(ruleset).tiles(flowers)


def seeded_dealer(seed: int, hand_no: int) -> int:
    """A dealer drawn from the seed (Sichuan `dealer_rule="random"`, Changbai `first_dealer="random"`)."""
    # (BLAKE2b natively, the bytes of hashlib.blake2b(b"dealer", digest_size=8, key=, salt=, person=))
    check_seed(seed)
    check_hand_no(hand_no)
    return _blake2b(b"dealer", seed.to_bytes(32, "little"), hand_no.to_bytes(16, "little"), b"mjc-dealer-v1", 8)[0] % 4


def check_hand_no(hand_no: object) -> int:
    if isinstance(hand_no, bool) or not isinstance(hand_no, int) or not 0 <= hand_no < 1 << 128:
        raise InvalidArgumentError(f"hand_no is an integer in 0 .. 2**128 - 1, got {hand_no!r}")
    return hand_no


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << (8 * _SEED_BYTES):
        raise InvalidArgumentError(f"a seed is an integer in 0 .. 2**256 - 1, got {seed!r}")
    return seed


def _stream_bytes(seed: int, hand_no: int, first_block: int, blocks: int) -> bytes:
    """Blocks first_block .. first_block + blocks - 1 of the generator (64 bytes = 32 words each)."""
    # Natively (this runs for every simulated hand): the key block is compressed once for all the
    # blocks; the bytes are hashlib.blake2b's (tests/test_wall_shuffle.py compares them).
    return _blake2b_stream(seed.to_bytes(_SEED_BYTES, "little"), hand_no.to_bytes(16, "little"), _PERSON,
                           first_block, blocks)


def shuffled_wall(tiles: Sequence[int], seed: int, hand_no: int = 0) -> List[int]:
    """`tiles` (ints 0..255) shuffled by the (seed, hand_no) generator (module docstring)."""
    check_seed(seed)
    check_hand_no(hand_no)
    try:
        wall = bytearray(tiles)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"shuffled_wall takes a sequence of tile ints 0..255, got {tiles!r}") from None
    # One word per position is nearly always enough (a word is rejected with probability below
    # 0.4%), so the first try gets the words the positions need plus a block; the arithmetic runs
    # natively (it runs once per simulated hand). On the rare miss the stream simply grows.
    blocks = len(wall) // 32 + 1
    words = _stream_bytes(seed, hand_no, 0, blocks)
    while _shuffle_with_words(wall, words) < 0:
        words += _stream_bytes(seed, hand_no, blocks, 1)
        blocks += 1
    return list(wall)


def _tile_index_of(t: Any) -> int:
    if t.__class__ is bool or not hasattr(t, "__index__"):
        raise TypeError(f"{repr(t)[:40]} is not a tile index or name")
    return t.__index__()


def check_wall(ruleset: str, wall: Sequence[int], flowers: bool = False) -> List[int]:
    """The wall as a list of tile ints; raises InvalidHandError unless it is exactly the ruleset's tile set."""
    try:
        # (an index by __index__: a float or a bool is no tile, where int() would truncate or count it)
        tiles = [tile_from_name(t) if isinstance(t, str) else _tile_index_of(t) for t in wall]
    except (TypeError, ValueError) as exc:
        raise InvalidHandError(f"a wall is a sequence of tile indices or names: {exc}") from None
    expected = tile_set(ruleset, flowers)
    if sorted(tiles) != expected:
        have: Dict[int, int] = {}
        for t in tiles:
            have[t] = have.get(t, 0) + 1
        want: Dict[int, int] = {}
        for t in expected:
            want[t] = want.get(t, 0) + 1
        diff = [
            f"{tile_name(t) if 0 <= t < 42 else t}: {have.get(t, 0)} instead of {want.get(t, 0)}"
            for t in sorted(set(have) | set(want)) if have.get(t, 0) != want.get(t, 0)
        ]
        raise InvalidHandError(
            f"a {ruleset} wall{' with flowers' if flowers else ''} holds exactly {len(expected)} tiles "
            f"(each kind {'4 times' if not flowers else '4 times, flowers once'}); this one differs: "
            + ", ".join(diff[:8]) + (" ..." if len(diff) > 8 else ""))
    return tiles


TileSpec = Union[str, Iterable[Union[int, str, None]]]


def _tiles(spec: Optional[TileSpec]) -> List[Optional[int]]:
    """Tile ints of a spec; in a sequence, None keeps a position free (filled with a spare tile)."""
    if spec is None:
        return []
    if isinstance(spec, str):
        out: List[Optional[int]] = []
        rest = spec
        # flowers a..h may be written inline: "12m3pab" -> 1m 2m 3p a b
        letters = [c for c in rest if c in FLOWER_LETTERS]
        rest = "".join(c for c in rest if c not in FLOWER_LETTERS)
        if rest:
            out.extend(int(t) for t in parse_tiles(rest))
        out.extend(34 + FLOWER_LETTERS.index(c) for c in letters)
        return out
    out2: List[Optional[int]] = []
    for t in spec:
        if t is None:
            out2.append(None)
        elif isinstance(t, str):
            out2.extend(_tiles(t))
        else:
            out2.append(int(t))
    return out2


def build_wall(ruleset: str, *, hands: Mapping[int, TileSpec], draws: Optional[TileSpec] = None,
               tail: Optional[TileSpec] = None, dealer: int = 0, flowers: bool = False) -> List[int]:
    """A wall that deals `hands` and then yields `draws` from the head and `tail` from the back.

    `hands[seat]`: that seat's 13 dealt tiles (the dealer's may list 14; otherwise the dealer's 14th
    tile is the first of `draws`). Seats not given get filler tiles. `draws`: the tiles drawn from the
    head after the deal, in order. `tail`: kong replacements / 补花 in the order they are taken (the
    first is the wall's last tile). Tile specs are notation strings ("123m5p", flowers "a".."h") or
    sequences of indices/names/notation strings, where None leaves that position to a spare tile
    (useful to script only some draws). Every other position is filled with the unused tiles in canonical
    order. Raises InvalidHandError when the script uses a tile more often than the set holds.
    """
    full = tile_set(ruleset, flowers)
    pool: Dict[int, int] = {}
    for t in full:
        pool[t] = pool.get(t, 0) + 1

    def take(tiles: List[Optional[int]], what: str) -> None:
        for t in tiles:
            if t is None:
                continue
            if pool.get(t, 0) <= 0:
                raise InvalidHandError(f"build_wall: {what} uses {tile_name(t)} more often than the "
                                       f"{ruleset} tile set holds")
            pool[t] -= 1

    size = len(full)
    slots: List[Optional[int]] = [None] * size
    dealer_extra: Optional[int] = None
    for seat, spec in hands.items():
        tiles = _tiles(spec)
        if None in tiles:
            raise InvalidHandError(f"build_wall: seat {seat}'s hand cannot have free positions")
        k = (seat - dealer) % 4
        if k == 0 and len(tiles) == 14:
            dealer_extra = tiles.pop()
        if len(tiles) != 13:
            raise InvalidHandError(f"build_wall: seat {seat} is dealt 13 tiles (the dealer 13 or 14), got {len(tiles)}")
        take(tiles, f"seat {seat}'s hand")
        slots[13 * k: 13 * k + 13] = tiles
    head = 52
    if dealer_extra is not None:
        take([dealer_extra], "the dealer's 14th tile")
        slots[52] = dealer_extra
        head = 53
    draw_tiles = _tiles(draws)
    take(draw_tiles, "draws")
    tail_tiles = _tiles(tail)
    take(tail_tiles, "tail")
    if head + len(draw_tiles) + len(tail_tiles) > size:
        raise InvalidHandError("build_wall: more scripted tiles than the wall holds")
    for i, scripted in enumerate(draw_tiles):
        slots[head + i] = scripted  # None stays free for a spare tile
    for i, scripted in enumerate(tail_tiles):
        slots[size - 1 - i] = scripted
    filler = [t for t in sorted(pool) for _ in range(pool[t])]
    it = iter(filler)
    for i in range(size):
        if slots[i] is None:
            slots[i] = next(it)
    return [t for t in slots if t is not None]
