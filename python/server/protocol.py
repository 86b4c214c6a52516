"""The table server's JSON protocol: checking what a client sends, building what the server sends.

Pure functions on dicts (no I/O, no websockets), documented message by message in docs/SERVER.md.
Every client message is one JSON object with a "type"; `parse_message` checks it completely — the
type, every field's type and range, no unknown field — and raises `ProtocolError` naming the problem
before the server looks at it, so a malformed message changes nothing.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple

from mahjong_core.errors import MahjongError

__all__ = ["PROTOCOL", "MAX_MESSAGE", "ProtocolError", "parse_message", "error", "MESSAGES"]

PROTOCOL = "mahjong_core.server/1"
#: the longest message a client may send (bytes); a longer one is refused unread
MAX_MESSAGE = 4096


class ProtocolError(MahjongError, ValueError):
    """A client message that is not valid protocol; `code` is the error reply's machine-readable kind."""

    def __init__(self, message: str, code: str = "malformed") -> None:
        super().__init__(message)
        self.code = code


_ANY = object()

# type -> {field: (python types, required)}; "action" is checked by the game (a code, name or JSON form)
MESSAGES: Dict[str, Dict[str, Tuple[Any, bool]]] = {
    "join": {"table": (str, False), "seat": (int, False), "name": (str, False), "bots": (int, False)},
    "resume": {"token": (str, True), "since": (int, False)},
    "act": {"step": (int, True), "action": (_ANY, True)},
    "leave": {},
    "ping": {"id": (_ANY, False)},
    "tables": {},
}

_LIMITS = {"seat": (0, 3), "bots": (0, 3), "since": (0, 1 << 31), "step": (0, 1 << 31)}
_LENGTHS = {"table": 64, "name": 32, "token": 64}


def _describe(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_message(raw: Any) -> Dict[str, Any]:
    """The checked message of one WebSocket frame (str or bytes). Raises ProtocolError."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 JSON text") from None
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too long ({len(raw)} characters; at most {MAX_MESSAGE})")
    try:
        message = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object with a \"type\", got {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError('a message needs a "type" string, e.g. {"type": "join"}', "malformed")
    fields = MESSAGES.get(kind)
    if fields is None:
        raise ProtocolError(f"unknown message type {_describe(kind)}; types: {', '.join(MESSAGES)}", "unknown_type")
    for name in message:
        if name != "type" and name not in fields:
            known = ", ".join(fields) or "none"
            raise ProtocolError(f"{kind}: unknown field {_describe(name)} (fields: {known})", "bad_field")
    for name, (types, required) in fields.items():
        if name not in message:
            if required:
                raise ProtocolError(f"{kind}: missing field \"{name}\"", "bad_field")
            continue
        value = message[name]
        if types is _ANY:
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            raise ProtocolError(f"{kind}: \"{name}\" must be {'an integer' if types is int else 'a string'}, "
                                f"got {_describe(value)}", "bad_field")
        if name in _LIMITS:
            low, high = _LIMITS[name]
            if not low <= value <= high:
                raise ProtocolError(f"{kind}: \"{name}\" must be {low}..{high}, got {value}", "bad_field")
        if name in _LENGTHS and not 0 < len(value) <= _LENGTHS[name]:
            raise ProtocolError(f"{kind}: \"{name}\" must be 1..{_LENGTHS[name]} characters", "bad_field")
    return message


def error(code: str, message: str, request: Optional[str] = None) -> Dict[str, Any]:
    """An error reply: `code` (machine-readable), `message` (what was wrong and how to fix it)."""
    return {"type": "error", "error": code, "message": message, "request": request}
