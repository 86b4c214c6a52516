"""The one hand-input contract of every ruleset's `score` (and the other hand-taking calls).

A hand argument may be a `Hand`, a notation string (`"[555p,1]123m67s88sEE"`), or 34 tile counts
(any sequence of ints, `bytes` or `bytearray`) — counts with optional exposed `melds`. Tiles may be a
`Tile`, an index 0..33 or a name ("5p", "E"). Errors are `MahjongError`s that say what was given.
"""

from __future__ import annotations

from collections import abc
from typing import Any, Iterable, Optional, Sequence, Union

from mahjong_core.errors import InvalidHandError, InvalidTypeError
from mahjong_core.hand import Hand
from mahjong_core.model import Meld
from mahjong_core.notation import parse
from mahjong_core.tiles import Tile, as_tile

__all__ = ["HandInput", "TileInput", "as_hand", "as_tile"]

HandInput = Union[Hand, str, Sequence[int], bytes, bytearray]
TileInput = Union[Tile, int, str]


def as_hand(hand: Any, melds: Optional[Iterable[Meld]] = None) -> Hand:
    """A checked `Hand` from any hand input; `melds` only with counts (a Hand or notation carries its own)."""
    if isinstance(hand, Hand):
        result = hand
    elif isinstance(hand, str):
        result = parse(hand)
    elif isinstance(hand, (bytes, bytearray)) or (isinstance(hand, Sequence) and not isinstance(hand, str)):
        if melds is not None and (isinstance(melds, (int, str, bytes)) or not isinstance(melds, abc.Iterable)):
            raise InvalidTypeError(
                f"melds= of a scored hand are Meld objects (which tiles were claimed, from whom, changes the "
                f"score), got {melds!r}; give a sequence of Meld, or a Hand / notation with its melds in "
                f"brackets (\"[555p,1]123m...\")")
        return Hand(hand, tuple(melds or ()))
    else:
        raise InvalidHandError(
            f"a hand is a Hand, a notation string or 34 tile counts (with melds=), got {type(hand).__name__}")
    if melds:
        raise InvalidHandError(
            "melds= goes with 34 counts only: a Hand or a notation string carries its own melds "
            "(write them in brackets, e.g. \"[555p,1]123m...\")")
    return result


