"""Starting a hand (`new_game`) and rebuilding one from its log (`replay`)."""

from __future__ import annotations

import secrets
from typing import Any, Dict, List, Mapping, Optional, Sequence

from mahjong_core._display import short_repr as _short  # (the name this module's messages use)
from mahjong_core.errors import IllegalActionError, InvalidArgumentError, MahjongError, ReplayError

from .engine import Game, _index_of, _seeded_wall
from .log import LOG_FORMAT
from .registry import check_ruleset, game_class, table_class
from .wall import check_seed, check_wall, seeded_dealer, tile_name

__all__ = ["new_game", "replay", "seeded_dealer"]


def _plain_int(value: Any) -> Any:
    """A NumPy (or other) integer as a Python int — what the game stores and logs; anything else as
    given, for the checks that follow (a bool stays a bool: they refuse it)."""
    if value is None or value.__class__ is int:
        return value
    index = _index_of(value)
    return value if index is None else index


def new_game(ruleset: str, *, seed: Optional[int] = None, wall: Optional[Sequence[Any]] = None,
             rules: Any = None, dealer: Optional[int] = None, hand_no: int = 0, **options: Any) -> Game:
    """Start one hand of `ruleset` ("mcr" | "sichuan" | "changbai").

    `seed`: shuffles the wall with the counter-based generator keyed by (seed, hand_no) (a fresh
    random seed when neither seed nor wall is given; it is logged). `wall`: an explicit tile
    sequence (indices or names; exactly the ruleset's tile set) — used as is. `rules`: None (default
    preset), a preset name, the ruleset's Rules, or a dict of key overrides. `dealer`: 0..3; default
    seat 0, or drawn from the seed when the rules say the dealer is random. Ruleset options:
    `prevalent_wind` (MCR, 0..3 = E S W N). Raises InvalidArgumentError / InvalidHandError /
    RulesError for bad input.
    """
    cls = game_class(check_ruleset(ruleset))
    rules = cls.rules_class().resolve(rules)
    cls = table_class(ruleset, rules)
    seed, dealer, hand_no = _plain_int(seed), _plain_int(dealer), _plain_int(hand_no)
    if wall is not None:
        rules = cls.rules_for_wall(rules, wall)
    if isinstance(hand_no, bool) or not isinstance(hand_no, int) or not 0 <= hand_no < 1 << 64:
        raise InvalidArgumentError(f"hand_no must be an integer 0 .. 2**64 - 1, got {hand_no!r}")
    if wall is not None:
        tiles = check_wall(ruleset, wall, cls.uses_flowers(rules))
        if seed is not None:
            check_seed(seed)
    else:
        if seed is None:
            seed = secrets.randbits(63)
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4):
        raise InvalidArgumentError(f"dealer must be a seat 0..3, got {dealer!r}")
    if wall is None:
        return cls._from_seed(rules, seed, hand_no, dealer, **options)
    if dealer is None:
        dealer = cls._default_dealer(rules, seed, hand_no)
    return cls(rules, tiles, seed=seed, hand_no=hand_no, dealer=dealer, shuffled=False, **options)


_JSON_SCALARS = (str, int, float, bool, type(None))


def _field(log: Mapping[str, Any], name: str, kinds: Any, what: str) -> Any:
    if name not in log:
        raise ReplayError(f"log field {name!r} is missing (a {LOG_FORMAT} log has {', '.join(_RECORD)})")
    value = log[name]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in (
            kinds if isinstance(kinds, tuple) else (kinds,))):
        raise ReplayError(f"log field {name!r} must be {what}, got {type(value).__name__} {_short(value)}")
    return value


#: the fields of a log, in the order `replay` checks them against the replayed game
_RECORD = ("format", "ruleset", "preset", "rules", "seed", "hand_no", "shuffled", "dealer", "options", "wall",
           "actions", "events", "finished", "winners", "ledger", "totals")


def _normal(value: Any) -> Any:
    """A JSON value as `json.loads(json.dumps(value))` gives it (tuples become lists)."""
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _normal(v) for k, v in value.items()}
    return value


