"""MCR settlement (RULES.md §1): zero-sum payments of a win, a false win, and a hand's ledger.

Each of the three others pays the winner 8; on a discard win the discarder also pays the fan total
F; on a self-draw each of the three pays 8 + F. A drawn hand (荒庄) pays nothing; kongs pay nothing.

`settle(score, winner, discarder)` returns the Ledger of one win; `MCRSettlement` keeps the ledger of a
whole hand with the verbs every ruleset's settlement shares (`discard_win`, `self_drawn_win`, `kong`,
`drawn_hand`), plus `false_win` (诈和).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Tuple, Union

from mahjong_core.errors import IllegalActionError, InvalidArgumentError

from ..ledger import Ledger, check_seat, wins_by_seat
from .rules import Rules, resolve
from .scoring import MCRScore

__all__ = ["settle", "false_win_penalty", "MCRSettlement"]

_SEATS = 4
_BASE = 8


def settle(score: Optional[MCRScore], winner: int, discarder: Optional[int] = None,
           rules: Union[Rules, str, None] = None) -> Ledger:
    """Zero-sum payments for a win: each of the three others pays the winner 8; on a discard win the
    discarder also pays the fan total F; on a self-draw each pays 8 + F.

    Raises IllegalActionError if the score is below `min_fan` (that is a false win: see
    `false_win_penalty`) or `discarder` does not match how the hand was won; InvalidArgumentError for
    a seat that is not an integer 0..3, or a `score` that is not an `MCRScore` — None included,
    which `mcr.score` returns for a hand that does not win (so `settle(score(text), ...)` composes,
    and a hand that does not win is a clear error here).
    """
    if not isinstance(score, MCRScore):
        if score is None:
            raise InvalidArgumentError(
                "settle needs the score of a winning hand, got None: mcr.score returns None when the hand does not "
                "win (mahjong_core.is_winning and shanten say why)")
        raise InvalidArgumentError(f"settle takes the MCRScore that mcr.score returns, got {type(score).__name__} "
                                   f"{score!r}")
    r = score.rules if rules is None else resolve(rules)
    winner = check_seat(winner, "winner")
    if discarder is not None:
        discarder = check_seat(discarder, "discarder")
        if discarder == winner:
            raise IllegalActionError(f"the discarder must be another seat than the winner ({winner})")
    if (discarder is None) != score.self_drawn:
        raise IllegalActionError(
            "a self-drawn win has no discarder" if score.self_drawn else "a discard win needs the discarder's seat")
    if score.base_total < r.min_fan:
        raise IllegalActionError(
            f"{score.base_total} fans without flowers is below the {r.min_fan}-fan minimum: this is a false win")
    ledger = Ledger(_SEATS)
    for seat in range(_SEATS):
        if seat == winner:
            continue
        ledger.add(seat, winner, _BASE, "mcr base")
        if discarder is None or seat == discarder:
            ledger.add(seat, winner, score.total, "mcr fans")
    return ledger


def false_win_penalty(seat: int, rules: Union[Rules, str, None] = None) -> Ledger:
    """A false win (诈和): `seat` pays `false_win_penalty` to each other player."""
    r = resolve(rules)
    seat = check_seat(seat)
    ledger = Ledger(_SEATS)
    if r.false_win_penalty:
        for other in range(_SEATS):
            if other != seat:
                ledger.add(seat, other, r.false_win_penalty, "mcr false win")
    return ledger


class MCRSettlement:
    """The ledger of one MCR hand, fed event by event (the verbs every ruleset's settlement shares).

    Each verb returns the ledger indices it wrote (a tuple) and raises — recording nothing — when the
    event is impossible.
    """

    def __init__(self, rules: Union[Rules, str, None] = None, *, ledger: Optional[Ledger] = None) -> None:
        self.rules = resolve(rules)
        self.ledger = ledger if ledger is not None else Ledger(_SEATS)
        self.finished = False

    def _merge(self, part: Ledger) -> Tuple[int, ...]:
        offset = len(self.ledger)
        return tuple(self.ledger.add(t.payer, t.payee, t.amount, t.reason, None if t.ref is None else t.ref + offset)
                     for t in part)

    def _check_open(self) -> None:
        if self.finished:
            raise IllegalActionError("this MCR hand is already settled")

    def self_drawn_win(self, winner: int, score: MCRScore) -> Tuple[int, ...]:
        """A self-drawn win: each other seat pays 8 + F."""
        self._check_open()
        entries = self._merge(settle(score, winner, None, self.rules))
        self.finished = True
        return entries

    def discard_win(self, discarder: int, wins: Union[Mapping[int, MCRScore], Iterable[Tuple[int, MCRScore]]]
                    ) -> Tuple[int, ...]:
        """A win on `discarder`'s discard (or robbed kong) by one or more seats: `wins` is {winner: score}
        or (winner, score) pairs."""
        self._check_open()
        wins = wins_by_seat(wins)
        if not wins:
            raise IllegalActionError("a discard win needs at least one winner")
        parts = [settle(score, winner, discarder, self.rules) for winner, score in wins.items()]
        entries: Tuple[int, ...] = ()
        for part in parts:
            entries += self._merge(part)
        self.finished = True
        return entries

    def kong(self, seat: int, kind: str = "concealed", *, tile: object = None,
             discarder: Optional[int] = None) -> Tuple[int, ...]:
        """Kongs pay nothing in MCR (their fans are counted in the winner's score)."""
        self._check_open()
        check_seat(seat)
        return ()

    def drawn_hand(self) -> Tuple[int, ...]:
        """荒庄: nobody pays."""
        self._check_open()
        self.finished = True
        return ()

    def false_win(self, seat: int) -> Tuple[int, ...]:
        """诈和: `seat` pays `false_win_penalty` to each other player."""
        self._check_open()
        entries = self._merge(false_win_penalty(seat, self.rules))
        return entries

    def totals(self) -> list:
        return self.ledger.totals()

    def __repr__(self) -> str:
        return f"MCRSettlement({self.rules!r}, entries={len(self.ledger)}, totals={self.totals()})"

    def __str__(self) -> str:
        """The repr, then the ledger's transfers one a line and the totals."""
        return f"{self!r}\n{self.ledger}"

    def _repr_html_(self) -> str:
        """The ledger as an HTML table under the repr (notebooks)."""
        return self.ledger.to_html(repr(self))
