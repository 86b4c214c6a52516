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

from itertools import compress
from typing import Any, Dict, List

from mahjong_core.errors import RulesError
from mahjong_core.game.actions import DECLARE, PIAO, PIAO_VALUES, Action
from mahjong_core.game.constants import CHOOSE, MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG
from mahjong_core.game.engine import Game, _shanten_m
from mahjong_core.game.view import revealed_choices
from mahjong_core.tiles import Forms

from . import ready as changbai_ready
from .rules import Rules
from .scoring import score as changbai_score
from .settlement import ChangbaiSettlement

__all__ = ["ChangbaiGame"]


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
        self.settlement = ChangbaiSettlement(self.rules, dealer=self.dealer, piao=tuple(self.piao),
                                                      ledger=self.ledger)
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

    def _declare_options(self, seat: int) -> List[Action]:
        hand = self.hands[seat]
        melds = self.n_melds[seat]
        forms = self.FORMS
        # Hot (every turn under ready_required): the meld count is positional (see engine._shanten_m).
        if _shanten_m(hand, forms, melds) > 0:
            return []
        out = []
        for t in compress(range(34), hand):  # each kind held
            hand[t] -= 1
            try:
                if _shanten_m(hand, forms, melds) == 0 and changbai_ready.can_declare_ready(
                        self.hand_of(seat), self.rules):
                    out.append(DECLARE[t])
            finally:
                hand[t] += 1
        return out

    def _on_declare(self, seat: int) -> None:
        wait = changbai_ready.ready_wait(self.hand_of(seat), self.rules)
        assert wait is not None, "DECLARE is offered only when the hand may declare"
        self.waits[seat] = 1 << int(wait)

    def _declared_kong_ok(self, seat: int, tile: int, kind: int) -> bool:
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
        after = self._hand_from(seat, hand, melds)
        wait = (self.waits[seat] & -self.waits[seat]).bit_length() - 1
        return changbai_ready.keeps_ready_wait(after, wait, self.rules)

    def _hand_from(self, seat: int, counts: bytearray, melds: list) -> Any:
        saved_hand, saved_melds = self.hands[seat], self.melds[seat]
        self.hands[seat], self.melds[seat] = counts, melds
        try:
            return self.hand_of(seat)
        finally:
            self.hands[seat], self.melds[seat] = saved_hand, saved_melds

    # -- wins ------------------------------------------------------------------------------------

    def _self_win_ok(self, seat: int, tile: int) -> bool:
        score = changbai_score(self.hand_of(seat, tile, add=False), self_drawn=True,
                               declared_ready=self.declared[seat], kong_replacement=self.replacement,
                               rules=self.rules)
        self._offers[seat] = score
        return score is not None

    def _discard_win_ok(self, seat: int, tile: int, robbing: bool) -> bool:
        if robbing and not self.rules.rob_kong:
            return False
        score = changbai_score(self.hand_of(seat, tile), self_drawn=False, declared_ready=self.declared[seat],
                               after_kong_discard=self.after_kong and not robbing, robbed_kong=robbing,
                               rules=self.rules)
        self._offers[seat] = score
        return score is not None

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
