"""Sichuan 血战到底 hand values: 番 patterns, extras, `score`, `best_ready_value` (RULES.md §2).

A win is worth one base pattern — the largest that applies; base patterns never stack — plus the
extras 杠上花, 杠上炮 and one 根 per four identical tiles held (not declared as a kong, unless
`gen_counts_kongs`). 龙七对 and 青龙七对 use one quad, so they count one 根 fewer. Total 番 F (capped
at `max_fan`) gives multiplier 2^(F−1) and points base × multiplier. The best reading over every
decomposition of the hand wins (e.g. 带幺九 needs every set and the pair to hold a 1 or 9 in *some*
decomposition).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from mahjong_core import _core
from mahjong_core._display import display_width, pad_display
from mahjong_core.errors import InvalidArgumentError, InvalidHandError, InvalidTypeError
from mahjong_core.hand import Hand
from mahjong_core.model import Block, BlockKind, Decomposition, MeldKind
from mahjong_core.rules.records import frozen_record
from mahjong_core.tiles import Forms, Tile, as_tile

from .hand import _SUIT_SETS, as_hand, check_void_suit, suits_held
from .rules import Rules

__all__ = ["Pattern", "FanItem", "WinContext", "SichuanScore", "score", "is_winning", "score_waits",
           "best_ready_value", "hand_points", "PATTERNS", "EXTRAS", "ENGLISH_NAMES"]


# ---------------------------------------------------------------------------------------------
# The fan table (one place): base patterns, largest first, then the extras.

class Pattern(NamedTuple):
    """A row of the fan table. `uses_quad`: the pattern consumes one 根 (龙七对, 青龙七对)."""

    name_zh: str
    name_en: str
    fan: int
    uses_quad: bool = False


HEAVENLY = Pattern("天胡", "Heavenly hand (dealer wins on the initial 14)", 6)
EARTHLY = Pattern("地胡", "Earthly hand (non-dealer wins on the first draw)", 6)
PURE_DRAGON_PAIRS = Pattern("青龙七对", "Pure dragon seven pairs (one suit, with a quad)", 6, True)
DRAGON_PAIRS = Pattern("龙七对", "Dragon seven pairs (with a quad)", 5, True)
PURE_SEVEN_PAIRS = Pattern("清七对", "Pure seven pairs (one suit)", 5)
PURE_OUTSIDE = Pattern("清幺九", "Pure outside hand (one suit, 1 or 9 in every set and the pair)", 5)
PURE_PUNGS = Pattern("清对", "Pure all pungs (one suit)", 4)
PUNGS_258 = Pattern("将对", "All pungs of 2, 5 and 8", 4)
PURE_SUIT = Pattern("清一色", "Pure one suit", 3)
OUTSIDE = Pattern("带幺九", "Outside hand (1 or 9 in every set and the pair)", 3)
SEVEN_PAIRS = Pattern("七对", "Seven pairs", 3)
ALL_PUNGS = Pattern("对对胡", "All pungs", 2)
BASIC = Pattern("平胡", "Basic win", 1)

PATTERNS: Tuple[Pattern, ...] = (
    HEAVENLY, EARTHLY, PURE_DRAGON_PAIRS, DRAGON_PAIRS, PURE_SEVEN_PAIRS, PURE_OUTSIDE, PURE_PUNGS,
    PUNGS_258, PURE_SUIT, OUTSIDE, SEVEN_PAIRS, ALL_PUNGS, BASIC,
)

KONG_BLOOM = Pattern("杠上花", "Win on a kong replacement tile", 1)
KONG_DISCARD = Pattern("杠上炮", "Win on the discard after a kong", 1)
ROOT = Pattern("根", "Root (four identical tiles held)", 1)
EXTRAS: Tuple[Pattern, ...] = (KONG_BLOOM, KONG_DISCARD, ROOT)

ENGLISH_NAMES = {p.name_zh: p.name_en for p in PATTERNS + EXTRAS}


class FanItem(NamedTuple):
    """One line of a score: `(name_zh, fan)`; `name_en` for the English name."""

    name_zh: str
    fan: int

    @property
    def name_en(self) -> str:
        return ENGLISH_NAMES[self.name_zh]


# ---------------------------------------------------------------------------------------------
# How the hand was won

@dataclass(frozen=True)
class WinContext:
    """The circumstances of a win (the keyword flags of `score`), checked for consistency.

    self_drawn: won on one's own draw (自摸). kong_replacement: on a kong's replacement tile (杠上花,
    self-drawn). after_kong_discard: on the discard the discarder made right after a kong's
    replacement draw (杠上炮). robbed_kong: on the tile of another player's added kong (抢杠胡).
    first_draw: on one's first draw with no claim made before — with dealer 天胡 (the dealt 14),
    else 地胡; self-drawn, without melds.
    """

    self_drawn: bool = False
    kong_replacement: bool = False
    after_kong_discard: bool = False
    robbed_kong: bool = False
    first_draw: bool = False
    dealer: bool = False

    def __post_init__(self) -> None:
        for name in ("self_drawn", "kong_replacement", "after_kong_discard", "robbed_kong", "first_draw", "dealer"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidTypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.kong_replacement and not self.self_drawn:
            raise InvalidHandError("kong_replacement (杠上花) is a self-drawn win: pass self_drawn=True")
        if self.self_drawn and (self.after_kong_discard or self.robbed_kong):
            raise InvalidHandError("after_kong_discard (杠上炮) and robbed_kong (抢杠胡) are wins on another "
                                   "player's tile: they cannot be self_drawn")
        if self.after_kong_discard and self.robbed_kong:
            raise InvalidHandError("a win is either on a discard after a kong (杠上炮) or on a robbed kong (抢杠胡), "
                                   "not both")
        if self.first_draw and (not self.self_drawn or self.kong_replacement):
            raise InvalidHandError("first_draw (天胡/地胡) is a win on the dealt hand or the first draw: pass "
                                   "self_drawn=True and no kong flag")

    @property
    def on_discard(self) -> bool:
        """Won on another player's tile (a discard or a robbed kong)."""
        return not self.self_drawn


