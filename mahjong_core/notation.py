"""The Chinese-mahjong hand notation (GB-Mahjong / ChineseOfficialMahjongHelper style).

    [123m,2][555p,1][EEEE]  melds, optional ",N" claim marker (see `Meld`)
    123m45p6699sEEC        concealed tiles: digit runs with a suit letter, honours as letters
    |EE1000|3               MCR context: prevalent wind, seat wind, four 0/1 flags (self-drawn,
                            last copy, last wall tile, kong-related), optional flowers (count or a..h)

Honours are E S W N C F P (东南西北中发白) or 1z..7z — 5z/6z/7z are 中发白 (the rule documents'
order), NOT Tenhou's 白發中. When the concealed part holds 14 - 3*melds tiles its last written tile
is the winning tile.

Tiles may also be written as Unicode mahjong glyphs (U+1F000 block, what `Tile.glyph` gives),
anywhere a tile letter may stand and mixed freely with the letters: "🀇🀈🀉123p" or
`Hand.glyphs()` output (a space between two glyph tiles is a separator; a variation selector
after a glyph, as in "🀄️", is ignored). Flower glyphs are not tiles (flowers go in the context).

The notation of a hand is short; input longer than MAX_NOTATION_LENGTH characters is refused
at once (ParseError naming the length, not echoing the text).

`parse` raises ParseError (naming the column) for malformed text and InvalidHandError for a
well-formed but impossible hand; `format_hand` writes the canonical form, and
`parse(format_hand(h)) == h` for every hand the notation can express: a waiting-size hand, or a
full-size hand with its winning tile. (A full-size Hand built from counts without a winning tile
formats the same way, so parsing it back makes its last tile the winning tile.)
"""

from __future__ import annotations


from ._core import _format_hand as _format_native
from ._core import _parse_notation as _parse_native
from ._core import HandCore as _HandCore
from .errors import InvalidArgumentError, InvalidHandError, InvalidTypeError, ParseError
from .model import MCRContext, Meld, MeldKind
from .tiles import FLOWER_GLYPHS, HONOR_LETTERS, Tile

TYPE_CHECKING = False  # typing is not imported at run time (start-up); checkers read True
if TYPE_CHECKING:
    from typing import List, Optional, Tuple

    from .hand import Hand

__all__ = ["parse", "format_hand", "format_tiles", "parse_tiles", "MAX_NOTATION_LENGTH"]

# The longest notation of a real hand is ~70 characters (four kongs with markers, a full context
# with eight flower letters); 256 leaves room for surrounding whitespace. A bare tile list
# (parse_tiles, e.g. a whole wall) may be longer.
MAX_NOTATION_LENGTH = 256
MAX_TILES_LENGTH = 1024

_SUITS = "mps"
_DIGITS = "123456789"
_WINDS = "ESWN"


def _is_digit(ch: str) -> bool:
    """An ASCII digit. (str.isdigit() is also true for '²', '٣' and other Unicode digits, which
    int() then rejects or silently reads as ranks.)"""
    return len(ch) == 1 and "0" <= ch <= "9"


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str, pos: Optional[int] = None) -> ParseError:
        where = self.pos if pos is None else pos
        return ParseError(message, self.text, where + 1)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def tiles(self, stop: str) -> List[Tuple[Tile, int]]:
        """Tiles up to one of the characters in `stop` (or the end), each with its column."""
        # Parsing is on the path of every notation-string call, so the loop works on locals and
        # table lookups; anything unusual falls through to `_reject`, which explains it.
        text, pos, end = self.text, self.pos, len(self.text)
        out: List[Tuple[Tile, int]] = []
        digits: List[int] = []  # columns of pending rank digits
        while pos < end:
            ch = text[pos]
            if ch in stop:
                break
            if ch in _RANKS:
                digits.append(pos)
            elif ch in _SUIT_TILES:
                if not digits:
                    self.pos = pos
                    raise self.error(f"suit letter '{ch}' must follow tile digits, e.g. 123{ch}")
                row = _SUIT_TILES[ch]
                for col in digits:
                    rank = _RANKS[text[col]]
                    if rank >= len(row):
                        raise self.error(f"{rank + 1}z is not a tile: honours are 1z..7z (E S W N C F P)", col)
                    out.append((row[rank], col))
                digits = []
            elif ch in _HONOR_TILES:
                if digits:
                    raise self.error(f"digits before '{ch}' need a suit letter (m, p, s or z)", digits[-1] + 1)
                out.append((_HONOR_TILES[ch], pos))
            elif ch in _GLYPH_TILES:
                if digits:
                    raise self.error(f"digits before '{ch}' need a suit letter (m, p, s or z)", digits[-1] + 1)
                out.append((_GLYPH_TILES[ch], pos))
                while pos + 1 < end and text[pos + 1] in _VARIATION_SELECTORS:
                    pos += 1
                if pos + 2 < end and text[pos + 1] == " " and text[pos + 2] in _GLYPH_TILES:
                    pos += 1  # a space between two glyph tiles separates them
            else:
                self.pos = pos
                raise self._reject(ch)
            pos += 1
        self.pos = pos
        if digits:
            raise self.error("tile digits need a suit letter (m, p, s or z)", digits[-1] + 1)
        return out

    def _reject(self, ch: str) -> ParseError:
        if ch in _FLOWER_GLYPHS:
            return self.error(f"{ch!r} is a flower glyph, not a tile: flowers go in the context (|EE1000|a)")
        if ch == "0":
            return self.error("0 is not a tile rank (these rulesets have no red fives)")
        if ch.isspace():
            return self.error("unexpected whitespace inside the hand")
        return self.error(
            f"unexpected character {ch!r}: tiles are digits with m/p/s/z, or the honour letters "
            "E S W N C F P (5z/6z/7z = 中发白)"
        )


