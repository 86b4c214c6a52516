"""`Transfer` and `Ledger.append` check their input (the fast paths for plain seats keep every error)."""

from __future__ import annotations

import dataclasses
import pickle
from enum import IntEnum

import pytest

from mahjong_core.errors import InvalidArgumentError
from mahjong_core.rules.ledger import Ledger, Transfer


class _Seat(IntEnum):
    EAST = 0
    SOUTH = 1


@pytest.mark.parametrize("args, message", [
    ((True, 1, 3, "x"), "payer must be a seat 0..3 (an integer), got True"),
    ((4, 1, 3, "x"), "payer must be a seat 0..3 (an integer), got 4"),
    ((-1, 1, 3, "x"), "payer must be a seat 0..3 (an integer), got -1"),
    (("0", 1, 3, "x"), "payer must be a seat 0..3 (an integer), got '0'"),
    ((0, 4, 3, "x"), "payee must be a seat 0..3 (an integer), got 4"),
    ((0, 1.0, 3, "x"), "payee must be a seat 0..3 (an integer), got 1.0"),
    ((0, 1, True, "x"), "a transfer amount is an integer, got True"),
    ((0, 1, 3.0, "x"), "a transfer amount is an integer, got 3.0"),
    ((2, 2, 3, "x"), "a transfer needs two different seats, got 2 -> 2"),
    ((0, 1, 0, "x"), "a transfer amount must be positive, got 0"),
    ((5, 5, -1, "x"), "payer must be a seat"),  # the payer is checked first
])
def test_bad_transfers_raise(args, message):
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Transfer(*args)


def test_transfer_fields_equality_and_copies():
    t = Transfer(_Seat.SOUTH, 2, 5, "self_draw", ref=None)
    assert type(t.payer) is int and t.payer == 1  # an int subclass is stored as a plain int
    assert t == Transfer(payer=1, payee=2, amount=5, reason="self_draw")
    assert hash(t) == hash(Transfer(1, 2, 5, "self_draw"))
    assert dataclasses.replace(t, amount=7).amount == 7
    assert pickle.loads(pickle.dumps(t)) == t
    assert repr(Transfer(0, 3, 2, "kong_refund", 4)) == "Transfer(0->3 2 kong_refund (ref #4))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.amount = 1  # type: ignore[misc]
    with pytest.raises(InvalidArgumentError, match="must be positive"):
        dataclasses.replace(t, amount=-2)


def test_ledger_append_checks_seats_against_its_size():
    ledger = Ledger(seats=3)
    assert ledger.append(Transfer(0, 2, 1, "x")) == 0
    with pytest.raises(InvalidArgumentError, match=r"a transfer's seat must be a seat 0..2 \(an integer\), got 3"):
        ledger.append(Transfer(3, 0, 1, "x"))
    with pytest.raises(InvalidArgumentError, match="ref #5 does not name an earlier entry"):
        ledger.append(Transfer(0, 1, 1, "x", ref=5))
    with pytest.raises(InvalidArgumentError, match="a ledger holds Transfer objects, got tuple"):
        ledger.append((0, 1, 1, "x"))  # type: ignore[arg-type]
    assert len(ledger) == 1 and ledger.totals() == [-1, 0, 1]


def _summed(ledger):
    out = [0] * ledger.seats
    for t in ledger:
        out[t.payer] -= t.amount
        out[t.payee] += t.amount
    return out


def test_running_totals_match_the_entries_through_copies_and_pickles():
    """`totals()` is kept as entries are appended: it must equal the entries summed after every
    append, in a copy (which then diverges), an unpickled ledger, and one pickled before the
    running totals existed (no `_totals` in its state: it adds its entries up)."""
    import random

    rng = random.Random(5)
    ledger = Ledger()
    for i in range(40):
        payer = rng.randrange(4)
        ledger.add(payer, (payer + 1 + rng.randrange(3)) % 4, rng.randrange(1, 9), "x")
        assert ledger.totals() == _summed(ledger)
        if i == 20:
            early = ledger.copy()
    assert early.totals() == _summed(early) != ledger.totals()
    early.add(0, 1, 7, "y")
    assert early.totals() == _summed(early) and ledger.totals() == _summed(ledger)
    back = pickle.loads(pickle.dumps(ledger))
    assert back.totals() == ledger.totals()
    old = Ledger.__new__(Ledger)
    old.__dict__.update(seats=4, _entries=list(ledger))  # the state an older version pickled
    assert old.copy().totals() == ledger.totals()  # copied before its totals were ever read
    assert old.totals() == ledger.totals()
    old.add(3, 2, 4, "z")
    assert old.totals() == _summed(old)
    assert old.copy().totals() == _summed(old)
    totals = ledger.totals()
    totals[0] += 100  # a caller's list, not the ledger's own
    assert ledger.totals() == _summed(ledger)
