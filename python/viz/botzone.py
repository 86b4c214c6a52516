"""Botzone judge records (`{"log": [...], "initdata": {...}}`) as viewer logs.

The record alternates the judge's output (`{"output": {"command", "content", "display"}}`) and the
four players' responses. Everything the viewer needs is in the judge's part: the deal (each
seat's `1 ...` request), and per round the display's action, player and tile (a PENG / CHI round
names the discard after the claim; the claimed tile is the discard before it). `from_botzone`
turns that into the event list of a mahjong_core game log (dealer seat 0, prevalent wind `quan`,
wall count = tiles not yet taken from the four walls), with the final scores as totals.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Tuple

from mahjong_core.errors import InvalidArgumentError

__all__ = ["from_botzone", "is_botzone_record", "code_name"]

_SUIT = {"W": "m", "B": "p", "T": "s"}
_HONOURS = {"F1": "E", "F2": "S", "F3": "W", "F4": "N", "J1": "C", "J2": "F", "J3": "P"}


def code_name(code: str) -> str:
    """A Botzone tile code (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3 H1..H8) -> the log's tile name."""
    if isinstance(code, str) and len(code) == 2:
        if code[0] in _SUIT and code[1] in "123456789":
            return code[1] + _SUIT[code[0]]
        if code in _HONOURS:
            return _HONOURS[code]
        if code[0] == "H" and code[1] in "12345678":
            return "abcdefgh"[int(code[1]) - 1]
    raise InvalidArgumentError(
        f"Botzone record: {code!r} is not a tile code (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3 H1..H8)")


def is_botzone_record(obj: Any) -> bool:
    return isinstance(obj, Mapping) and isinstance(obj.get("log"), list) and "initdata" in obj


def _initdata(record: Mapping[str, Any]) -> Dict[str, Any]:
    init = record.get("initdata")
    if isinstance(init, str):
        try:
            init = json.loads(init) if init.strip() else {}
        except ValueError:
            raise InvalidArgumentError("Botzone record: initdata is a string that is not JSON") from None
    if not isinstance(init, Mapping):
        raise InvalidArgumentError("Botzone record: initdata must be an object")
    return dict(init)