def _first_difference(name: str, recorded: Any, replayed: Any) -> Optional[str]:
    recorded, replayed = _normal(recorded), _normal(replayed)
    if recorded == replayed:
        return None
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            if a != b:
                return f"{name}[{i}]: the log records {_short(a)}, replaying its actions gives {_short(b)}"
        return (f"{name}: the log records {len(recorded)} entries, replaying its actions gives {len(replayed)} "
                f"(first unmatched: {name}[{min(len(recorded), len(replayed))}] = "
                f"{_short((recorded if len(recorded) > len(replayed) else replayed)[min(len(recorded), len(replayed))])})")
    return f"{name}: the log records {_short(recorded)}, replaying its actions gives {_short(replayed)}"


def replay(log: Mapping[str, Any], *, verify: bool = True, **engine_options: Any) -> Game:
    """Rebuild a game from its log and verify it: same wall, rules and dealer, then every logged
    answer in order; the result is checked against everything the log records.

    Checks, in order (the first failure raises `ReplayError`, a MahjongError, naming the field):
    the structure and types of every field (`actions[17]`, `wall`, ...); a shuffled log's wall
    against the one its seed and hand number produce; each action's legality at its step; then
    with `verify=True` (default) the replayed game's own log against the recorded one — rules and
    preset, every event, the winners, the ledger, the totals and the finished flag — naming the
    first difference (e.g. ``events[41]: the log records {...}, replaying its actions gives {...}``).
    A log of an unfinished hand replays to the same unfinished game. A log written before every
    added kong was announced (`adding_kong`) and every declared seat's drawn tile marked (`auto`)
    replays too: those two event types are left out of the comparison when the rest agrees. The
    Botzone table's penalty (`penalty` event) is applied as logged. Returns the Game.
    """
    if not isinstance(log, Mapping):
        raise ReplayError(f"a game log is a JSON object (a mapping), got {type(log).__name__}")
    fmt = log.get("format")
    if fmt != LOG_FORMAT:
        raise ReplayError(f"log field 'format' must be {LOG_FORMAT!r}, got {_short(fmt)}")
    ruleset = _field(log, "ruleset", str, "a ruleset name")
    try:
        cls = game_class(check_ruleset(ruleset))
    except MahjongError as exc:
        raise ReplayError(f"log field 'ruleset': {exc}") from None
    _field(log, "preset", (str, type(None)), "a preset name")
    rules_obj = _field(log, "rules", Mapping, "an object of rule keys")
    try:
        rules = cls.rules_class().resolve(dict(rules_obj))
    except (MahjongError, TypeError, ValueError, RecursionError) as exc:
        raise ReplayError(f"log field 'rules': {exc}") from None
    seed = _field(log, "seed", (int, type(None)), "an integer seed or null")
    hand_no = _field(log, "hand_no", int, "an integer")
    shuffled = _field(log, "shuffled", bool, "true or false")
    dealer = _field(log, "dealer", int, "a seat 0..3")
    options = _field(log, "options", Mapping, "an object of ruleset options")
    wall = _field(log, "wall", list, "a list of tile names")
    for i, t in enumerate(wall):
        if not isinstance(t, str):
            raise ReplayError(f"log field 'wall[{i}]' must be a tile name, got {_short(t)}")
    actions = _field(log, "actions", list, "a list of [seat, action code] pairs")
    for i, pair in enumerate(actions):
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(type(v) is int for v in pair)):
            raise ReplayError(f"log field 'actions[{i}]' must be [seat, action code] (two integers), "
                              f"got {_short(pair)}")
    _field(log, "events", list, "a list of event objects")
    for i, e in enumerate(log["events"]):
        if not isinstance(e, Mapping) or not isinstance(e.get("type"), str):
            raise ReplayError(f"log field 'events[{i}]' must be an event object with a 'type', got {_short(e)}")
    _field(log, "finished", bool, "true or false")
    _field(log, "winners", list, "a list of seats")
    _field(log, "ledger", list, "a list of transfers")
    _field(log, "totals", list, "a list of four integers")
    if seed is not None:
        try:
            check_seed(seed)
        except ValueError as exc:
            raise ReplayError(f"log field 'seed': {exc}") from None
    try:
        game = new_game(ruleset, wall=wall, rules=rules, seed=seed, dealer=dealer, hand_no=hand_no,
                        **dict(options), **engine_options)
    except (MahjongError, TypeError, ValueError, RecursionError) as exc:
        name = "wall" if "wall" in str(exc) or "tile" in str(exc) else (
            "dealer" if "dealer" in str(exc) else "hand_no" if "hand_no" in str(exc) else "options")
        raise ReplayError(f"log field {name!r}: {exc}") from None
    if shuffled:
        if seed is None:
            raise ReplayError("log field 'seed': a shuffled wall needs the seed that shuffled it (null given)")
        expected = _seeded_wall(cls, rules, seed, hand_no)
        if expected != game.wall:
            at = next(i for i, (a, b) in enumerate(zip(expected, game.wall)) if a != b)
            raise ReplayError(
                f"log field 'wall': seed {seed} (hand {hand_no}) does not produce this wall (first difference at "
                f"wall[{at}]: {tile_name(game.wall[at])} where the seed puts {tile_name(expected[at])})")
    game.shuffled = shuffled
    # Game.leave calls are no answers: the log's "leave" events say after how many answers each came.
    leaves: Dict[int, List[Any]] = {}
    for i, event in enumerate(log["events"]):
        if event.get("type") == "leave":
            after = event.get("after_actions")
            if type(after) is not int or not 0 <= after <= len(actions):
                raise ReplayError(f"log field 'events[{i}].after_actions' must be an answer count 0..{len(actions)}, "
                                  f"got {_short(after)}")
            leaves.setdefault(after, []).append((i, event.get("seat")))

    def leave(step: int) -> None:
        for i, seat in leaves.get(step, ()):
            try:
                game.leave(seat)
            except IllegalActionError as exc:
                raise ReplayError(f"log field 'events[{i}]' (seat {_short(seat)} leaves): {exc}") from None

    for step, (seat, code) in enumerate(actions):
        leave(step)
        try:
            game.act(seat, code)
        except IllegalActionError as exc:
            raise ReplayError(f"log field 'actions[{step}]' (seat {seat}, code {code}) is not legal on replay: "
                              f"{exc}") from None
    leave(len(actions))
    _penalize_as_logged(game, log["events"])
    if verify:
        replayed = game.log
        for name in _RECORD:
            try:
                problem = _first_difference(name, log[name], replayed[name])
                if problem is not None and name == "events" and _same_but_announcements(log[name], replayed[name]):
                    problem = None
            except RecursionError:  # (JSON allows any depth; a log's values are a few levels deep)
                problem = f"log field {name!r} is nested too deeply to be a game log's"
            if problem is not None:
                raise ReplayError(problem)
    return game


