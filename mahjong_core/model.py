"""Value objects: melds, blocks of a decomposition, decompositions, discard options, MCR context.

All are frozen; their `repr` uses the hand notation where there is one.

They are small hand-written slotted classes rather than dataclasses: `dataclasses` (with the
`inspect`, `re` and `ast` it imports) and generating five classes' methods took ~25 ms of every
process's start-up, more than the rest of `import mahjong_core` (issue 14's start-up goal). Each
class lists its fields in `_fields`; `_Frozen` gives them a dataclass's value semantics (`==` and
`hash` over the fields for the same class, no assignment, pickling through the constructor).
"""

from __future__ import annotations

from enum import IntEnum

from .errors import InvalidHandError, InvalidTypeError
from .tiles import HONOR_LETTERS, Forms, Tile

TYPE_CHECKING = False  # typing is not imported at run time (start-up); checkers read True
if TYPE_CHECKING:
    from typing import Any, Optional, Tuple

__all__ = [
    "MeldKind",
    "Meld",
    "BlockKind",
    "Block",
    "Decomposition",
    "MCRContext",
    "KNITTED_SUITS",
    "knitted_tiles",
]

# The six knitted arrangements: suit (0 m, 1 p, 2 s) of the 147, 258 and 369 runs.
KNITTED_SUITS: Tuple[Tuple[int, int, int], ...] = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def knitted_tiles(arrangement: int) -> Tuple[Tile, ...]:
    """The nine tiles of knitted arrangement 0..5 (147 / 258 / 369 runs in three suits)."""
    suits = KNITTED_SUITS[arrangement]
    return tuple(sorted(Tile(suits[run] * 9 + run + 3 * step) for run in range(3) for step in range(3)))


class MeldKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2