_DISCARD_WIN = WinContext()
_VOID_INDEX = {None: -1, "m": 0, "p": 1, "s": 2}


# ---------------------------------------------------------------------------------------------
# The result

@dataclass(frozen=True, repr=False)
class SichuanScore:
    """The value of a Sichuan win.

    fan: total 番 (base pattern + extras, capped at `max_fan`); multiplier: 2^(fan−1); points:
    base × multiplier — what one payer owes for a discard win; payment: what each payer owes for
    *this* win (points, or for a self-draw with the rules' `zimo_bonus` added); items: the lines
    `(name_zh, fan)` (each a `FanItem`, `.name_en` for English); pattern: the base pattern;
    uncapped_fan: the total before `max_fan`; win_tile; context (`WinContext`); decomposition: the
    reading that gave the value; rules; hand: the `Hand` scored (its melds' sources: the picture's
    claimed tiles; not part of the value's equality).
    """

    fan: int
    multiplier: int
    points: int
    payment: int
    items: Tuple[FanItem, ...]
    pattern: Pattern
    uncapped_fan: int
    win_tile: Optional[Tile]
    context: WinContext
    decomposition: Decomposition
    rules: Rules = field(repr=False)
    hand: Optional[Hand] = field(default=None, repr=False, compare=False)

    @property
    def self_drawn(self) -> bool:
        return self.context.self_drawn

    @property
    def after_kong_discard(self) -> bool:
        return self.context.after_kong_discard

    @property
    def robbed_kong(self) -> bool:
        return self.context.robbed_kong

    @property
    def capped(self) -> bool:
        return self.uncapped_fan > self.fan

    def to_dict(self) -> Dict[str, Any]:
        """JSON-serialisable summary."""
        return {
            "fan": self.fan, "uncapped_fan": self.uncapped_fan, "multiplier": self.multiplier,
            "points": self.points, "payment": self.payment, "pattern": self.pattern.name_zh,
            "items": [{"name_zh": i.name_zh, "name_en": i.name_en, "fan": i.fan} for i in self.items],
            "win_tile": None if self.win_tile is None else str(self.win_tile),
            "self_drawn": self.self_drawn, "decomposition": repr(self.decomposition),
        }

    def _repr_svg_(self) -> str:
        """The hand and its fan table as a picture (notebooks); see `mahjong_core.viz.score_svg`."""
        from mahjong_core.viz.svg import score_svg

        return score_svg(self)

    def summary(self) -> str:
        """One line: "平胡 1 + 根 1 = 2 番, x2, 12 points" (the repr's inside; a wait's line in the CLI)."""
        lines = " + ".join(f"{i.name_zh} {i.fan}" for i in self.items)
        cap = f" (capped from {self.uncapped_fan})" if self.capped else ""
        return f"{lines} = {self.fan} 番{cap}, x{self.multiplier}, {self.points} points"

    def __repr__(self) -> str:
        return f"SichuanScore({self.summary()})"

    def __str__(self) -> str:
        width = max(len(i.name_en) for i in self.items)
        zh_width = max(display_width(i.name_zh) for i in self.items)
        out = [f"  {pad_display(i.name_zh, zh_width)}  {i.name_en:<{width}}  {i.fan:>2} 番" for i in self.items]
        cap = f" (capped from {self.uncapped_fan})" if self.capped else ""
        out.append(f"  total {self.fan} 番{cap}  x{self.multiplier}  = {self.points} points (base {self.rules.base})")
        if self.self_drawn:
            out.append(f"  self-drawn: each player still in the hand pays {self.payment}"
                       f" (zimo_bonus={self.rules.zimo_bonus!r})")
        else:
            out.append(f"  the discarder pays {self.payment}")
        return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Scoring

