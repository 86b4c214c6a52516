"""The Botzone Chinese-Standard-Mahjong protocol: requests (judge -> bot) and responses (bot -> judge).

Requests, one line each (see docs/BOTZONE.md):

    0 myID quan                     seat and prevalent wind
    1 f0 f1 f2 f3 t1..t13 flowers   flower counts, your 13 tiles, every seat's flowers
    2 T                             you drew T
    3 p DRAW | 3 p BUHUA H | 3 p PLAY T | 3 p PENG T | 3 p CHI M T | 3 p GANG | 3 p BUGANG T

`parse_request(line)` gives a `Request` (kind, seat, tile, ...) or raises `BotzoneProtocolError`
naming the line and the field. Responses: `PASS`, `HU`, `PLAY T`, `GANG T`, `BUGANG T`, `PENG T`,
`CHI M T`, `GANG`; `parse_response_text` checks one's form (not whether it is legal now: that is
`state.parse_response`, which needs the seat's state), `format_response` builds one from engine
actions, `split_response` cuts one the way the judge does (on single spaces, empty fields kept).
The whole grammar, with examples, is in docs/BOTZONE.md ("The protocol in full").
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional

from mahjong_core.errors import MahjongError

from .tiles import CODES, tile_index

__all__ = [
    "BotzoneProtocolError", "Request", "parse_request", "Response", "parse_response_text", "split_response",
    "format_response", "RESPONSE_FORMS",
    "INIT", "DEAL", "DRAW", "OTHER_DRAW", "BUHUA", "PLAY", "PENG", "CHI", "GANG", "BUGANG",
]

# Request kinds
INIT, DEAL, DRAW, OTHER_DRAW, BUHUA, PLAY, PENG, CHI, GANG, BUGANG = (
    "init", "deal", "draw", "other_draw", "buhua", "play", "peng", "chi", "gang", "bugang")


class BotzoneProtocolError(MahjongError, ValueError):
    """A malformed Botzone request or response; the message names the line and the field."""


class Request(NamedTuple):
    """One parsed request. `seat` is the acting seat (-1 for init/deal/your own draw)."""

    kind: str
    seat: int = -1
    tile: int = -1                 # the tile drawn / discarded / added / set aside
    middle: int = -1               # CHI: the middle tile of the chow
    quan: int = -1                 # init: the prevalent wind; the seat is in `seat`
    flower_counts: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()     # deal: your 13 tiles
    flowers: tuple[int, ...] = ()  # deal: every seat's flowers, seat 0 first


#: how much of a bad input an error message quotes (a bot's or a judge's line may be megabytes long)
QUOTED_CHARS = 80


def quote_input(text: Any) -> str:
    """`repr(text)` for an error message; a longer string than QUOTED_CHARS characters is cut to
    those and its length, so the message stays one readable line whatever was sent."""
    if isinstance(text, str) and len(text) > QUOTED_CHARS:
        return f"{text[:QUOTED_CHARS]!r}… ({len(text)} characters)"
    return repr(text)


def ascii_number(text: str, max_digits: int) -> int:
    """`text` as an int when it is 1..`max_digits` ASCII digits, else -1. (`str.isdigit` also
    accepts '²' and '٣', which `int` refuses, and `int` refuses more than 4300 digits.)"""
    if text.isascii() and text.isdigit() and len(text) <= max_digits:
        return int(text)
    return -1


#: the digits a numeric request field may have (leading zeros allowed: "03" is 3)
_FIELD_DIGITS = 4


def _where(lineno: Optional[int]) -> str:
    return "request" if lineno is None else f"request line {lineno}"


def _bad(line: str, lineno: Optional[int], why: str) -> BotzoneProtocolError:
    """The error for request `line`, quoted (cut when long), and what is wrong with it."""
    return BotzoneProtocolError(f"{_where(lineno)} {quote_input(line)}: {why}")


def _tile(fields: List[str], i: int, what: str, line: str, lineno: Optional[int], *, flower: bool = False) -> int:
    if i >= len(fields):
        raise _bad(line, lineno, f"field {i + 1} ({what}) is missing")
    try:
        t = tile_index(fields[i])
    except MahjongError:
        t = -1
    if t < 0 or (t >= 34) != flower:
        kind = "a flower H1..H8" if flower else "a tile code W1..J3"
        raise _bad(line, lineno, f"field {i + 1} ({what}) is {quote_input(fields[i])}, not {kind}")
    return t


def _int(fields: List[str], i: int, what: str, line: str, lineno: Optional[int], hi: int) -> int:
    if i >= len(fields):
        raise _bad(line, lineno, f"field {i + 1} ({what}) is missing")
    value = ascii_number(fields[i], _FIELD_DIGITS)
    if not 0 <= value <= hi:
        raise _bad(line, lineno, f"field {i + 1} ({what}) is {quote_input(fields[i])}, not 0..{hi}")
    return value


def _count(fields: List[str], n: int, line: str, lineno: Optional[int]) -> None:
    if len(fields) != n:
        raise _bad(line, lineno, f"expected {n} fields, got {len(fields)}")


def parse_request(line: str, lineno: Optional[int] = None) -> Request:
    """Parse one request line. Raises BotzoneProtocolError naming `lineno` (if given) and the field."""
    if not isinstance(line, str):
        raise BotzoneProtocolError(f"{_where(lineno)}: a request is a line of text, got {type(line).__name__}")
    fields = line.split()
    if not fields:
        raise BotzoneProtocolError(f"{_where(lineno)} is empty")
    head = fields[0]
    if head == "0":
        _count(fields, 3, line, lineno)
        return Request(INIT, seat=_int(fields, 1, "myID", line, lineno, 3), quan=_int(fields, 2, "quan", line, lineno, 3))
    if head == "1":
        if len(fields) < 18:
            raise _bad(line, lineno, f"a deal has 4 flower counts and 13 tiles, got {len(fields) - 1} fields")
        counts = tuple(_int(fields, i, f"flower count of seat {i - 1}", line, lineno, 8) for i in range(1, 5))
        hand = tuple(_tile(fields, i, f"tile {i - 4}", line, lineno) for i in range(5, 18))
        _count(fields, 18 + sum(counts), line, lineno)
        flowers = tuple(_tile(fields, i, f"flower {i - 17}", line, lineno, flower=True) for i in range(18, len(fields)))
        return Request(DEAL, flower_counts=counts, hand=hand, flowers=flowers)
    if head == "2":
        _count(fields, 2, line, lineno)
        return Request(DRAW, tile=_tile(fields, 1, "drawn tile", line, lineno))
    if head != "3":
        raise _bad(line, lineno, f"field 1 is {quote_input(head)}, not a request type 0..3")
    seat = _int(fields, 1, "player", line, lineno, 3)
    if len(fields) < 3:
        raise _bad(line, lineno, "field 3 (the operation) is missing")
    op = fields[2]
    if op == "DRAW":
        _count(fields, 3, line, lineno)
        return Request(OTHER_DRAW, seat)
    if op == "GANG":
        _count(fields, 3, line, lineno)
        return Request(GANG, seat)
    if op in ("BUHUA", "PLAY", "PENG", "BUGANG"):
        flower = op == "BUHUA"
        tile = _tile(fields, 3, "flower" if flower else "tile", line, lineno, flower=flower)
        _count(fields, 4, line, lineno)
        return Request({"BUHUA": BUHUA, "PLAY": PLAY, "PENG": PENG, "BUGANG": BUGANG}[op], seat, tile=tile)
    if op == "CHI":
        middle = _tile(fields, 3, "middle tile of the chow", line, lineno)
        if middle >= 27 or middle % 9 in (0, 8):
            raise _bad(line, lineno, f"field 4 ({fields[3]}) cannot be the middle of a chow")
        tile = _tile(fields, 4, "discard", line, lineno)
        _count(fields, 5, line, lineno)
        return Request(CHI, seat, tile=tile, middle=middle)
    raise _bad(line, lineno, f"field 3 is {quote_input(op)}, not DRAW BUHUA PLAY PENG CHI GANG BUGANG")


class Response(NamedTuple):
    """The form of one response: `op` is its first word ("PASS" "HU" "PLAY" "GANG" "BUGANG" "PENG"
    "CHI"); `tile` the tile it names (-1 for PASS, HU and a melded-kong GANG), `middle` CHI's middle tile."""

    op: str
    tile: int = -1
    middle: int = -1