def _group(tiles: Tuple[Tile, ...]) -> str:
    """Notation of tiles of one suit or honours, e.g. 123m or EEE."""
    if tiles[0] >= 27:
        return "".join(HONOR_LETTERS[t - 27] for t in tiles)
    return "".join(str(t % 9 + 1) for t in tiles) + "mps"[tiles[0] // 9]


class _Frozen:
    """Value semantics for the model classes: fields named in `_fields`, set once by `__init__`."""

    __slots__ = ()
    _fields: Tuple[str, ...] = ()

    def _values(self) -> Tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is frozen (make a new one)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is frozen")

    def __reduce__(self) -> Tuple[Any, ...]:
        # Unpickling and copying go through the constructor, so they validate like any new instance.
        return (self.__class__, self._values())


_set = object.__setattr__


def _tile(tile: int) -> Tile:
    """`tile` as a Tile; InvalidHandError (not ValueError) for anything else (R11: Meld.pung(34))."""
    if not isinstance(tile, bool):
        try:
            return Tile(tile)
        except (ValueError, TypeError):
            pass
    raise InvalidHandError(f"a meld tile is a tile index 0..33, got {tile!r}")


_MELD_KIND_BY_VALUE = tuple(MeldKind)
_TILE_BY_VALUE = tuple(Tile)
_KIND_TYPES = (int, MeldKind)
_TILE_TYPES = (int, Tile)


class Meld(_Frozen):
    """An exposed meld (or a concealed kong).

    `claimed` is the notation's claim marker: for a chow 1..3 = which of its tiles was claimed (from
    the left player); for a pung or melded kong 1..3 = the seat it came from (1 left, 2 opposite,
    3 right); 5..7 = a promoted (added) kong whose pung came from seat claimed-4. `None` means a
    concealed kong, or an exposed chow/pung of unknown source.
    """

    __slots__ = ("kind", "tile", "concealed", "claimed")
    _fields = __slots__
    __match_args__ = ("kind", "tile", "concealed", "claimed")
    kind: MeldKind
    tile: Tile
    concealed: bool
    claimed: Optional[int]

    def __init__(self, kind: MeldKind, tile: Tile, concealed: bool = False, claimed: Optional[int] = None) -> None:
        # Plain ints and members are looked up in tuples (the engine builds a Meld at every claim;
        # the enum call costs ~0.5 µs each); anything else takes the enum's own conversion.
        if type(kind) in _KIND_TYPES and 0 <= kind <= 2 and type(tile) in _TILE_TYPES and 0 <= tile <= 33:
            _set(self, "kind", _MELD_KIND_BY_VALUE[kind])
            _set(self, "tile", _TILE_BY_VALUE[tile])
        else:
            _set(self, "kind", kind)
            _set(self, "tile", tile)
            self._convert_kind_and_tile()
        _set(self, "concealed", concealed)
        _set(self, "claimed", claimed)
        self._check()

    def _convert_kind_and_tile(self) -> None:
        try:
            if isinstance(self.kind, bool) or isinstance(self.tile, bool):
                raise InvalidTypeError("a bool is no meld kind or tile")
            _set(self, "kind", MeldKind(self.kind))
            _set(self, "tile", Tile(self.tile))
        except (ValueError, TypeError):
            raise InvalidHandError(
                f"a meld needs a MeldKind (0 chow, 1 pung, 2 kong) and a tile 0..33, got {self.kind!r}, {self.tile!r}"
            ) from None

    def _check(self) -> None:
        if self.concealed is not True and self.concealed is not False:
            raise InvalidTypeError(f"a meld's concealed is True or False, got {self.concealed!r}")
        if self.kind == MeldKind.CHOW and (self.tile >= 27 or self.tile % 9 > 6):
            raise InvalidHandError(f"a chow starting at {self.tile} would run across suits or use honours")
        if self.concealed and self.kind != MeldKind.KONG:
            raise InvalidHandError("only a kong can be a concealed meld")
        if self.concealed and self.claimed is not None:
            raise InvalidHandError("a concealed kong has no claim marker")
        if self.claimed is not None:
            if isinstance(self.claimed, bool) or not hasattr(self.claimed, "__index__"):
                raise InvalidHandError(f"a claim marker is an integer (or None), got {self.claimed!r}")
            _set(self, "claimed", self.claimed.__index__())
            allowed = (1, 2, 3, 5, 6, 7) if self.kind == MeldKind.KONG else (1, 2, 3)
            if self.claimed not in allowed:
                raise InvalidHandError(
                    f"claim marker {self.claimed} is not valid for a {self.kind.name.lower()} (allowed: {allowed})"
                )

    @classmethod
    def chow(cls, tile: int, claimed: Optional[int] = None) -> "Meld":
        return cls(MeldKind.CHOW, _tile(tile), False, claimed)

    @classmethod
    def pung(cls, tile: int, source: Optional[int] = None) -> "Meld":
        return cls(MeldKind.PUNG, _tile(tile), False, source)

    @classmethod
    def kong(cls, tile: int, source: Optional[int] = None, *, concealed: bool = False, added: bool = False) -> "Meld":
        if concealed:
            if source is not None or added:
                raise InvalidHandError(f"a concealed kong comes from the seat's own hand: it has no source seat "
                                       f"(got source={source!r}{', added=True' if added else ''})")
            return cls(MeldKind.KONG, _tile(tile), True, None)
        if added and source is None:
            raise InvalidHandError("a promoted kong needs the seat its pung came from (1..3)")
        if added and (isinstance(source, bool) or not isinstance(source, int) or not 1 <= source <= 3):
            raise InvalidHandError(f"a promoted kong's pung came from seat offset 1..3, got {source!r}")
        return cls(MeldKind.KONG, _tile(tile), False, None if source is None else source + (4 if added else 0))

    @property
    def tiles(self) -> Tuple[Tile, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * (4 if self.kind == MeldKind.KONG else 3)

    @property
    def added(self) -> bool:
        """A promoted kong (a pung upgraded with a drawn fourth tile)."""
        return self.kind == MeldKind.KONG and self.claimed is not None and self.claimed >= 5

    @property
    def source(self) -> Optional[int]:
        """Seat offset (1 left, 2 opposite, 3 right) the claimed tile came from; chows: always 1."""
        if self.claimed is None:
            return None
        if self.kind == MeldKind.CHOW:
            return 1
        return self.claimed - 4 if self.claimed >= 5 else self.claimed

    @property
    def claimed_tile(self) -> Optional[Tile]:
        """For a chow with a marker: the tile taken from the discard."""
        if self.kind != MeldKind.CHOW or self.claimed is None:
            return None
        return Tile(self.tile + self.claimed - 1)

    @property
    def exposed(self) -> bool:
        return not self.concealed

    def __str__(self) -> str:
        body = _group(self.tiles)
        return f"[{body}]" if self.claimed is None else f"[{body},{self.claimed}]"

    def __repr__(self) -> str:
        return f"Meld({self})"


class BlockKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2
    PAIR = 3


class Block(_Frozen):
    """One set or pair of a decomposition.

    `concealed` is true for blocks made of concealed tiles (the hand's own sets and pairs and
    concealed kongs) — before any win-tile consideration: a pung completed by a discarded win tile
    is still reported concealed here; rulesets decide that with `Decomposition.win_blocks`.
    `meld` is the index of the exposed meld this block is, or None.
    """

    __slots__ = ("kind", "tile", "concealed", "meld")
    _fields = __slots__
    __match_args__ = ("kind", "tile", "concealed", "meld")
    kind: BlockKind
    tile: Tile
    concealed: bool
    meld: Optional[int]

    def __init__(self, kind: BlockKind, tile: Tile, concealed: bool, meld: Optional[int] = None) -> None:
        _set(self, "kind", kind)
        _set(self, "tile", tile)
        _set(self, "concealed", concealed)
        _set(self, "meld", meld)

    @property
    def tiles(self) -> Tuple[Tile, ...]:
        if self.kind == BlockKind.CHOW:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * {BlockKind.PUNG: 3, BlockKind.KONG: 4, BlockKind.PAIR: 2}[self.kind]

    @property
    def is_set(self) -> bool:
        return self.kind != BlockKind.PAIR

    @property
    def is_pung_like(self) -> bool:
        """A pung or a kong."""
        return self.kind in (BlockKind.PUNG, BlockKind.KONG)

    def __contains__(self, tile: object) -> bool:
        return tile in self.tiles

    def __repr__(self) -> str:
        text = _group(self.tiles)
        return text if self.concealed and self.meld is None else f"[{text}]"


class Decomposition(_Frozen):
    """One reading of a complete hand.

    - STANDARD: `sets` (exposed melds first, then the hand's sets) and `pair`.
    - SEVEN_PAIRS: `pairs` (7 tiles; a quad appears twice).
    - THIRTEEN_ORPHANS: `pair` (the doubled orphan).
    - HONORS_KNITTED: `arrangement` (0..5) of the knitted suited tiles; no sets.
    - KNITTED_STRAIGHT: `arrangement`, `sets` (the meld or the hand's set) and `pair`.
    """

    __slots__ = ("form", "sets", "pair", "pairs", "arrangement")
    _fields = __slots__
    __match_args__ = ("form", "sets", "pair", "pairs", "arrangement")
    form: Forms
    sets: Tuple[Block, ...]
    pair: Optional[Tile]
    pairs: Tuple[Tile, ...]
    arrangement: Optional[int]

    def __init__(
        self,
        form: Forms,
        sets: Tuple[Block, ...] = (),
        pair: Optional[Tile] = None,
        pairs: Tuple[Tile, ...] = (),
        arrangement: Optional[int] = None,
    ) -> None:
        _set(self, "form", form)
        _set(self, "sets", sets)
        _set(self, "pair", pair)
        _set(self, "pairs", pairs)
        _set(self, "arrangement", arrangement)

    @property
    def knitted(self) -> Tuple[Tile, ...]:
        """The nine tiles of the knitted arrangement (empty when there is none)."""
        return () if self.arrangement is None else knitted_tiles(self.arrangement)

    @property
    def blocks(self) -> Tuple[Block, ...]:
        """Sets and pair(s) as blocks (the pair last)."""
        extra: Tuple[Block, ...] = ()
        if self.pair is not None:
            extra = (Block(BlockKind.PAIR, self.pair, True),)
        return self.sets + extra + tuple(Block(BlockKind.PAIR, t, True) for t in self.pairs)

    def win_blocks(self, win_tile: int) -> Tuple[int, ...]:
        """Indices into `blocks` of the concealed blocks that can hold the winning tile."""
        return tuple(
            i
            for i, b in enumerate(self.blocks)
            if b.meld is None and b.kind != BlockKind.KONG and win_tile in b.tiles
        )

    def __repr__(self) -> str:
        if self.form == Forms.SEVEN_PAIRS:
            body = " ".join(_group((t, t)) for t in self.pairs)
        elif self.form == Forms.HONORS_KNITTED:
            body = f"knitted {''.join(str(t) for t in self.knitted)} + honours"
        else:
            parts = [repr(b) for b in self.sets]
            if self.form == Forms.KNITTED_STRAIGHT:
                parts.insert(0, "knitted " + "".join(str(t) for t in self.knitted))
            if self.pair is not None:
                parts.append(_group((self.pair, self.pair)))
            body = " ".join(parts)
        return f"Decomposition({self.form.name}: {body})"


class MCRContext(_Frozen):
    """The MCR context suffix `|PS####|F` of the notation.

    Winds are 0..3 = East South West North. Flags: self-drawn, last copy (和绝张), last wall tile
    (海底捞月/妙手回春), kong-related (杠上开花 when self-drawn, 抢杠和 otherwise).
    `flowers` is the flower count; `flower_tiles` the flower letters' indices 0..7 when given as letters.
    """

    __slots__ = ("prevalent_wind", "seat_wind", "self_drawn", "last_copy", "wall_last", "kong", "flowers", "flower_tiles")
    _fields = __slots__
    __match_args__ = ("prevalent_wind", "seat_wind", "self_drawn", "last_copy", "wall_last", "kong", "flowers", "flower_tiles")
    prevalent_wind: int
    seat_wind: int
    self_drawn: bool
    last_copy: bool
    wall_last: bool
    kong: bool
    flowers: int
    flower_tiles: Optional[Tuple[int, ...]]

    def __init__(
        self,
        prevalent_wind: int = 0,
        seat_wind: int = 0,
        self_drawn: bool = False,
        last_copy: bool = False,
        wall_last: bool = False,
        kong: bool = False,
        flowers: int = 0,
        flower_tiles: Optional[Tuple[int, ...]] = None,
    ) -> None:
        values = (prevalent_wind, seat_wind, self_drawn, last_copy, wall_last, kong, flowers, flower_tiles)
        for name, value in zip(self._fields, values):
            _set(self, name, value)
        for name in ("prevalent_wind", "seat_wind"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
                raise InvalidHandError(f"{name} must be 0..3 (East South West North), got {value!r}")
        for name in ("self_drawn", "last_copy", "wall_last", "kong"):
            value = getattr(self, name)
            if value.__class__ is not bool:  # ("no" would be truthy; NumPy bools too are refused, as by mcr.score)
                raise InvalidTypeError(f"{name} must be True or False, got {value!r}")
        if self.flower_tiles is not None:
            tiles = tuple(self.flower_tiles)
            indices = all(not isinstance(i, bool) and isinstance(i, int) and 0 <= i <= 7 for i in tiles)
            if not indices or len(set(tiles)) != len(tiles):
                raise InvalidHandError(f"flower_tiles must be distinct flower indices 0..7 (a..h), got {tiles!r}")
            if self.flowers not in (0, len(tiles)):
                raise InvalidHandError(f"flowers={self.flowers} does not match the {len(tiles)} flower_tiles given")
            # One canonical value per context: sorted indices, no empty tuple (the notation has none).
            _set(self, "flower_tiles", tuple(sorted(tiles)) or None)
            _set(self, "flowers", len(tiles))
        if isinstance(self.flowers, bool) or not isinstance(self.flowers, int) or not 0 <= self.flowers <= 8:
            raise InvalidHandError(f"flowers must be 0..8, got {self.flowers!r}")

    def __str__(self) -> str:
        flags = "".join("1" if f else "0" for f in (self.self_drawn, self.last_copy, self.wall_last, self.kong))
        text = f"|{'ESWN'[self.prevalent_wind]}{'ESWN'[self.seat_wind]}{flags}"
        if self.flower_tiles is not None:
            text += "|" + "".join("abcdefgh"[i] for i in self.flower_tiles)
        elif self.flowers:
            text += f"|{self.flowers}"
        return text

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"MCRContext({fields})"


def __getattr__(name: str) -> object:
    # DiscardOption is a C type of the binding (discard_options builds 13 per call); it is still
    # reachable here, where it used to be defined. Imported on first use: the binding imports this
    # module.
    if name == "DiscardOption":
        from ._core import DiscardOption

        return DiscardOption
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
