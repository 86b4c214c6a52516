"""Sichuan 血战到底 on the shared state machine (RULES.md §2).

- 108 tiles, no chow; pung and kong; dealer starts with 14.
- 定缺: after the deal every seat picks a void suit at once (VOID actions; the choices are revealed
  together). Holding tiles of two suits forces the third; holding one suit allows either other.
- While a seat holds void-suit tiles it must discard them; void-suit tiles are never claimed or
  konged; a hand holding one cannot win (the cached wait mask is empty then).
- Several winners on one discard (一炮多响); the hand goes on after wins (血战到底) until three have
  won or the wall is empty; then 查花猪 / 查大叫 / 退税 through `SichuanSettlement.wall_exhausted`.
- Kongs pay at once through the settlement (刮风下雨); an added kong can be robbed (抢杠胡), a
  concealed one cannot; 杠上炮 wins carry `after_kong_discard` and the settlement applies 呼叫转移.
- `pass_lock="until_draw"`: a seat that passes a discard (or robbing) win cannot win on a discard
  again until its next draw unless the new win scores more 番.
- `forced_win_last=N`: a winning tile that came from the wall's last N tiles (fewer than N left after
  it was drawn — also its discard) must be won: WIN is then the only action offered.
- 天胡/地胡 (`first_draw`): the seat's first tile with no claim or kong made before.
- The physical tile of a discard won by several seats goes to the nearest winner's won tiles.
- 普通场 (`blood_battle=False`, preset `qq_normal`): the first win — one or several seats on one
  discard — ends the hand; a drawn hand runs the same wall-end checks.
- 逃跑/强退 (`leave(seat)`, RULES.md §2; the settlement is `SichuanSettlement.leave`): the seat is
  out for good. Decisions on the flow side: the engine treats it like a seat that has won — no
  turn, no claim, no payment from then on (`won[seat]` is True, `left` lists it; it is not in
  `winners`); an answer it owed is dropped — in a claim or robbing window it counts as passing, in
  定缺 its first legal suit is taken; when it leaves on its own turn the turn is skipped (its tiles
  stay in its hand, nothing is discarded) and the next seat still playing draws; a claim window on
  its own discard (or a robbing window on its added kong) closes unanswered — it pays nothing once
  gone, so nobody can win, pung or kong on that tile (the added kong is not made). The hand goes on
  until fewer than two seats are still playing (or ends at once under `escape_ends_hand=True`);
  an event ("leave", seat, charged, {payee: amount}, answers so far) is logged, and `replay` repeats
  the leave at that point. The 查大叫 against a leaver in the
  last tiles reads the others' hands as they are (a seat mid-turn at its best discard).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from mahjong_core.game.actions import SUIT_LETTERS, VOID, Action
from mahjong_core.errors import IllegalActionError
from mahjong_core.game.constants import CHOOSE, CLAIM, MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_KONG, ROB
from mahjong_core.game.engine import Game, _held_kinds, _seat_arg, _waits_mask_m
from mahjong_core.game.view import revealed_choices
from mahjong_core.game.wall import seeded_dealer, standard_tiles
from mahjong_core.hand import Hand
from mahjong_core.tiles import Forms

from .rules import Rules
from .scoring import _DISCARD_WIN, _best_wait, _context, _score, _score_win
from .settlement import KongKind, SichuanSettlement

__all__ = ["SichuanGame", "void_choices"]


_ZERO9 = bytes(9)
_STANDARD = int(Forms.STANDARD)
_KONG_KINDS = {MELD_KONG: KongKind.DIRECT, MELD_ADDED_KONG: KongKind.ADDED, MELD_CONCEALED_KONG: KongKind.CONCEALED}


def _score_of(hand: Any, context: Any, void_suit: Any, rules: Any) -> Any:
    """The value of a seat's win: `scoring._score_win(hand, context, void_suit, rules)`, whose checks
    hold by construction for the engine's own `Hand` and `Rules` — `Game.hand_of` builds a complete
    hand of a Sichuan wall's tiles (no honour, no chow, no MCR context, the winning tile among its
    counts), the game's rules are resolved, and the flags of `_context` agree with the hand (first
    draw: no meld yet; kong replacement: a kong just made). Such a hand goes straight to
    `scoring._score` (hot path: every Sichuan win; the checks were a fifth of it); anything else —
    a subclass's own hand or rules — takes `_score_win`, checks and all."""
    if type(hand) is Hand and hand.context is None and type(rules) is Rules:
        return _score(hand, context, void_suit, rules)
    return _score_win(hand, context, void_suit, rules)


