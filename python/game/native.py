"""Where the native self-play loop (game/_selfplay.pyx) runs, and the calls that run it.

The loop answers a hand's questions for the seats of the built-in `RandomBot` and `GreedyBot` —
the same choices from the same random streams as their `choose`, applied as `Game.act` applies
them — without a Python call per decision. It drives the compiled engine's extension type and
nothing else: where the engine runs from its .py source (MAHJONG_CORE_PURE_GAME=1 builds, or a
process that imports the sources) there is no loop, and a table class (the Botzone table, which
may ask a turn its own way) is played by the Python driver. `simulate.play_hand` and the
environments' opponents (`env.opponents.play_until`) use it.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from .engine import Game
from .registry import game_class

__all__ = ["loop", "seats_for", "advance"]


def loop() -> Tuple[Any, Any]:
    """The native loop's (advance, native_seats) functions, or (None, None) where it does not exist."""
    if Game.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE: a plain Python class, not the compiled type
        return None, None
    try:
        from ._selfplay import advance as native_advance, native_seats
    except ImportError:
        return None, None
    return native_advance, native_seats


_advance, _native_seats = loop()


def seats_for(game: Any, bots: Sequence[Any]) -> Optional[Tuple[Any, Any]]:
    """The seats of `bots` the native loop answers on `game`, for `advance` — read once per hand,
    after the bots' `new_hand` — or None where it does not run (see the module docstring) or no
    seat holds a built-in RandomBot or GreedyBot (`None` entries are seats it leaves alone)."""
    if _advance is None or type(game) is not game_class(game.ruleset):
        return None
    return _native_seats(bots)


def advance(game: Any, seats: Tuple[Any, Any], ascending: bool = False) -> None:
    """Answer every question of `game` all of whose seats the loop plays (`seats` from
    `seats_for`), until the hand is over or a question is for another seat. Several seats asked
    at once answer in the window's own order (`play_hand`'s), or lowest seat first with
    `ascending` (the environments' `next_seat` order)."""
    _advance(game, seats, ascending)
