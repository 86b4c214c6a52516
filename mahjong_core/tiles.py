"""Tile kinds, hand forms and tile glyphs.

The 34 kinds use one canonical order everywhere (C++ and Python):

    0..8   1m..9m  characters 万
    9..17  1p..9p  dots 筒/饼
    18..26 1s..9s  bamboo 条/索
    27..30 E S W N winds 东南西北        (also 1z..4z)
    31..33 C F P   red, green, white 中发白 (also 5z 6z 7z)

Note: 5z/6z/7z follow the Chinese order 中发白 of the rule documents, NOT Tenhou's 白發中.
"""

from __future__ import annotations

from enum import EnumMeta, IntEnum, IntFlag

from .errors import InvalidHandError, InvalidTypeError, ParseError

TYPE_CHECKING = False  # typing is not imported at run time (start-up); checkers read True
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Tile", "Forms", "HONOR_LETTERS", "FLOWER_GLYPHS", "tile_from_str", "as_tile"]

HONOR_LETTERS = "ESWNCFP"
_SUITS = "mps"

# Unicode tiles (U+1F000 block). The block orders the kinds differently from us
# (winds, dragons red/green/white, characters, bamboo, dots), so map by table.
_GLYPHS = (
    [chr(0x1F007 + r) for r in range(9)]  # characters
    + [chr(0x1F019 + r) for r in range(9)]  # dots
    + [chr(0x1F010 + r) for r in range(9)]  # bamboo
    + [chr(0x1F000 + w) for w in range(4)]  # E S W N
    + [chr(0x1F004), chr(0x1F005), chr(0x1F006)]  # red, green, white dragon
)
# Flowers a..h: plum, orchid, chrysanthemum, bamboo, spring, summer, autumn, winter.
FLOWER_GLYPHS = tuple(chr(c) for c in (0x1F022, 0x1F023, 0x1F025, 0x1F024, 0x1F026, 0x1F027, 0x1F028, 0x1F029))

_CHINESE = (
    [f"{n}万" for n in "一二三四五六七八九"]
    + [f"{n}筒" for n in "一二三四五六七八九"]
    + [f"{n}条" for n in "一二三四五六七八九"]
    + list("东南西北中发白")
)


class _EnumType(EnumMeta):
    """The metaclass of Tile and Forms: an EnumMeta whose class-attribute lookup (`Tile.EAST`,
    `Forms.MCR`) the compiled binding makes as fast as a plain class's.

    Why: EnumMeta defines `__getattr__` (Python <= 3.11), which routes *every* attribute lookup on
    an enum class through a Python-level hook — ~150 ns for `Forms.MCR`, more than the shanten call
    it is passed to. The members are in the class dict, so the plain type lookup finds them; the
    hook only added a fallback for names that are not. `mahjong_core._core` installs the plain
    lookup on this metaclass at import (nothing else changes: same members, same errors)."""


class Tile(IntEnum, metaclass=_EnumType):
    """One of the 34 tile kinds; the value is the index into a 34-count array."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    RED = 31
    GREEN = 32
    WHITE = 33

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """The tile of a name: `Tile.parse("5p")` is `Tile.P5`, `"E"` or `"1z"` is `Tile.EAST`
        (`tile_from_str`; ParseError for anything else)."""
        return tile_from_str(text)

    def __str__(self) -> str:
        v = int(self)
        return HONOR_LETTERS[v - 27] if v >= 27 else f"{v % 9 + 1}{_SUITS[v // 9]}"

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @property
    def glyph(self) -> str:
        """The Unicode mahjong tile character (U+1F000 block)."""
        return _GLYPHS[self]

    @property
    def chinese(self) -> str:
        """Chinese name, e.g. 一万, 东, 中."""
        return _CHINESE[self]

    @property
    def suit(self) -> str:
        """'m', 'p', 's' or 'z' (honours)."""
        return "z" if self >= 27 else _SUITS[self // 9]

    @property
    def rank(self) -> int | None:
        """1..9 for suited tiles, None for honours."""
        return None if self >= 27 else self % 9 + 1

    @property
    def is_honor(self) -> bool:
        return self >= 27

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self >= 27 or self % 9 in (0, 8)


class Forms(IntFlag, metaclass=_EnumType):
    """Winning forms to consider; combine with `|`."""

    STANDARD = 1
    """n sets + a pair (with 0..4 exposed melds)."""
    SEVEN_PAIRS = 2
    """Seven pairs; a quad counts as two pairs. Concealed hands only."""
    THIRTEEN_ORPHANS = 4
    """十三幺. Concealed hands only."""
    HONORS_KNITTED = 8
    """全不靠 / 七星不靠: 14 singles from honours and one knitted arrangement. Concealed only."""
    KNITTED_STRAIGHT = 16
    """组合龙 (147/258/369 in three suits) + a set + a pair; at most one exposed meld."""

    MCR = 31
    """All five forms (Chinese Official)."""
    SICHUAN = 3
    """Standard and seven pairs."""
    CHANGBAI = 7
    """Standard, seven pairs and thirteen orphans."""

    # `Forms.STANDARD | Forms.SEVEN_PAIRS` through Flag.__or__ costs ~1.3 µs (a call of the class
    # and a member lookup); every combination exists already, so `|` is a table lookup.
    def __or__(self, other):
        if type(other) is Forms:
            return _FORMS_BY_VALUE[self._value_ | other._value_]
        return IntFlag.__or__(self, other)

    __ror__ = __or__


_FORMS_BY_VALUE = tuple(Forms(v) for v in range(32))

# The plain lookup needs every member in its class dict (Python 3.10+ puts them there; 3.9 kept
# some only in _member_map_, served by the hook).
for _cls in (Tile, Forms):
    for _name, _member in _cls.__members__.items():
        if _cls.__dict__.get(_name) is not _member:
            type.__setattr__(_cls, _name, _member)
del _cls, _name, _member


def tile_from_str(text: str) -> Tile:
    """`"5p"` -> Tile.P5, `"E"`/`"1z"` -> Tile.EAST. Raises ParseError (a ValueError) for anything else."""
    if not isinstance(text, str):
        raise InvalidTypeError(f"a tile name is text such as '5p' or 'E', got {type(text).__name__}")
    if len(text) == 1 and text in HONOR_LETTERS:
        return Tile(27 + HONOR_LETTERS.index(text))
    if len(text) == 2 and text[0] in "123456789":
        rank = int(text[0])
        if text[1] in _SUITS:
            return Tile(_SUITS.index(text[1]) * 9 + rank - 1)
        if text[1] == "z" and rank <= 7:
            return Tile(26 + rank)
    from ._display import short_repr  # (on the error path only: `import mahjong_core` stays light)

    raise ParseError(
        f"not a tile: {short_repr(text)} (expected 1m..9m, 1p..9p, 1s..9s, E S W N C F P or 1z..7z; 5z/6z/7z = 中发白)"
    )


def as_tile(value: Any, what: str = "tile") -> Tile:
    """A Tile from a Tile, an index 0..33 or a name ("5p", "E"); InvalidHandError naming `what` otherwise."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        try:
            return tile_from_str(value)
        except ValueError as exc:
            raise InvalidHandError(f"{what}: {exc}") from None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 34:
        return Tile(value)
    try:  # NumPy integers and other int-like values
        index = value.__index__()
    except (AttributeError, TypeError):
        index = None
    if index is not None and 0 <= index < 34 and not isinstance(value, bool):
        return Tile(index)
    raise InvalidHandError(f"{what} must be a Tile, an index 0..33 or a name like '5p', got {value!r}")
