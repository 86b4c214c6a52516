"""MCR (Chinese Official, 国标) on the shared state machine (RULES.md §1).

- 136 tiles, or 144 with `flowers=True`: flowers are set aside and replaced from the wall's tail
  (补花) automatically — after the deal (dealer first, then in turn order) and whenever one is drawn.
- Chow (next seat only), pung, kong; robbing an added kong (抢杠和).
- A win must reach `min_fan` (8) not counting flowers: WIN is offered only then, so a false win
  cannot happen and `false_win_penalty` is never charged (documented engine decision).
- One winner per discard, the nearest to the discarder in turn order, unless `multiple_winners`.
- `declared_ready_fan=True` (preset `classic`): 报听 with a discard that leaves a ready hand; after
  it the drawn tile is discarded automatically unless it wins (or makes a kong that keeps the
  waits), no chow/pung; the scorer gets `declared_ready=True` if it accepts that argument.
- Scoring context from the table: seat wind (seat − dealer), prevalent wind (game option
  `prevalent_wind`, default East), self-drawn, last copy (和绝张: the other three copies visible in
  rivers and exposed melds), last wall tile (妙手回春 / 海底捞月), kong (杠上开花 / 抢杠和), flowers.
- Settlement: `mcr.settle(score, winner, discarder, rules)`; an exhausted wall pays nothing (荒庄).

The flow reaches the scorer through one seam, `scorer()`: the MCR package itself, or — inside
`backend_override(obj)` — any object with `Rules`, `score` and `settle` of the same shape (a test
double for flow-mechanics tests).
"""

from __future__ import annotations

import contextlib
import inspect
import sys
from itertools import compress
from typing import Any, Dict, Iterator, List, Optional, Sequence

from mahjong_core.game.actions import DECLARE, Action
from mahjong_core.game.constants import MELD_ADDED_KONG, MELD_CONCEALED_KONG
from mahjong_core.game.engine import Game, _seat_arg, _shanten_m, _waits_mask_m
from mahjong_core.errors import InvalidArgumentError
from mahjong_core.hand import Hand as _HAND
from mahjong_core.tiles import Forms, Tile

__all__ = ["MCRGame", "scorer", "backend_override"]

_override: Optional[Any] = None
_PACKAGE = "mahjong_core.rules.mcr"

# The win check's direct call (MCRGame._score), set by `_load_direct` once the package is loaded:
# `mcr.score` as the package defines it (the direct call is taken only while the backend's `score`
# is this object), the end of its general path, and the Rules class it checks for.
_SCORE_ENTRY: Any = None
_SCORE_CHECKED: Any = None
_RULES_CLASS: Any = None
_TILES = tuple(Tile)  # Tile(t) by index: the same enum members, without the enum call


def _load_direct(backend: Any) -> None:
    """Read the scorer's pieces for `MCRGame._score`'s direct call, when `backend` is the MCR
    package itself (a backend override or a test double keeps the keyword call)."""
    global _SCORE_ENTRY, _SCORE_CHECKED, _RULES_CLASS
    if _SCORE_ENTRY is not None or backend is not sys.modules.get(_PACKAGE):
        return
    from mahjong_core.rules.mcr import scoring

    _SCORE_CHECKED, _RULES_CLASS = scoring._score_checked, scoring.Rules
    _SCORE_ENTRY = scoring.score


def scorer() -> Any:
    """The MCR backend: the override if one is active, else the `mahjong_core.rules.mcr` package."""
    if _override is not None:
        return _override
    loaded = sys.modules.get(_PACKAGE)  # once per hand: skip the import machinery once loaded
    if loaded is None:
        import importlib

        loaded = importlib.import_module(_PACKAGE)
    return loaded


@contextlib.contextmanager
def backend_override(backend: Any) -> Iterator[Any]:
    """Use `backend` (with `Rules`, `score`, `settle`) instead of the MCR package inside the block."""
    global _override
    saved = _override
    _override = backend
    try:
        yield backend
    finally:
        _override = saved


def _accepts_declared_ready(module: Any) -> bool:
    try:
        return "declared_ready" in inspect.signature(module.score).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return False


def _fans_without_flowers(score: Any, flowers: int) -> int:
    """The fan total that counts toward `min_fan`: flowers (1 fan each, 花牌) do not. Uses the
    score's own `base_total` when it has one."""
    base = getattr(score, "base_total", None)
    return score.total - flowers if base is None else base


