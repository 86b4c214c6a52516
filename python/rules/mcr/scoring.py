"""MCR scoring: `score` (the best total over every reading), `MCRScore`, waits, batch scoring.

    >>> from mahjong_core.rules import mcr
    >>> s = mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000")
    >>> s.total, [f.name_zh for f in s.fans]
    (19, ['一色三步高', '喜相逢', '缺一门', '自摸'])
    >>> [u.describe() for u in s.attribution][:2]
    ['[123m] [345m] 567m', '[345m] 345s']

`score` finds the best total over every reading of the hand (standard sets + pair, 七对, 十三幺,
全不靠/七星不靠, 组合龙 with a set and a pair) and every place of the winning tile in it, applying the
exclusion principles 不重复 / 不拆移 / 不得相同 / 就高不就低 / 套算一次. The evaluation runs natively
(`_native`, cpp/src/mcr.cpp); the fan table is cpp/include/mahjong_core/mcr_fans.h (see `fans`).
A slow, readable Python version of the same rules is kept as a test oracle in tests/mcr_reference.py.

Decisions (RULES.md section 1, each a `Rules` key):
  * 边张/嵌张/单钓将 count only when the hand had exactly one winning tile kind (a kind whose four
    copies the player holds still counts as a wait: `phantom_waits_count`).
  * 和绝张 also holds without the flag when the other three copies are in the winner's own melds.
  * Contradictory context flags (和绝张 while holding another copy, 抢杠和 on a tile the winner
    holds, 杠上开花 without a kong, 抢杠和 with 海底捞月 — a robbed kong tile is no discard) raise
    under `strict_context`; otherwise the first three are dropped and 抢杠和 + 海底捞月 both count
    (PyMahjongGB 1.4.0's reading, which the `botzone` preset reproduces).
  * Among readings with the same total, the one PyMahjongGB 1.4.0 reports is chosen, so fan lists
    are reproducible (the total never depends on this choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from mahjong_core._display import pad_display
from mahjong_core._core import waits as _waits
from mahjong_core._extras import require
from mahjong_core.errors import InvalidArgumentError, InvalidHandError, InvalidTypeError
from mahjong_core.hand import Hand
from mahjong_core.model import Block, Decomposition
from mahjong_core.notation import parse as _parse
from mahjong_core.tiles import Tile

from ..hand_input import as_hand as _as_hand
from ..hand_input import as_tile as _tile
from . import _native
from .fans import FANS, Fan, fan
from .rules import DEFAULT_RULES, Rules, resolve

__all__ = ["MCRScore", "FanUse", "HandLike", "score", "score_waits", "meets_minimum", "encode_batch", "score_batch"]

HandLike = Union[Hand, str, Sequence[int], bytes]

# Context and attribution bits as plain ints (IntFlag arithmetic would cost more than the scoring
# call it feeds on the engine's hot path).
_SELF_DRAWN = int(_native.WinFlag.SELF_DRAWN)
_LAST_COPY = int(_native.WinFlag.LAST_COPY)
_WALL_LAST = int(_native.WinFlag.WALL_LAST)
_KONG = int(_native.WinFlag.KONG)
_DECLARED_READY = int(_native.WinFlag.DECLARED_READY)
_PART_KNITTED = int(_native.Part.KNITTED)
_PART_WHOLE_HAND = int(_native.Part.WHOLE_HAND)
_PART_WIN_TILE = int(_native.Part.WIN_TILE)
_PART_FLOWERS = int(_native.Part.FLOWERS)

# ---------------------------------------------------------------------------------------------
# Scores


@dataclass(frozen=True)
class FanUse:
    """One counted fan and what made it: blocks of the chosen decomposition, and/or the knitted
    straight, the whole hand, the winning tile, the flowers."""

    fan: Fan
    blocks: Tuple[Block, ...] = ()
    knitted: bool = False
    whole_hand: bool = False
    win_tile: Optional[Tile] = None
    flowers: int = 0

    def describe(self) -> str:
        parts = [repr(b) for b in self.blocks]
        if self.knitted:
            parts.append("knitted straight")
        if self.whole_hand and not parts:
            parts.append("whole hand")
        if self.win_tile is not None:
            parts.append(f"win on {self.win_tile}")
        if self.flowers:
            parts.append(f"{self.flowers} flower(s)")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"FanUse({self.fan.name_zh}: {self.describe()})"


if TYPE_CHECKING:

    class _ScoreBase:
        """What the compiled base class stores (read-only attributes)."""

        total: int
        fans: Tuple[Fan, ...]
        hand: Hand
        win_tile: Tile
        self_drawn: bool
        rules: "Rules"
        decomposition: Decomposition
        _attribution_data: Tuple[Tuple[int, int], ...]
        _context: Tuple[int, int, int, int]

else:
    _ScoreBase = _native.ScoreBase


class MCRScore(_ScoreBase):
    """The score of a winning hand (read-only; built by `score`).

    total         fan points, flowers included
    fans          tuple of `Fan` (name_zh, name_en, points, count, id), in table order
    hand, win_tile, self_drawn, rules: what was scored
    decomposition the reading that scored `total` (a mahjong_core.Decomposition)
    attribution   tuple of `FanUse`: which sets made each counted fan

    Scores compare equal when they score the same hand the same way under the same rules.
    """

    __slots__ = ()

    @property
    def flowers(self) -> int:
        """Points from 花牌 (included in `total`)."""
        for f in self.fans:
            if f.id == "HUAPAI":
                return f.count
        return 0

    @property
    def base_total(self) -> int:
        """The total without flowers (what `min_fan` is compared with)."""
        return self.total - self.flowers

    @property
    def meets_minimum(self) -> bool:
        """True when the hand reaches `rules.min_fan` without flowers."""
        return self.base_total >= self.rules.min_fan

    @property
    def fan_ids(self) -> Tuple[str, ...]:
        """One id per count, e.g. ("QINGYISE", "SIGUIYI", "SIGUIYI")."""
        return tuple(f.id for f in self.fans for _ in range(f.count))

    @property
    def attribution(self) -> Tuple[FanUse, ...]:
        blocks = self.decomposition.blocks
        uses: List[FanUse] = []
        for index, parts in self._attribution_data:
            info = FANS[index]
            count = self.flowers if info.id == "HUAPAI" else 1
            uses.append(
                FanUse(
                    fan(info.id, count),
                    tuple(b for i, b in enumerate(blocks) if parts >> i & 1),
                    bool(parts & _PART_KNITTED),
                    bool(parts & _PART_WHOLE_HAND),
                    self.win_tile if parts & _PART_WIN_TILE else None,
                    count if parts & _PART_FLOWERS else 0,
                )
            )
        return tuple(uses)

    def table(self) -> str:
        """The fan table: points, Chinese and English names, which sets made each fan, the total."""
        lines = [f"{self.hand}   {self.decomposition!r}"]
        for use in self.attribution:
            f = use.fan
            lines.append(f"  {f.total:>3}  {pad_display(f.name_zh, 10)}  {f.name_en:<34}  {use.describe()}")
        min_note = "" if self.meets_minimum else f"   (below the {self.rules.min_fan}-fan minimum without flowers)"
        lines.append(f"  {self.total:>3}  total{min_note}")
        return "\n".join(lines)

    def to_json(self) -> Dict[str, Any]:
        return {
            "hand": str(self.hand),
            "total": self.total,
            "base_total": self.base_total,
            "meets_minimum": self.meets_minimum,
            "fans": [
                {"id": f.id, "name_zh": f.name_zh, "name_en": f.name_en, "points": f.points, "count": f.count}
                for f in self.fans
            ],
            "decomposition": repr(self.decomposition),
            "attribution": [{"id": u.fan.id, "points": u.fan.total, "made_by": u.describe()} for u in self.attribution],
            "rules": {"preset": self.rules.preset_name, **self.rules.to_dict()},
        }

    def _repr_svg_(self) -> str:
        """The hand and its fan table as a picture (notebooks); see `mahjong_core.viz.score_svg`."""
        from mahjong_core.viz.svg import score_svg

        return score_svg(self)

    def _key(self) -> Tuple:
        return (self.total, self.fans, self.hand, self.win_tile, self._context, self.rules)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MCRScore):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> Tuple:
        flags, seat, prevalent, flowers = self._context
        return (_rescore, (self.hand, int(self.win_tile), flags, seat, prevalent, flowers, self.rules))

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        fans = ", ".join(f"{f.name_zh}{'x' + str(f.count) if f.count > 1 else ''} {f.total}" for f in self.fans)
        return f"MCRScore({self.total}: {fans})"


def _small_int(value: Any, name: str, top: int, allowed: str) -> int:
    """A small non-negative integer argument (NumPy integers accepted): InvalidHandError otherwise,
    never OverflowError (R13: prevalent_wind=2**40)."""
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        index = value.__index__()
        if 0 <= index <= top:
            return index
    raise InvalidHandError(f"{name} must be an integer {allowed}, got {value!r}")


_FLAG_NAMES = ("self_drawn", "last_copy", "wall_last", "kong", "declared_ready")


def _refuse_flags(*flags: Any) -> None:
    """InvalidTypeError naming the first of `score`'s flags (in `_FLAG_NAMES` order) that is not True or
    False — as Sichuan's and Changbai's `score` refuse them: a truthy "no" must not count a fan."""
    for name, value in zip(_FLAG_NAMES, flags):
        if value.__class__ is not bool:
            raise InvalidTypeError(f"{name} must be True or False, got {value!r}")


def _rescore(hand: Hand, win_tile: int, flags: int, seat: int, prevalent: int, flowers: int, rules: Rules) -> MCRScore:
    """Unpickling: score the same hand again (it won when it was pickled, so it wins now)."""
    rebuilt = _native.score(MCRScore, hand, Tile(win_tile), flags, seat, prevalent, flowers, rules, rules._options)
    assert rebuilt is not None, "a pickled MCRScore scores again"
    return rebuilt


def score(
    hand: HandLike,
    *,
    win_tile: Union[Tile, int, str, None] = None,
    self_drawn: bool = False,
    last_copy: bool = False,
    wall_last: bool = False,
    kong: bool = False,
    seat_wind: int = 0,
    prevalent_wind: int = 0,
    flowers: int = 0,
    rules: Union[Rules, str, None] = None,
    declared_ready: bool = False,
    melds: Any = None,
) -> Optional[MCRScore]:
    """Score a winning hand; None when it does not win.

    `hand`: a Hand, notation (e.g. "[123m,1]456p789s11sEEE|EE1000|2") or 34 counts (no melds).
    A hand carrying its `|PS####|F` context takes the flags, winds and flowers from it (passing
    them again raises). `win_tile` defaults to the hand's winning tile (the last concealed tile of
    a complete notation); a ready hand of 13 - 3*melds tiles plus `win_tile` works too.
    `flags`: self_drawn 自摸, last_copy 和绝张, wall_last 妙手回春/海底捞月, kong 杠上开花/抢杠和;
    winds 0..3 = E S W N; `flowers` 0..8 (needs Rules(flowers=True)); `declared_ready` (报听,
    needs Rules(declared_ready_fan=True)). `rules`: a Rules or a preset name ("official").

    Raises ParseError / InvalidHandError for malformed or impossible input, InvalidTypeError for a
    flag that is not True or False.
    """
    # (The definition of `score`; at run time its compiled twin, bound below, takes the call.)
    return _score(hand, win_tile, self_drawn, last_copy, wall_last, kong, seat_wind, prevalent_wind, flowers,
                  rules, declared_ready, melds)


def _score(hand: HandLike, win_tile: Union[Tile, int, str, None], self_drawn: bool, last_copy: bool,
           wall_last: bool, kong: bool, seat_wind: int, prevalent_wind: int, flowers: int,
           rules: Union[Rules, str, None], declared_ready: bool, melds: Any) -> Optional[MCRScore]:
    """`score` with every argument given, positionally (a Python function's keyword-only
    defaults cost a dict lookup each per call). The compiled `score` scores notation text with at
    most `rules=` itself and calls this for every other input."""
    # The common call (a Hand, a Rules or nothing, plain bools and ints) skips the general
    # conversions: this is the scoring hot path of every MCR win. The flags, winds and flowers are
    # checked first, so that the shortcuts below can read them by truth value.
    if not (self_drawn.__class__ is bool and last_copy.__class__ is bool and wall_last.__class__ is bool
            and kong.__class__ is bool and declared_ready.__class__ is bool):
        _refuse_flags(self_drawn, last_copy, wall_last, kong, declared_ready)
    if not (type(seat_wind) is int and 0 <= seat_wind <= 3):
        seat_wind = _small_int(seat_wind, "seat_wind", 3, "0..3 (E S W N)")
    if not (type(prevalent_wind) is int and 0 <= prevalent_wind <= 3):
        prevalent_wind = _small_int(prevalent_wind, "prevalent_wind", 3, "0..3 (E S W N)")
    if not (type(flowers) is int and 0 <= flowers <= 8):
        flowers = _small_int(flowers, "flowers", 8, "0..8")
    r = DEFAULT_RULES if rules is None else rules if type(rules) is Rules else resolve(rules)
    if melds is None and type(hand) is Hand:
        h = hand
    elif melds is None and type(hand) is str:
        if win_tile is None and not (self_drawn or last_copy or wall_last or kong or seat_wind or prevalent_wind
                                     or flowers or declared_ready):
            scored = _native.score_text(MCRScore, hand, r, r._options)
            if scored is not NotImplemented:
                return scored
        h = _parse(hand)
    else:
        h = _as_hand(hand, melds)
    ctx = h.context
    if ctx is not None:
        if self_drawn or last_copy or wall_last or kong or seat_wind or prevalent_wind or flowers:
            raise InvalidHandError(
                "the hand's |PS####|F suffix already gives the context; do not pass flags, winds or flowers too")
        self_drawn, last_copy, wall_last, kong = ctx.self_drawn, ctx.last_copy, ctx.wall_last, ctx.kong
        seat_wind, prevalent_wind, flowers = ctx.seat_wind, ctx.prevalent_wind, ctx.flowers
    if win_tile is None:
        win = h.win_tile
        if win is None:
            raise InvalidHandError("no winning tile: pass win_tile=, or write the hand with its winning tile last")
    else:
        win = _tile(win_tile, "win_tile")
        if h.n_tiles == 13 - 3 * h.n_melds:
            h = h.with_tile(win)
    return _score_checked(h, win, self_drawn, last_copy, wall_last, kong, seat_wind, prevalent_wind, flowers, r,
                          declared_ready)


def _score_checked(h: Hand, win: Tile, self_drawn: bool, last_copy: bool, wall_last: bool, kong: bool,
                   seat_wind: int, prevalent_wind: int, flowers: int, r: Rules,
                   declared_ready: bool) -> Optional[MCRScore]:
    """The native evaluation once every argument is what it must be: a complete `Hand` without
    context, its winning `Tile`, winds 0..3 and flowers 0..8 as ints, a `Rules`. `_score` ends here,
    and so does the MCR game's win check (rules/mcr/flow.py), which has all of that at hand."""
    flags = (
        (_SELF_DRAWN if self_drawn else 0)
        | (_LAST_COPY if last_copy else 0)
        | (_WALL_LAST if wall_last else 0)
        | (_KONG if kong else 0)
        | (_DECLARED_READY if declared_ready else 0)
    )
    return _native.score(MCRScore, h, win, flags, seat_wind, prevalent_wind, flowers, r, r._options)