def from_botzone(record: Mapping[str, Any]) -> Dict[str, Any]:
    """A Botzone judge record as a viewer log (see the module docstring). Raises
    InvalidArgumentError, naming the round, for a record that cannot be read."""
    if not is_botzone_record(record):
        raise InvalidArgumentError('a Botzone record is {"log": [...], "initdata": {...}}')
    init = _initdata(record)
    walltiles = init.get("walltiles")
    total = len(walltiles.split()) if isinstance(walltiles, str) and walltiles.strip() else 136
    quan = init.get("quan", 0)
    events: List[Dict[str, Any]] = []
    taken = 0
    last_round: Tuple[str, Any] = ("", -1)      # (action, player) of the previous judge round
    last_discard: Optional[Tuple[Any, Any]] = None
    drawn: Dict[Any, Any] = {}
    adding: Optional[Tuple[Any, Any]] = None
    totals: Optional[List[int]] = None
    rounds = 0
    for i, entry in enumerate(record["log"]):
        out = entry.get("output") if isinstance(entry, Mapping) else None
        if not isinstance(out, Mapping):
            continue
        rounds += 1
        where = f"Botzone record, log entry {i}"
        display: Mapping[str, Any] = out["display"] if isinstance(out.get("display"), Mapping) else {}
        content: Mapping[Any, Any] = out["content"] if isinstance(out.get("content"), Mapping) else {}
        action = display.get("action")
        p: Any = display.get("player")
        try:
            if out.get("command") == "finish":
                totals = [int(content.get(str(s), content.get(s, 0))) for s in range(4)]
                if action == "HU":
                    events.extend(_win(p, display, last_round, drawn, last_discard, adding))
                elif action == "HUANG":
                    events.append({"type": "exhausted"})
                else:
                    events.append({"type": "penalty", "seat": p, "code": action})
                winners = [p] if action == "HU" else []
                events.append({"type": "end", "winners": winners, "totals": totals})
                break
            tile = code_name(display["tile"]) if display.get("tile") else None
            if action == "DEAL":
                hands, flowers = _deal(content)
                taken = 52 + sum(len(f) for f in flowers)
                events.append({"type": "deal", "dealer": 0, "hands": hands, "flowers": flowers, "wall": total - taken})
            elif action == "DRAW":
                if tile is None:  # the drawer's own request says "2 T"
                    tile = code_name(str(content[str(p)]).split()[1])
                if adding is not None and adding[0] == p:
                    events.append({"type": "added_kong", "seat": p, "tile": adding[1]})
                adding = None
                taken += 1
                kind = "replacement" if last_round[0] in ("GANG", "BUGANG") and last_round[1] == p else "draw"
                events.append({"type": kind, "seat": p, "tile": tile, "wall": total - taken})
                drawn[p] = tile
            elif action == "BUHUA":
                taken += 1
                events.append({"type": "flower", "seat": p, "tile": tile, "replacement": None, "wall": total - taken})
            elif action == "PLAY":
                events.append({"type": "discard", "seat": p, "tile": tile, "declare": False})
                last_discard = (p, tile)
            elif action in ("PENG", "CHI"):
                if last_discard is None:
                    raise InvalidArgumentError(f"{where}: {action} without a discard before it")
                frm, claimed = last_discard
                if action == "PENG":
                    events.append({"type": "pung", "seat": p, "tile": claimed, "from": frm})
                else:
                    middle = code_name(display["tileCHI"])
                    position = _rank(claimed) - _rank(middle) + 2
                    events.append({"type": "chow", "seat": p, "tile": claimed, "from": frm, "position": position})
                events.append({"type": "discard", "seat": p, "tile": tile, "declare": False})
                last_discard = (p, tile)
            elif action == "GANG":
                if last_round == ("DRAW", p):
                    events.append({"type": "concealed_kong", "seat": p, "tile": tile or drawn.get(p)})
                else:
                    if last_discard is None:
                        raise InvalidArgumentError(f"{where}: GANG on a discard without a discard before it")
                    frm, claimed = last_discard
                    events.append({"type": "kong", "seat": p, "tile": claimed, "from": frm})
            elif action == "BUGANG":
                events.append({"type": "adding_kong", "seat": p, "tile": tile})
                adding = (p, tile)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InvalidArgumentError(f"{where}: cannot read the {action} round ({exc!r})") from None
        if action not in (None, "INIT"):
            last_round = (str(action), p)
    if rounds == 0 or (totals is None and not any(e["type"] == "deal" for e in events)):
        raise InvalidArgumentError("Botzone record: no judge round with a DEAL or a finish (is this a "
                                   "Chinese-Standard-Mahjong record?)")
    return {"format": "mahjong_core.viz/botzone", "source": "botzone", "ruleset": "mcr", "dealer": 0,
            "options": {"prevalent_wind": quan if isinstance(quan, int) else 0}, "seed": init.get("srand"),
            "events": events, "ledger": [], "totals": totals, "rounds": rounds}


def _rank(name: str) -> int:
    return int(name[0])


def _deal(content: Mapping[str, Any]) -> Tuple[List[List[str]], List[List[str]]]:
    hands: List[List[str]] = []
    flowers: List[List[str]] = [[], [], [], []]
    for s in range(4):
        fields = str(content[str(s)]).split()
        if fields[0] != "1":
            raise ValueError(f"seat {s}: expected a '1 ...' deal request, got {content[str(s)]!r}")
        counts = [int(x) for x in fields[1:5]]
        hands.append([code_name(c) for c in fields[5:18]])
        rest = [code_name(c) for c in fields[18:]]
        if s == 0:
            at = 0
            for k in range(4):
                flowers[k] = rest[at: at + counts[k]]
                at += counts[k]
    return hands, flowers


def _win(p: Any, display: Mapping[str, Any], last_round: Tuple[str, Any], drawn: Mapping[Any, Any],
         last_discard: Optional[Tuple[Any, Any]], adding: Optional[Tuple[Any, Any]]) -> List[Dict[str, Any]]:
    fans = [[f.get("name", "?"), int(f.get("value", 0)), int(f.get("cnt", 1))] for f in display.get("fan") or ()]
    score = {"total": display.get("fanCnt"), "fans": fans}
    if last_round == ("DRAW", p):
        return [{"type": "win", "seat": p, "tile": drawn[p], "from": None, "score": score}]
    if adding is not None and last_round[0] == "BUGANG":
        seat, tile = adding
        return [{"type": "robbed", "seat": seat, "tile": tile},
                {"type": "win", "seat": p, "tile": tile, "from": seat, "score": score}]
    if last_discard is None:
        raise InvalidArgumentError("Botzone record: a HU with no tile to win on")
    frm, tile = last_discard
    return [{"type": "win", "seat": p, "tile": tile, "from": frm, "score": score}]
