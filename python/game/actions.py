"""Game actions: small frozen value objects, all created once, with a stable integer encoding.

Every action a seat can take is one of a finite set, so all `Action` instances are built at import
time and the engine only ever hands out (and compares) these pre-built objects — the hot loop
allocates nothing for actions.

Kinds and their argument (`Action.arg`):

| kind | arg | meaning |
|---|---|---|
| DISCARD | tile 0..33 | discard that tile |
| DECLARE | tile 0..33 | 报听: declare ready and discard that tile (Changbai; MCR with `declared_ready_fan`) |
| CONCEALED_KONG | tile | kong four concealed copies (暗杠) |
| ADDED_KONG | tile | add the fourth copy to one's own pung (加杠 / 面下杠) |
| PASS | -1 | decline every claim (or, in Changbai's last four draws, keep the tile without winning) |
| WIN | -1 | win: on one's own draw (自摸), on the discard, or by robbing the kong |
| PUNG | -1 | pung the discard |
| KONG | -1 | kong the discard (直杠 / 点杠) |
| CHOW | 1..3 | chow the discard; arg = which tile of the chow it is (1 lowest, 2 middle, 3 highest), the notation's claim marker |
| PIAO | 0, 2, 4, 6 | Changbai 飘 |
| VOID | 0, 1, 2 | Sichuan 定缺: m, p, s |

## Integer encoding (stable; `ActionSpace.code` / `.action`)

MCR (143 codes) and Changbai (147 codes) share one layout; Sichuan (88 codes: no honours, no chow,
no 报听) has a compact one.

| MCR / Changbai code | action | Sichuan code |
|---|---|---|
| 0..33 | DISCARD tile (code = tile) | 0..26 |
| 34..67 | DECLARE tile (34 + tile) | — |
| 68..101 | CONCEALED_KONG tile (68 + tile) | 27..53 (27 + tile) |
| 102..135 | ADDED_KONG tile (102 + tile) | 54..80 (54 + tile) |
| 136 | PASS | 81 |
| 137 | WIN | 82 |
| 138 | PUNG | 83 |
| 139 | KONG | 84 |
| 140, 141, 142 | CHOW 1, 2, 3 | — |
| 143..146 | PIAO 0, 2, 4, 6 (Changbai only) | — |
| — | VOID m, p, s | 85, 86, 87 |

Tiles are the core's indices (1m..9m = 0..8, 1p..9p = 9..17, 1s..9s = 18..26, E S W N = 27..30,
C F P = 31..33). MCR keeps the DECLARE codes even when `declared_ready_fan` is off (they are then
never legal), so a code means the same thing under every MCR preset.

## JSON form (`Action.to_json()` / `Action.from_json(obj)`; docs/schema/action.schema.json)

An object with a "type" (the kind in lower case) and the kind's one argument, if any:
`{"type": "discard", "tile": "5m"}` (also declare, concealed_kong, added_kong; tiles by name),
`{"type": "pass"}` (also win, pung, kong), `{"type": "chow", "position": 2}`,
`{"type": "piao", "value": 4}`, `{"type": "void", "suit": "p"}`. Logs keep the compact per-ruleset
integer codes; views and event streams use this form.
"""

from __future__ import annotations

import json

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mahjong_core.errors import IllegalActionError, InvalidTypeError
from mahjong_core.tiles import Tile

from .wall import tile_name

__all__ = [
    "ActionKind", "Action", "ActionSpace", "SPACES",
    "DISCARD", "DECLARE", "CONCEALED_KONG", "ADDED_KONG", "PASS", "WIN", "PUNG", "KONG", "CHOW",
    "PIAO", "VOID", "PIAO_VALUES", "SUIT_LETTERS", "ALL_ACTIONS", "CHOW_PATTERNS",
]

SUIT_LETTERS = ("m", "p", "s")
PIAO_VALUES = (0, 2, 4, 6)


class ActionKind(IntEnum):
    DISCARD = 0
    DECLARE = 1
    CONCEALED_KONG = 2
    ADDED_KONG = 3
    PASS = 4
    WIN = 5
    PUNG = 6
    KONG = 7
    CHOW = 8
    PIAO = 9
    VOID = 10


_NAMES = {
    ActionKind.DISCARD: "Discard", ActionKind.DECLARE: "Declare", ActionKind.CONCEALED_KONG: "ConcealedKong",
    ActionKind.ADDED_KONG: "AddedKong", ActionKind.PASS: "Pass", ActionKind.WIN: "Win", ActionKind.PUNG: "Pung",
    ActionKind.KONG: "Kong", ActionKind.CHOW: "Chow", ActionKind.PIAO: "Piao", ActionKind.VOID: "Void",
}
_TILE_KINDS = (ActionKind.DISCARD, ActionKind.DECLARE, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)


