"""Regression tests of the fuzz-found defects of issue 11 (R1, R3, R4, R5, R11-R14, strict_context)."""

from __future__ import annotations

import copy
import pickle

import pytest

import mahjong_core as mc
from mahjong_core import Hand, Meld, parse, shanten
from mahjong_core.errors import InvalidArgumentError, InvalidHandError, MahjongError
from mahjong_core.model import MeldKind
from mahjong_core.rules import mcr
from mahjong_core.rules.ledger import Ledger, Transfer
from mahjong_core.tiles import Tile


# ---- R14: a Hand is immutable once built and unusable before -----------------------------------------

def test_init_cannot_run_again_on_a_built_hand():
    h = parse("123m456p789s1122z")
    before = (h.counts, shanten(h))
    with pytest.raises(InvalidArgumentError, match="immutable"):
        h.__init__(bytes([4] * 33 + [5]))
    with pytest.raises(InvalidArgumentError, match="immutable"):
        h.__init__(bytes(34))
    assert (h.counts, shanten(h)) == before == (h.counts, 0)


def test_failed_reinit_then_score_does_not_crash():
    h = parse("123m456p789s11sEEE")
    with pytest.raises(MahjongError):
        h.__init__(bytes([4] * 33 + [5]))
    assert mcr.score(h, win_tile=0) is None or mcr.score(h, win_tile=0).total >= 0


def test_an_unbuilt_hand_cannot_exist():
    with pytest.raises(InvalidArgumentError):
        Hand.__new__(Hand)
    with pytest.raises(InvalidArgumentError):
        Hand()


def test_hands_still_copy_pickle_and_build():
    h = parse("[123m,1]456p789s11sEE")
    assert pickle.loads(pickle.dumps(h)) == h == copy.copy(h) == copy.deepcopy(h)
    assert Hand.from_counts(h.counts, h.melds) == Hand(h.counts, h.melds)


# ---- R1: meld fields are checked before the binding writes through them ---------------------------------

FILLER = parse("[111m]456p789s1122z5z").counts  # 11 concealed tiles: room for one pung


@pytest.mark.parametrize("field, value", [
    ("tile", 200), ("tile", -8), ("tile", 34), ("tile", "x"), ("kind", 9), ("kind", -1), ("claimed", 9),
    ("concealed", True),
])
def test_a_mutated_meld_is_refused(field, value):
    m = Meld.pung(0)
    object.__setattr__(m, field, value)
    with pytest.raises(InvalidHandError):
        Hand(FILLER, [m])
    with pytest.raises(InvalidHandError):
        shanten(FILLER, melds=[m])


def test_a_mutated_chow_cannot_run_off_the_tiles():
    m = Meld.chow(0)
    object.__setattr__(m, "tile", Tile.WHITE)  # a chow 白.. would write past index 33
    with pytest.raises(InvalidHandError):
        Hand(FILLER, [m])


def test_a_meld_subclass_is_rebuilt_from_its_fields():
    class Liar(Meld):
        @property
        def tiles(self):  # the binding never trusts this
            return (Tile(200 % 34),) * 40

    m = Liar(MeldKind.PUNG, Tile.M1)
    h = Hand(FILLER, [m])
    assert type(h.melds[0]) is Meld and h.melds[0] == Meld.pung(0)
    assert h.meld_counts[0] == 3 and sum(h.meld_counts) == 3

    class Broken(Meld):
        @property
        def tile(self):
            raise RuntimeError("boom")

    b = object.__new__(Broken)
    object.__setattr__(b, "kind", MeldKind.PUNG)
    with pytest.raises(InvalidHandError, match="boom"):
        Hand(FILLER, [b])


def test_an_unpickled_meld_with_bad_fields_is_refused():
    m = Meld.pung(5)
    data = pickle.dumps(m).replace(pickle.dumps(Tile(5))[2:-1], pickle.dumps(Tile(5))[2:-1])
    n = pickle.loads(data)
    object.__setattr__(n, "tile", -8)
    with pytest.raises(InvalidHandError):
        Hand(FILLER, [n])


# ---- R3: a notation string carries its own melds -----------------------------------------------------

@pytest.mark.parametrize("melds", [3, 1, "garbage", [Meld.pung(0)], None])
def test_notation_string_with_melds_raises(melds):
    with pytest.raises(InvalidArgumentError, match="notation string"):
        shanten("123m456p789s1122z", melds=melds)
    with pytest.raises(InvalidArgumentError):
        mc.is_winning("123m456p789s11222z", melds=melds)


# ---- R4 / R11: wrong exception types ------------------------------------------------------------------

@pytest.mark.parametrize("bad", [99, 34, -1, "x", True, 1.5])
def test_bad_win_tile_and_meld_tile_are_mahjong_errors(bad):
    with pytest.raises(InvalidHandError):
        Hand(parse("123m456p789s11222z").counts, win_tile=bad)
    with pytest.raises(InvalidHandError):
        Meld.pung(bad)
    with pytest.raises(InvalidHandError):
        Meld.kong(bad, concealed=True)


# ---- R12 / R13: mcr.score arguments --------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    dict(win_tile=34), dict(win_tile="x"), dict(prevalent_wind=2 ** 40), dict(seat_wind=2 ** 40),
    dict(flowers=2 ** 70), dict(prevalent_wind=-1), dict(seat_wind=1.0), dict(prevalent_wind=True),
])
def test_mcr_score_bad_arguments_are_mahjong_errors(kwargs):
    with pytest.raises(MahjongError):
        mcr.score("123m456p789s11sEEE", **kwargs)


def test_robbed_kong_with_last_tile_discard_is_rejected():
    hand = "123m456p45sEEESS"  # waits on 3s / 6s
    assert mcr.score(hand, win_tile=Tile.S6, kong=True) is not None  # 抢杠和 alone
    assert mcr.score(hand, win_tile=Tile.S6, wall_last=True) is not None  # 海底捞月 alone
    with pytest.raises(InvalidHandError, match="海底"):
        mcr.score(hand, win_tile=Tile.S6, kong=True, wall_last=True)
    # a self-drawn last tile on a kong replacement is no contradiction of this rule
    kong_hand = "[1111p]123m456p45sEE"
    mcr.score(kong_hand, win_tile=Tile.S6, kong=True, wall_last=True, self_drawn=True)


# ---- R5: settlement seats ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(winner=2.5), dict(winner=True), dict(winner=0, discarder=1.5),
                                    dict(winner=0, discarder=False), dict(winner="1")])
def test_settle_refuses_non_integer_seats(kwargs):
    score = mcr.score("123m456p789s11sEE", win_tile=Tile.EAST)
    with pytest.raises(MahjongError):
        mcr.settle(score, **kwargs)


def test_transfer_and_ledger_refuse_float_seats():
    for args in ((0.0, 1, 1, "x"), (0, 1.0, 1, "x"), (True, 1, 1, "x")):
        with pytest.raises(InvalidArgumentError):
            Transfer(*args)
    with pytest.raises(InvalidArgumentError):
        Ledger(4).add(0, 1.0, 3, "x")
    np = pytest.importorskip("numpy")
    t = Transfer(np.int64(0), np.int64(2), 5, "x")
    assert type(t.payer) is int and type(t.payee) is int