_ALL_TILES = tuple(Tile)
_RANKS = {str(r): r - 1 for r in range(1, 10)}  # ASCII digits only (not '²' or '٣')
_SUIT_TILES = {"m": _ALL_TILES[0:9], "p": _ALL_TILES[9:18], "s": _ALL_TILES[18:27], "z": _ALL_TILES[27:34]}
_HONOR_TILES = {letter: _ALL_TILES[27 + i] for i, letter in enumerate(HONOR_LETTERS)}
_GLYPH_TILES = {t.glyph: t for t in _ALL_TILES}
_FLOWER_GLYPHS = frozenset(FLOWER_GLYPHS)
_VARIATION_SELECTORS = "\ufe0e\ufe0f"


def _check_length(text: str, limit: int) -> None:
    if len(text) > limit:
        raise ParseError(
            f"notation too long: {len(text)} characters (at most {limit}); it starts {text[:24]!r}"
        )


def _meld(sc: _Scanner) -> Meld:
    start = sc.pos
    sc.pos += 1  # '['
    tiles = sc.tiles(",]|[")
    if not tiles:
        raise sc.error("empty meld: expected 3 or 4 tiles inside [ ]")
    marker: Optional[int] = None
    if sc.peek() == ",":
        sc.pos += 1
        if not _is_digit(sc.peek()):
            raise sc.error("expected a claim marker digit after ','")
        marker = int(sc.peek())
        marker_col = sc.pos
        sc.pos += 1
    if sc.peek() != "]":
        raise sc.error("expected ']' to close the meld" if not sc.at_end() else "unterminated meld: expected ']'")
    sc.pos += 1
    kinds = [t for t, _ in tiles]
    if len({t.suit for t in kinds}) > 1:
        raise InvalidHandError(f"meld at column {start + 1}: a chow cannot run across suits ({''.join(map(str, kinds))})")
    if len(kinds) == 4 and len(set(kinds)) == 1:
        kind = MeldKind.KONG
    elif len(kinds) == 3 and len(set(kinds)) == 1:
        kind = MeldKind.PUNG
    elif len(kinds) == 3 and kinds[0] < 27 and sorted(kinds) == [min(kinds) + i for i in range(3)]:
        kind = MeldKind.CHOW
    else:
        raise InvalidHandError(
            f"meld at column {start + 1} ({''.join(map(str, kinds))}) is not a chow, pung or kong"
        )
    low = min(kinds)
    if marker is not None:
        allowed = (1, 2, 3, 5, 6, 7) if kind == MeldKind.KONG else (1, 2, 3)
        if marker not in allowed:
            raise ParseError(
                f"claim marker {marker} is not valid for a {kind.name.lower()} (allowed: "
                f"{', '.join(map(str, allowed))})",
                sc.text,
                marker_col + 1,
            )
    concealed = kind == MeldKind.KONG and marker is None
    return Meld(kind, Tile(low), concealed, marker)


def _context(sc: _Scanner) -> MCRContext:
    sc.pos += 1  # '|'
    head = sc.text[sc.pos : sc.pos + 6]
    for i, ch in enumerate(head):
        if i < 2 and ch not in _WINDS:
            raise sc.error(f"expected a wind letter (E S W N) for the {'prevalent' if i == 0 else 'seat'} wind", sc.pos + i)
        if i >= 2 and ch not in "01":
            raise sc.error("expected a 0/1 flag (self-drawn, last copy, last wall tile, kong)", sc.pos + i)
    if len(head) < 6:
        raise sc.error("context needs 6 characters: prevalent wind, seat wind and four 0/1 flags, e.g. |EE1000",
                       sc.pos + len(head))
    sc.pos += 6
    flowers, flower_tiles = 0, None
    if sc.peek() == "|":
        sc.pos += 1
        field_start = sc.pos
        field = sc.text[sc.pos :]
        if field and all(_is_digit(ch) for ch in field):
            flowers = int(field)
            if flowers > 8:
                raise sc.error("at most 8 flowers", field_start)
        elif field:
            seen: List[int] = []
            for i, ch in enumerate(field):
                if ch not in "abcdefgh":
                    raise sc.error("flowers are a count 0..8 or letters a..h", field_start + i)
                if "abcdefgh".index(ch) in seen:
                    raise sc.error(f"flower {ch!r} appears twice", field_start + i)
                seen.append("abcdefgh".index(ch))
            flower_tiles = tuple(sorted(seen))
            flowers = len(seen)
        sc.pos = len(sc.text)
    elif not sc.at_end():
        raise sc.error("expected '|' and a flower field, or the end of the hand")
    return MCRContext(
        prevalent_wind=_WINDS.index(head[0]),
        seat_wind=_WINDS.index(head[1]),
        self_drawn=head[2] == "1",
        last_copy=head[3] == "1",
        wall_last=head[4] == "1",
        kong=head[5] == "1",
        flowers=flowers,
        flower_tiles=flower_tiles,
    )


