"""Multi-hand matches: dealer rotation per ruleset and cumulative scores.

    match = Match("changbai", seed=3)
    match.play([GreedyBot(), RandomBot(), RandomBot(), RandomBot()], hands=16)
    match.totals          # cumulative points per seat
    match.history         # one summary per hand (dealer, winners, totals, ...)

Hand k of a match is `new_game(ruleset, seed=seed, hand_no=k, dealer=...)`. The next dealer:

- MCR (`dealer_rule="seed000"`): the dealer keeps the deal on a dealer win or a drawn hand, otherwise
  the (first) winner deals. The prevalent wind (圈风) starts East and moves on after every fourth
  change of dealer.
- Sichuan: `dealer_rule="random"` — drawn from the seed for every hand; `"discarder"` — the first
  winner's discarder deals (the winner itself after a self-draw); a drawn hand keeps the dealer.
- MCR on the Botzone table (`rules="botzone"`): seat 0 deals every hand (the table has no dealer)
  and the prevalent wind is hand k % 4, as the local Botzone judge plays a match.
- Changbai: the ruleset's rule (`ChangbaiSettlement.next_dealer`): a dealer win or a drawn hand keeps
  the dealer (连庄), a non-dealer win passes the deal to the next seat; several winners on one
  discard: the first after the discarder decides. The first dealer is seat 0 or drawn from the seed
  (`first_dealer`).
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mahjong_core._display import text_line
from mahjong_core.errors import IllegalActionError, InvalidArgumentError

from .bots import start_hand
from .botspec import build_bot
from .engine import Game
from .registry import check_ruleset, game_class
from .simulate import play_hand, release_bots
from .start import new_game
from .wall import seeded_dealer

__all__ = ["Match"]


class Match:
    """A sequence of hands of one ruleset (see the module docstring)."""

    def __init__(self, ruleset: str, *, seed: Optional[int] = None, rules: Any = None,
                 first_dealer: Optional[int] = None) -> None:
        self.ruleset = check_ruleset(ruleset)
        self._game_class = game_class(ruleset)
        self.rules = self._game_class.rules_class().resolve(rules)
        self.seed = secrets.randbits(63) if seed is None else seed
        self.hand_no = 0
        self.totals = [0, 0, 0, 0]
        self.history: List[Dict[str, Any]] = []
        self.game: Optional[Game] = None
        self.prevalent_wind = 0
        self._dealer_changes = 0
        self._recorded = True
        if first_dealer is not None:
            self.dealer = first_dealer
        elif self._game_class.random_dealer(self.rules):
            self.dealer = seeded_dealer(self.seed, 0)
        else:
            self.dealer = 0

    def new_hand(self) -> Game:
        """Start the next hand (the previous one must have been recorded with `finish_hand`)."""
        if self.game is not None and not self._recorded:
            if not self.game.finished:
                raise IllegalActionError("the current hand is not over yet")
            self.finish_hand()
        options: Dict[str, Any] = (
            {"prevalent_wind": self.prevalent_wind} if "prevalent_wind" in self._game_class.OPTIONS else {})
        self.game = new_game(self.ruleset, seed=self.seed, hand_no=self.hand_no, rules=self.rules,
                             dealer=self.dealer, **options)
        self._recorded = False
        return self.game

    def finish_hand(self) -> Dict[str, Any]:
        """Record the finished current hand: add its totals, choose the next dealer."""
        game = self.game
        if game is None or not game.finished:
            raise IllegalActionError("no finished hand to record")
        if self._recorded:
            return self.history[-1]
        self._recorded = True
        totals = game.ledger.totals()
        for s in range(4):
            self.totals[s] += totals[s]
        next_dealer = game.next_dealer()
        summary = {"hand_no": self.hand_no, "dealer": game.dealer, "winners": list(game.winners),
                   "exhausted": game.exhausted, "totals": totals, "cumulative": list(self.totals),
                   "next_dealer": next_dealer}
        if "prevalent_wind" in game.options:
            summary["prevalent_wind"] = self.prevalent_wind
        self.history.append(summary)
        fixed = getattr(type(game), "FIXED_DEALER", None)
        if fixed is not None:  # a table whose dealer never moves (Botzone's): the wind turns every hand
            next_dealer = fixed
            self.prevalent_wind = (self.hand_no + 1) % 4
            summary["next_dealer"] = fixed
        if next_dealer != self.dealer:
            self._dealer_changes += 1
            self.prevalent_wind = (self._dealer_changes // 4) % 4
        self.dealer = next_dealer
        self.hand_no += 1
        return summary

    def play(self, bots: Sequence[Any], hands: int, *, rng: Optional[random.Random] = None) -> "Match":
        """Play `hands` more hands with `bots` (one per seat: instances, or any bot spec — a built-in
        name, "package.module:Class(args)", a class; see `botspec`); returns the match. A bot needs
        only `choose(game, seat, actions)`; its `new_hand(rng)` and `release()` hooks are optional."""
        bots = [build_bot(bot) for bot in bots]
        if len(bots) != 4:
            raise InvalidArgumentError(f"give one bot per seat (4), got {len(bots)}")
        rng = rng if rng is not None else random.Random(self.seed)
        try:
            for _ in range(hands):
                game = self.new_hand()
                start_hand(bots, rng)
                play_hand(game, bots)
                self.finish_hand()
        finally:
            release_bots(bots)
        return self

    # -- output --------------------------------------------------------------------------------

    #: hands `table()` shows by default (the latest); earlier ones are counted in a line above
    TABLE_HANDS = 20

    def _rows(self, last: Optional[int]) -> List[Tuple[str, ...]]:
        shown = self.history if last is None else self.history[-last:] if last > 0 else []
        rows: List[Tuple[str, ...]] = []
        for h in shown:
            outcome = f"won by {', '.join(map(str, h['winners']))}" if h["winners"] else "drawn"
            rows.append((str(h["hand_no"]), str(h["dealer"]), outcome, *(f"{v:+d}" for v in h["totals"])))
        return rows

    _HEADER = ("hand", "dealer", "result", "seat 0", "seat 1", "seat 2", "seat 3")

    def headline(self) -> str:
        return f"{self.ruleset} match, seed {self.seed}: {self.hand_no} hands, next dealer {self.dealer}"

    def table(self, last: Optional[int] = TABLE_HANDS) -> str:
        """Hand by hand (the `last` hands; None: all): dealer, winners, each seat's points; the totals."""
        rows = self._rows(last)
        widths = (-6, -8, -16, 8, 8, 8, 8)
        lines = [text_line(self._HEADER, widths)]
        earlier = len(self.history) - len(rows)
        if earlier:
            lines.append(f"({earlier} earlier hand{'s' if earlier > 1 else ''})")
        lines.extend(text_line(row, widths) for row in rows)
        lines.append(text_line(("total", "", "", *(f"{v:+d}" for v in self.totals)), widths))
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"{self.headline()}\n{self.table()}"

    def _repr_html_(self) -> str:
        """The hand-by-hand table as HTML (notebooks)."""
        from mahjong_core._display import html_table

        rows = self._rows(self.TABLE_HANDS)
        earlier = len(self.history) - len(rows)
        rows.append(("total", "", "", *(f"{v:+d}" for v in self.totals)))
        return html_table(self._HEADER, rows, caption=self.headline(), right=(3, 4, 5, 6),
                          notes=[f"{earlier} earlier hands not shown"] if earlier else [])

    def __repr__(self) -> str:
        return f"<Match {self.ruleset} hands={self.hand_no} dealer={self.dealer} totals={self.totals}>"
