"""`BotzoneGame`: MCR played exactly as Botzone's judge plays it (../shared/spec/BOTZONE.md).

Differences from the official-MCR flow (`MCRGame`), all the judge's:

- **Four walls.** The wall (136 tiles, or 144 with flowers) is cut into four parts; seat i owns
  `wall[i*L:(i+1)*L]` (L = 34 or 36) and takes every tile — deal, draws, kong replacements, flower
  replacements — from the END of its own part (`walls[i]`, popped). Seat 0 plays first; everyone is
  dealt 13 (flowers dealt are set aside and replaced at once, before play).
- **Drawn hand (荒庄)** as soon as the seat to draw (or to take a kong replacement) has an empty wall.
- **海底捞月 / 妙手回春** when the wall of the seat after the turn seat is empty.
- **No claim at the end**: no pung/kong/chow on a discard once the next drawer's wall is empty; an
  own-turn kong needs the own and the next seat's wall.
- **A flower is a round of its own**; a flower drawn as a kong replacement loses 杠上开花.
- **Every seat answers every discard and every added kong** (`ASK_EVERY_DISCARD`): the claim window
  (and the 抢杠 window) always asks the three others, PASS at least.
- **False wins (WH)**: `act(seat, WIN)` is accepted wherever the protocol allows `HU` (one's own
  draw, another seat's discard, another seat's added kong) even when WIN is not legal. The legal
  actions (and the mask) still offer WIN only where it wins with 8 + flowers fans; a WIN that does
  not is settled as WH — if it is the nearest WIN to the discarder — with −30 for that seat and +10
  for each other, and the hand ends.
- **`penalize(seat, code)`**: the same −30 / +10 for a protocol error ("WA") or a verdict ("TLE").
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import dataclasses

from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game.actions import CHOW_PATTERNS, KONG, PASS, PUNG, WIN, Action
from mahjong_core.game.constants import CLAIM, OTHERS as _OTHERS, ROB, TURN
from mahjong_core.rules.mcr.flow import MCRGame

from .scoring import is_win, judge_score

__all__ = ["BotzoneGame", "PENALTY"]

#: what a penalised seat pays each other seat (WA / WH / TLE ...)
PENALTY = 10


class BotzoneGame(MCRGame):
    ruleset = "mcr"
    ASK_EVERY_DISCARD = True
    #: the seat that deals every hand (`simulate` and `Match` do not rotate the dealer here)
    FIXED_DEALER = 0
    OPTIONS = {"prevalent_wind": 0}

    @classmethod
    def rules_for_wall(cls, rules: Any, wall: Any) -> Any:
        """144 tiles mean flowers (counted as fans); 136 mean none — whatever `rules.flowers` says."""
        flowers = len(wall) == 144
        return rules if bool(rules.flowers) == flowers else dataclasses.replace(rules, flowers=flowers)

    def _init_ruleset(self) -> None:
        if self.dealer != 0:
            raise InvalidArgumentError(f"the Botzone table has no dealer: seat 0 plays first (got dealer={self.dealer})")
        super()._init_ruleset()
        part = len(self.wall) // 4
        #: walls[i]: seat i's own part of the wall; it draws walls[i].pop()
        self.walls: List[List[int]] = [list(self.wall[i * part:(i + 1) * part]) for i in range(4)]
        #: (seat, code) of the penalty that ended the hand ("WA", "WH", "TLE", ...), or None
        self.penalty: Optional[tuple] = None
        #: the scored hand of a false win (None when the hand was not even complete)
        self.false_win_score: Any = None
        self.deal_events = 0
        self._false: set = set()

    def _ruleset_state(self) -> Dict[str, Any]:
        return {**super()._ruleset_state(), "walls": [list(w) for w in self.walls],
                "penalty": None if self.penalty is None else list(self.penalty)}

    # -- walls --------------------------------------------------------------------------------

    def wall_remaining(self) -> int:
        return sum(len(w) for w in self.walls)

    def wall_counts(self) -> List[int]:
        """Tiles left in each seat's own wall."""
        return [len(w) for w in self.walls]

    def dealt_tiles(self, seat: int) -> List[int]:
        """The tiles dealt to `seat` in the order it took them — from the end of its own wall, until
        it holds 13 that are not flowers (the flowers among them included; the engine's formula
        for one shared wall does not apply here). The deal request and the deal event show these."""
        part = len(self.wall) // 4
        own = self.wall[seat * part:(seat + 1) * part]
        taken: List[int] = []
        held = 0
        while held < 13:
            t = own[len(own) - 1 - len(taken)]
            taken.append(t)
            held += t < 34
        return taken

    def view(self, seat: int) -> Dict[str, Any]:
        view = super().view(seat)
        view["wall_remaining"] = self.wall_remaining()  # the engine's one-wall count does not apply
        return view

    def _view_extras(self, seat: int) -> Dict[str, Any]:
        return {**super()._view_extras(seat), "walls": self.wall_counts()}

    def _start(self) -> None:
        walls, hands = self.walls, self.hands
        self._events.append(("deal", 0))
        for seat in range(4):
            pending_flower = -1
            while sum(hands[seat]) < 13:
                t = walls[seat].pop()
                if pending_flower >= 0:
                    self._events.append(("flower", seat, pending_flower, t))
                    pending_flower = -1
                if t >= 34:
                    self.flowers[seat].append(t)
                    pending_flower = t
                else:
                    hands[seat][t] += 1
        for seat in range(4):
            self._update_waits(seat)
        self.deal_events = len(self._events)
        self._next_draw = 0

    def _run(self) -> None:
        while self._next_draw >= 0:
            seat = self._next_draw
            self._next_draw = -1
            self._take(seat, "draw", False)

    def _replacement_draw(self, seat: int) -> None:
        self._take(seat, "replacement", True)

    def _take(self, seat: int, event: str, kong: bool) -> None:
        """`seat` takes the last tile of its own wall (荒庄 when there is none); a flower is set aside
        (a round of its own, which forgets the kong) and the seat takes again."""
        wall = self.walls[seat]
        while True:
            if not wall:
                self._end_exhausted()
                return
            tile = wall.pop()
            if tile < 34:
                break
            self.flowers[seat].append(tile)
            self._events.append(("flower", seat, tile, -1))  # the replacement is the next draw
            kong = False
        self._events.append((event, seat, tile))
        self.hands[seat][tile] += 1
        self._open_turn(seat, tile, kong)

    # -- options ------------------------------------------------------------------------------

    def _turn_options(self, seat: int) -> List[Action]:
        options = self._discard_options(seat)
        if (4 in self.hands[seat] or self.pungs[seat]) and self.walls[seat] and self.walls[(seat + 1) % 4]:
            options.extend(self._kong_options(seat))
        return options

    def _open_claims(self, discarder: int, tile: int) -> None:
        others = _OTHERS[discarder]
        hands, waits = self.hands, self.waits
        claims_ok = bool(self.walls[others[0]])
        self._offers = {}
        pending: Dict[int, List[Action]] = {}
        for s in others:
            options: List[Action] = []
            if (waits[s] >> tile) & 1 and self._discard_win_ok(s, tile, False):
                options.append(WIN)
            if claims_ok:
                count = hands[s][tile]
                if count >= 2:
                    options.append(PUNG)
                    if count == 3:
                        options.append(KONG)
                if s == others[0]:
                    hand = hands[s]
                    for action, a, b in CHOW_PATTERNS[tile]:
                        if hand[a] and hand[b]:
                            options.append(action)
            options.append(PASS)
            pending[s] = options
        self.phase = CLAIM
        self._pending = pending

    def _added_kong(self, seat: int, tile: int) -> None:
        self.interrupted = True
        self.kong_seat = seat
        self.kong_tile = tile
        self._offers = {}
        pending: Dict[int, List[Action]] = {}
        for s in _OTHERS[seat]:
            wins = (self.waits[s] >> tile) & 1 and self._discard_win_ok(s, tile, True)
            pending[s] = [WIN, PASS] if wins else [PASS]
        self._events.append(("adding_kong", seat, tile))
        self.phase = ROB
        self._pending = pending

    # -- scoring ------------------------------------------------------------------------------

    def _score(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool) -> Any:
        score = self._judge_score(seat, tile, self_drawn=self_drawn, robbing=robbing)
        return score if is_win(score, len(self.flowers[seat]), self.rules) else None

    def _judge_score(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool) -> Any:
        """The judge's reading of a win of `seat` on `tile` (None when the hand is not complete)."""
        turn_seat = seat if self_drawn else (self.kong_seat if robbing else self.discarder)
        visible = self.visible_counts(seat)[tile]
        if not self_drawn and not robbing:
            visible -= 1  # the discard itself lies in the river
        return judge_score(
            self.mcr, self.hands[seat], self.melds[seat], tile, self_drawn=self_drawn, robbing=robbing,
            visible=visible, wall_last=not self.walls[(turn_seat + 1) % 4],
            replacement=self.replacement, seat=seat, quan=self.prevalent_wind,
            flowers=len(self.flowers[seat]), rules=self.rules)

    # -- false wins and penalties -----------------------------------------------------------------

    def act(self, seat: Any, action: Any, step: Optional[int] = None) -> None:
        if step is not None and step != self.step:
            return super().act(seat, action, step)  # a stale answer: the engine raises, nothing changes
        if (action is WIN or (action.__class__ is int and action == self.space.code(WIN))) and self._false_win_allowed(seat):
            self._actions.append(seat << 8 | WIN.uid)
            if self.phase == TURN:
                self._pending = {}
                self._false_win(seat, self.drawn, self_drawn=True, robbing=False)
                return
            self._false.add(seat)
            answers = self._answers
            answers[seat] = WIN
            pending = self._pending
            if len(answers) < len(pending):
                return
            self._pending = {}
            self._answers = {}
            self._resolve_window(pending, answers)
            if self._next_draw >= 0:
                self._run()
            return
        super().act(seat, action, step)

    def _false_win_allowed(self, seat: Any) -> bool:
        """WIN is not legal for `seat`, but the protocol lets it say HU now (a false win)."""
        actions = self._pending.get(seat) if isinstance(seat, int) else None
        if actions is None or WIN in actions or seat in self._answers:
            return False
        return self.phase in (CLAIM, ROB) or (self.phase == TURN and self.drawn >= 0)

    def _resolve_claims(self, pending: Dict[int, List[Action]], answers: Dict[int, Action]) -> None:
        first = next((s for s in _OTHERS[self.discarder] if answers.get(s) is WIN), -1)
        false, self._false = self._false, set()
        if first in false:
            self._false_win(first, self.discard, self_drawn=False, robbing=False)
            return
        super()._resolve_claims(pending, answers)

    def _resolve_rob(self, pending: Dict[int, List[Action]], answers: Dict[int, Action]) -> None:
        first = next((s for s in _OTHERS[self.kong_seat] if answers.get(s) is WIN), -1)
        false, self._false = self._false, set()
        if first in false:
            self._false_win(first, self.kong_tile, self_drawn=False, robbing=True)
            return
        super()._resolve_rob(pending, answers)

    def _false_win(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool) -> None:
        self.false_win_score = self._judge_score(seat, tile, self_drawn=self_drawn, robbing=robbing)
        self.penalize(seat, "WH")

    def penalize(self, seat: int, code: str = "WA") -> None:
        """End the hand with a penalty: `seat` pays 10 to each other seat (−30 / +10), as the judge
        does for a wrong answer ("WA"), a false win ("WH") or a bad verdict ("TLE", "RE", ...).
        Writes a "penalty" event (seat, code) and an "end". Allowed after a drawn hand too (the
        judge reads the answers of its last rounds first): the penalty and a second "end" follow the
        drawn hand's "exhausted" and "end", and decide the result; published events never change."""
        from mahjong_core.errors import IllegalActionError

        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise IllegalActionError(f"seat must be 0..3, got {seat!r}")
        if self.finished and self.exhausted and self.penalty is None and not self.winners:
            # The judge announces a drawn hand only in the round where the seat to draw finds its
            # wall empty; the engine plays through the 补花 / kong rounds before it at once, so a
            # penalty for an answer in one of those rounds comes first and replaces the drawn hand.
            # The events published stay as they are: "penalty" and a second "end" (the result) follow.
            self.exhausted = False
            self.finished = False
        if self.finished:
            raise IllegalActionError(f"the hand is over; seat {seat} cannot be penalised ({code})")
        for other in range(4):
            if other != seat:
                self.ledger.add(seat, other, PENALTY, f"botzone {code}")
        self.penalty = (seat, str(code))
        self._events.append(("penalty", seat, str(code)))
        self._end()