if not TYPE_CHECKING:
    # `score` as users call it: the compiled twin of the definition above (same signature,
    # docstring and behaviour; `inspect.signature` and `help` show the definition).
    score = _native.bind_score(score, _score, MCRScore, Rules, DEFAULT_RULES)


def score_waits(hand: HandLike, *, rules: Union[Rules, str, None] = None, **context: Any) -> Dict[Tile, MCRScore]:
    """For a ready hand of 13 - 3*melds concealed tiles: the score of winning on each wait.

    Kinds whose four copies the hand already holds are not listed (they cannot be won on). The
    context (`self_drawn`, `seat_wind`, ...) is that of `score` and applies to every wait; check
    `MCRScore.meets_minimum` to see which waits are legal wins.
    """
    h = _as_hand(hand)
    if h.n_tiles != 13 - 3 * h.n_melds:
        raise InvalidHandError(
            f"score_waits needs a ready hand of {13 - 3 * h.n_melds} concealed tiles, got {h.n_tiles}")
    r = resolve(rules)
    out: Dict[Tile, MCRScore] = {}
    for tile in _waits(h, exclude_exhausted=True):
        s = score(h, win_tile=tile, rules=r, **context)
        assert s is not None  # a wait completes the hand
        out[tile] = s
    return out


def meets_minimum(score_or_hand: Union[MCRScore, HandLike], rules: Union[Rules, str, None] = None,
                  **context: Any) -> bool:
    """True when the score (or the hand, scored with `context`) reaches `min_fan` without flowers."""
    if isinstance(score_or_hand, MCRScore):
        r = score_or_hand.rules if rules is None else resolve(rules)
        return score_or_hand.base_total >= r.min_fan
    s = score(score_or_hand, rules=rules, **context)
    return s is not None and s.base_total >= s.rules.min_fan


