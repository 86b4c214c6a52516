"""Game logs (JSON-serialisable) and `replay(log) -> Game`.

A log holds everything needed to rebuild a hand exactly — ruleset, preset name and every rule value,
seed and hand number, dealer, ruleset options, the wall (tile names, in order) and every answer in
the order it was given (`actions`: [seat, action code] with the ruleset's `ActionSpace` codes) — plus
a readable account of what happened (`events`), the winners, the ledger and the totals.

The log is omniscient (the whole wall, every answer): it is a record for after the hand, replays
and audits — send players `Game.view(seat)` during a hand, never the log.

Tiles in logs are names: "1m".."9m", "1p".."9p", "1s".."9s", "E" "S" "W" "N", "C" "F" "P" (中发白),
flowers "a".."h".

Event types (fields besides "type"):

| type | fields |
|---|---|
| deal | dealer (event streams add hands: the tiles dealt to each seat, null for the others') |
| void / piao | values (per seat, revealed together) |
| draw, replacement | seat, tile (replacement: a kong's replacement from the tail) |
| flower | seat, tile (the flower set aside), replacement (tile drawn for it from the tail, or null) |
| discard | seat, tile, declare (true = 报听 with this discard) |
| auto | seat (a declared-ready (报听) seat's drawn tile goes out; the discard follows; asked or not) |
| keep | seat (Changbai last four: the drawn tile is kept, no win) |
| chow | seat, tile, from, position (1..3: the claimed tile's place in the chow) |
| pung, kong | seat, tile, from |
| concealed_kong, added_kong | seat, tile |
| adding_kong | seat, tile (an added kong, before `added_kong` or `robbed`; robbable or not) |
| robbed | seat, tile (the added kong was robbed; it never happened) |
| win | seat, tile, from (null for a self-draw), score (ruleset summary) |
| wall_end | pigs, ready, not_ready (Sichuan 查花猪/查大叫) |
| exhausted | — (the wall ran out) |
| end | winners, totals |
"""

from __future__ import annotations

from typing import Any, Dict

from .wall import tile_name

__all__ = ["LOG_FORMAT", "game_log", "event_json", "seat_event_json"]

# `replay(log)` lives next to `new_game` (mahjong_core.game.start). This module is imported by the
# engine and reads a Game through its public surface only.

LOG_FORMAT = "mahjong_core.game/1"

_FIELDS: Dict[str, tuple] = {
    "deal": ("dealer",),
    "void": ("values",),
    "piao": ("values",),
    "draw": ("seat", "tile"),
    "replacement": ("seat", "tile"),
    "flower": ("seat", "tile", "replacement"),
    "discard": ("seat", "tile", "declare"),
    "auto": ("seat",),
    "keep": ("seat",),
    "chow": ("seat", "tile", "from", "position"),
    "pung": ("seat", "tile", "from"),
    "kong": ("seat", "tile", "from"),
    "concealed_kong": ("seat", "tile"),
    "added_kong": ("seat", "tile"),
    "adding_kong": ("seat", "tile"),
    "robbed": ("seat", "tile"),
    "win": ("seat", "tile", "from", "score"),
    "wall_end": ("pigs", "ready", "not_ready"),
    "exhausted": (),
    "penalty": ("seat", "code"),  # the Botzone table's WA / WH / TLE (mahjong_core.botzone)
    "end": ("winners", "totals"),
    "leave": ("seat", "charged", "paid", "after_actions"),  # Game.leave (Sichuan 逃跑/强退)
}
_TILE_FIELDS = frozenset(("tile", "replacement"))


def event_json(event: tuple) -> Dict[str, Any]:
    kind = event[0]
    out: Dict[str, Any] = {"type": kind}
    for name, value in zip(_FIELDS[kind], event[1:]):
        if name in _TILE_FIELDS:
            value = None if value < 0 else tile_name(value)
        elif name == "from" and value < 0:
            value = None
        out[name] = value
    return out


#: event types with a field hidden from every seat but the event's own: type -> field
_HIDDEN = {"draw": "tile", "replacement": "tile", "concealed_kong": "tile", "flower": "replacement"}


def seat_event_json(event: tuple, viewer: int) -> Dict[str, Any]:
    """`event_json(event)` as seat `viewer` may see it: another seat's drawn tile, kong
    replacement, flower replacement and concealed kong tile are null (the deal's hands are added
    by `Game.events`)."""
    out = event_json(event)
    hidden = _HIDDEN.get(event[0])
    if hidden is not None and event[1] != viewer:
        out[hidden] = None
    return out


def game_log(game: Any) -> Dict[str, Any]:
    """The JSON-serialisable record of a hand (see the module docstring)."""
    code_of = game.space.code_of_uid
    return {
        "format": LOG_FORMAT,
        "ruleset": game.ruleset,
        "preset": game.rules.preset_name,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "hand_no": game.hand_no,
        "shuffled": game.shuffled,
        "dealer": game.dealer,
        "options": dict(game.options),
        "wall": [tile_name(t) for t in game.wall],
        "actions": [[seat, code_of[action.uid]] for seat, action in game.answer_history()],
        "events": [event_json(e) for e in game.event_history()],
        "finished": game.finished,
        "winners": list(game.winners),
        "ledger": game.ledger.to_json(),
        "totals": game.ledger.totals(),
    }
