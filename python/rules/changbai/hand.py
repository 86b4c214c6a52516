"""Turning the caller's hand argument into a validated `Hand` of the size a Changbai call needs.

Every public Changbai function takes a `Hand` or a notation string. A *waiting* hand holds
13 − 3·melds concealed tiles (after a discard: declaring ready, a loser's hand); a *complete* hand
holds 14 − 3·melds (a win, with its winning tile).
"""

from __future__ import annotations

from typing import Sequence, Tuple, Union

from mahjong_core.errors import InvalidHandError
from mahjong_core.hand import Hand
from mahjong_core.tiles import Tile

from ..hand_input import as_hand as _as_any_hand
from ..hand_input import as_tile as _as_any_tile

__all__ = ["HandLike", "as_hand", "as_tile", "waiting_hand", "complete_size_hand", "winning_hand"]

HandLike = Union[Hand, str, Sequence[int], bytes]


def as_hand(hand: HandLike, melds: object = None) -> Hand:
    """A `Hand` from a Hand, notation or 34 counts (with optional `melds`); InvalidHandError otherwise."""
    return _as_any_hand(hand, melds)  # type: ignore[arg-type]


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
    return _as_any_tile(value, what)