def score(
    hand: Any,
    *,
    win_tile: Union[Tile, int, str, None] = None,
    self_drawn: bool = False,
    void_suit: Optional[str] = None,
    kong_replacement: bool = False,
    after_kong_discard: bool = False,
    robbed_kong: bool = False,
    first_draw: bool = False,
    dealer: bool = False,
    rules: Union[Rules, str, None] = None,
    melds: Any = None,
) -> Optional[SichuanScore]:
    """Score a complete Sichuan hand; None when it does not win.

    `hand`: a `Hand`, notation (`"[555p,1]11223344m99p"`; the last concealed tile is the winning
    tile), 34 counts or 34 bytes, with 14 − 3·melds concealed tiles (winning tile included). Melded
    pungs and kongs are `Meld`s of the hand; a chow meld or an honour raises InvalidHandError.
    `win_tile` overrides the notation's winning tile (it must be among the concealed tiles; Sichuan
    values never depend on it). `void_suit` ("m", "p", "s"): the player's 定缺 suit.

    Returns None when the hand is not complete, holds a tile of the void suit, or holds three
    suits. Raises InvalidHandError for an impossible hand or flag combination (see `WinContext`),
    ParseError for bad notation, RulesError for bad rules.
    """
    rules = _check_rules(rules)
    context = _context(self_drawn, kong_replacement, after_kong_discard, robbed_kong, first_draw, dealer)
    h = _complete_hand(as_hand(hand, melds), win_tile)
    _check_context(h, context)
    return _score(h, context, check_void_suit(void_suit), rules)


def _score_win(hand: Any, context: WinContext, void_suit: Optional[str], rules: Rules) -> Optional[SichuanScore]:
    """`score(hand, void_suit=void_suit, rules=rules, **flags)` for a `context` made by `_context`,
    every argument positional: the game engine's call at each win (from compiled code a keyword
    argument costs a dict per call). The same checks, in the same order."""
    rules = _check_rules(rules)
    h = _complete_hand(as_hand(hand, None), None)
    _check_context(h, context)
    return _score(h, context, check_void_suit(void_suit), rules)


_CONTEXTS: Dict[Tuple[bool, ...], WinContext] = {}