@dataclass(frozen=True, eq=False, repr=False)
class Action:
    """One action: `kind` (ActionKind), `arg` (tile, chow position, 飘 value, suit, or -1) and `uid`.

    A frozen value object. Instances are unique (use the module tables DISCARD[t], WIN, CHOW[1] ...;
    never construct one), so equality is identity — the fastest comparison for the engine's
    `action in legal` checks. `uid` is the MCR/Changbai code (a global id); per-ruleset codes come
    from `ActionSpace`.
    """

    __slots__ = ("kind", "arg", "uid")
    kind: ActionKind
    arg: int
    uid: int

    def __reduce__(self):  # pickles (e.g. between worker processes) to the shared instance
        return (_by_uid, (self.uid,))

    def __copy__(self) -> "Action":
        return self

    def __deepcopy__(self, memo: dict) -> "Action":
        return self

    def to_json(self) -> Dict[str, Any]:
        """The JSON form of this action (see the module docstring)."""
        return dict(_JSON[self.uid])

    @staticmethod
    def from_json(obj: Any) -> "Action":
        """The action of a JSON form (`to_json`); raises IllegalActionError naming what is wrong."""
        if not isinstance(obj, dict):
            raise IllegalActionError(f"an action in JSON is an object such as {{\"type\": \"pass\"}}, got {_as_json(obj)}")
        kinds = ', '.join(map(_as_json, sorted(_JSON_KINDS)))
        if "type" not in obj:
            raise IllegalActionError(f"an action in JSON needs its \"type\" (one of {kinds}), got {_as_json(obj)}")
        kind = obj["type"]
        spec = _JSON_KINDS.get(kind) if isinstance(kind, str) else None
        if spec is None:
            raise IllegalActionError(f"unknown action type {_as_json(kind)} (one of {kinds})")
        field, table = spec
        extra = sorted(set(obj) - {"type"} - ({field} if field else set()), key=repr)  # (keys of any type)
        if extra:
            raise IllegalActionError(f"a {kind} action has no field(s) {', '.join(map(_as_json, extra))}")
        if field is None:
            return table[None]
        if field not in obj:
            raise IllegalActionError(f"a {kind} action needs its {_as_json(field)}")
        value = obj[field]
        try:
            found = table.get(value) if not isinstance(value, bool) else None
        except TypeError:  # an unhashable value
            found = None
        if found is None:
            allowed = sorted(table, key=str)
            raise IllegalActionError(
                f"{_as_json(value)} is not a {field} of a {kind} action (allowed: {', '.join(map(_as_json, allowed[:12]))}"
                f"{' ...' if len(allowed) > 12 else ''})")
        return found

    @property
    def tile(self) -> "Tile | None":
        """The tile of a tile action (discard, declare, kongs from hand), else None."""
        return Tile(self.arg) if self.kind in _TILE_KINDS else None

    @property
    def is_claim(self) -> bool:
        return self.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.CHOW)

    def __repr__(self) -> str:
        name = _NAMES[self.kind]
        if self.kind in _TILE_KINDS:
            return f"{name}({Tile(self.arg)})"
        if self.kind == ActionKind.VOID:
            return f"{name}({SUIT_LETTERS[self.arg]})"
        if self.arg >= 0:
            return f"{name}({self.arg})"
        return name

    __str__ = __repr__


