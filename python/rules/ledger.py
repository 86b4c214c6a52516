"""Zero-sum settlement ledgers shared by every ruleset and the game engine.

A ledger is an ordered list of `Transfer`s. Each moves `amount` (> 0) from `payer` to `payee`, so any
ledger sums to zero by construction; `ref` points at the index of an earlier entry this one undoes
or follows from (a refund, a 呼叫转移 transfer of kong income), else None.
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence

from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidTypeError

__all__ = ["Transfer", "Ledger", "check_seat", "wins_by_seat"]

#: How many players a ledger may be kept between (every ruleset plays 4; Sichuan also 2 or 3).
MIN_SEATS, MAX_SEATS = 2, 4


def check_seat(value: Any, what: str = "seat", seats: int = 4) -> int:
    """`value` as a seat 0..seats-1: an int (NumPy integers accepted and stored as int), not a bool.
    Raises InvalidArgumentError naming `what` otherwise."""
    if not isinstance(value, bool):
        if isinstance(value, int):
            if 0 <= value < seats:
                return int(value)
        else:
            try:
                index = value.__index__()
            except (AttributeError, TypeError):
                index = None
            if index is not None and 0 <= index < seats:
                return index
    raise InvalidArgumentError(f"{what} must be a seat 0..{seats - 1} (an integer), got {value!r}")


def wins_by_seat(wins: Any) -> Dict[int, Any]:
    """The `wins` of a discard win as a new {winner seat: score}: every ruleset's `discard_win` takes a
    mapping {seat: score} or (seat, score) pairs. IllegalActionError for anything else, or for a seat
    given twice; the seats and scores are the ruleset's to check."""
    if wins.__class__ is dict or isinstance(wins, abc.Mapping):  # (the engine's call: a dict)
        return dict(wins)
    try:
        pairs = [tuple(pair) for pair in wins]
    except TypeError:  # not iterable, or an element that is not
        pairs = None
    if pairs is None or any(len(pair) != 2 for pair in pairs):
        raise IllegalActionError(
            f"wins must be {{seat: score}} or (seat, score) pairs, e.g. {{1: score}} or [(1, score)]; got {wins!r}")
    seats = [pair[0] for pair in pairs]
    try:
        winners = dict(pairs)
    except TypeError:  # an unhashable seat
        raise IllegalActionError(f"the winners of wins must be seats (integers), got {seats}") from None
    if len(winners) != len(seats):
        raise IllegalActionError(f"a seat can win only once on a discard, got winners {seats}")
    return winners


def _check_ref(ref: Any) -> int:
    """A transfer's `ref` that is not a plain int: an index (NumPy integers accepted) or InvalidTypeError."""
    if not isinstance(ref, bool):
        try:
            return ref.__index__()
        except (AttributeError, TypeError):
            pass
    raise InvalidTypeError(f"a transfer's ref is None or the index of an earlier ledger entry (an integer), got {ref!r}")


@dataclass(frozen=True, init=False)
class Transfer:
    payer: int
    payee: int
    amount: int
    reason: str
    ref: Optional[int] = None

    def __init__(self, payer: int, payee: int, amount: int, reason: str, ref: Optional[int] = None) -> None:
        # Hot path (every payment of every hand): a plain int seat in range skips check_seat, and
        # five stores into the instance dict replace the frozen dataclass's five object.__setattr__
        # calls (in field order, as the generated __init__ would write them).
        if type(payer) is not int or not 0 <= payer < 4:
            payer = check_seat(payer, "payer")
        if type(payee) is not int or not 0 <= payee < 4:
            payee = check_seat(payee, "payee")
        if type(amount) is not int and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise InvalidArgumentError(f"a transfer amount is an integer, got {amount!r}")
        if payer == payee:
            raise InvalidArgumentError(f"a transfer needs two different seats, got {payer} -> {payee}")
        if amount <= 0:
            raise InvalidArgumentError(f"a transfer amount must be positive, got {amount}")
        if type(reason) is not str and not isinstance(reason, str):
            raise InvalidTypeError(f"a transfer's reason is a text such as 'discard_win', got {reason!r}")
        if ref is not None and type(ref) is not int:
            ref = _check_ref(ref)
        fields = self.__dict__
        fields["payer"] = payer
        fields["payee"] = payee
        fields["amount"] = amount
        fields["reason"] = reason
        fields["ref"] = ref

    def __repr__(self) -> str:
        ref = "" if self.ref is None else f" (ref #{self.ref})"
        return f"Transfer({self.payer}->{self.payee} {self.amount} {self.reason}{ref})"


def _check_seats(seats: Any) -> int:
    """A ledger's number of seats that is not a plain int in range: an integer (NumPy's too) or an error."""
    if isinstance(seats, bool) or not hasattr(seats, "__index__"):
        raise InvalidTypeError(f"a ledger's seats is the number of players ({MIN_SEATS}..{MAX_SEATS}), got {seats!r}")
    count = seats.__index__()
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise InvalidArgumentError(f"a ledger has {MIN_SEATS}..{MAX_SEATS} seats (one per player), got seats={seats!r}")
    return count