def _context(self_drawn: Any, kong_replacement: Any, after_kong_discard: Any, robbed_kong: Any, first_draw: Any,
             dealer: Any) -> WinContext:
    """`WinContext(...)` of these flags, one shared (frozen) object per combination of True/False
    values; anything else is passed to WinContext to be checked (and rejected) as before."""
    key = (self_drawn, kong_replacement, after_kong_discard, robbed_kong, first_draw, dealer)
    if not (self_drawn.__class__ is bool and kong_replacement.__class__ is bool and after_kong_discard.__class__ is bool
            and robbed_kong.__class__ is bool and first_draw.__class__ is bool and dealer.__class__ is bool):
        return WinContext(*key)
    context = _CONTEXTS.get(key)
    if context is None:
        context = WinContext(*key)  # (an impossible combination raises, and is not stored)
        _CONTEXTS[key] = context
    return context


def score_waits(hand: Any, *, void_suit: Optional[str] = None, rules: Optional[Rules] = None,
                exclude: Iterable[Any] = ()) -> Dict[Tile, Optional[SichuanScore]]:
    """The value of each wait of a waiting hand, scored as a plain discard win.

    `hand`: 13 − 3·melds concealed tiles (plus melds). Keys are the waits in tile order; a value is
    None when winning on that tile would not be a Sichuan win (a void-suit tile, three suits). A
    wait on a kind whose four copies the player already holds can never arrive and is not listed,
    nor are the kinds in `exclude` (tiles or indices: e.g. waits every copy of which is visible,
    for 查大叫 under `dead_waits_ready=False`). Empty when the hand is not ready.
    """
    rules, void, h = _waiting_hand(hand, void_suit, rules)
    skip = {int(t) for t in exclude}
    return {tile: _score(h.with_tile(tile), _DISCARD_WIN, void, rules)
            for tile in _core.waits(h, Forms.SICHUAN, exclude_exhausted=True) if int(tile) not in skip}


def _waiting_hand(hand: Any, void_suit: Optional[str], rules: Optional[Rules]) -> Tuple[Rules, Optional[str], Hand]:
    """The checked arguments of `score_waits` / `best_ready_value`: (rules, void suit, a hand of
    13 − 3·melds concealed tiles)."""
    rules = _check_rules(rules)
    void = check_void_suit(void_suit)
    h = as_hand(hand)
    if h.n_tiles != 13 - 3 * h.n_melds:
        raise InvalidHandError(
            f"a waiting hand with {h.n_melds} meld(s) holds {13 - 3 * h.n_melds} concealed tiles; this one holds "
            f"{h.n_tiles}")
    return rules, void, h


def best_ready_value(hand: Any, *, void_suit: Optional[str] = None, rules: Optional[Rules] = None,
                     exclude: Iterable[Any] = ()) -> Optional[SichuanScore]:
    """The largest win a waiting hand can make (查大叫): its best wait scored as a discard win.

    Every wait of `score_waits` counts — base pattern + 根, no self-draw bonus, no kong extras — and
    the highest-scoring one is returned (its `.win_tile` says which; ties go to the lower tile).
    None when the hand is not ready: no wait, or every wait would leave a void-suit tile or three
    suits.
    """
    rules, void, h = _waiting_hand(hand, void_suit, rules)
    skip = {int(t) for t in exclude}
    mask = _core.waits_mask(h, Forms.SICHUAN, exclude_exhausted=True)
    for t in skip:
        if 0 <= t < 34:
            mask &= ~(1 << t)
    return _best_ready_of(h, mask, void, rules)


def _best_ready_of(h: Hand, mask: int, void: Optional[str], rules: Rules) -> Optional[SichuanScore]:
    """`best_ready_value` of a checked waiting hand whose usable waits are the bits of `mask`
    (exhausted and excluded kinds already dropped): the waits are compared by `_best_wait` from the
    counts, and only the chosen one is scored in full (tests/test_sichuan_best_wait.py compares it
    with scoring every wait)."""
    if not mask:
        return None
    kongs = 0
    outside = True
    for meld in h.melds:
        t = int(meld.tile)
        if meld.kind == MeldKind.KONG:
            kongs |= 1 << t
        if t % 9 != 0 and t % 9 != 8:
            outside = False
    n_melds = h.n_melds
    std = mask if n_melds else _core._waits_mask_melds(h, Forms.STANDARD, 0) & mask
    tile = _best_wait(bytes(h.counts), bytes(h.all_counts), n_melds, kongs, outside, mask, std,
                      _VOID_INDEX[void], rules)
    if tile < 0:
        return None
    return _score(h.with_tile(tile), _DISCARD_WIN, void, rules)