# parse(text) -> Hand: the compiled scanner (see `_parse_reference` for the grammar and errors).
parse = _parse_native


def _parse_reference(text: str) -> "Hand":
    """The parser in Python: the definition of the grammar and the wording of every error.

    `parse` runs the compiled scanner (`_core._parse_notation`), which accepts exactly the same
    language and builds the same Hand; on anything it does not accept it calls this function, so
    every error — message, column and exception type — comes from here. tests/test_notation.py
    checks the two against each other on generated and mutated input."""
    from .hand import Hand

    if not isinstance(text, str):
        raise InvalidTypeError(f"parse() takes a notation string, got {type(text).__name__}")
    _check_length(text, MAX_NOTATION_LENGTH)
    sc = _Scanner(text.rstrip())  # columns stay those of `text`; surrounding whitespace is ignored
    sc.pos = len(text) - len(text.lstrip())
    if sc.at_end():
        raise ParseError("empty hand: expected tiles such as 123m456p789s11z")
    melds: List[Meld] = []
    while sc.peek() == "[":
        melds.append(_meld(sc))
    concealed = sc.tiles("|[")
    if sc.peek() == "[":
        raise sc.error("melds must come before the concealed tiles")
    context = _context(sc) if sc.peek() == "|" else None
    if not concealed:
        raise sc.error("no concealed tiles: a hand always holds at least one")
    counts = [0] * 34
    for t, _ in concealed:
        counts[t] += 1
    win_tile = concealed[-1][0] if len(concealed) == 14 - 3 * len(melds) else None
    return Hand(counts, tuple(melds), win_tile, context)


def parse_tiles(text: str) -> Tuple[Tile, ...]:
    """Parse a bare tile list such as "123m5pEE" (no melds, no context) in written order."""
    if not isinstance(text, str):
        raise InvalidTypeError(f"parse_tiles() takes notation text such as '123m5pEE', got {type(text).__name__}")
    _check_length(text, MAX_TILES_LENGTH)
    sc = _Scanner(text.strip())
    tiles = sc.tiles("")
    return tuple(t for t, _ in tiles)


def format_tiles(tiles) -> str:
    """Canonical notation of tiles: sorted, grouped by suit (m, p, s), honours as letters."""
    counts = [0] * 34
    if isinstance(tiles, str):
        raise InvalidTypeError(f"format_tiles() takes tiles (Tile values or indices 0..33), not text {tiles!r}; "
                               "mahjong_core.parse_tiles reads text")
    try:
        iterator = iter(tiles)
    except TypeError:
        raise InvalidTypeError(f"format_tiles() takes an iterable of tiles, got {type(tiles).__name__}") from None
    for t in iterator:
        if type(t) is not Tile:
            if t is True or t is False or not hasattr(t, "__index__"):  # (a bool or a float: never a tile)
                raise InvalidArgumentError(f"format_tiles(): {t!r} is not a tile (a Tile or an index 0..33)")
            try:
                t = Tile(t)  # validates anything else
            except (ValueError, TypeError):
                raise InvalidArgumentError(f"format_tiles(): {t!r} is not a tile (a Tile or an index 0..33)") from None
        counts[t] += 1
    return _format_counts(counts)


def _format_counts(counts) -> str:
    """Canonical notation of 34 counts (the common part of format_tiles and format_hand; it works on
    plain ints because building a Tile per tile made formatting slower than parsing)."""
    out = []
    for suit in range(3):
        base = 9 * suit
        run = "".join(_DIGITS[r] * counts[base + r] for r in range(9))
        if run:
            out.append(run + _SUITS[suit])
    out.append("".join(HONOR_LETTERS[i] * counts[27 + i] for i in range(7)))
    return "".join(out)


def format_hand(hand: "Hand") -> str:
    """Canonical notation: melds, sorted concealed tiles, the winning tile last, the context."""
    if isinstance(hand, _HandCore):
        return _format_native(hand)
    if not hasattr(hand, "counts"):
        raise InvalidTypeError(f"format_hand() takes a Hand, got {type(hand).__name__} (mahjong_core.parse makes one "
                               "from notation)")
    return _format_reference(hand)


def _format_reference(hand: "Hand") -> str:
    """format_hand in Python (the compiled `_core._format_hand` writes the same text)."""
    counts = list(hand.counts)
    win = hand.win_tile
    if win is not None:
        counts[win] -= 1
    text = "".join(str(m) for m in hand.melds) + _format_counts(counts)
    if win is not None:
        text += format_tiles((win,))
    if hand.context is not None:
        text += str(hand.context)
    return text
