"""Changbai 长白麻将 on the shared state machine (RULES.md §3).

- 136 tiles; chow (from 上家 only), pung, kong; dealer starts with 14.
- 飘: before the deal every seat picks one of `piao_choices` at once (PIAO actions; revealed
  together; the hands are dealt after).
- 报听 (`ready_required=True`): a win needs a declaration, made with a discard after a draw (also
  after a kong's replacement; never right after a chow or pung), and only when the hand left has
  exactly one winning kind (`ready.can_declare_ready`). After it: no chow or pung; a drawn tile
  that does not win is discarded automatically; a kong only when `ready.keeps_ready_wait`.
  With `ready_required=False` any complete hand wins and there is no 报听.
- Several winners on one discard (`multiple_winners`); the hand ends with the first win(s).
- 抢杠胡 only on an added kong (`rob_kong`), by a seat that may win.
- The wall: while no kong has been made the last `reserve_without_kong` tiles are not drawn
  (无杠流局); after any kong the wall is drawn out (有杠流局). The last `last_draws_win_only` drawable
  tiles go one per seat in turn: with such a tile a seat may only win by self-draw — no discard, no
  kong; the tile is kept. The kept tile is left out of that seat's hand for loser-side doublings.
- Kong scores are paid at once; a drawn hand is settled by `ChangbaiSettlement.drawn_hand`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from mahjong_core.errors import RulesError
from mahjong_core.game.actions import DECLARE, PIAO, PIAO_VALUES, Action
from mahjong_core.game.constants import (
    CHOOSE, MELD_ADDED_KONG, MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG,
)
from mahjong_core.game.engine import Game, _best_discards_m, _shanten_m, _waits_mask_m
from mahjong_core.game.view import revealed_choices
from mahjong_core.tiles import Forms, Tile

from .rules import Rules
from .scoring import WinContext, _best_score, _refusal
from .scoring import score as changbai_score
from .settlement import ChangbaiSettlement

__all__ = ["ChangbaiGame"]

_SEVEN_PAIRS = int(Forms.SEVEN_PAIRS)
_THIRTEEN_ORPHANS = int(Forms.THIRTEEN_ORPHANS)
_TERMINALS_AND_HONOURS = tuple([int(t) for t in Tile if t.is_terminal_or_honor])
# 十三幺's kinds, as a bit mask over the 34 kinds.
_ORPHAN_KINDS = sum(1 << t for t in _TERMINALS_AND_HONOURS)
# The suited kinds with a kind of their suit one (two) below / above them (`_may_be_ready`).
_HAS_BELOW_1 = sum(1 << t for t in range(27) if t % 9 >= 1)
_HAS_BELOW_2 = sum(1 << t for t in range(27) if t % 9 >= 2)
_HAS_ABOVE_1 = sum(1 << t for t in range(27) if t % 9 <= 7)
_HAS_ABOVE_2 = sum(1 << t for t in range(27) if t % 9 <= 6)

try:  # Compiled, `cython.compiled` is True and flow.pxd cimports the C helpers (mahjong_core/_bits.pxd).
    import cython  # type: ignore[import-not-found,unused-ignore]
    _COMPILED = cython.compiled
except ImportError:  # a pure-Python build without Cython installed
    _COMPILED = False


def _may_be_ready(counts: Any, n_melds: int, forms: int) -> bool:
    """False only for a hand (14 − 3·`n_melds` concealed `counts`) that is neither ready nor complete
    (shanten > 0), told from its counts alone: the cheap test before the core's shanten call.

    An isolated tile is a single with no tile of its suit within two kinds (an honour: any single).
    A hand at most ready is a complete hand, or a ready 13-tile one and one more tile; a complete
    hand minus a tile is sets, a pair or a partial set (no isolated tile among them) and at most one
    single left of its pair; so at most two isolated tiles. Seven pairs at most ready is six pairs
    and two tiles: the same. Only 十三幺 (a concealed hand holding at least 12 of its 13 kinds)
    has more. (tests/test_changbai_declare_fast.py checks this against the core on many hands, and
    against the tile-by-tile reading of the definition.)"""
    # Hot path (every turn of every seat under ready_required): bit masks over the 34 kinds, no
    # branch per tile — the tile-by-tile loop this replaced mispredicted its branches on every hand
    # and took ~5 % of a Changbai VectorEnv step. Compiled, the two masks are two vector compares.
    if _COMPILED and mc_34_counts(counts):  # type: ignore[name-defined]  # noqa: F821 (cimported, flow.pxd)
        c = counts
        held = mc_held_kinds34(c)  # type: ignore[name-defined]  # noqa: F821
        single = mc_single_kinds34(c)  # type: ignore[name-defined]  # noqa: F821
    else:
        held = single = 0
        one = 1  # (a 64-bit one where compiled)
        for t in range(34):
            if counts[t]:
                held |= one << t
                if counts[t] == 1:
                    single |= one << t
    if not n_melds and forms & _THIRTEEN_ORPHANS:
        missing = _ORPHAN_KINDS & ~held
        if not missing & (missing - 1):
            return True  # it holds all of 十三幺's 13 kinds or all but one: the core decides
    # a kind within two of a held kind of its suit (honours have no neighbours)
    near = (((held << 1) & _HAS_BELOW_1) | ((held << 2) & _HAS_BELOW_2)
            | ((held >> 1) & _HAS_ABOVE_1) | ((held >> 2) & _HAS_ABOVE_2))
    isolated = single & ~near
    isolated &= isolated - 1  # the lowest isolated kind dropped, twice: anything left is a third
    isolated &= isolated - 1
    return not isolated


def _meld_copies(melds: List[Any], t: int) -> int:
    """How many tiles of kind `t` the engine meld tuples hold (as the core counts a Meld's tiles)."""
    n = 0
    for meld in melds:
        kind = meld[0]
        low = meld[1]
        if kind == MELD_CHOW:
            if low <= t <= low + 2:  # a chow's three kinds are low..low+2 of one suit
                n += 1
        elif low == t:
            n += 3 if kind == MELD_PUNG else 4
    return n


def _ready_wait(counts: Any, n_melds: int, melds: List[Any], forms: int, rules: Any) -> int:
    """`ready.ready_wait` on the engine's own state, without building a core Hand: the one winning
    kind of the waiting hand (`counts`: 13 − 3·`n_melds` concealed tiles; `melds`: the engine meld
    tuples) if it has exactly one, else -1. `forms` is the game's (`changbai_forms(rules)`).

    Same kinds as `ready.winning_kinds_of`, from one core wait mask: seven pairs only for a concealed
    hand; its waits are kinds the hand holds, so when the 七对 terminal rule applies and the hand holds
    no terminal or honour none of them survives and the form is left out; phantom waits (all four
    copies in the hand and its melds, the core's `exclude_exhausted`) are dropped unless they count.
    (tests/test_changbai_declare_fast.py compares the two on many hands.)"""
    c = counts
    if n_melds:
        forms &= ~_SEVEN_PAIRS
    elif rules.seven_pairs_need_terminal:
        for t in range(34):
            if c[t] and (_ORPHAN_KINDS >> t) & 1:  # a terminal or honour
                break
        else:
            forms &= ~_SEVEN_PAIRS
    mask = _waits_mask_m(counts, forms, n_melds)
    exclude_phantoms = not rules.phantom_waits_count
    single = -1
    t = 0
    while mask:
        if mask & 1:
            if exclude_phantoms and c[t] + _meld_copies(melds, t) >= 4:
                pass  # a phantom wait: it can never arrive
            elif single >= 0:
                return -1  # two winning kinds
            else:
                single = t
        mask >>= 1
        t += 1
    return single


_WIN_CONTEXTS: Dict[Tuple[bool, bool, bool, bool], WinContext] = {}


def _win_context(self_drawn: bool, kong_replacement: bool, after_kong_discard: bool, robbed_kong: bool) -> WinContext:
    """The `WinContext` of these flags, made once: it is frozen, so one instance serves every win."""
    key = (self_drawn, kong_replacement, after_kong_discard, robbed_kong)
    found = _WIN_CONTEXTS.get(key)
    if found is None:
        found = _WIN_CONTEXTS[key] = WinContext(*key)
    return found


class ChangbaiGame(Game):
    # See Game.__slots__. FORMS and MULTI_WIN are per game here (set from its rules), shadowing Game's
    # class defaults.
    __slots__ = ("piao", "settlement", "FORMS", "MULTI_WIN", "__weakref__")
    ruleset = "changbai"
    HAS_CHOW = True
    CHECK_SELF_WIN = True
    CHECK_DISCARD_WIN = True

    @classmethod
    def rules_class(cls) -> Any:
        return Rules

    @classmethod
    def random_dealer(cls, rules: Any) -> bool:
        return rules.first_dealer == "random"

    def _view_extras(self, seat: int) -> Dict[str, Any]:
        return {"piao": revealed_choices(self, seat, self.piao)}

    def _init_ruleset(self) -> None:
        rules = self.rules
        bad = [v for v in rules.piao_choices if v not in PIAO_VALUES]
        if bad:
            raise RulesError(f"the game engine offers 飘 values {PIAO_VALUES}; these rules allow {bad} as well")
        self.FORMS = Forms.CHANGBAI if rules.thirteen_orphans else Forms.STANDARD | Forms.SEVEN_PAIRS
        self.MULTI_WIN = rules.multiple_winners
        self.reserve = rules.reserve_without_kong
        self.last_draws = rules.last_draws_win_only
        self.declares = rules.ready_required
        self.track_waits = not rules.ready_required  # only a declared seat wins: its wait is fixed
        self.piao = [-1, -1, -1, -1]
        self.settlement: Any = None  # a ChangbaiSettlement once the 飘 are known

    def _observed_state(self) -> Any:
        return self.piao

    def _ruleset_state(self) -> Dict[str, Any]:
        return {"piao": list(self.piao)}

    # -- 飘, then the deal ----------------------------------------------------------------------

    def _start(self) -> None:
        self.phase = CHOOSE
        options = [PIAO[v] for v in self.rules.piao_choices]
        self._pending = {s: list(options) for s in range(4)}

    def _resolve_choice(self, answers: Dict[int, Action]) -> None:
        for s in range(4):
            self.piao[s] = answers[s].arg
        self._events.append(("piao", list(self.piao)))
        # (the engine checked the rules, the dealer and every 飘: the settlement skips its checks)
        self.settlement = ChangbaiSettlement._for_game(self.rules, self.dealer, tuple(self.piao), self.ledger)
        self._deal()
        self._begin_dealer_turn()

    def next_dealer(self) -> int:
        """The dealer of the next hand (RULES.md §3), once this hand is over."""
        assert self.settlement is not None
        return self.settlement.next_dealer()

    # -- waits and 报听 ---------------------------------------------------------------------------

    def _update_waits(self, seat: int) -> None:
        if self.declares:
            return  # only a declared seat can win, and its wait is fixed at the declaration
        Game._update_waits(self, seat)

    def _declare_options(self, seat: int) -> Sequence[Action]:
        hand = self.hands[seat]
        melds = self.n_melds[seat]
        forms = self._forms
        # Hot (every turn under ready_required): the meld count is positional (see engine._shanten_m);
        # none is the shared empty tuple (Game._declare_options).
        if not _may_be_ready(hand, melds, forms) or _shanten_m(hand, forms, melds) > 0:
            return ()
        # The discards leaving a ready hand (13-tile shanten 0): the lowest a discard reaches is 0 here.
        shanten, mask = _best_discards_m(hand, forms, melds)
        if shanten != 0:
            return ()
        out = []
        seat_melds = self.melds[seat]
        rules = self.rules
        t = 0
        while mask:
            if mask & 1:
                hand[t] -= 1
                try:
                    if _ready_wait(hand, melds, seat_melds, forms, rules) >= 0:
                        out.append(DECLARE[t])
                finally:
                    hand[t] += 1
            mask >>= 1
            t += 1
        return out

    def _on_declare(self, seat: int) -> None:
        wait = _ready_wait(self.hands[seat], self.n_melds[seat], self.melds[seat], self._forms, self.rules)
        assert wait >= 0, "DECLARE is offered only when the hand may declare"
        self.waits[seat] = 1 << wait

    def _declared_kong_ok(self, seat: int, tile: int, kind: int) -> bool:
        # `ready.keeps_ready_wait` on the hand after the kong (13 − 3·melds tiles): the wait stays the one.
        hand = bytearray(self.hands[seat])
        melds = [m for m in self.melds[seat]]
        if kind == MELD_CONCEALED_KONG:
            hand[tile] -= 4
            melds.append((MELD_CONCEALED_KONG, tile, 0, -1))
        elif kind == MELD_ADDED_KONG:
            hand[tile] -= 1
            melds = [(MELD_ADDED_KONG, t, mk, f) if (k == MELD_PUNG and t == tile) else (k, t, mk, f)
                     for k, t, mk, f in melds]
        else:  # a melded kong on a discard: the hand is at waiting size
            hand[tile] -= 3
            melds.append((MELD_KONG, tile, (seat - self.discarder) % 4, self.discarder))
        wait = (self.waits[seat] & -self.waits[seat]).bit_length() - 1
        return _ready_wait(hand, len(melds), melds, self._forms, self.rules) == wait

    # -- wins ------------------------------------------------------------------------------------

    def _self_win_ok(self, seat: int, tile: int) -> bool:
        score = self._win_score(self.hand_of(seat, tile, add=False), seat, True, self.replacement, False, False)
        self._offers[seat] = score
        return score is not None

    def _discard_win_ok(self, seat: int, tile: int, robbing: bool) -> bool:
        if robbing and not self.rules.rob_kong:
            return False
        score = self._win_score(self.hand_of(seat, tile), seat, False, False, self.after_kong and not robbing,
                                robbing)
        self._offers[seat] = score
        return score is not None

    def _win_score(self, hand: Any, seat: int, self_drawn: bool, kong_replacement: bool,
                   after_kong_discard: bool, robbed_kong: bool) -> Any:
        """`changbai_score(hand, self_drawn=..., ..., declared_ready=self.declared[seat],
        rules=self.rules)` for a hand the engine built (`hand_of`: 14 − 3·melds tiles, the winning
        tile set on it). The argument checks `score` makes hold by construction, so the hand goes
        straight to `_refusal` and `_best_score`; and a seat that declared ready under
        `ready_required` holds the hand it declared with (its one wait fixed then, kept by any kong:
        `_declared_kong_ok`), so `_refusal`, which would recompute that wait, passes and is skipped.
        A kong replacement's win (杠上花: `score` checks its kong) and rules that are not a `Rules`
        take `score` itself. tests/test_changbai_win_score.py compares the two at every offered win."""
        rules = self.rules
        declared = self.declared[seat]
        if kong_replacement or type(rules) is not Rules:
            return changbai_score(hand, self_drawn=self_drawn, declared_ready=declared,
                                  kong_replacement=kong_replacement, after_kong_discard=after_kong_discard,
                                  robbed_kong=robbed_kong, rules=rules)
        win = hand.win_tile
        if not (declared and rules.ready_required) and _refusal(hand, win, declared, rules) is not None:
            return None
        return _best_score(hand, win, _win_context(self_drawn, False, after_kong_discard, robbed_kong), rules)

    def _loser_hands(self, winners: List[int]) -> Dict[int, Any]:
        out = {}
        for s in range(4):
            if s in winners:
                continue
            kept = self.kept[s]
            if kept >= 0:
                self.hands[s][kept] -= 1
                try:
                    out[s] = self.hand_of(s)
                finally:
                    self.hands[s][kept] += 1
            else:
                out[s] = self.hand_of(s)
        return out

    def _settle_kong(self, seat: int, kind: int, tile: int, discarder: int) -> None:
        self.reserve = 0  # 有杠流局: once a kong is made the wall is drawn out
        self.settlement.kong(seat, concealed=kind == MELD_CONCEALED_KONG)

    def _settle_self_win(self, seat: int, tile: int) -> Any:
        score = self._offers[seat]
        self.settlement.self_drawn_win(seat, score, self._loser_hands([seat]))
        return score

    def _settle_discard_win(self, winners: List[int], discarder: int, tile: int, robbed: bool) -> Dict[int, Any]:
        scores = {s: self._offers[s] for s in winners}
        self.settlement.discard_win(discarder, scores, self._loser_hands(winners))
        return scores

    def _settle_exhausted(self) -> None:
        self.settlement.drawn_hand()

    def _score_summary(self, score: Any) -> Any:
        if score is None:
            return None
        return {"doublings": score.doublings, "multiplier": score.multiplier,
                "items": [list(i) for i in score.items]}
