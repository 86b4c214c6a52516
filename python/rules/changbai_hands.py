"""Turning the caller's hand argument into a validated `Hand` of the size a Changbai call needs.

Every public Changbai function takes a `Hand` or a notation string. A *waiting* hand holds
13 − 3·melds concealed tiles (after a discard: declaring ready, a loser's hand); a *complete* hand
holds 14 − 3·melds (a win, with its winning tile).
"""

from __future__ import annotations

from typing import Tuple, Union

from mahjong_core import Hand, InvalidHandError, Tile, parse
from mahjong_core.tiles import tile_from_str

__all__ = ["HandLike", "as_hand", "as_tile", "waiting_hand", "complete_size_hand", "winning_hand"]

HandLike = Union[Hand, str]


def as_hand(hand: HandLike) -> Hand:
    """A `Hand` from a Hand or notation; anything else is a TypeError."""
    if isinstance(hand, Hand):
        return hand
    if isinstance(hand, str):
        return parse(hand)
    raise TypeError(f"expected a Hand or a notation string, got {type(hand).__name__}")


def waiting_hand(hand: HandLike, what: str) -> Hand:
    """The hand, which must hold 13 − 3·melds concealed tiles (`what` names the call for the message)."""
    h = as_hand(hand)
    size = 13 - 3 * h.n_melds
    if h.n_tiles != size:
        raise InvalidHandError(
            f"{what} takes a hand of {size} concealed tiles with {h.n_melds} meld(s) (the hand after its "
            f"discard), got {h.n_tiles}: {h}"
        )
    return h


def complete_size_hand(hand: HandLike, what: str) -> Hand:
    """The hand, which must hold 14 − 3·melds concealed tiles (after a draw or with a winning tile)."""
    h = as_hand(hand)
    size = 14 - 3 * h.n_melds
    if h.n_tiles != size:
        raise InvalidHandError(
            f"{what} takes a hand of {size} concealed tiles with {h.n_melds} meld(s) (after a draw, or "
            f"with its winning tile), got {h.n_tiles}: {h}"
        )
    return h


def winning_hand(hand: HandLike, win_tile: Union[int, str, None], what: str) -> Tuple[Hand, Tile]:
    """(hand, winning tile): 14 − 3·melds concealed tiles, the winning tile among them and set on the hand.

    `win_tile` overrides the hand's own (the notation's last concealed tile); one of them is needed.
    """
    h = complete_size_hand(hand, what)
    if win_tile is not None:
        tile = as_tile(win_tile, "win_tile")
        return (h if h.win_tile == tile else h.replace(win_tile=tile)), tile
    if h.win_tile is None:
        raise InvalidHandError(
            f"{what} needs the winning tile: pass win_tile= or write the hand as notation, whose last "
            f"concealed tile is the winning tile: {h}"
        )
    return h, h.win_tile


def as_tile(value: Union[int, str], what: str) -> Tile:
    """A Tile from a Tile, an index 0..33 or a tile name ("5p", "E"); else InvalidHandError."""
    if isinstance(value, str):
        try:
            return tile_from_str(value)
        except ValueError as exc:
            raise InvalidHandError(f"{what}: {exc}") from None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 34:
        return Tile(value)
    raise InvalidHandError(f"{what} must be a Tile, an index 0..33 or a name like '5p', got {value!r}")
