"""Sichuan hands: turning user input into a checked `Hand`, suits, 定缺 and 花猪.

Sichuan plays 108 tiles (m, p, s — no honours), pungs and kongs but no chows. Everything here is
about *which tiles* a player holds; patterns and values live in `scoring`.
"""

from __future__ import annotations

from typing import Any, FrozenSet, Optional, Sequence

from mahjong_core.errors import InvalidHandError, InvalidTypeError
from mahjong_core.hand import Hand
from mahjong_core.model import MeldKind
from ..hand_input import as_hand as _as_any_hand
from mahjong_core.tiles import Tile

__all__ = ["SUITS", "as_hand", "check_void_suit", "suits_held", "suits_of", "is_flower_pig", "holds_void_tile"]

SUITS = ("m", "p", "s")
_FIRST_HONOUR = int(Tile.EAST)
#: _SUIT_SETS[bits]: the suits whose bit (1 m, 2 p, 4 s) is set
_SUIT_SETS = tuple(frozenset(suit for i, suit in enumerate(SUITS) if bits >> i & 1) for bits in range(8))
_SUIT_NAMES = {"m": "characters 万", "p": "dots 筒", "s": "bamboo 条"}


def as_hand(hand: Any, melds: Any = None) -> Hand:
    """A `Hand` from a Hand, a notation string or 34 counts (with optional `melds`), checked for Sichuan.

    Raises ParseError for bad notation; InvalidHandError for honours (Sichuan has none), a chow meld
    (Sichuan has no chow), an MCR context suffix, something that is not a hand, or any hand the
    core rejects.
    """
    result = _as_any_hand(hand, melds)
    _check_sichuan(result)
    return result


def _check_sichuan(hand: Hand) -> None:
    # (Runs for every hand the engine settles: plain slices, no per-meld work without melds.)
    if any(hand.all_counts[_FIRST_HONOUR:]):  # concealed tiles and melds together
        honours = "".join(str(Tile(i)) for i in range(Tile.EAST, 34) if hand.all_counts[i])
        raise InvalidHandError(f"Sichuan is played without honours (108 tiles: m, p, s); the hand holds {honours}")
    for meld in hand.melds:
        if meld.kind is MeldKind.CHOW:
            raise InvalidHandError(f"Sichuan has no chow; the hand has the chow meld {meld}")
    if hand.context is not None:
        raise InvalidHandError(
            "the |...| context suffix is MCR's; for Sichuan pass self_drawn=, kong_replacement= etc. as arguments")


def check_void_suit(void_suit: Optional[str]) -> Optional[str]:
    """Validate a 定缺 suit: "m", "p", "s" or None. Raises InvalidHandError otherwise."""
    if void_suit is None or (isinstance(void_suit, str) and void_suit in SUITS):
        return void_suit
    raise InvalidHandError(f"void_suit must be 'm', 'p', 's' or None, got {void_suit!r}")


def suits_held(hand: Hand) -> FrozenSet[str]:
    """The suits among the hand's concealed tiles and melds (`hand`: a Hand, or what `as_hand` takes)."""
    if type(hand) is not Hand:
        hand = _as_any_hand(hand)
    return suits_of(hand.all_counts)


def suits_of(counts: Sequence[int]) -> FrozenSet[str]:
    """The suits with at least one tile in 34 counts."""
    return _SUIT_SETS[any(counts[0:9]) | any(counts[9:18]) << 1 | any(counts[18:27]) << 2]


def holds_void_tile(hand: Hand, void_suit: Optional[str]) -> bool:
    """True when the hand (concealed tiles or melds) holds a tile of the 定缺 suit."""
    return void_suit is not None and void_suit in suits_held(hand)


def is_flower_pig(hand: Any) -> bool:
    """花猪: the player still holds tiles of all three suits (concealed tiles and melds together).

    `hand`: anything `as_hand` takes, or an iterable of tiles (Tile, tile index or "5p"-style
    string) of any length below 34 — e.g. a player's concealed tiles in the middle of play. (No
    Sichuan hand holds 34 tiles, so 34 plain integers are read as counts.)
    """
    if isinstance(hand, (Hand, str, bytes, bytearray)):
        return len(suits_held(as_hand(hand))) == 3
    try:
        items = list(hand)
    except TypeError:
        raise InvalidTypeError(f"expected a hand or an iterable of tiles, got {type(hand).__name__}") from None
    if len(items) == 34 and not any(isinstance(x, (Tile, str)) for x in items):
        return len(suits_held(as_hand(items))) == 3
    suits = set()
    for item in items:
        tile = _tile(item)
        if tile.is_honor:
            raise InvalidHandError(f"Sichuan is played without honours; got {tile}")
        suits.add(tile.suit)
    return len(suits) == 3


def _tile(value: Any) -> Tile:
    from mahjong_core.tiles import tile_from_str

    try:
        return tile_from_str(value) if isinstance(value, str) else Tile(value)
    except ValueError as exc:
        raise InvalidHandError(str(exc)) from None


def suit_name(suit: str) -> str:
    return _SUIT_NAMES[suit]