# ---------------------------------------------------------------------------------------------
# Batch scoring


def _numpy() -> Any:
    """NumPy, which the batch calls need (the `[numpy]` extra)."""
    return require("numpy", "mcr.score_batch / encode_batch", extra="numpy", library="NumPy")


def encode_batch(hands: Sequence[HandLike]) -> Any:
    """Encode hands (each with its winning tile and context) as an (N, 52) uint8 record array."""
    np = _numpy()
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
        raise InvalidTypeError(f"encode_batch takes a sequence of hands (Hands or notation texts), got "
                               f"{type(hands).__name__}")
    records = np.zeros((len(hands), _native.RECORD_BYTES), dtype=np.uint8)
    for i, hand in enumerate(hands):
        h = _as_hand(hand)
        if h.win_tile is None:
            raise InvalidHandError(f"hand {i} has no winning tile")
        c = h.context
        flags = 0
        seat = prevalent = flowers = 0
        if c is not None:
            flags = ((_SELF_DRAWN if c.self_drawn else 0) | (_LAST_COPY if c.last_copy else 0)
                     | (_WALL_LAST if c.wall_last else 0) | (_KONG if c.kong else 0))
            seat, prevalent, flowers = c.seat_wind, c.prevalent_wind, c.flowers
        _native.encode(h, int(h.win_tile), flags, seat, prevalent, flowers, records[i])
    return records


def score_batch(hands: Any, rules: Union[Rules, str, None] = None, *, with_fans: bool = False) -> Any:
    """Totals of many hands at once (the GIL is released): -1 where a hand does not win.

    `hands`: a sequence of hands with winning tile and context, or the (N, 52) record array of
    `encode_batch`. With `with_fans`, also returns the (N, len(FANS)) fan counts (columns in
    `FANS` order). Needs NumPy.
    """
    np = _numpy()
    r = resolve(rules)
    records = hands if isinstance(hands, np.ndarray) else encode_batch(hands)
    if records.dtype != np.uint8 or records.ndim != 2 or records.shape[1] != _native.RECORD_BYTES:
        raise InvalidArgumentError(f"records must be a uint8 array of shape (N, {_native.RECORD_BYTES}) (encode_batch "
                                   f"makes one), got {records.dtype} {records.shape}")
    records = np.ascontiguousarray(records)
    totals = np.empty(records.shape[0], dtype=np.int16)
    counts = np.zeros((records.shape[0], len(FANS)), dtype=np.uint8) if with_fans else None
    _native.score_batch(records, r._options, totals, counts)
    return (totals, counts) if with_fans else totals
