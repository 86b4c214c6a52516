"""The native MCR evaluator, typed: the one door from the MCR package into the compiled core.

The fan evaluation runs in C++ (cpp/src/mcr.cpp, reached through mahjong_core/_mcr.pxi, which is
compiled into `mahjong_core._core`). Its entry points take bit sets; this module names those bits as
flag enums and gives each entry point a typed signature, so the rest of the package never handles a
bare int flag or a private `_core` name. Why MCR's evaluator is native while the other rulesets are
plain Python is recorded in docs/ARCHITECTURE.md ("Where MCR departs").
"""

from __future__ import annotations

from enum import IntFlag
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

from mahjong_core import _core as _core_module

if TYPE_CHECKING:
    from mahjong_core.hand import Hand
    from mahjong_core.tiles import Tile

__all__ = [
    "WinFlag", "ScoreOption", "Part", "RECORD_BYTES", "ScoreBase",
    "fan_table", "register_fans", "score", "score_text", "encode", "score_batch", "bind_score",
]

_core: Any = _core_module  # the MCR glue is private and not listed in _core.pyi


class WinFlag(IntFlag):
    """How the hand was won (the scorer's context bits)."""

    NONE = 0
    SELF_DRAWN = _core._MCR_SELF_DRAWN
    LAST_COPY = _core._MCR_LAST_COPY
    WALL_LAST = _core._MCR_WALL_LAST
    KONG = _core._MCR_KONG
    DECLARED_READY = _core._MCR_DECLARED_READY


class ScoreOption(IntFlag):
    """The scoring switches of `Rules`, as the evaluator's option bits."""

    NONE = 0
    MIL_CONCEALED_MELDED_KONG = _core._MCR_OPT_MIL
    KNITTED_STRAIGHT_WAIT_COUNTS = _core._MCR_OPT_KNITTED_WAIT
    PHANTOM_WAITS_COUNT = _core._MCR_OPT_PHANTOM_WAITS
    STRICT_CONTEXT = _core._MCR_OPT_STRICT_CONTEXT
    FLOWERS = _core._MCR_OPT_FLOWERS
    DECLARED_READY_FAN = _core._MCR_OPT_DECLARED_READY_FAN


class Part(IntFlag):
    """What made a fan besides the decomposition's blocks (bits above the block bits)."""

    NONE = 0
    KNITTED = _core._MCR_PART_KNITTED
    WHOLE_HAND = _core._MCR_PART_WHOLE_HAND
    WIN_TILE = _core._MCR_PART_WIN_TILE
    FLOWERS = _core._MCR_PART_FLOWERS


#: bytes per record of the batch scorer's (N, RECORD_BYTES) input
RECORD_BYTES: int = _core._MCR_RECORD_BYTES

#: the compiled base class of MCRScore (stores total, fans, hand, win tile, rules, decomposition)
ScoreBase: type = _core._MCRScoreBase


def fan_table() -> Sequence[Tuple[str, int, str, str, Tuple[str, ...]]]:
    """(id, points, name_zh, name_en, excluded ids) per fan, from cpp/include/mahjong_core/mcr_fans.h."""
    return _core._mcr_fan_table()


def register_fans(objects: Sequence[Sequence[Any]]) -> None:
    """Give the evaluator the shared Fan objects ([fan index][count]) it returns in scores."""
    _core._mcr_register_fans(objects)


if TYPE_CHECKING:
    def score(cls: type, hand: "Hand", win_tile: "Tile", flags: int, seat_wind: int, prevalent_wind: int,
              flowers: int, rules: Any, options: int) -> Optional[Any]:
        """Evaluate one hand; an instance of `cls` (a ScoreBase subclass) or None when it does not win.
        `flags`: WinFlag bits; `options`: ScoreOption bits."""

    def score_text(cls: type, text: str, rules: Any, options: int) -> Any:
        """`score` of a notation string, its context taken from the text; None when it does not
        win, NotImplemented when the text has no winning tile."""

    def encode(hand: "Hand", win_tile: int, flags: int, seat_wind: int, prevalent_wind: int, flowers: int,
               out: Any) -> None:
        """Write one hand's batch record into `out` (a uint8 row of RECORD_BYTES)."""

    def score_batch(records: Any, options: int, totals: Any, fan_counts: Any) -> None:
        """Score (N, RECORD_BYTES) records into `totals` (int16) and optionally `fan_counts` (GIL released)."""

    def bind_score(definition: Any, general: Any, cls: type, rules_cls: type, default_rules: Any) -> Any:
        """The compiled `mcr.score`: scores notation text (with at most `rules=`) itself and calls
        `general(hand, win_tile, ..., melds)` (every argument, positionally) for the rest; it takes
        `definition`'s name, docstring and signature (`__wrapped__`)."""
else:
    # The compiled functions themselves (no wrapper frame: `score` runs once per offered MCR win).
    score = _core._mcr_score
    score_text = _core._mcr_score_text
    encode = _core._mcr_encode
    score_batch = _core._mcr_score_batch

    def bind_score(definition: Any, general: Any, cls: type, rules_cls: type, default_rules: Any) -> Any:
        import functools

        _core._mcr_bind_score(general, cls, rules_cls, default_rules)
        return functools.update_wrapper(_core._mcr_score_entry, definition)