class Ledger(Sequence[Transfer]):
    """An append-only list of transfers between `seats` players."""

    # A ledger pickled before the running totals has neither `_counted` nor `_totals`: `totals()`
    # adds its entries up (and keeps the result), `copy()` copies `_totals` only when there is one,
    # and `append` writes to `_totals` only once `_counted` says it counts every earlier entry.
    _counted = -1

    def __init__(self, seats: int = 4, entries: Sequence[Transfer] = ()) -> None:
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            seats = _check_seats(seats)
        if isinstance(entries, (str, bytes)) or not hasattr(entries, "__iter__"):
            raise InvalidTypeError(f"a ledger's entries are Transfer objects in a sequence, got {entries!r}")
        self.seats = seats
        self._entries: List[Transfer] = []
        # Running totals of the first `_counted` entries (`totals()` is read at every hand's end and
        # by every result summary; the entries are immutable and only ever appended).
        self._totals: List[int] = [0] * seats
        self._counted = 0
        for e in entries:
            self.append(e)

    def append(self, transfer: Transfer) -> int:
        # Hot path (every payment of every hand): an attribute read of a Transfer or a Ledger walks
        # the type first (~190 instructions; a Ledger's type is a Sequence ABC), so the fields are
        # read from the two instance dicts, each fetched once — a plain Transfer keeps its fields
        # in its dict (Transfer.__init__), a Ledger its state.
        if type(transfer) is Transfer:
            fields = transfer.__dict__
            payer, payee, amount, ref = fields["payer"], fields["payee"], fields["amount"], fields["ref"]
        elif isinstance(transfer, Transfer):
            payer, payee, amount, ref = transfer.payer, transfer.payee, transfer.amount, transfer.ref
        else:
            raise InvalidArgumentError(f"a ledger holds Transfer objects, got {type(transfer).__name__}")
        state = self.__dict__
        seats = state["seats"]
        if not (type(payer) is int and type(payee) is int and 0 <= payer < seats and 0 <= payee < seats):
            for seat in (payer, payee):  # (the common case is two plain seats in range)
                check_seat(seat, "a transfer's seat", seats)
        entries = state["_entries"]
        n = len(entries)
        if ref is not None and not (type(ref) is int and 0 <= ref < n):
            raise InvalidArgumentError(f"ref #{ref} does not name an earlier entry")
        entries.append(transfer)
        if self._counted == n:
            totals = state["_totals"]
            totals[payer] -= amount
            totals[payee] += amount
            state["_counted"] = n + 1
        return n

    def add(self, payer: int, payee: int, amount: int, reason: str, ref: Optional[int] = None) -> int:
        """Record a transfer and return its index."""
        return self.append(Transfer(payer, payee, amount, reason, ref))

    def copy(self) -> "Ledger":
        """An independent ledger with the same (immutable) transfers."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._entries = list(self._entries)
        if "_totals" in self.__dict__:
            new._totals = list(self._totals)
        return new

    def totals(self) -> List[int]:
        """Net result per seat (sums to zero)."""
        if self._counted == len(self._entries):
            return list(self._totals)
        # (a ledger unpickled from an older version, or entries added behind append's back)
        out = [0] * self.seats
        for t in self._entries:
            out[t.payer] -= t.amount
            out[t.payee] += t.amount
        self._totals = list(out)
        self._counted = len(self._entries)
        return out

    def __getitem__(self, index):  # type: ignore[override]
        return self._entries[index]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Transfer]:
        return iter(self._entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ledger):
            return self.seats == other.seats and self._entries == other._entries
        if isinstance(other, (list, tuple)):
            return self._entries == list(other)
        return NotImplemented

    def to_json(self) -> list:
        return [dict(payer=t.payer, payee=t.payee, amount=t.amount, reason=t.reason, ref=t.ref) for t in self]

    def _rows(self) -> List[tuple]:
        return [(f"#{i}", str(t.payer), str(t.payee), str(t.amount), t.reason, "" if t.ref is None else f"#{t.ref}")
                for i, t in enumerate(self._entries)]

    def _totals_text(self) -> str:
        return "[" + ", ".join(f"{v:+d}" if v else "0" for v in self.totals()) + "]"

    def __repr__(self) -> str:
        n = len(self._entries)
        return f"Ledger({n} transfer{'' if n == 1 else 's'}, totals {self._totals_text()})"

    def __str__(self) -> str:
        """One line per transfer (index, payer -> payee, amount, reason, the entry it refers to), then the totals."""
        lines = [f"{i:<4}{t.payer} -> {t.payee}{t.amount:>6}  {t.reason}{'' if r == '' else '  (ref ' + r + ')'}"
                 for (i, _, _, _, _, r), t in zip(self._rows(), self._entries)]
        lines.append(f"totals {self._totals_text()}")
        return "\n".join(lines)

    def to_html(self, caption: Optional[str] = None) -> str:
        """The transfers as an HTML table under `caption` (default: the repr), the totals below."""
        from mahjong_core._display import html_table

        return html_table(("", "payer", "payee", "amount", "reason", "ref"), self._rows(), right=(3,),
                          caption=repr(self) if caption is None else caption,
                          notes=[f"totals per seat: {self._totals_text()}"])

    def _repr_html_(self) -> str:
        return self.to_html()
