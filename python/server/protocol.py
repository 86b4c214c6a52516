"""The table server's JSON protocol: checking what a client sends, building what the server sends.

Pure functions on dicts (no I/O, no websockets), documented message by message in docs/SERVER.md.
Every client message is one JSON object with a "type"; `parse_message` checks it completely — the
type, every field's type and range, no unknown field — and raises `ProtocolError` naming the problem
before the server looks at it, so a malformed message changes nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Optional, Tuple

from mahjong_core.errors import MahjongError

__all__ = ["PROTOCOL", "MAX_MESSAGE", "ProtocolError", "parse_message", "error", "MESSAGES"]

PROTOCOL = "mahjong_core.server/1"
#: the longest message a client may send (bytes); a longer one is refused unread
MAX_MESSAGE = 4096


class ProtocolError(MahjongError, ValueError):
    """A client message that is not valid protocol; `code` is the error reply's machine-readable kind,
    `request` the message type when it was recognised (else None)."""

    def __init__(self, message: str, code: str = "malformed", request: Optional[str] = None) -> None:
        super().__init__(message)
        self.code = code
        self.request = request


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


_JSON_TYPES = ((type(None), "null"), (bool, "boolean"), ((int, float), "number"), (str, "string"),
               (list, "array"), (dict, "object"))


def json_type(value: Any) -> str:
    """The JSON name of a value's type (null, boolean, number, string, array, object), for messages."""
    return next(name for kind, name in _JSON_TYPES if isinstance(value, kind))


def _no_duplicate_keys(pairs: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError(f"key {_describe(key)} appears twice in one object; send each field once")
        out[key] = value
    return out


def _finite_number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"the number {text[:20]} is too large for JSON; send finite numbers")
    return value


def _no_constant(name: str) -> None:
    raise ProtocolError(f"{name} is not JSON (a JavaScript value); send finite numbers")


#: how deep a message's arrays and objects may nest (a protocol message is a flat object)
MAX_DEPTH = 32


def _load_json(raw: str) -> Any:
    """Strict JSON (RFC 8259): no NaN / Infinity, no number that overflows, no key given twice, and
    at most MAX_DEPTH levels of nesting."""
    try:
        value = json.loads(raw, object_pairs_hook=_no_duplicate_keys, parse_float=_finite_number,
                           parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:  # (Python 3.11's decoder; 3.13's parses deeper: the walk below decides)
        value = None
    else:
        if _depth_within(value, MAX_DEPTH):
            return value
    raise ProtocolError(f"JSON nested too deeply (more than {MAX_DEPTH} levels); a message is a flat object")


def _depth_within(value: Any, limit: int) -> bool:
    """Whether `value`'s arrays and objects nest at most `limit` levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return False
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return True


def parse_message(raw: Any) -> Dict[str, Any]:
    """The checked message of one WebSocket frame (str or bytes). Raises ProtocolError."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 JSON text") from None
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too long ({len(raw)} characters; at most {MAX_MESSAGE})")
    message = _load_json(raw)
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object with a \"type\", got {json_type(message)}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError('a message needs a "type" string, e.g. {"type": "join"}', "malformed")
    fields = MESSAGES.get(kind)
    if fields is None:
        raise ProtocolError(f"unknown message type {_describe(kind)}; types: {', '.join(MESSAGES)}", "unknown_type")
    for name in message:
        if name != "type" and name not in fields:
            known = ", ".join(fields) or "none"
            raise ProtocolError(f"{kind}: unknown field {_describe(name)} (fields: {known})", "bad_field", kind)
    for name, (types, required) in fields.items():
        if name not in message:
            if required:
                raise ProtocolError(f"{kind}: missing field \"{name}\"", "bad_field", kind)
            continue
        value = message[name]
        if types is _ANY:
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            raise ProtocolError(f"{kind}: \"{name}\" must be {'an integer' if types is int else 'a string'}, "
                                f"got {_describe(value)}", "bad_field", kind)
        if name in _LIMITS:
            low, high = _LIMITS[name]
            if not low <= value <= high:
                raise ProtocolError(f"{kind}: \"{name}\" must be {low}..{high}, got {value}", "bad_field", kind)
        if name in _LENGTHS and not 0 < len(value) <= _LENGTHS[name]:
            raise ProtocolError(f"{kind}: \"{name}\" must be 1..{_LENGTHS[name]} characters", "bad_field", kind)
    return message


def error(code: str, message: str, request: Optional[str] = None) -> Dict[str, Any]:
    """An error reply: `code` (machine-readable), `message` (what was wrong and how to fix it)."""
    return {"type": "error", "error": code, "message": message, "request": request}
