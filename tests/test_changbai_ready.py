"""报听 (declaring ready) in Changbai: winning kinds, the single-kind rule, phantom waits.

tests/test_changbai_reference.py checks `winning_kinds` on random hands against a slow
pure-Python reference.
"""

import pytest

from mahjong_core import InvalidHandError, ParseError, Tile, parse
from mahjong_core.rules.changbai import (
    Rules,
    can_declare_ready,
    keeps_ready_wait,
    ready_discards,
    ready_wait,
    winning_kinds,
)

T = Tile


# ---------------------------------------------------------------------------------------------
# Examples


@pytest.mark.parametrize(
    "hand, wait",
    [
        ("123m456p789s13sEE", T.S2),  # 坎张
        ("123m456p789s12sEE", T.S3),  # 边张
        ("123m456p789s89sEE", T.S7),  # 边张
        ("123m456p789s123sE", T.EAST),  # 单吊
        ("123m456p789sEEEN", T.NORTH),
        ("[123m,1][555p,1][666s,2][789s,1]E", T.EAST),  # 手把一 shape
        ("[EEEE]123m456p789s5s", T.S5),  # a concealed kong
        ("1122m3344p5566s7z", T.WHITE),  # seven pairs with honours
        ("1111m3344p5566sE", T.EAST),  # seven pairs with a quad
        ("2233m4455p6677s9s", T.S9),  # the terminal arrives with the winning tile
        ("19m19p19s1234566z", T.WHITE),  # thirteen orphans, single wait
    ],
)
def test_single_kind_hands_may_declare(hand, wait):
    assert winning_kinds(hand) == (wait,)
    assert can_declare_ready(hand) is True
    assert ready_wait(hand) == wait


@pytest.mark.parametrize(
    "hand, kinds",
    [
        ("123m456p789s23sEE", (T.S1, T.S4)),  # two-sided wait
        ("123m456p789s1122z", (T.EAST, T.SOUTH)),  # two pairs (双碰)
        ("2233445566778m", (T.M2, T.M5, T.M8)),
        ("19m19p19s1234567z", tuple(T(t) for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))),  # 13-sided
    ],
)
def test_declaration_is_refused_for_several_kinds(hand, kinds):
    assert winning_kinds(hand) == kinds
    assert can_declare_ready(hand) is False
    assert ready_wait(hand) is None


def test_not_ready_hand_cannot_declare():
    assert winning_kinds("123m456p789s14sEN") == ()
    assert can_declare_ready("123m456p789s14sEN") is False


def test_seven_pairs_without_terminal_or_honour_is_no_wait():
    hand = "2233m4455p6677s8s"
    assert winning_kinds(hand) == ()
    assert can_declare_ready(hand) is False
    assert winning_kinds(hand, Rules(seven_pairs_need_terminal=False)) == (T.S8,)


def test_phantom_wait_is_ignored():
    # 11222233m567p99s: 22m/99s shanpon, but all four 2m are in the hand: only 9s can arrive.
    hand = "11222233m567p99s"
    assert winning_kinds(hand) == (T.S9,)
    assert can_declare_ready(hand) is True
    # Counting phantoms (a house rule), the hand has two kinds and may not declare.
    assert winning_kinds(hand, Rules(phantom_waits_count=True)) == (T.M2, T.S9)
    assert can_declare_ready(hand, Rules(phantom_waits_count=True)) is False


def test_phantom_wait_counts_copies_in_melds_too():
    # [2222m,1] is a kong: its four 2m are the player's; 13m waits on 2m only as a phantom.
    hand = "[2222m,1]13m456p789sEE"
    assert winning_kinds(hand) == ()
    assert winning_kinds(hand, Rules(phantom_waits_count=True)) == (T.M2,)


def test_only_phantom_waits_is_not_ready():
    assert winning_kinds("1111m234p567s789s") == ()
    assert can_declare_ready("1111m234p567s789s") is False


def test_thirteen_orphans_rule_key():
    assert winning_kinds("19m19p19s1234566z", Rules(thirteen_orphans=False)) == ()


def test_ready_discards_lists_the_discards_that_allow_a_declaration():
    # 123m456p789s123s + E + N: discarding E waits on N alone, and vice versa.
    assert ready_discards("123m456p789s123sEN") == (T.EAST, T.NORTH)
    assert ready_discards("123m456p789s12sEEN") == (T.NORTH,)
    assert ready_discards("159m159p159sESWNC") == ()


def test_keeps_ready_wait_after_a_kong():
    # Declared on 3s holding 111m; a concealed kong of the drawn fourth 1m keeps the 3s wait.
    assert ready_wait("111m456p789s12sEE") == T.S3
    after = parse("[1111m]456p789s12sEE")
    assert keeps_ready_wait(after, T.S3) is True
    assert keeps_ready_wait(after, "3s") is True
    assert keeps_ready_wait(after, T.S4) is False
    # Declared on 4m (1112335m: 11 + 123 + 35); a melded kong of a discarded 1m breaks the shape.
    assert ready_wait("1112335m567p567s") == T.M4
    broken = parse("[1111m,1]2335m567p567s")
    assert keeps_ready_wait(broken, T.M4) is False


@pytest.mark.parametrize("call", [winning_kinds, can_declare_ready, ready_wait])
def test_wrong_size_is_rejected(call):
    with pytest.raises(InvalidHandError, match="13 concealed tiles"):
        call("123m456p789s123sEE")  # 14 tiles: a hand after a draw, not after a discard


def test_ready_discards_needs_a_drawn_hand():
    with pytest.raises(InvalidHandError, match="14 concealed tiles"):
        ready_discards("123m456p789s123sE")


def test_bad_notation_and_types():
    with pytest.raises(ParseError):
        can_declare_ready("123m456p789s123sX")
    with pytest.raises(InvalidHandError, match="a hand is"):
        can_declare_ready(123)  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="wait"):
        keeps_ready_wait("123m456p789s123sE", "9x")
