"""Value objects: melds, blocks of a decomposition, decompositions, discard options, MCR context.

All are frozen; their `repr` uses the hand notation where there is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Optional, Tuple

from .errors import InvalidHandError
from .tiles import HONOR_LETTERS, Forms, Tile

__all__ = [
    "MeldKind",
    "Meld",
    "BlockKind",
    "Block",
    "Decomposition",
    "DiscardOption",
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


def _tile(tile: int) -> Tile:
    """`tile` as a Tile; InvalidHandError (not ValueError) for anything else (R11: Meld.pung(34))."""
    if not isinstance(tile, bool):
        try:
            return Tile(tile)
        except (ValueError, TypeError):
            pass
    raise InvalidHandError(f"a meld tile is a tile index 0..33, got {tile!r}")


@dataclass(frozen=True)
class Meld:
    """An exposed meld (or a concealed kong).

    `claimed` is the notation's claim marker: for a chow 1..3 = which of its tiles was claimed (from
    the left player); for a pung or melded kong 1..3 = the seat it came from (1 left, 2 opposite,
    3 right); 5..7 = a promoted (added) kong whose pung came from seat claimed-4. `None` means a
    concealed kong, or an exposed chow/pung of unknown source.
    """

    kind: MeldKind
    tile: Tile
    concealed: bool = False
    claimed: Optional[int] = None

    def __post_init__(self) -> None:
        try:
            if isinstance(self.kind, bool) or isinstance(self.tile, bool):
                raise TypeError("a bool is no meld kind or tile")
            object.__setattr__(self, "kind", MeldKind(self.kind))
            object.__setattr__(self, "tile", Tile(self.tile))
        except (ValueError, TypeError):
            raise InvalidHandError(
                f"a meld needs a MeldKind (0 chow, 1 pung, 2 kong) and a tile 0..33, got {self.kind!r}, {self.tile!r}"
            ) from None
        if self.kind == MeldKind.CHOW and (self.tile >= 27 or self.tile % 9 > 6):
            raise InvalidHandError(f"a chow starting at {self.tile} would run across suits or use honours")
        if self.concealed and self.kind != MeldKind.KONG:
            raise InvalidHandError("only a kong can be a concealed meld")
        if self.concealed and self.claimed is not None:
            raise InvalidHandError("a concealed kong has no claim marker")
        if self.claimed is not None:
            if isinstance(self.claimed, bool) or not hasattr(self.claimed, "__index__"):
                raise InvalidHandError(f"a claim marker is an integer (or None), got {self.claimed!r}")
            object.__setattr__(self, "claimed", self.claimed.__index__())
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


@dataclass(frozen=True)
class Block:
    """One set or pair of a decomposition.

    `concealed` is true for blocks made of concealed tiles (the hand's own sets and pairs and
    concealed kongs) — before any win-tile consideration: a pung completed by a discarded win tile
    is still reported concealed here; rulesets decide that with `Decomposition.win_blocks`.
    `meld` is the index of the exposed meld this block is, or None.
    """

    kind: BlockKind
    tile: Tile
    concealed: bool
    meld: Optional[int] = None

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


@dataclass(frozen=True)
class Decomposition:
    """One reading of a complete hand.

    - STANDARD: `sets` (exposed melds first, then the hand's sets) and `pair`.
    - SEVEN_PAIRS: `pairs` (7 tiles; a quad appears twice).
    - THIRTEEN_ORPHANS: `pair` (the doubled orphan).
    - HONORS_KNITTED: `arrangement` (0..5) of the knitted suited tiles; no sets.
    - KNITTED_STRAIGHT: `arrangement`, `sets` (the meld or the hand's set) and `pair`.
    """

    form: Forms
    sets: Tuple[Block, ...] = ()
    pair: Optional[Tile] = None
    pairs: Tuple[Tile, ...] = ()
    arrangement: Optional[int] = None

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


@dataclass(frozen=True)
class MCRContext:
    """The MCR context suffix `|PS####|F` of the notation.

    Winds are 0..3 = East South West North. Flags: self-drawn, last copy (和绝张), last wall tile
    (海底捞月/妙手回春), kong-related (杠上开花 when self-drawn, 抢杠和 otherwise).
    `flowers` is the flower count; `flower_tiles` the flower letters' indices 0..7 when given as letters.
    """

    prevalent_wind: int = 0
    seat_wind: int = 0
    self_drawn: bool = False
    last_copy: bool = False
    wall_last: bool = False
    kong: bool = False
    flowers: int = 0
    flower_tiles: Optional[Tuple[int, ...]] = None

    def __post_init__(self) -> None:
        for name in ("prevalent_wind", "seat_wind"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 3:
                raise InvalidHandError(f"{name} must be 0..3 (East South West North), got {value!r}")
        if self.flower_tiles is not None:
            tiles = tuple(self.flower_tiles)
            if any(not isinstance(i, int) or not 0 <= i <= 7 for i in tiles) or len(set(tiles)) != len(tiles):
                raise InvalidHandError(f"flower_tiles must be distinct flower indices 0..7 (a..h), got {tiles!r}")
            if self.flowers not in (0, len(tiles)):
                raise InvalidHandError(f"flowers={self.flowers} does not match the {len(tiles)} flower_tiles given")
            # One canonical value per context: sorted indices, no empty tuple (the notation has none).
            object.__setattr__(self, "flower_tiles", tuple(sorted(tiles)) or None)
            object.__setattr__(self, "flowers", len(tiles))
        if not isinstance(self.flowers, int) or not 0 <= self.flowers <= 8:
            raise InvalidHandError(f"flowers must be 0..8, got {self.flowers!r}")

    def __str__(self) -> str:
        flags = "".join("1" if f else "0" for f in (self.self_drawn, self.last_copy, self.wall_last, self.kong))
        text = f"|{'ESWN'[self.prevalent_wind]}{'ESWN'[self.seat_wind]}{flags}"
        if self.flower_tiles is not None:
            text += "|" + "".join("abcdefgh"[i] for i in self.flower_tiles)
        elif self.flowers:
            text += f"|{self.flowers}"
        return text


def __getattr__(name: str) -> object:
    # DiscardOption is a C type of the binding (discard_options builds 13 per call); it is still
    # reachable here, where it used to be defined. Imported on first use: the binding imports this
    # module.
    if name == "DiscardOption":
        from ._core import DiscardOption

        return DiscardOption
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