def _choices_of(held: int) -> Tuple[Action, ...]:
    """The legal 定缺 choices when bit k of `held` says suit k is held: any suit with three suits
    held, the missing suit with two, either other suit with one."""
    if held == 7:
        return VOID
    return tuple([VOID[k] for k in range(3) if not held >> k & 1])


#: suits held (bit k: suit k) -> the legal 定缺 choices
_VOID_CHOICES = tuple([_choices_of(held) for held in range(8)])


def void_choices(counts: bytes) -> List[Action]:
    """The legal 定缺 choices for a dealt hand (34 counts): any suit with three suits held, the
    missing suit with two, either other suit with one."""
    held = sum([1 << k for k in range(3) if counts[9 * k: 9 * k + 9] != _ZERO9])
    return list(_VOID_CHOICES[held])


def _suits_held(counts: Any) -> int:
    """Bit k set when `counts`, a hand's 34-byte buffer, holds a tile of suit k. Compiled, `counts`
    is read in place (flow.pxd): the engine's own hands, 34 bytes each (`void_choices` takes any)."""
    c = counts
    held = 0
    for k in range(3):
        for t in range(9 * k, 9 * k + 9):
            if c[t]:
                held |= 1 << k
                break
    return held


class SichuanGame(Game):
    __slots__ = ("void", "settlement", "wall_report", "left")  # see Game.__slots__
    ruleset = "sichuan"
    FORMS = Forms.SICHUAN
    HAS_CHOW = False
    MULTI_WIN = True
    CONTINUES_AFTER_WIN = True
    HAS_LEAVE_RULE = True

    @classmethod
    def rules_class(cls) -> Any:
        return Rules

    @classmethod
    def tiles(cls, flowers: bool = False) -> List[int]:
        return standard_tiles(honours=False)  # 108 tiles: m, p, s

    @classmethod
    def random_dealer(cls, rules: Any) -> bool:
        return rules.dealer_rule == "random"

    def next_dealer(self) -> int:
        """`dealer_rule="random"`: drawn from the seed for the next hand number; `"discarder"`: the
        first winner's discarder deals (the winner itself after a self-draw); a drawn hand keeps the
        dealer."""
        if self.rules.dealer_rule == "random":
            return seeded_dealer(self.seed, self.hand_no + 1) if self.seed is not None else self.dealer
        for event in self._events:  # "discarder": the first win decides
            if event[0] == "win":
                return event[1] if event[3] < 0 else event[3]
        return self.dealer

    def _view_extras(self, seat: int) -> Dict[str, Any]:
        return {"void": [None if v is None else SUIT_LETTERS[v] for v in revealed_choices(self, seat, self.void)],
                "left": list(self.left)}

    def _init_ruleset(self) -> None:
        self.void = [-1, -1, -1, -1]
        #: pass lock: -1 = none, else the 番 of the passed win (a new discard win must score more);
        #: the engine clears a seat's entry when it draws.
        self.lock = [-1, -1, -1, -1] if self.rules.pass_lock == "until_draw" else None
        self.forced_last = self.rules.forced_win_last
        self.settlement = SichuanSettlement(self.rules)
        self.ledger = self.settlement.ledger
        self.wall_report: Optional[Any] = None
        self.left: List[int] = []

    def _ruleset_state(self) -> Dict[str, Any]:
        return {"void": list(self.void), "left": list(self.left)}

    def _observed_state(self) -> Any:
        return self.void

    # -- 定缺 ----------------------------------------------------------------------------------

    def _start(self) -> None:
        self._deal()
        self.phase = CHOOSE
        hands = self.hands
        self._pending = {s: list(_VOID_CHOICES[_suits_held(hands[s])]) for s in range(4)}

    def _resolve_choice(self, answers: Dict[int, Action]) -> None:
        for s in range(4):
            self.void[s] = answers[s].arg
        self._events.append(("void", [SUIT_LETTERS[v] for v in self.void]))
        self._begin_dealer_turn()

    def void_suit(self, seat: int) -> Optional[str]:
        """The seat's 定缺 suit letter once revealed (None before)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        v = self.void[seat]
        return None if v < 0 or self.phase == CHOOSE else SUIT_LETTERS[v]

    # -- hooks -----------------------------------------------------------------------------------

    def _update_waits(self, seat: int) -> None:
        # Hot path (every discard): no core call while the seat still holds a void-suit tile.
        # Compiled, the kinds held are one vector compare of the hand's buffer (mahjong_core/_bits.pxd)
        # and `mask` and `suit` C integers (rules/sichuan/flow.pxd): no branch per tile (a tile-by-tile
        # scan mispredicted, `_discard_mask` below even more).
        v = self.void[seat]
        if not 0 <= v < 3:  # before 定缺 (a determinized CHOOSE window): nobody can win yet
            self.waits[seat] = 0
            return
        hand = self.hands[seat]
        suit = 0x1FF
        if _held_kinds(hand) & (suit << (9 * v)):
            self.waits[seat] = 0  # holding a void-suit tile: cannot win
            return
        # The waits outside the void suit: compiled, only the stored mask is a Python int.
        mask = _waits_mask_m(hand, self._forms, self.n_melds[seat])  # (bytearray: no copy)
        self.waits[seat] = mask & ~(suit << (9 * v))

    def _discard_mask(self, seat: int) -> int:
        # Hot path (every turn): void-suit tiles must go first (as `_update_waits`, branch-free).
        v = self.void[seat]
        held = _held_kinds(self.hands[seat])
        if 0 <= v < 3:  # (always, once 定缺 is over: discards come after it)
            suit = 0x1FF
            mask = held & (suit << (9 * v))
            if mask:  # holds a void-suit tile
                return mask
        return held  # none: every kind held, as anywhere else (`Game._discard_mask`)

    def _can_claim_tile(self, seat: int, tile: int) -> bool:
        return tile // 9 != self.void[seat]

    def _discard_win_ok(self, seat: int, tile: int, robbing: bool) -> bool:
        if self.lock is None or self.lock[seat] < 0:
            return True
        score = self._discard_score(seat, tile, robbing)
        self._offers[seat] = score
        return score is not None and score.fan > self.lock[seat]

    def _on_pass_win(self, seat: int, tile: int) -> None:
        if self.lock is None:
            return
        robbing = self.phase == ROB
        score = self._offers.get(seat) or self._discard_score(seat, tile, robbing)
        if score is not None and score.fan > self.lock[seat]:
            self.lock[seat] = score.fan

    # -- scoring and settlement ------------------------------------------------------------------

    def _discard_score(self, seat: int, tile: int, robbing: bool) -> Any:
        # score(hand, self_drawn=False, void_suit=..., after_kong_discard=..., robbed_kong=...,
        # dealer=..., rules=...) with positional arguments (see scoring._score_win)
        context = _context(False, False, self.after_kong and not robbing, robbing, False, seat == self.dealer)
        return _score_of(self.hand_of(seat, tile), context, SUIT_LETTERS[self.void[seat]], self.rules)

    def _settle_kong(self, seat: int, kind: int, tile: int, discarder: int) -> None:
        self.settlement._kong(seat, _KONG_KINDS[kind], tile, None if discarder < 0 else discarder)  # (positional)

    def _first_draw(self, seat: int) -> bool:
        """天胡/地胡: the seat's first tile (the dealer's 14th, anyone else's first draw) with no pung or
        kong (concealed too) made before, nor — `dihu_broken_by="pung_kong_win"` — a win: a win on a
        discard is a claim and ends the first round. With no claim, a seat that has not discarded
        yet is on its first draw."""
        if self.winners and self.rules.dihu_broken_by == "pung_kong_win":
            return False
        return not self.interrupted and not self.replacement and not self.rivers[seat]

    def _settle_self_win(self, seat: int, tile: int) -> Any:
        context = _context(True, self.replacement, False, False, self._first_draw(seat), seat == self.dealer)
        score = _score_of(self.hand_of(seat, tile, add=False), context, SUIT_LETTERS[self.void[seat]], self.rules)
        if score is None:  # pragma: no cover - the wait mask said it wins
            raise AssertionError(f"seat {seat}'s hand {self.hand_of(seat)} does not win with {tile}")
        self.settlement.self_drawn_win(seat, score)
        return score

    def _settle_discard_win(self, winners: List[int], discarder: int, tile: int, robbed: bool) -> Dict[int, Any]:
        scores = {}
        for s in winners:
            score = self._offers.get(s) or self._discard_score(s, tile, robbed)
            if score is None:  # pragma: no cover - the wait mask said it wins
                raise AssertionError(f"seat {s}'s hand {self.hand_of(s)} does not win on {tile}")
            scores[s] = score
        self.settlement.discard_win(discarder, scores)
        return scores

    def _after_win(self, last_winner: int) -> None:
        # The settlement knows when the hand is over: 血战 — fewer than two still playing (winners
        # and seats that left are out); 普通场 — the first win.
        if self.settlement.finished:
            self._end()
            return
        self._next_draw = self._next_seat(last_winner)

    def _seen(self, seats: List[int]) -> Optional[Dict[int, Any]]:
        """What each seat sees outside its own hand, for 查大叫 under dead_waits_ready=False."""
        if self.rules.dead_waits_ready:
            return None
        out = {}
        for s in seats:
            seen = self.visible_counts(s)
            for kind, t, _, _ in self.melds[s]:  # its own melds are part of its hand
                seen[t] -= 4 if kind in _KONG_KINDS else 3
            out[s] = list(seen)
        return out

    def _settle_exhausted(self) -> None:
        in_hand = [s for s in range(4) if not self.won[s]]
        if len(in_hand) >= 2:
            if self.rules.dead_waits_ready and min([self.void[s] for s in in_hand]) >= 0:
                self.wall_report = self._wall_end_checks(in_hand)
            else:  # dead waits need what each seat sees: the settlement's own checks
                self.wall_report = self.settlement.drawn_hand(
                    {s: self.hand_of(s) for s in in_hand},
                    void_suits={s: SUIT_LETTERS[self.void[s]] for s in in_hand}, seen=self._seen(in_hand))
            report = self.wall_report
            self._events.append(("wall_end", list(report.pigs), sorted(report.ready), list(report.not_ready)))

    def _wall_end_checks(self, in_hand: List[int]) -> Any:
        """查花猪/查大叫 read off the engine's checked state, then the settlement's payments
        (`SichuanSettlement._wall_end`): the same report as `drawn_hand` on these hands.

        Hot path (most hands end at the wall): the suits held are a C loop over each hand's buffer
        and its melds' tiles when compiled; only a hand that holds no void-suit tile, is not a 花猪
        and has a wait is valued — exactly the cases `drawn_hand` scores
        (tests/test_sichuan_wall_end.py compares the two). Its waits are compared from the counts
        (`scoring._best_wait`, as `best_ready_value` does) and only the best one is built as a
        `Hand` and scored.
        """
        pigs = []
        ready: Dict[int, Any] = {}
        one = 1  # compiled: a 64-bit unsigned one (`1 << t` would be a C int shift)
        for s in in_hand:
            hand = self.hands[s]
            bits = _suits_held(hand)
            melds = self.melds[s]
            for meld in melds:
                bits |= 1 << (meld[1] // 9)
            if bits == 7:  # 花猪: three suits held
                pigs.append(s)
                continue
            v = self.void[s]
            if bits >> v & 1:  # holds a void-suit tile: no win can leave it
                continue
            n_melds = self.n_melds[s]
            mask = _waits_mask_m(hand, self.FORMS, n_melds)
            if not mask:
                continue
            # best_ready_value's waits: without the kinds whose four copies the seat holds
            held = bytearray(hand)
            written = held  # compiled: the new bytearray's buffer (flow.pxd)
            kongs = 0
            outside = True
            for meld in melds:
                t = meld[1]
                if meld[0] in _KONG_KINDS:
                    written[t] += 4
                    kongs |= one << t
                else:
                    written[t] += 3
                if t % 9 != 0 and t % 9 != 8:
                    outside = False
            for t in range(27):
                if written[t] >= 4:
                    mask &= ~(one << t)
            std = mask if n_melds else _waits_mask_m(hand, _STANDARD, 0) & mask
            t = _best_wait(hand, held, n_melds, kongs, outside, mask, std, v, self.rules)
            if t >= 0:  # (a winning wait: _score gives its value)
                ready[s] = _score(self.hand_of(s).with_tile(t), _DISCARD_WIN, SUIT_LETTERS[v], self.rules)
        return self.settlement._wall_end(tuple(in_hand), tuple(pigs), ready)

    # -- 逃跑/强退 --------------------------------------------------------------------------------

    def leave(self, seat: int) -> None:
        """`seat` leaves the hand for good (逃跑/强退; a server's permanent disconnect): settled at
        once by `SichuanSettlement.leave`, then the hand goes on for the others (see the module
        docstring). IllegalActionError, with nothing changed, when the hand is over, the seat is not
        0..3 or has already left."""
        if self.finished:
            raise IllegalActionError(f"the hand is over; seat {seat!r} cannot leave it")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise IllegalActionError(f"seat must be 0..3, got {seat!r}")
        if seat in self.left:
            raise IllegalActionError(f"seat {seat} has already left the hand")
        events_before = len(self._events)
        try:
            self._leave(seat)
        finally:
            # A new decision point when the open window closed: anything beyond the leave event
            # itself happened (a resolution, a draw, the end). Answers to the window still open
            # (others' claims while the leaver is dropped from it) keep their step.
            if len(self._events) > events_before + 1:
                self.step += 1

    def _leave(self, seat: int) -> None:
        others = [s for s in self.settlement.in_hand if s != seat]
        check = (not self.won[seat] and self.rules.escape_ready_check_last
                 and self.tail - self.head <= self.rules.escape_ready_check_last)
        report = self.settlement.leave(
            seat, {s: self.hand_of(s) for s in others} if check else None,
            {s: SUIT_LETTERS[self.void[s]] for s in others if self.void[s] >= 0},
            wall_left=self.tail - self.head, seen=self._seen(others) if check else None)
        self.left.append(seat)
        self.won[seat] = True  # out of the hand: the engine gives it no turn and no claim
        self.waits[seat] = 0
        if self.lock is not None:
            self.lock[seat] = -1
        self._events.append(("leave", seat, report.charged,
                             {str(self.ledger[e].payee): self.ledger[e].amount for e in report.entries},
                             len(self._actions)))
        if self.settlement.finished:
            self._end()
            return
        self._drop_answer(seat)
        if self._next_draw >= 0:
            self._run()

    def _drop_answer(self, seat: int) -> None:
        """The leaver no longer answers: resolve whatever waited on it."""
        pending = self._pending
        if (self.phase == CLAIM and self.discarder == seat) or (self.phase == ROB and self.kong_seat == seat):
            # Its discard (or the kong it was adding) can no longer be won, punged or konged: it pays
            # nothing once it has left. The window closes and the next seat still playing draws.
            self._pending = {}
            self._answers = {}
            self.kong_seat = self.kong_tile = -1
            self.drawn = -1
            self.replacement = self.after_kong = False
            self._next_draw = self._next_seat(seat)
            return
        if seat not in pending or seat in self._answers:
            return
        if self.phase == CHOOSE:  # 定缺: its first legal suit stands
            self._answers[seat] = pending[seat][0]
        elif self.phase in (CLAIM, ROB):  # it passes
            pending = {s: a for s, a in pending.items() if s != seat}
            self._pending = pending
        else:  # its own turn: skipped, the next seat still playing draws
            self._pending = {}
            self.drawn = -1
            self.replacement = False
            self._next_draw = self._next_seat(seat)
            return
        answers = self._answers
        if len(answers) < len(pending):
            return
        self._pending = {}
        self._answers = {}
        if pending or self.phase != CHOOSE:
            self._resolve_window(pending, answers)

    def _score_summary(self, score: Any) -> Any:
        if score is None:
            return None
        return {"fan": score.fan, "points": score.points, "payment": score.payment,
                "items": [[i.name_zh, i.fan] for i in score.items]}
