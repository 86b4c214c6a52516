"""Scoring a Changbai win (`score`) and a loser's hand (`loser_doublings`).

`score` returns the winner-side doublings with their reasons, the best over every decomposition
of the hand and every block the winning tile can sit in. It returns None when the hand does not
win under the rules: not complete, not declared ready (报听 is required), or — since only a hand
with a single winning kind may declare — a hand that waited on more than one kind before the win.
`refusal` says which, in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, List, Optional, Tuple, Union

from mahjong_core import (
    BlockKind, Decomposition, Forms, Hand, InvalidHandError, MeldKind, Tile, decompositions, format_tiles,
)

from mahjong_core.errors import InvalidTypeError

from .hand import HandLike, as_hand, waiting_hand, winning_hand
from .patterns import (
    Pattern,
    loser_patterns,
    pattern,
    sort_patterns,
    winner_hand_patterns,
    winner_reading_patterns,
)
from .ready import changbai_forms, holds_terminal_or_honor, winning_kinds_of
from .rules import Rules, resolve

__all__ = ["ChangbaiScore", "WinContext", "score", "refusal", "loser_doublings", "loser_patterns_of"]

DEFAULT_RULES = Rules()
_CHOW = int(BlockKind.CHOW)
_KONG = int(BlockKind.KONG)


@dataclass(frozen=True)
class WinContext:
    """How the winning tile came: by self-draw (or a kong replacement, 杠上花), on a discard (maybe the
    one right after a kong's replacement draw, 杠后炮), or by robbing a promoted kong (抢杠胡)."""

    self_drawn: bool = False
    kong_replacement: bool = False
    after_kong_discard: bool = False
    robbed_kong: bool = False

    def __post_init__(self) -> None:
        for name in ("self_drawn", "kong_replacement", "after_kong_discard", "robbed_kong"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidTypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.kong_replacement and not self.self_drawn:
            raise InvalidHandError("kong_replacement (杠上花) is a self-drawn win: pass self_drawn=True too")
        if self.self_drawn and self.after_kong_discard:
            raise InvalidHandError("after_kong_discard (杠后炮) is a win on a discard: it cannot be self_drawn")
        if self.self_drawn and self.robbed_kong:
            raise InvalidHandError("robbed_kong (抢杠胡) takes another player's kong tile: it cannot be self_drawn")
        if self.robbed_kong and self.after_kong_discard:
            raise InvalidHandError("a robbed kong tile (抢杠胡) is not a discard, so it cannot be after_kong_discard")


@dataclass(frozen=True, repr=False)
class ChangbaiScore:
    """A winning hand's winner-side value.

    `patterns` (catalogue order; 穷胡 when nothing else applies), `doublings` (their sum),
    `multiplier` (13 for 十三幺, else 1), `items` ((name_zh, doublings) per pattern),
    `decomposition` (the reading scored), `win_tile`, `context`; `hand`: the `Hand` scored (its melds'
    sources: the picture's claimed tiles; not part of the value's equality).
    """

    patterns: Tuple[Pattern, ...]
    decomposition: Decomposition
    win_tile: Tile
    context: WinContext
    hand: Optional[Hand] = field(default=None, repr=False, compare=False)

    @property
    def doublings(self) -> int:
        return sum(p.doublings for p in self.patterns)

    @property
    def multiplier(self) -> int:
        out = 1
        for p in self.patterns:
            out *= p.multiplier
        return out

    @property
    def items(self) -> Tuple[Tuple[str, int], ...]:
        return tuple((p.name_zh, p.doublings) for p in self.patterns)

    @property
    def items_en(self) -> Tuple[Tuple[str, int], ...]:
        return tuple((p.name_en, p.doublings) for p in self.patterns)

    @property
    def value(self) -> int:
        """2^doublings × multiplier: the winner side of one payment, in base points."""
        return 2**self.doublings * self.multiplier

    def _repr_svg_(self) -> str:
        """The hand and its pattern table as a picture (notebooks); see `mahjong_core.viz.score_svg`."""
        from mahjong_core.viz.svg import score_svg

        return score_svg(self)

    def __repr__(self) -> str:
        times = f" x{self.multiplier}" if self.multiplier > 1 else ""
        body = ", ".join(map(repr, self.patterns))
        return f"ChangbaiScore({self.doublings} doublings{times}, win {self.win_tile}: {body})"

    def __str__(self) -> str:
        """The pattern table: Chinese and English names, doublings (or the multiplier), the value."""
        width = max(len(p.name_en) for p in self.patterns)
        out = []
        for p in self.patterns:
            times = f" x{p.count}" if p.count > 1 else ""
            value = f"x{p.multiplier}" if p.multiplier > 1 else f"{p.doublings:>2} doubling{'s' if p.doublings != 1 else ''}"
            out.append(f"  {p.name_zh}{times}\t{p.name_en:<{width}}  {value}")
        times = f" x {self.multiplier}" if self.multiplier > 1 else ""
        out.append(f"  total {self.doublings} doublings: 2^{self.doublings}{times} = {self.value} x base, "
                   f"win on {self.win_tile}")
        return "\n".join(out)


def score(
    hand: HandLike,
    *,
    win_tile: Union[int, str, None] = None,
    self_drawn: bool = False,
    declared_ready: bool = True,
    kong_replacement: bool = False,
    after_kong_discard: bool = False,
    robbed_kong: bool = False,
    rules: Union[Rules, str, None] = None,
    melds: Any = None,
) -> Optional[ChangbaiScore]:
    """Score a Changbai win, or None when the hand does not win (see `refusal`).

    `hand`: a Hand or notation of 14 − 3·melds concealed tiles including the winning tile, which is
    `win_tile` or else the hand's own (the notation's last concealed tile). Raises InvalidHandError
    for a malformed hand, a missing winning tile or contradictory flags (杠上花 also needs a kong
    among the melds); ParseError for bad notation; TypeError for a flag that is not a bool.
    """
    h, win = winning_hand(as_hand(hand, melds), win_tile, "score")
    context = WinContext(self_drawn, kong_replacement, after_kong_discard, robbed_kong)
    if kong_replacement and not any(m.kind == MeldKind.KONG for m in h.melds):
        raise InvalidHandError(f"kong_replacement (杠上花): the winner just made a kong, but {h} has none")
    if not isinstance(declared_ready, bool):
        raise InvalidTypeError(f"declared_ready must be True or False, got {declared_ready!r}")
    r = resolve(rules)
    if _refusal(h, win, declared_ready, r) is not None:
        return None
    return _best_score(h, win, context, r)


def _best_score(hand: Hand, win: Tile, context: WinContext, rules: Rules) -> ChangbaiScore:
    """The score of a hand that wins (`_refusal` said None): the best over its readings. `score`'s
    last step, and the engine's (`flow.ChangbaiGame._win_score`) on the hands it builds itself."""
    shared = winner_hand_patterns(hand, kong_replacement=context.kong_replacement,
                                  after_kong_discard=context.after_kong_discard)
    best: Optional[ChangbaiScore] = None
    for reading, block in _readings(hand, win, rules):
        found = shared + winner_reading_patterns(hand, win, reading, block)
        candidate = ChangbaiScore(sort_patterns(found) or (pattern("plain"),), reading, win, context, hand)
        if best is None or candidate.value > best.value:
            best = candidate
    assert best is not None, "a hand that completes has a reading"
    return best


def refusal(
    hand: HandLike,
    *,
    win_tile: Union[int, str, None] = None,
    declared_ready: bool = True,
    rules: Optional[Rules] = None,
) -> Optional[str]:
    """Why `score` would return None for this hand, or None when it wins."""
    h, win = winning_hand(hand, win_tile, "refusal")
    return _refusal(h, win, declared_ready, resolve(rules))


def _refusal(hand: Hand, win: Tile, declared_ready: bool, rules: Rules) -> Optional[str]:
    before = hand.without_tile(win)
    kinds = winning_kinds_of(before, rules)
    if win not in kinds:
        waits = format_tiles(kinds) if kinds else "nothing"
        return f"not a winning hand: {win} does not complete {before} (it waits on {waits})"
    if not rules.ready_required:
        return None
    if not declared_ready:
        return "not declared ready: a Changbai win needs 报听 (declared_ready=True)"
    if len(kinds) > 1:
        return (
            f"{before} waits on {len(kinds)} kinds ({format_tiles(kinds)}), so it could not have declared "
            "ready (报听 needs a single winning kind)"
        )
    return None


def _readings(hand: Hand, win: Tile, rules: Rules) -> Iterator[Tuple[Decomposition, Optional[int]]]:
    """Every (decomposition, block of the winning tile) the rules allow; special forms have no block."""
    for reading in decompositions(hand, changbai_forms(rules)):
        if reading.form == Forms.STANDARD:
            for block in _win_blocks(reading, win):
                yield reading, block
        elif reading.form != Forms.SEVEN_PAIRS or _seven_pairs_allowed(hand, rules):
            yield reading, None


def _win_blocks(reading: Decomposition, win: int) -> List[int]:
    """`reading.win_blocks(win)` without building the reading's Block objects: the indices into
    `reading.blocks` (its sets, then its pair, then any `pairs`) of the concealed blocks other than
    kongs that hold the winning tile."""
    out = []
    i = 0
    for b in reading.sets:
        if b.meld is None:
            kind = b.kind
            t = b.tile
            if kind == _CHOW:
                if t <= win <= t + 2:
                    out.append(i)
            elif kind != _KONG and win == t:
                out.append(i)
        i += 1
    if reading.pair is not None:
        if win == reading.pair:
            out.append(i)
        i += 1
    for t in reading.pairs:
        if win == t:
            out.append(i)
        i += 1
    return out


def _seven_pairs_allowed(hand: Hand, rules: Rules) -> bool:
    return not rules.seven_pairs_need_terminal or holds_terminal_or_honor(hand)


# ---------------------------------------------------------------------------------------------
# The loser side


def loser_patterns_of(hand: HandLike, rules: Optional[Rules] = None) -> Tuple[Pattern, ...]:
    """The loser-side patterns of a 13 − 3·melds hand (明 一般高/两般高/四归一, 手把一, 门清)."""
    return loser_patterns(waiting_hand(hand, "loser_doublings"))


def loser_doublings(hand: HandLike, rules: Optional[Rules] = None) -> int:
    """Doublings a loser's own hand adds to what they pay (`rules` is accepted for symmetry: no key
    changes the loser side). `hand` holds 13 − 3·melds concealed tiles: the hand after the discard
    that was won on, or — for a robbed kong — without the robbed tile."""
    return sum(p.doublings for p in loser_patterns_of(hand, rules))
