"""Changbai settlement: payment amounts, a zero-sum ledger fed event by event, and the next dealer.

One payment between a winner W and a loser L (RULES.md §3):

    amount = base × 2^(D_win(W) + D_lose(L) + D_dealer) × (13 if 十三幺) + piao(W) + piao(L)

`D_win` is `score(...).doublings`, `D_lose` is `loser_doublings(L's hand)`, `D_dealer` is 1 when
the dealer is W or L (`dealer_doubling`). Who pays: on a self-draw all three others; on a discard
the discarder (`discard_payers="discarder"`) or every non-winner with the discarder one doubling
more (`"all"`); several winners on one discard are each settled separately; a robbed kong
(抢杠胡) is paid by the robbed player as the discarder. Kongs are paid at once by each other player
(melded 1 base, concealed 2 base; no 飘, no dealer doubling). A drawn hand: the dealer pays each
other player 2 base; kong scores stand.

The game engine keeps one `ChangbaiSettlement` per hand and calls it as the hand unfolds:

    >>> from mahjong_core.rules.changbai import ChangbaiSettlement, Rules, score
    >>> s = ChangbaiSettlement(Rules(), dealer=0, piao=(2, 0, 0, 4))
    >>> s.kong(1, concealed=True)            # seat 1 makes a concealed kong: 2 from each
    (0, 1, 2)
    >>> win = score("123m456p789s123sEE")   # E on a discard: 单吊 1 + 门清 1 + 单吊幺九 1
    >>> hands = {0: "123m456p789s12sCC"}   # the discarder's hand after the discard: 门清
    >>> s.discard_win(0, {3: win}, hands)   # seat 3 wins on seat 0's discard
    (3,)
    >>> s.ledger[3]                         # 1 × 2^(3 + 1 门清 + 1 dealer) + 飘 4 + 2
    Transfer(0->3 38 discard_win)
    >>> s.next_dealer()                     # a non-dealer won: the deal passes
    1

Every method validates everything before recording anything: a wrong call raises
`IllegalActionError` and leaves the ledger unchanged.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from mahjong_core import IllegalActionError

from .hand import HandLike
from .rules import Rules, resolve
from .scoring import ChangbaiScore, loser_doublings
from ..ledger import Ledger, Transfer, wins_by_seat

__all__ = [
    "SEATS",
    "REASONS",
    "pair_amount",
    "next_dealer",
    "ChangbaiSettlement",
]

SEATS = 4
DEFAULT_RULES = Rules()

# Transfer.reason codes, with their Chinese names for display.
REASONS: Dict[str, str] = {
    "self_drawn": "自摸",
    "discard_win": "点炮",
    "robbed_kong": "抢杠胡",
    "melded_kong": "明杠",
    "concealed_kong": "暗杠",
    "drawn_hand": "流局",
    "kong_refund": "退杠分",
}

Hands = Union[Mapping[int, HandLike], Sequence[Optional[HandLike]]]  # hands[seat]; unused seats may be None


def pair_amount(
    winner_doublings: int,
    loser_doublings: int,
    dealer_involved: bool,
    piao_winner: int = 0,
    piao_loser: int = 0,
    *,
    multiplier: int = 1,
    extra_doublings: int = 0,
    rules: Optional[Rules] = None,
) -> int:
    """What loser L pays winner W for one hand (RULES.md §3 formula).

    `multiplier` is 13 for 十三幺 (`ChangbaiScore.multiplier`); `extra_doublings` is 1 for the
    discarder under `discard_payers="all"`. `max_doublings` caps the total exponent.
    Raises IllegalActionError for negative doublings or a 飘 value the rules do not offer.
    """
    r = resolve(rules)
    for name, value in (("winner_doublings", winner_doublings), ("loser_doublings", loser_doublings),
                        ("extra_doublings", extra_doublings)):
        _require_count(name, value)
    if not _is_int(multiplier) or multiplier < 1:
        raise IllegalActionError(f"multiplier must be a positive integer (13 for 十三幺), got {multiplier!r}")
    _require_piao("piao_winner", piao_winner, r)
    _require_piao("piao_loser", piao_loser, r)
    exponent = winner_doublings + loser_doublings + extra_doublings + int(bool(dealer_involved) and r.dealer_doubling)
    if r.max_doublings is not None:
        exponent = min(exponent, r.max_doublings)
    return r.base * 2**exponent * multiplier + piao_winner + piao_loser


def next_dealer(
    dealer: int,
    winners: Sequence[int],
    discarder: Optional[int] = None,
    drawn: bool = False,
    rules: Optional[Rules] = None,
) -> int:
    """The dealer of the next hand.

    A drawn hand or a dealer win keeps the dealer (连庄); a non-dealer win passes the deal to the
    next seat. Several winners on one discard: the winner first in turn order after the discarder
    decides — the dealer stays if it is the dealer, else the deal passes. (`rules` is accepted for
    symmetry; no key changes this.)
    """
    _require_seat("dealer", dealer)
    winners = tuple(winners)
    for w in winners:
        _require_seat("winner", w)
    if len(set(winners)) != len(winners):
        raise IllegalActionError(f"winners repeat a seat: {winners}")
    if drawn:
        if winners:
            raise IllegalActionError(f"a drawn hand has no winners, got {winners}")
        return dealer
    if not winners:
        raise IllegalActionError("a hand that is not drawn needs at least one winner")
    if len(winners) > 1:
        if discarder is None:
            raise IllegalActionError("several winners win on one discard: pass the discarder")
        _require_seat("discarder", discarder)
        if discarder in winners:
            raise IllegalActionError(f"the discarder (seat {discarder}) cannot be a winner of its own discard")
        winners = tuple(sorted(winners, key=lambda w: _turn_distance(discarder, w)))
    return dealer if winners[0] == dealer else (dealer + 1) % SEATS


class ChangbaiSettlement:
    """The zero-sum ledger of one Changbai hand, fed event by event (see the module docstring).

    `dealer`: the dealer's seat; `piao`: the four players' 飘 (each one of `rules.piao_choices`);
    `ledger`: append to this Ledger (e.g. the game's running ledger) instead of a new one.
    Each event method returns the indices of the transfers it recorded.
    """

    def __init__(
        self,
        rules: Optional[Rules] = None,
        *,
        dealer: int,
        piao: Sequence[int] = (0, 0, 0, 0),
        ledger: Optional[Ledger] = None,
    ) -> None:
        rules = resolve(rules)
        _require_seat("dealer", dealer)
        if isinstance(piao, (str, bytes)) or not hasattr(piao, "__iter__"):
            raise IllegalActionError(f"piao needs one 飘 value per seat, e.g. (0, 0, 0, 0); got {piao!r}")
        piao = tuple(piao)
        if len(piao) != SEATS:
            raise IllegalActionError(f"piao needs one value per seat (4), got {len(piao)}")
        choices = rules.piao_choices
        for seat, value in enumerate(piao):
            if not _is_int(value) or value not in choices:  # (the message is built only for a bad value)
                _require_piao(f"piao of seat {seat}", value, rules)
        if ledger is not None and not isinstance(ledger, Ledger):
            raise IllegalActionError(f"ledger must be a Ledger (e.g. the game's running one) or None, got {ledger!r}")
        if ledger is not None and ledger.seats != SEATS:
            raise IllegalActionError(f"a Changbai ledger has 4 seats, got {ledger.seats}")
        self._open(rules, dealer, piao, ledger if ledger is not None else Ledger(SEATS))

    @classmethod
    def _for_game(cls, rules: Rules, dealer: int, piao: Tuple[int, ...], ledger: Ledger) -> "ChangbaiSettlement":
        """The settlement of a ChangbaiGame's hand, whose engine has checked every argument already
        (its Rules, its dealer seat, the four 飘 its players chose among the rules' choices, its
        4-seat ledger). Hot path: once per hand, where the constructor's checks cost more than
        settling a drawn hand."""
        self = cls.__new__(cls)
        self._open(rules, dealer, piao, ledger)
        return self

    def _open(self, rules: Rules, dealer: int, piao: Tuple[int, ...], ledger: Ledger) -> None:
        """The state of a hand not yet settled (the constructor's, after its checks)."""
        self.rules = rules
        self.dealer = dealer
        self.piao: Tuple[int, ...] = piao
        self.ledger = ledger
        self.winners: Tuple[int, ...] = ()
        self.discarder: Optional[int] = None
        self.drawn = False
        self._kong_entries: List[int] = []

    @property
    def finished(self) -> bool:
        """A win or a drawn hand has been settled; no further event is accepted."""
        return bool(self.winners) or self.drawn

    # -- events ---------------------------------------------------------------------------------

    def kong(self, seat: int, *, concealed: bool) -> Tuple[int, ...]:
        """A kong that stands (record it after nobody robbed it): each other player pays
        `melded_kong_base` (点杠 or 捡杠) or `concealed_kong_base` (暗杠) × base."""
        self._require_open()
        _require_seat("seat", seat)
        reason = "concealed_kong" if concealed else "melded_kong"
        per_player = (self.rules.concealed_kong_base if concealed else self.rules.melded_kong_base) * self.rules.base
        entries = self._record([Transfer(p, seat, per_player, reason) for p in _others(seat)] if per_player else [])
        self._kong_entries += list(entries)
        return entries

    def self_drawn_win(self, winner: int, win: ChangbaiScore, hands: Hands) -> Tuple[int, ...]:
        """A self-drawn win (杠上花 included): each other player pays.
        `hands[seat]` is each other player's hand (13 − 3·melds tiles) for their loser doublings."""
        self._require_open()
        _require_seat("winner", winner)
        _require_score(winner, win, self_drawn=True)
        transfers = [self._payment(winner, loser, win, hands, 0, "self_drawn") for loser in _others(winner)]
        entries = self._record(transfers)
        self.winners = (winner,)
        return entries

    def discard_win(self, discarder: int, wins: Union[Mapping[int, ChangbaiScore], Iterable[Tuple[int, ChangbaiScore]]],
                    hands: Hands) -> Tuple[int, ...]:
        """One or more players win on `discarder`'s discard — or on the tile of the promoted kong
        `discarder` was making (抢杠胡: every score has `robbed_kong=True`; the kong is never recorded).

        `wins` maps each winner to its score ({winner: score}, or (winner, score) pairs); `hands[seat]`
        gives each payer's hand (13 − 3·melds tiles: the discarder's after the discard, the robbed
        player's without the robbed tile).
        """
        self._require_open()
        _require_seat("discarder", discarder)
        wins = wins_by_seat(wins)
        winners = self._discard_winners(discarder, wins)
        robbed = {wins[w].context.robbed_kong for w in winners}
        if len(robbed) > 1:
            raise IllegalActionError("winners on one tile disagree on robbed_kong: it was a discard or a robbed kong")
        reason = "robbed_kong" if robbed.pop() else "discard_win"
        transfers = []
        for winner in winners:
            for payer in self._discard_payers(discarder, winner, winners):
                extra = 1 if self.rules.discard_payers == "all" and payer == discarder else 0
                transfers.append(self._payment(winner, payer, wins[winner], hands, extra, reason))
        entries = self._record(transfers)
        self.winners, self.discarder = winners, discarder
        return entries

    def drawn_hand(self) -> Tuple[int, ...]:
        """流局: the dealer pays each other player `drawn_hand_base` × base (+ both 飘 when
        `drawn_hand_piao`); kong scores stand, or are refunded when `keep_kong_scores_on_draw` is False."""
        self._require_open()
        r = self.rules
        dealer, piao = self.dealer, self.piao
        base = r.drawn_hand_base * r.base
        with_piao = r.drawn_hand_piao
        transfers = []
        for seat in _others(dealer):
            amount = base + (piao[dealer] + piao[seat] if with_piao else 0)
            if amount:
                transfers.append(Transfer(dealer, seat, amount, "drawn_hand"))
        if not r.keep_kong_scores_on_draw:
            transfers += [self._refund(i) for i in self._kong_entries]
        entries = self._record(transfers)
        self.drawn = True
        return entries

    def next_dealer(self) -> int:
        """The next hand's dealer, once this hand is finished."""
        if not self.finished:
            raise IllegalActionError("the hand is not finished: settle a win or the drawn hand first")
        return next_dealer(self.dealer, self.winners, self.discarder, self.drawn, self.rules)

    # -- helpers --------------------------------------------------------------------------------

    def _payment(self, winner: int, loser: int, win: ChangbaiScore, hands: Hands, extra: int, reason: str) -> Transfer:
        amount = pair_amount(
            win.doublings,
            loser_doublings(_hand_of(hands, loser), self.rules),
            self.dealer in (winner, loser),
            self.piao[winner],
            self.piao[loser],
            multiplier=win.multiplier,
            extra_doublings=extra,
            rules=self.rules,
        )
        return Transfer(loser, winner, amount, reason)

    def _discard_winners(self, discarder: int, wins: Mapping[int, ChangbaiScore]) -> Tuple[int, ...]:
        """The winners in turn order after the discarder, each checked."""
        if not wins:
            raise IllegalActionError("discard_win needs at least one winner")
        if len(wins) > 1 and not self.rules.multiple_winners:
            raise IllegalActionError(f"{len(wins)} winners on one discard, but the rules allow one (multiple_winners=False)")
        for winner, win in wins.items():
            _require_seat("winner", winner)
            if winner == discarder:
                raise IllegalActionError(f"seat {winner} cannot win on its own discard")
            _require_score(winner, win, self_drawn=False)
        return tuple(sorted(wins, key=lambda w: _turn_distance(discarder, w)))

    def _discard_payers(self, discarder: int, winner: int, winners: Tuple[int, ...]) -> Tuple[int, ...]:
        if self.rules.discard_payers == "discarder":
            return (discarder,)
        return tuple(p for p in _others(winner) if p not in winners)

    def _refund(self, index: int) -> Transfer:
        kong = self.ledger[index]
        return Transfer(kong.payee, kong.payer, kong.amount, "kong_refund", index)

    def _record(self, transfers: Sequence[Transfer]) -> Tuple[int, ...]:
        append = self.ledger.append
        entries = []
        for t in transfers:
            entries.append(append(t))
        return tuple(entries)

    def _require_open(self) -> None:
        if self.finished:
            raise IllegalActionError("this hand is already settled (a win or a drawn hand ended it)")

    def __repr__(self) -> str:
        state = "drawn" if self.drawn else f"won by {list(self.winners)}" if self.winners else "in play"
        return f"ChangbaiSettlement(dealer {self.dealer}, piao {list(self.piao)}, {state}, {len(self.ledger)} transfers)"

    def __str__(self) -> str:
        """The repr, then the ledger's transfers one a line and the totals."""
        return f"{self!r}\n{self.ledger}"

    def _repr_html_(self) -> str:
        """The ledger as an HTML table under the repr (notebooks)."""
        return self.ledger.to_html(repr(self))


# ---------------------------------------------------------------------------------------------
# Validation and seat arithmetic


_OTHERS = tuple(tuple((seat + k) % SEATS for k in range(1, SEATS)) for seat in range(SEATS))


def _others(seat: int) -> Tuple[int, ...]:
    """The other three seats in turn order after `seat`."""
    return _OTHERS[seat % SEATS]


def _turn_distance(start: int, seat: int) -> int:
    """How many turns after `start` the seat plays (1..3; 0 for `start` itself)."""
    return (seat - start) % SEATS


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _require_seat(name: str, seat: object) -> None:
    if not _is_int(seat) or not 0 <= seat < SEATS:  # type: ignore[operator]
        raise IllegalActionError(f"{name} must be a seat 0..3, got {seat!r}")


def _require_count(name: str, value: object) -> None:
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise IllegalActionError(f"{name} must be a non-negative integer, got {value!r}")


def _require_piao(name: str, value: object, rules: Rules) -> None:
    if not _is_int(value) or value not in rules.piao_choices:
        raise IllegalActionError(f"{name} must be one of {rules.piao_choices} (飘), got {value!r}")


def _require_score(seat: int, win: object, *, self_drawn: bool) -> None:
    if not isinstance(win, ChangbaiScore):
        raise IllegalActionError(f"seat {seat}: expected the ChangbaiScore of its win, got {win!r}")
    if win.context.self_drawn != self_drawn:
        how = "self-drawn" if win.context.self_drawn else "on a discard"
        raise IllegalActionError(f"seat {seat}: its score is for a win {how}, which this event is not")


def _hand_of(hands: Hands, seat: int) -> HandLike:
    try:
        hand = hands[seat]
    except (KeyError, IndexError, TypeError):
        hand = None
    if hand is None:
        raise IllegalActionError(f"no hand given for seat {seat}, who pays: pass hands[{seat}]")
    return hand