#: the response forms, as written in docs/BOTZONE.md (M: a chow's middle tile, T: a tile W1..J3)
RESPONSE_FORMS = ("PASS", "HU", "PLAY T", "GANG T", "BUGANG T", "GANG", "PENG T", "CHI M T")


def parse_response_text(text: str) -> Response:
    """Check the form of a response as the judge reads it: exact words, one space between fields,
    tiles W1..J3 (no flowers). Says nothing about whether it is legal at this point of the game.
    Raises BotzoneProtocolError naming the field."""
    if not isinstance(text, str):
        raise BotzoneProtocolError(f"a response is a line of text, got {type(text).__name__}")
    fields = split_response(text)
    forms = " | ".join(RESPONSE_FORMS)
    op = fields[0]
    arity = {"PASS": (1,), "HU": (1,), "PLAY": (2,), "GANG": (1, 2), "BUGANG": (2,), "PENG": (2,), "CHI": (3,)}
    if op not in arity:
        raise BotzoneProtocolError(f"response {quote_input(text)}: field 1 is {quote_input(op)}, not one of {forms}")
    if len(fields) not in arity[op]:
        extra = " (fields are separated by exactly one space, with none at either end)" \
            if "" in fields else ""
        raise BotzoneProtocolError(f"response {quote_input(text)}: {op} takes {' or '.join(str(n - 1) for n in arity[op])} "
                                   f"tile(s), got {len(fields) - 1} field(s){extra}; forms: {forms}")

    def tile(i: int, what: str) -> int:
        try:
            t = tile_index(fields[i])
        except MahjongError:
            t = -1
        if not 0 <= t < 34:
            raise BotzoneProtocolError(f"response {quote_input(text)}: field {i + 1} ({what}) is {quote_input(fields[i])}, "
                                       "not a tile code W1..W9 B1..B9 T1..T9 F1..F4 J1..J3")
        return t

    if op == "CHI":
        middle = tile(1, "the middle tile of the chow")
        if middle >= 27 or middle % 9 in (0, 8):
            raise BotzoneProtocolError(f"response {quote_input(text)}: field 2 ({fields[1]}) cannot be the middle of a chow "
                                       "(a suit tile 2..8)")
        return Response(op, tile(2, "your discard"), middle)
    if len(fields) == 2:
        return Response(op, tile(1, "your discard" if op in ("PLAY", "PENG") else "the kong's tile"))
    return Response(op)