def _best_wait(counts: Any, held: Any, n_melds: int, kongs: int, melds_outside: bool, mask: int, std_mask: int,
               void: int, rules: Rules) -> int:
    """The wait `best_ready_value` picks, read off the counts without scoring: the lowest kind among
    the bits of `mask` whose discard win is worth the most points, or -1 when no wait makes a
    Sichuan win (every one adds a third suit or a void-suit tile).

    `counts`: the waiting hand's 34 concealed counts (bytes); `held`: the same with the melds' tiles
    (a kong 4); `kongs`: bits of the declared kongs' kinds; `melds_outside`: every meld is of a 1 or
    a 9; `std_mask`: the waits that complete four sets and a pair (the others complete seven pairs
    only); `void`: the 定缺 suit's index or -1.

    A wait's total 番 is the largest (fan − uses_quad) of the base patterns some reading allows
    (`_pattern_key`) plus its 根: exactly what `_score` totals for a discard win.
    """
    buf = bytearray(counts)
    c = buf  # compiled: the bytearray's buffer (scoring.pxd)
    h = held
    gen = rules.gen_counts_kongs
    suits = 0
    only_258 = True
    roots = 0
    for k in range(27):
        n = h[k]
        if n:
            suits |= 1 << (k // 9)
            r = k % 9
            if r != 1 and r != 4 and r != 7:
                only_258 = False
            if n == 4 and (gen or not (kongs >> k) & 1):
                roots += 1
    best_tile = -1
    best_points = 0
    for t in range(27):
        if not (mask >> t) & 1:
            continue
        s = suits | 1 << (t // 9)
        if s == 7 or (void >= 0 and (s >> void) & 1):
            continue  # not a Sichuan win: three suits, or a void-suit tile
        r = t % 9
        c[t] += 1
        key = _pattern_key(c, n_melds, (std_mask >> t) & 1 != 0, s == 1 or s == 2 or s == 4,
                           only_258 and (r == 1 or r == 4 or r == 7), melds_outside)
        c[t] -= 1
        total = key + roots + (1 if h[t] == 3 else 0)  # the fourth copy of a kind held three times: a 根
        points = hand_points(_cap(total, rules), rules)
        if best_tile < 0 or points > best_points:
            best_tile = t
            best_points = points
    return best_tile


def _pattern_key(c: Any, n_melds: int, std: bool, pure: bool, only_258: bool, melds_outside: bool) -> int:
    """The largest `fan - uses_quad` over the base patterns (no 天胡/地胡) of the complete hand with
    concealed counts `c`: `_patterns` over every reading, decided from the counts.

    Seven pairs (no melds, every count even; a quad is two pairs): 龙七对/青龙七对 use a quad, so
    they tie 七对 + 1 / 清七对. Four sets and a pair (`std`): all pungs when the concealed counts
    are one pair and pungs; outside (带幺九) when the melds are of 1 or 9 and each suit's concealed
    tiles split into 123/789 chows, pungs of 1/9 and the one pair of 1 or 9.
    """
    best = 0
    if n_melds == 0:
        pairs_only = True
        quad = False
        for k in range(27):
            n = c[k]
            if n & 1:
                pairs_only = False
                break
            if n == 4:
                quad = True
        if pairs_only:
            best = 5 if pure else (4 if quad else 3)
    if std:
        pungs = True
        pairs = 0
        for k in range(27):
            n = c[k]
            if n == 2:
                pairs += 1
            elif n == 1 or n == 4:
                pungs = False
                break
        pungs = pungs and pairs == 1
        outside = melds_outside
        if outside:
            pairs = 0
            for lo in range(0, 27, 9):
                if c[lo + 3] or c[lo + 4] or c[lo + 5] or c[lo + 1] != c[lo + 2] or c[lo + 6] != c[lo + 7]:
                    outside = False
                    break
                rest = c[lo] - c[lo + 1]  # what the 123 chows leave of the 1s: a pung, the pair or none
                if rest == 2:
                    pairs += 1
                elif rest != 0 and rest != 3:
                    outside = False
                    break
                rest = c[lo + 8] - c[lo + 7]
                if rest == 2:
                    pairs += 1
                elif rest != 0 and rest != 3:
                    outside = False
                    break
            outside = outside and pairs == 1
        if pure:
            key = 5 if outside else (4 if pungs else 3)
        elif pungs and only_258:
            key = 4
        elif outside:
            key = 3
        elif pungs:
            key = 2
        else:
            key = 1
        if key > best:
            best = key
    return best


def is_winning(hand: Any, *, void_suit: Optional[str] = None) -> bool:
    """Whether a complete hand (14 − 3·melds concealed tiles) is a Sichuan win — the cheap test a
    game engine or bot makes before scoring: no void-suit tile, at most two suits, four sets and a
    pair or seven pairs. `score` returns a value exactly when this is True.
    """
    h = _complete_hand(as_hand(hand), None)
    return _wins(h, suits_held(h), check_void_suit(void_suit))


def _wins(hand: Hand, suits: FrozenSet[str], void_suit: Optional[str]) -> bool:
    """The Sichuan win condition (one place): at most two suits, none of them void, a complete form."""
    return len(suits) < 3 and void_suit not in suits and _core.is_winning(hand, Forms.SICHUAN)


def _check_rules(rules: Union[Rules, str, None]) -> Rules:
    if rules is None:
        return Rules.presets[Rules.DEFAULT_PRESET]
    return rules if isinstance(rules, Rules) else Rules.resolve(rules)


def _complete_hand(hand: Hand, win_tile: Union[Tile, int, str, None]) -> Hand:
    complete = 14 - 3 * hand.n_melds
    if hand.n_tiles != complete:
        raise InvalidHandError(
            f"score needs a complete hand of {complete} concealed tiles with {hand.n_melds} meld(s), winning tile "
            f"included; this one holds {hand.n_tiles} (for a waiting hand use best_ready_value)")
    if win_tile is None:
        return hand
    return hand.replace(win_tile=as_tile(win_tile, "win_tile"))  # (True is no tile: refused, as by mcr.score)


def _check_context(hand: Hand, context: WinContext) -> None:
    if context.first_draw and hand.n_melds:
        raise InvalidHandError("first_draw (天胡/地胡): a hand that won on its first draw has no melds")
    if context.kong_replacement and not any(m.kind == MeldKind.KONG for m in hand.melds):
        raise InvalidHandError("kong_replacement (杠上花): the winner must have declared a kong; the hand has none")


class _Held(NamedTuple):
    """Facts about all the tiles a winner holds (concealed and melds), computed once per hand."""

    suits: FrozenSet[str]
    only_258: bool
    quads: Tuple[int, ...]  # kinds held four times
    kongs: FrozenSet[int]   # kinds declared as kongs

    @classmethod
    def of(cls, hand: Hand) -> "_Held":
        return _held_of(hand)

    @property
    def pure(self) -> bool:
        return len(self.suits) == 1

    def roots(self, rules: Rules) -> int:
        """根: kinds held four times, declared kongs only with gen_counts_kongs."""
        return sum(1 for t in self.quads if rules.gen_counts_kongs or t not in self.kongs)


def _held_of(hand: Hand) -> _Held:
    """`_Held.of(hand)`: one pass over the 27 suited kinds."""
    melds = hand.melds
    counts = hand.all_counts if melds else hand.counts  # (all_counts adds up 34 pairs)
    suits = 0
    only_258 = True
    quads = []
    for t in range(27):
        n = counts[t]
        if n:
            suits |= 1 << (t // 9)
            r = t % 9
            if r != 1 and r != 4 and r != 7:
                only_258 = False
            if n == 4:
                quads.append(t)
    kongs = frozenset([int(m.tile) for m in melds if m.kind == MeldKind.KONG]) if melds else _NO_KONGS
    return _new_tuple(_Held, (_SUIT_SETS[suits], only_258, tuple(quads), kongs))


_NO_KONGS: FrozenSet[int] = frozenset()
_new_tuple = tuple.__new__


def _score(hand: Hand, context: WinContext, void_suit: Optional[str], rules: Rules) -> Optional[SichuanScore]:
    """Score a checked complete hand; None if it does not win.

    The value is the first (pattern, reading), over the readings in order and each reading's
    `_patterns` in order, with the largest (total 番, pattern 番) — `max` over them; `_best_pattern`
    gives each reading's first largest without the generator (tests/test_sichuan_best_wait.py
    checks it against `_patterns`).
    """
    held = _held_of(hand)
    if not _wins(hand, held.suits, void_suit):
        return None
    pattern = reading = None
    best = -1
    for d in _core.decompositions(hand, Forms.SICHUAN):
        p = _best_pattern(d, held, context)
        key = _PATTERN_KEY[p]
        if key > best:
            pattern, reading, best = p, d, key
    assert pattern is not None and reading is not None, "a winning hand has a reading"
    items = [_BASE_ITEM[pattern]] + _extras(context, held.roots(rules) - pattern.uses_quad)
    return _result(items, pattern, hand, context, reading, rules)


def _best_pattern(reading: Decomposition, held: _Held, context: WinContext) -> Pattern:
    """The first pattern of `_patterns(reading, held, context)` with the largest (fan − uses_quad,
    fan): 天胡/地胡 beat everything; seven pairs with a quad are 龙七对 (before 七对); the standard
    patterns in `_patterns`' order, where 清一色 comes before the equal 带幺九 and 清对 before 将对."""
    if context.first_draw:
        return HEAVENLY if context.dealer else EARTHLY
    pure = held.pure
    if reading.form == _SEVEN_PAIRS_FORM:
        if len(set(reading.pairs)) < len(reading.pairs):
            return PURE_DRAGON_PAIRS if pure else DRAGON_PAIRS
        return PURE_SEVEN_PAIRS if pure else SEVEN_PAIRS
    # Hot path (every Sichuan win and 查大叫 value): one pass over the sets reading each block's kind
    # and tile once — as C integers when compiled (scoring.pxd) — for what `_patterns` asks of them:
    # all pungs or kongs (`is_pung_like`), and every set and the pair with a 1 or 9 (`_has_terminal`,
    # `_has_terminal_pair`).
    pair = reading.pair
    outside = pair is not None and pair % 9 in (0, 8)
    pungs = True
    for block in reading.sets:
        kind = block.kind
        rank = block.tile % 9
        if kind == _CHOW_KIND:
            pungs = False
            if rank != 0 and rank != 6:
                outside = False
        else:
            if kind != _PUNG_KIND and kind != _KONG_KIND:
                pungs = False
            if rank != 0 and rank != 8:
                outside = False
    if pure and outside:
        return PURE_OUTSIDE
    if pungs:
        if pure:
            return PURE_PUNGS
        if held.only_258:
            return PUNGS_258
    if pure:
        return PURE_SUIT
    if outside:
        return OUTSIDE
    return ALL_PUNGS if pungs else BASIC


_SEVEN_PAIRS_FORM = Forms.SEVEN_PAIRS
_CHOW_KIND = int(BlockKind.CHOW)
_PUNG_KIND = int(BlockKind.PUNG)
_KONG_KIND = int(BlockKind.KONG)

#: a base pattern's rank in `_score`'s max: (fan − uses_quad, fan) as one integer
_PATTERN_KEY: Dict[Pattern, int] = {p: (p.fan - p.uses_quad) * 16 + p.fan for p in PATTERNS}
_BASE_ITEM: Dict[Pattern, FanItem] = {p: FanItem(p.name_zh, p.fan) for p in PATTERNS}
_KONG_BLOOM_ITEM = FanItem(KONG_BLOOM.name_zh, KONG_BLOOM.fan)
_KONG_DISCARD_ITEM = FanItem(KONG_DISCARD.name_zh, KONG_DISCARD.fan)
_ROOT_ITEMS: Dict[int, FanItem] = {}


def _root_item(roots: int) -> FanItem:
    item = _ROOT_ITEMS.get(roots)
    if item is None:
        item = _ROOT_ITEMS[roots] = FanItem(ROOT.name_zh, ROOT.fan * roots)
    return item


def _patterns(reading: Decomposition, held: _Held, context: WinContext) -> Iterator[Pattern]:
    """Every base pattern this reading of the hand satisfies."""
    if context.first_draw:
        yield HEAVENLY if context.dealer else EARTHLY
    pure = held.pure
    if reading.form == Forms.SEVEN_PAIRS:
        quad = len(set(reading.pairs)) < len(reading.pairs)
        if quad:
            yield PURE_DRAGON_PAIRS if pure else DRAGON_PAIRS
        yield PURE_SEVEN_PAIRS if pure else SEVEN_PAIRS
        return
    pungs = all(block.is_pung_like for block in reading.sets)
    outside = _has_terminal_pair(reading.pair) and all(_has_terminal(block) for block in reading.sets)
    if pure and outside:
        yield PURE_OUTSIDE
    if pungs:
        if pure:
            yield PURE_PUNGS
        if held.only_258:
            yield PUNGS_258
        yield ALL_PUNGS
    if pure:
        yield PURE_SUIT
    if outside:
        yield OUTSIDE
    yield BASIC


def _has_terminal(block: Block) -> bool:
    """A 1 or 9 in the set: a chow 123 or 789, a pung or kong of 1 or 9."""
    rank = block.tile % 9
    return rank in (0, 6) if block.kind == BlockKind.CHOW else rank in (0, 8)


def _has_terminal_pair(pair: Optional[int]) -> bool:
    return pair is not None and pair % 9 in (0, 8)


def _extras(context: WinContext, roots: int) -> List[FanItem]:
    items = []
    if context.kong_replacement:
        items.append(_KONG_BLOOM_ITEM)
    if context.after_kong_discard:
        items.append(_KONG_DISCARD_ITEM)
    if roots > 0:
        items.append(_root_item(roots))
    return items


def _result(items: List[FanItem], pattern: Pattern, hand: Hand, context: WinContext,
            reading: Decomposition, rules: Rules) -> SichuanScore:
    uncapped = 0
    for item in items:
        uncapped += item.fan
    fan = _cap(uncapped, rules)
    points = hand_points(fan, rules)
    return frozen_record(SichuanScore, fan, points // rules.base, points, _payment(uncapped, context, rules),
                         tuple(items), pattern, uncapped, hand.win_tile, context, reading, rules, hand)



def _cap(fan: int, rules: Rules) -> int:
    return fan if rules.max_fan is None else min(fan, rules.max_fan)


def hand_points(fan: int, rules: Optional[Rules] = None) -> int:
    """base × 2^(fan−1) for an already capped fan total (`rules`: a Rules, a preset name or None)."""
    if type(rules) is not Rules:
        rules = Rules.resolve(rules)
    value = fan if fan.__class__ is int else (  # (NumPy integers too)
        -1 if isinstance(fan, bool) or not hasattr(fan, "__index__") else fan.__index__())
    if value < 1:
        raise InvalidArgumentError(f"fan must be an integer >= 1 (a hand's capped fan total), got {fan!r}")
    fan = value
    return rules.base * (1 << (fan - 1))


def _payment(uncapped_fan: int, context: WinContext, rules: Rules) -> int:
    """What each payer owes: the points, plus the self-draw bonus (自摸加底 / 自摸加番) when self-drawn."""
    points = hand_points(_cap(uncapped_fan, rules), rules)
    if not context.self_drawn or rules.zimo_bonus is None:
        return points
    if rules.zimo_bonus == "add_base":
        return points + rules.base
    return hand_points(_cap(uncapped_fan + 1, rules), rules)  # "add_fan": one 番 more, within the cap
