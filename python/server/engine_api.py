"""The engine contract the table server is written against, in one place.

The server needs from a `Game` (issue 11, items 2, 3 and 6; built by the engine):

- `game.step` — an int that increases at every decision point (also `view(seat)["step"]`);
- `game.act(seat, action, step=k)` raising `StaleActionError` for an old step;
- `game.events(seat, since=0)` — the JSON events `seat` may see (None: omniscient);
- `game.default_action(seat)` — the timeout answer;
- `Action.to_json()` / `Action.from_json()`;
- `replay(log)` verifying the log and raising `ReplayError`;
- optionally `game.leave(seat)` for a ruleset that settles a player who leaves for good (Sichuan 逃跑).

Each function below calls the engine's own method when the game has it and otherwise computes the same
thing from the engine's public surface (`answer_history`, `answer_of`, `event_history`, `pending`,
`log`), so that the server works on an engine with or without those additions and behaves the same
on both. The fallbacks go once every engine in use has the methods.

Leaving for good (`leave_settles`): a game class declares that its ruleset settles a player who
leaves mid-hand by a truthy `SUPPORTS_LEAVE` class attribute together with a `leave(seat)` method,
or, where it depends on the rules or the moment, by a `can_leave(seat) -> bool` method. The server
never looks at a ruleset's name.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from mahjong_core.game import replay as _replay
from mahjong_core.game.actions import Action, ActionKind
from mahjong_core.game.log import event_json

from mahjong_core import errors as _errors
from mahjong_core.errors import IllegalActionError, MahjongError

__all__ = [
    "StaleActionError", "ReplayError", "step", "act", "events", "default_action", "action_json",
    "action_from_wire", "legal_json", "verified_replay", "leave_settles",
]

#: the engine's StaleActionError once it exists; until then the server raises its own subclass
StaleActionError = getattr(_errors, "StaleActionError", None)
if StaleActionError is None:
    class StaleActionError(IllegalActionError):  # type: ignore[no-redef]
        """An answer for a decision point that is already over (its step is old)."""

ReplayError = getattr(_errors, "ReplayError", None)
if ReplayError is None:
    class ReplayError(MahjongError):  # type: ignore[no-redef]
        """A log that does not replay to what it records."""


def step(game: Any) -> int:
    """The id of the decision point open now.

    Fallback: the number of answers of every decision point already resolved (answers given in a
    window still open do not count), so it stays put while a claim window collects its answers,
    grows when the window resolves, and is the same after a replay.
    """
    value = getattr(game, "step", None)
    if isinstance(value, int):
        return value
    open_answers = sum(1 for s in range(4) if game.answer_of(s) is not None)
    return len(game.answer_history()) - open_answers


def act(game: Any, seat: int, action: Action, at_step: int) -> None:
    """`game.act(seat, action)` for the decision point `at_step`; StaleActionError when it is over."""
    if isinstance(getattr(game, "step", None), int):
        game.act(seat, action, step=at_step)
        return
    now = step(game)
    if at_step != now:
        raise StaleActionError(f"step {at_step} is over (the game is at step {now}); answer the current step")
    game.act(seat, action)


# Events that carry a tile only the acting seat may see.
_PRIVATE_TILE = {"draw": ("tile",), "replacement": ("tile",), "concealed_kong": ("tile",),
                 "flower": ("replacement",)}


def _seat_event(event: Dict[str, Any], seat: Optional[int]) -> Dict[str, Any]:
    if seat is None:
        return event
    hidden = _PRIVATE_TILE.get(event["type"])
    if hidden and event.get("seat") != seat:
        event = dict(event)
        for name in hidden:
            event[name] = None
    return event


def events(game: Any, seat: Optional[int], since: int = 0) -> List[Dict[str, Any]]:
    """The events `seat` may see from index `since` on (seat None: everything)."""
    method = getattr(game, "events", None)
    if callable(method):
        return list(method(seat, since=since))
    history = game.event_history()
    return [_seat_event(event_json(e), seat) for e in history[since:]]


def default_action(game: Any, seat: int) -> Action:
    """The answer given for `seat` when its time is up: pass a claim, discard the drawn tile.

    Fallback: PASS when legal; else a discard of the drawn tile; else the first legal discard; else
    the first legal action (定缺 / 飘 windows).
    """
    method = getattr(game, "default_action", None)
    if callable(method):
        return method(seat)
    legal = game.legal_actions(seat)
    if not legal:
        raise IllegalActionError(f"seat {seat} has nothing to answer now")
    kinds = {a.kind: a for a in legal}
    if ActionKind.PASS in kinds:
        return kinds[ActionKind.PASS]
    drawn = game.drawn if game.turn == seat else -1
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    for a in discards:
        if a.arg == drawn:
            return a
    return discards[0] if discards else legal[0]


def action_json(game: Any, action: Action) -> Dict[str, Any]:
    """An action as the protocol sends it: its ruleset code and its notation."""
    out: Dict[str, Any] = {"code": game.space.code(action), "name": repr(action)}
    to_json = getattr(action, "to_json", None)
    if callable(to_json):
        out["json"] = to_json()
    return out


def action_from_wire(game: Any, value: Any) -> Action:
    """The Action a client sent: an integer code of the ruleset, or the action's notation
    ("Discard(5m)", "Pass") or its `Action.to_json()` form. IllegalActionError otherwise."""
    if isinstance(value, bool):
        raise IllegalActionError(f"an action is an integer code or its name, got {value!r}")
    if isinstance(value, int):
        return game.space.action(value)
    if isinstance(value, str):
        for action in game.space.actions:
            if repr(action) == value:
                return action
        raise IllegalActionError(f"{value[:40]!r} names no action of {game.ruleset} (e.g. 'Discard(5m)', 'Pass')")
    from_json = getattr(Action, "from_json", None)
    if callable(from_json) and isinstance(value, (dict, list)):
        try:
            return from_json(value)
        except MahjongError:
            raise
        except Exception as exc:  # a malformed JSON action
            raise IllegalActionError(f"not an action: {exc}") from None
    raise IllegalActionError(f"an action is an integer code or its name, got {type(value).__name__}")


def legal_json(game: Any, seat: int) -> List[Dict[str, Any]]:
    return [action_json(game, a) for a in game.legal_actions(seat)]


def verified_replay(log: Mapping[str, Any]) -> Any:
    """`replay(log)`, checked: the rebuilt game records the same events, ledger and finished flag.

    The engine's replay verifies these itself once issue 11 item 6 lands; this check is the same
    comparison and costs one more `game.log`. Raises ReplayError naming the first difference.
    """
    try:
        game = _replay(log)
    except ReplayError:
        raise
    except MahjongError as exc:
        raise ReplayError(f"the log does not replay: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"malformed log: {exc!r}") from None
    again = game.log
    for key in ("events", "ledger", "totals", "finished", "winners"):
        if key in log and again[key] != log[key]:
            if key == "events":
                for i, (a, b) in enumerate(zip(again[key], log[key])):
                    if a != b:
                        raise ReplayError(f"event {i} differs on replay: log {b}, replay {a}")
                raise ReplayError(f"the log has {len(log[key])} events, the replay {len(again[key])}")
            raise ReplayError(f"{key} differs on replay: log {log[key]!r}, replay {again[key]!r}")
    return game


def leave_settles(game: Any, seat: int) -> bool:
    """True when the game's ruleset settles `seat` leaving for good (see the module docstring)."""
    if not callable(getattr(game, "leave", None)):
        return False
    hook = getattr(game, "can_leave", None)
    if callable(hook):
        return bool(hook(seat))
    return bool(getattr(game, "SUPPORTS_LEAVE", False))
