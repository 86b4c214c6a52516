"""The MCR fan table and the `Fan` value object.

The table itself lives in one place, the X-macro list of cpp/include/mahjong_core/mcr_fans.h (id,
points, Chinese and English names, the fans each one makes redundant); this module reads it from
the compiled core. It has the 81 fans of the rule book (80 patterns + 花牌), in points order, plus
two optional ones: MINGANGANG 明暗杠 (5, MIL rules; `Rules.mil_concealed_melded_kong`) and
TINGPAI 听牌 (1, seed 000's client; `Rules.declared_ready_fan`).

Ids are the pinyin names of the golden data (`FAN_DASIXI` -> "DASIXI").
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, Optional, Tuple

from mahjong_core.errors import InvalidTypeError

from . import _native

__all__ = ["FanInfo", "Fan", "FANS", "FAN_BY_ID", "RULE_BOOK_FANS", "OPTIONAL_FANS", "fan"]


@dataclass(frozen=True)
class FanInfo:
    """One row of the fan table."""

    index: int
    id: str
    points: int
    name_zh: str
    name_en: str
    excludes: Tuple[str, ...]

    def __repr__(self) -> str:
        return f"FanInfo({self.id} {self.name_zh} {self.name_en} {self.points})"


@dataclass(frozen=True)
class Fan:
    """A fan as counted in a score: names, points per count, how many times, and the table id."""

    name_zh: str
    name_en: str
    points: int
    count: int = 1
    id: str = ""

    @property
    def total(self) -> int:
        """points x count."""
        return self.points * self.count

    @property
    def info(self) -> FanInfo:
        return FAN_BY_ID[self.id]

    def __str__(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        return f"{self.name_zh} {self.name_en} {self.points}{times}"

    def __repr__(self) -> str:
        return f"Fan({self})"


FANS: Tuple[FanInfo, ...] = tuple(
    FanInfo(i, fid, points, zh, en, excludes) for i, (fid, points, zh, en, excludes) in enumerate(_native.fan_table())
)
FAN_BY_ID: Mapping[str, FanInfo] = MappingProxyType({f.id: f for f in FANS})
OPTIONAL_FANS = frozenset({"MINGANGANG", "TINGPAI"})
RULE_BOOK_FANS: Tuple[FanInfo, ...] = tuple(f for f in FANS if f.id not in OPTIONAL_FANS)
assert len(RULE_BOOK_FANS) == 81, "the rule book has 81 fans"

# Fan objects by table index and count, shared by every score (they are immutable); the compiled
# scorer returns these directly instead of building new ones.
_MAX_COUNT = 8
_FAN_OBJECTS: Tuple[Tuple[Optional[Fan], ...], ...] = tuple(
    (None,) + tuple(Fan(f.name_zh, f.name_en, f.points, count, f.id) for count in range(1, _MAX_COUNT + 1))
    for f in FANS
)
_native.register_fans(_FAN_OBJECTS)


def fan(fan_id: str, count: int = 1) -> Fan:
    """The `Fan` of table id `fan_id` (e.g. "QINGYISE") counted `count` times."""
    if not isinstance(fan_id, str):
        raise InvalidTypeError(f"an MCR fan id is a string such as 'QINGYISE', got {type(fan_id).__name__}; ids are "
                               "listed in mahjong_core.rules.mcr.FANS")
    try:
        info = FAN_BY_ID[fan_id]
    except KeyError:
        raise KeyError(f"unknown MCR fan id {fan_id!r}; ids are listed in mahjong_core.rules.mcr.FANS") from None
    cached = _FAN_OBJECTS[info.index][count] if 1 <= count <= _MAX_COUNT else None
    if cached is not None:
        return cached
    return Fan(info.name_zh, info.name_en, info.points, count, info.id)