def _as_json(value: Any) -> str:
    """`value` as JSON text, for the messages of `Action.from_json` (its input is JSON: `true`, not
    `True`); Python's repr for what JSON cannot hold."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)


# ---- the pre-built instances (uid = MCR/Changbai code) -------------------------------------------

DISCARD: Tuple[Action, ...] = tuple(Action(ActionKind.DISCARD, t, t) for t in range(34))
DECLARE: Tuple[Action, ...] = tuple(Action(ActionKind.DECLARE, t, 34 + t) for t in range(34))
CONCEALED_KONG: Tuple[Action, ...] = tuple(Action(ActionKind.CONCEALED_KONG, t, 68 + t) for t in range(34))
ADDED_KONG: Tuple[Action, ...] = tuple(Action(ActionKind.ADDED_KONG, t, 102 + t) for t in range(34))
PASS = Action(ActionKind.PASS, -1, 136)
WIN = Action(ActionKind.WIN, -1, 137)
PUNG = Action(ActionKind.PUNG, -1, 138)
KONG = Action(ActionKind.KONG, -1, 139)
#: CHOW[1..3] (index 0 unused): the discard is the lowest / middle / highest tile of the chow.
CHOW: Tuple[Action, ...] = (PASS,) + tuple(Action(ActionKind.CHOW, k, 139 + k) for k in (1, 2, 3))
PIAO: Dict[int, Action] = {v: Action(ActionKind.PIAO, v, 143 + i) for i, v in enumerate(PIAO_VALUES)}
VOID: Tuple[Action, ...] = tuple(Action(ActionKind.VOID, s, 147 + s) for s in range(3))

ALL_ACTIONS: Tuple[Action, ...] = (
    DISCARD + DECLARE + CONCEALED_KONG + ADDED_KONG + (PASS, WIN, PUNG, KONG) + CHOW[1:]
    + tuple(PIAO.values()) + VOID
)
assert [a.uid for a in ALL_ACTIONS] == list(range(len(ALL_ACTIONS)))


def _action_json(a: Action) -> Dict[str, Any]:
    kind = a.kind.name.lower()
    if a.kind in _TILE_KINDS:
        return {"type": kind, "tile": tile_name(a.arg)}
    if a.kind is ActionKind.CHOW:
        return {"type": kind, "position": a.arg}
    if a.kind is ActionKind.PIAO:
        return {"type": kind, "value": a.arg}
    if a.kind is ActionKind.VOID:
        return {"type": kind, "suit": SUIT_LETTERS[a.arg]}
    return {"type": kind}


_JSON: Tuple[Dict[str, Any], ...] = tuple(_action_json(a) for a in ALL_ACTIONS)
#: JSON "type" -> (argument field or None, {argument value: Action})
_JSON_KINDS: Dict[str, Tuple[Optional[str], Dict[Any, Action]]] = {}
for _a, _j in zip(ALL_ACTIONS, _JSON):
    _field = next((k for k in _j if k != "type"), None)
    _JSON_KINDS.setdefault(_j["type"], (_field, {}))[1][_j[_field] if _field else None] = _a
del _a, _j, _field


def _by_uid(uid: int) -> Action:
    return ALL_ACTIONS[uid]


class ActionSpace:
    """The actions of one ruleset with their stable integer codes (see the module docstring)."""

    def __init__(self, ruleset: str, actions: Sequence[Action]) -> None:
        self.ruleset = ruleset
        self.actions: Tuple[Action, ...] = tuple(actions)
        self.size = len(self.actions)
        code_of = [-1] * len(ALL_ACTIONS)
        for code, action in enumerate(self.actions):
            code_of[action.uid] = code
        #: uid -> code (-1 when the action is not part of this ruleset); the engine's fast lookup.
        self.code_of_uid: Tuple[int, ...] = tuple(code_of)

    def code(self, action: Action) -> int:
        """The integer code of `action`. Raises IllegalActionError for an action outside this ruleset."""
        code = self.code_of_uid[action.uid] if isinstance(action, Action) else -1
        if code < 0:
            raise IllegalActionError(f"{action!r} is not an action of {self.ruleset}")
        return code

    def action(self, code: int) -> Action:
        """The action with integer code `code` (0 <= code < size)."""
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < self.size:
            raise IllegalActionError(f"{code!r} is not an action code of {self.ruleset} (0..{self.size - 1})")
        return self.actions[code]

    def mask(self, actions: Sequence[Action]) -> bytearray:
        """A 0/1 bytearray of length `size` with 1 at the codes of `actions`."""
        out = bytearray(self.size)
        code_of = self.code_of_uid
        try:
            for a in actions:
                code = code_of[a.uid]
                if code < 0:  # (an action of another ruleset's space: index -1 would mark the last code)
                    raise IllegalActionError(f"{a!r} is not an action of the {self.ruleset} action space")
                out[code] = 1
        except (AttributeError, TypeError):
            raise InvalidTypeError(f"ActionSpace.mask takes the engine's Actions, got {actions!r}") from None
        return out

    def table(self) -> List[Tuple[int, str]]:
        """(code, action) rows: the encoding table, e.g. for documentation."""
        return [(code, repr(a)) for code, a in enumerate(self.actions)]

    def __repr__(self) -> str:
        return f"ActionSpace({self.ruleset!r}, size={self.size})"


_CORE = DISCARD + DECLARE + CONCEALED_KONG + ADDED_KONG + (PASS, WIN, PUNG, KONG) + CHOW[1:]

SPACES: Dict[str, ActionSpace] = {
    "mcr": ActionSpace("mcr", _CORE),
    "changbai": ActionSpace("changbai", _CORE + tuple(PIAO.values())),
    "sichuan": ActionSpace(
        "sichuan", DISCARD[:27] + CONCEALED_KONG[:27] + ADDED_KONG[:27] + (PASS, WIN, PUNG, KONG) + VOID),
}


def _chow_patterns(t: int) -> Tuple[Tuple[Action, int, int], ...]:
    """(CHOW action, other tile, other tile) for each chow the discard t can complete."""
    if t >= 27:
        return ()
    r = t % 9
    out = []
    if r <= 6:
        out.append((CHOW[1], t + 1, t + 2))
    if 1 <= r <= 7:
        out.append((CHOW[2], t - 1, t + 1))
    if r >= 2:
        out.append((CHOW[3], t - 2, t - 1))
    return tuple(out)


#: CHOW_PATTERNS[t]: (CHOW action, other tile, other tile) for each chow a discard of t can complete
CHOW_PATTERNS: Tuple[Tuple[Tuple[Action, int, int], ...], ...] = tuple(_chow_patterns(t) for t in range(34))
