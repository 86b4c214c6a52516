"""The engine contract the table server uses, in one place.

The server needs from a `Game` (issue 11, items 2, 3 and 6): `game.step` (the open decision point),
`game.act(seat, action, step=k)` (StaleActionError for another step), `game.events(seat, since)` (the
JSON events a seat may see), `game.default_action(seat)` (the timeout answer), `Action.to_json()` /
`Action.from_json()`, and `replay(log)` (verifying; ReplayError). This module names those calls and
adds what the protocol needs around them: actions on the wire, and the leave capability.

Leaving for good (`leave_settles`): a game class declares that its ruleset settles a player who
leaves mid-hand (Sichuan 逃跑/强退) by a truthy `HAS_LEAVE_RULE` class attribute and implements
`leave(seat)` (the engine's default raises IllegalActionError); where it depends on the rules or the
moment, it may add a `can_leave(seat) -> bool` method. The server never looks at a ruleset's name.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from mahjong_core.game import replay as _replay
from mahjong_core.game.actions import Action
from mahjong_core.game.constants import PHASES

from mahjong_core.errors import IllegalActionError, ReplayError, StaleActionError

from .protocol import json_type

__all__ = [
    "StaleActionError", "ReplayError", "step", "act", "events", "event_count", "default_action", "action_json",
    "action_from_wire", "legal_json", "verified_replay", "checked_replay", "leave_settles", "PRIVATE_PHASES",
    "private_window", "asks",
]

#: phases whose question exists only because of someone's hidden tiles (claim a discard, rob an added
#: kong, win on one of Changbai's last draws): that it is open is hidden information. Turns (but a
#: declared seat's: `private_window`), 定缺 / 飘 and the end are public. docs/ENGINE.md, "Private
#: decision points".
PRIVATE_PHASES = frozenset({"claim", "rob", "last_draw"})


def step(game: Any) -> int:
    """The id of the decision point open now."""
    return game.step


def private_window(game: Any) -> bool:
    """The open decision point exists only because of hidden tiles: a PRIVATE_PHASES window, or the
    turn of a declared-ready (报听) seat, which is asked only when its drawn tile wins or makes a kong
    (otherwise the tile goes out by itself)."""
    phase = PHASES[game.phase]
    return phase in PRIVATE_PHASES or (phase == "turn" and bool(game.declared[game.turn]))


def asks(game: Any, seat: int) -> bool:
    """`seat` has a question open now (asked and not answered yet)."""
    return seat in game.pending()


def act(game: Any, seat: int, action: Action, at_step: int) -> None:
    """`seat` answers the decision point `at_step`; StaleActionError when that is not the open one."""
    game.act(seat, action, step=at_step)


def events(game: Any, seat: Optional[int], since: int = 0) -> List[Dict[str, Any]]:
    """The events `seat` may see from index `since` on (seat None: everything)."""
    return game.events(seat, since=since)


def event_count(game: Any) -> int:
    return game.event_count()


def default_action(game: Any, seat: int) -> Action:
    """The answer given for `seat` when its time is up (pass a claim, discard the drawn tile)."""
    return game.default_action(seat)


def action_json(game: Any, action: Action) -> Dict[str, Any]:
    """An action as the protocol sends it: its ruleset code, its notation and its JSON form."""
    return {"code": game.space.code(action), "name": repr(action), "json": action.to_json()}


def action_from_wire(game: Any, value: Any) -> Action:
    """The Action a client sent: an integer code of the ruleset, or the action's notation
    ("Discard(5m)", "Pass") or its `Action.to_json()` form. IllegalActionError otherwise."""
    if isinstance(value, bool):
        raise IllegalActionError(f"an action is an integer code, its name or its JSON object, got "
                                 f"{'true' if value else 'false'}")
    if isinstance(value, int):
        return game.space.action(value)
    if isinstance(value, str):
        for action in game.space.actions:
            if repr(action) == value:
                return action
        raise IllegalActionError(f"{value[:40]!r} names no action of {game.ruleset} (e.g. 'Discard(5m)', 'Pass')")
    if isinstance(value, dict):
        action = Action.from_json(value)
        game.space.code(action)  # an action of this ruleset
        return action
    raise IllegalActionError(f"an action is an integer code, its name or its JSON object, got {json_type(value)}")


def legal_json(game: Any, seat: int) -> List[Dict[str, Any]]:
    return [action_json(game, a) for a in game.legal_actions(seat)]


def verified_replay(log: Mapping[str, Any]) -> Any:
    """`replay(log)`: the engine checks the seed, every event, the ledger and the finished flag, and
    raises ReplayError naming the first difference (or the malformed field)."""
    return _replay(log)


def checked_replay(log: Mapping[str, Any]) -> Any:
    """`replay(log, verify=False)`: the wall checked against the seed and every answer's legality,
    but no recorded events to compare (a journal records answers only). ReplayError otherwise."""
    return _replay(log, verify=False)


def leave_settles(game: Any, seat: int) -> bool:
    """True when the game's ruleset settles `seat` leaving for good (see the module docstring)."""
    if not getattr(game, "HAS_LEAVE_RULE", False) or not callable(getattr(game, "leave", None)):
        return False
    hook = getattr(game, "can_leave", None)
    return bool(hook(seat)) if callable(hook) else True