def split_response(text: str) -> List[str]:
    """A response's fields exactly as the judge cuts it: on single spaces, empty fields kept."""
    return text.split(" ")


def format_response(action: object, discard: object = None, *, claimed: int = -1) -> str:
    """The response text of an engine action.

    `action` is an engine `Action` (or a response string, returned unchanged). A pung or chow needs
    the `discard` that follows it (an Action DISCARD[t] or a tile index), and a chow the `claimed`
    tile (the discard it takes) to name its middle tile.
    """
    from mahjong_core.game.actions import Action, ActionKind

    if isinstance(action, str):
        return action
    if not isinstance(action, Action):
        raise BotzoneProtocolError(f"format_response: {action!r} is not an engine Action")
    kind = action.kind
    if kind is ActionKind.PASS:
        return "PASS"
    if kind is ActionKind.WIN:
        return "HU"
    if kind is ActionKind.DISCARD:
        return f"PLAY {CODES[action.arg]}"
    if kind is ActionKind.CONCEALED_KONG:
        return f"GANG {CODES[action.arg]}"
    if kind is ActionKind.ADDED_KONG:
        return f"BUGANG {CODES[action.arg]}"
    if kind is ActionKind.KONG:
        return "GANG"
    if kind in (ActionKind.PUNG, ActionKind.CHOW):
        if isinstance(discard, Action):
            if discard.kind is not ActionKind.DISCARD:
                raise BotzoneProtocolError(f"format_response: after {action!r} comes a discard, not {discard!r}")
            discard = discard.arg
        if isinstance(discard, bool) or not isinstance(discard, int) or not 0 <= discard < 34:
            raise BotzoneProtocolError(f"format_response: {action!r} needs the discard that follows it (a tile 0..33)")
        if kind is ActionKind.PUNG:
            return f"PENG {CODES[discard]}"
        if not 0 <= claimed < 27:
            raise BotzoneProtocolError(f"format_response: {action!r} needs the claimed suit tile (claimed=0..26)")
        middle = claimed - action.arg + 2
        return f"CHI {CODES[middle]} {CODES[discard]}"
    raise BotzoneProtocolError(f"format_response: {action!r} has no Botzone response")