class MCRGame(Game):
    # See Game.__slots__. MULTI_WIN is per game here (set from its rules), shadowing Game's default.
    __slots__ = ("_pass_declared", "mcr", "prevalent_wind", "MULTI_WIN", "__weakref__")
    ruleset = "mcr"
    FORMS = Forms.MCR
    HAS_CHOW = True
    CHECK_SELF_WIN = True
    CHECK_DISCARD_WIN = True
    OPTIONS = {"prevalent_wind": 0}

    @classmethod
    def rules_class(cls) -> Any:
        return scorer().Rules

    @classmethod
    def uses_flowers(cls, rules: Any) -> bool:
        return bool(rules.flowers)

    def _view_extras(self, seat: int) -> Dict[str, Any]:
        return {"prevalent_wind": self.prevalent_wind}

    def _init_ruleset(self) -> None:
        wind = self.options["prevalent_wind"]
        if not isinstance(wind, (bool, int)) and hasattr(wind, "__index__"):
            wind = self.options["prevalent_wind"] = wind.__index__()  # (a NumPy integer: stored and logged as an int)
        if isinstance(wind, bool) or not isinstance(wind, int) or not 0 <= wind < 4:
            raise InvalidArgumentError(f"prevalent_wind must be 0..3 (E S W N), got {wind!r}")
        self.prevalent_wind = wind
        self.mcr = scorer()
        _load_direct(self.mcr)
        self.MULTI_WIN = bool(self.rules.multiple_winners)
        self.declares = bool(self.rules.declared_ready_fan)
        self._pass_declared = self.declares and _accepts_declared_ready(self.mcr)

    def _observed_state(self) -> Any:
        return (self.prevalent_wind, self.flowers)

    def _ruleset_state(self) -> Dict[str, Any]:
        return {"prevalent_wind": self.prevalent_wind}

    def _restore_unpickled(self) -> None:
        self.mcr = scorer()  # a module is not pickled (Game.__getstate__)
        _load_direct(self.mcr)

    def seat_wind(self, seat: int) -> int:
        """The seat's wind, 0..3 = E S W N (the dealer is East)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return (seat - self.dealer) % 4

    # -- the deal and 补花 ------------------------------------------------------------------------

    def _deal(self) -> None:
        # Once per hand, 53 tiles, as Game._deal: tiles 13k..13k+12 go to the k-th seat from the
        # dealer, tile 52 to the dealer; compiled, `hand` is the seat's buffer, written in place
        # after the tile is checked to be a kind (flow.pxd). Flowers wait for 补花 below.
        wall, dealer, hands = self.wall, self.dealer, self.hands
        to_replace: List[List[int]] = [[], [], [], []]
        for i in range(53):
            t = wall[i]
            seat = (dealer + i // 13) & 3
            if t >= 34:
                to_replace[seat].append(t)
                continue
            if t < 0:
                raise IndexError("bytearray index out of range")
            hand = hands[seat]
            hand[t] += 1
        self.head = 53
        self._events.append(("deal", dealer))
        self.drawn = wall[52]
        for k in range(4):  # 补花 from the tail: the dealer first, then in turn order
            seat = (dealer + k) % 4
            queue = to_replace[seat]
            while queue:
                flower = queue.pop(0)
                self.flowers[seat].append(flower)
                self.tail -= 1
                t = wall[self.tail]
                self._events.append(("flower", seat, flower, t))
                if t >= 34:
                    queue.append(t)
                else:
                    self.hands[seat][t] += 1
                    if seat == dealer:
                        self.drawn = t

    # -- waits and 报听 ---------------------------------------------------------------------------

    def _declare_options(self, seat: int) -> Sequence[Action]:
        hand = self.hands[seat]
        melds = self.n_melds[seat]
        # (every turn with declared_ready_fan; the meld count is positional: see engine._shanten_m;
        # none is the shared empty tuple, Game._declare_options)
        if _shanten_m(hand, self.FORMS, melds) > 0:
            return ()
        out = []
        for t in compress(range(34), hand):  # each kind held
            hand[t] -= 1
            if _shanten_m(hand, self.FORMS, melds) == 0:
                out.append(DECLARE[t])
            hand[t] += 1
        return out

    def _declared_kong_ok(self, seat: int, tile: int, kind: int) -> bool:
        hand = bytearray(self.hands[seat])
        if kind == MELD_CONCEALED_KONG:
            hand[tile] -= 4
            melds = self.n_melds[seat] + 1
        elif kind == MELD_ADDED_KONG:
            hand[tile] -= 1
            melds = self.n_melds[seat]
        else:
            hand[tile] -= 3
            melds = self.n_melds[seat] + 1
        return _waits_mask_m(hand, self.FORMS, melds) == self.waits[seat]

    # -- wins ------------------------------------------------------------------------------------

    def _score(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool) -> Any:
        hand = self.hand_of(seat, tile, add=not self_drawn)
        visible = self._visible_count(seat, tile)
        if not self_drawn and not robbing:
            visible -= 1  # the discard itself lies in the river
        wall_empty = self.tail == self.head
        seat_wind = self.seat_wind(seat)
        flowers = len(self.flowers[seat])
        rules = self.rules
        prevalent = self.prevalent_wind
        # Hot path (every win on offer): with the package's own `score` as the backend's, go straight
        # to the end of its general path (`scoring._score_checked`) with what that path would have
        # made of these arguments — a complete Hand without context, the winning Tile, a Rules,
        # plain ints in range — skipping the keyword call, its dict and the conversions (~1/4 of a
        # win check). Anything else (a test double, a patched `score`, another Rules type, an
        # out-of-range value) takes the keyword call below: its result or error is what it was.
        if (self.mcr.score is _SCORE_ENTRY and type(hand) is _HAND and hand.context is None
                and type(rules) is _RULES_CLASS and 0 <= tile < 34
                and type(seat_wind) is int and 0 <= seat_wind <= 3
                and type(prevalent) is int and 0 <= prevalent <= 3 and flowers <= 8):
            score = _SCORE_CHECKED(hand, _TILES[tile], self_drawn, visible >= 3, wall_empty and not robbing,
                                   (self_drawn and self.replacement) or robbing, seat_wind, prevalent, flowers,
                                   rules, self._pass_declared and self.declared[seat])
            if score is None or _fans_without_flowers(score, flowers) < rules.min_fan:
                return None
            return score
        kwargs = dict(
            win_tile=tile, self_drawn=self_drawn, last_copy=visible >= 3,
            wall_last=wall_empty and not robbing,
            kong=(self_drawn and self.replacement) or robbing,
            seat_wind=seat_wind, prevalent_wind=prevalent,
            flowers=flowers, rules=rules)
        if self._pass_declared:
            kwargs["declared_ready"] = self.declared[seat]
        score = self.mcr.score(hand, **kwargs)
        if score is None or _fans_without_flowers(score, len(self.flowers[seat])) < self.rules.min_fan:
            return None
        return score

    def _self_win_ok(self, seat: int, tile: int) -> bool:
        score = self._score(seat, tile, self_drawn=True, robbing=False)
        self._offers[seat] = score
        return score is not None

    def _discard_win_ok(self, seat: int, tile: int, robbing: bool) -> bool:
        score = self._score(seat, tile, self_drawn=False, robbing=robbing)
        self._offers[seat] = score
        return score is not None

    def _merge(self, ledger: Any) -> None:
        offset = len(self.ledger)
        for t in ledger:
            self.ledger.add(t.payer, t.payee, t.amount, t.reason, None if t.ref is None else t.ref + offset)

    def _settle_self_win(self, seat: int, tile: int) -> Any:
        score = self._offers[seat]
        self._merge(self.mcr.settle(score, seat, None, rules=self.rules))
        return score

    def _settle_discard_win(self, winners: List[int], discarder: int, tile: int, robbed: bool) -> Dict[int, Any]:
        scores = {}
        for s in winners:
            scores[s] = self._offers[s]
            self._merge(self.mcr.settle(scores[s], s, discarder, rules=self.rules))
        return scores

    def _score_summary(self, score: Any) -> Any:
        if score is None:
            return None
        return {"total": score.total,
                "fans": [[f.name_zh, f.points, getattr(f, "count", 1)] for f in score.fans]}

    def next_dealer(self) -> int:
        """`dealer_rule="seed000"`: the dealer keeps the deal on a dealer win or a drawn hand; otherwise
        the (first) winner deals. `"rotate"`: the deal passes to the next seat every hand."""
        if getattr(self.rules, "dealer_rule", "seed000") == "rotate":
            return (self.dealer + 1) % 4
        if not self.winners or self.dealer in self.winners:
            return self.dealer
        return self.winners[0]

