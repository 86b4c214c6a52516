"""Test support: state consistency checks and a scripted driver (handy when writing a ruleset flow).

`check_game(game)` raises AssertionError when a tile is missing or duplicated (live wall + concealed
hands + melds + rivers + flowers + won tiles must be exactly the ruleset's tile set), a hand has the
wrong size for its melds, a cached wait mask is stale, or the ledger does not sum to zero.

`drive(game, script)` plays a game from a script of `(seat, action)` entries: the first entry is
played as soon as its seat has to answer and the action is legal; every other question gets the
default answer — PASS on
claims and robbing, the drawn tile (else the first legal discard) on a turn, keeping Changbai's
last-four tile, the first option of a simultaneous choice. `build_wall` (mahjong_core.game.wall)
makes the walls.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Counter as CounterT, Iterable, List, Optional, Tuple

from .actions import DISCARD, PASS, Action, ActionKind
from .constants import AFTER_CLAIM, CHOOSE, LAST_DRAW, MELD_CHOW, MELD_PUNG, ROB, TURN
from .engine import Game

__all__ = ["tile_census", "check_game", "expected_waits", "default_action", "drive"]


def tile_census(game: Game) -> CounterT[int]:
    """Every physical tile of the game, wherever it is."""
    census: CounterT[int] = Counter(game.wall[game.head: game.tail])
    for s in range(4):
        for t in range(34):
            if game.hands[s][t]:
                census[t] += game.hands[s][t]
        for kind, t, _, _ in game.melds[s]:
            if kind == MELD_CHOW:
                census.update((t, t + 1, t + 2))
            else:
                census[t] += 3 if kind == MELD_PUNG else 4
        census.update(game.rivers[s])
        census.update(game.flowers[s])
        census.update(game.won_tiles[s])
    return census


def check_game(game: Game) -> None:
    census = tile_census(game)
    expected = Counter(type(game).tiles(type(game).uses_flowers(game.rules)))
    assert census == expected, f"tiles not accounted for: extra {census - expected}, missing {expected - census}"
    for s in range(4):
        size = sum(game.hands[s])
        waiting = 13 - 3 * game.n_melds[s]
        if game.phase == CHOOSE:
            allowed = {0} if size == 0 else ({14} if s == game.dealer else {13})
        elif game.phase in (TURN, AFTER_CLAIM, LAST_DRAW, ROB) and s == game.turn:
            allowed = {waiting + 1}
        elif game.kept[s] >= 0:
            allowed = {waiting + 1}
        else:
            allowed = {waiting}
        if s in getattr(game, "left", ()):  # left the hand (Game.leave) on its own turn: tiles kept
            allowed = {waiting, waiting + 1}
        assert size in allowed, f"seat {s} holds {size} tiles in phase {game.phase}, expected {allowed}"
        if size == waiting and game.phase != CHOOSE and not game.won[s] and (s != game.turn or game.phase != TURN):
            assert game.waits[s] == expected_waits(game, s), f"seat {s}: stale wait mask"
    assert sum(game.ledger.totals()) == 0, "ledger not zero-sum"


def expected_waits(game: Game, seat: int) -> int:
    """The wait mask recomputed from scratch (slow path) with the game's own rule for it."""
    saved = game.waits[seat]
    try:
        game._update_waits(seat)
        return game.waits[seat]
    finally:
        game.waits[seat] = saved


def default_action(game: Game, seat: int, actions: List[Action]) -> Action:
    """The scripted driver's answer when the script says nothing (see the module docstring)."""
    if PASS in actions:
        return PASS
    if game.drawn >= 0 and DISCARD[game.drawn] in actions:
        return DISCARD[game.drawn]
    for a in actions:
        if a.kind is ActionKind.DISCARD:
            return a
    return actions[0]


def drive(game: Game, script: Iterable[Tuple[int, Action]] = (), *, check: bool = True,
          until: Optional[Callable[[Game], bool]] = None) -> Game:
    """Play `game` following `script` (see the module docstring) until the script is used up and
    `until(game)` holds (default: until the hand is over). Checks the state after every answer.
    Raises AssertionError when the hand ends before the script is used up."""
    queue = list(script)
    while not game.finished:
        if not queue and until is not None and until(game):
            break
        pending = game.pending()
        if not pending:  # pragma: no cover - a live game always asks someone
            raise AssertionError("game not finished but nobody is pending")
        for seat, actions in pending.items():
            if queue and queue[0][0] == seat and queue[0][1] in actions:
                action = queue.pop(0)[1]
            else:
                action = default_action(game, seat, actions)
            game.act(seat, action)
            if check:
                check_game(game)
            break  # re-read pending: a window may have closed
    assert not queue, f"script not used up: {queue}"
    return game
