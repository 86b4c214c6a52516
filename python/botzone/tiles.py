"""Botzone tile codes <-> the core's tile indices.

Botzone writes `W1..W9` (万, our 1m..9m = 0..8), `B1..B9` (饼/筒, 1p..9p = 9..17), `T1..T9` (条,
1s..9s = 18..26), `F1..F4` (东南西北 = 27..30), `J1..J3` (中发白 = 31..33) and the flowers `H1..H8`
(our flower indices 34..41).
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Tuple

from mahjong_core._display import short_repr
from mahjong_core.errors import InvalidTypeError, ParseError

__all__ = ["CODES", "code", "tile_index", "codes_to_tiles", "tiles_to_codes", "is_flower_code"]

#: CODES[i] is the Botzone code of tile index i (0..41).
CODES: Tuple[str, ...] = tuple(
    [f"{s}{r}" for s in "WBT" for r in range(1, 10)]
    + [f"F{i}" for i in range(1, 5)] + [f"J{i}" for i in range(1, 4)] + [f"H{i}" for i in range(1, 9)]
)
_INDEX: Dict[str, int] = {c: i for i, c in enumerate(CODES)}


def code(tile: int) -> str:
    """The Botzone code of a tile index (0..33, flowers 34..41), e.g. code(0) == "W1"."""
    try:
        if tile < 0:
            raise IndexError
        return CODES[tile]
    except (IndexError, TypeError):
        raise ParseError(f"{tile!r} is not a tile index (0..33, flowers 34..41)") from None


def tile_index(text: str) -> int:
    """The tile index of a Botzone code, e.g. tile_index("J1") == 31 (中). Raises ParseError."""
    try:
        return _INDEX[text]
    except (KeyError, TypeError):
        raise ParseError(f"{short_repr(text)} is not a Botzone tile code (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3 "
                         f"H1..H8)") from None


def is_flower_code(text: str) -> bool:
    return text in _INDEX and _INDEX[text] >= 34


def codes_to_tiles(text: "str | Iterable[str]") -> List[int]:
    """Tile indices of space-separated codes (or an iterable of codes)."""
    try:
        items = text.split() if isinstance(text, str) else list(text)
    except TypeError:
        raise InvalidTypeError(f"codes_to_tiles takes Botzone codes ('W1 B2 ...' or a list of them), got "
                               f"{type(text).__name__}") from None
    return [tile_index(c) for c in items]


def tiles_to_codes(tiles: Iterable[int]) -> str:
    """Space-separated Botzone codes of tile indices."""
    try:
        iterator = iter(tiles)
    except TypeError:
        raise InvalidTypeError(f"tiles_to_codes takes tile indices, got {type(tiles).__name__}") from None
    return " ".join(code(t) for t in iterator)