def _penalize_as_logged(game: Game, events: List[Any]) -> None:
    """The Botzone table's penalty (`BotzoneGame.penalize`: a WA, TLE or RE ends the hand without an
    answer) is no answer in `actions`: its event gives the seat and the verdict. (A false win, WH,
    comes from its logged WIN and is replayed by it.)"""
    penalties = [e for e in events if e.get("type") == "penalty"]
    if penalties and getattr(game, "penalty", False) is None:
        last = penalties[-1]
        try:
            game.penalize(last.get("seat"), last.get("code"))  # type: ignore[attr-defined]  # (BotzoneGame's)
        except IllegalActionError as exc:
            raise ReplayError(f"log field 'events' (penalty {_short(last)}): {exc}") from None


#: events whose presence changed in a later version: logs written before it record `adding_kong` only
#: for an added kong someone could rob, and `auto` only for a declared seat's discard it was not asked
#: about (docs/ENGINE.md, "Private decision points"); replaying such a log writes both every time
_ANNOUNCEMENTS = ("adding_kong", "auto")


def _same_but_announcements(recorded: Any, replayed: Any) -> bool:
    """The two event lists agree once the announcements are left out of both (an older log)."""
    def rest(events: Any) -> Any:
        return [_normal(e) for e in events if not (isinstance(e, Mapping) and e.get("type") in _ANNOUNCEMENTS)]

    return rest(recorded) == rest(replayed)
