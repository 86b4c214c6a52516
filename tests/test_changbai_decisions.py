"""Changbai (seed 003): the decisions RULES.md §3 takes where the seed is silent, each worked by hand.

Amounts: base 1 × 2^(D_win + D_lose + D_dealer) × (13 for 十三幺) + 飘(W) + 飘(L).
"""

from __future__ import annotations

from mahjong_core.game import build_wall, new_game
from mahjong_core.game.actions import DECLARE, PIAO, WIN
from mahjong_core.game.testing import check_game, drive
from mahjong_core.rules.changbai import ChangbaiSettlement, Rules, loser_doublings, loser_patterns_of, pair_amount, score
from mahjong_core.rules.ledger import Transfer as T
from mahjong_core.tiles import tile_from_str


def T_(name: str) -> int:
    return int(tile_from_str(name))


def start(hands, draws=None, piao=(0, 0, 0, 0)):
    game = new_game("changbai", wall=build_wall("changbai", hands=hands, draws=draws), dealer=0)
    for seat in range(4):
        game.act(seat, PIAO[piao[seat]])
    check_game(game)
    return game


def test_loser_side_patterns_read_the_melds_alone():
    # Two melded 123m and a third 123m concealed: the loser side sees only the two melded chows —
    # 一般高(明), 1 doubling (the concealed third makes 两般高 only on the winner side).
    loser = "[123m,1][123m,3]123m456p7s"
    assert [p.key for p in loser_patterns_of(loser)] == ["double_chow_melded"]
    assert loser_doublings(loser) == 1
    assert score("[123m,1][123m,3]123m456p7s7s").items == (("夹胡(单吊)", 1), ("两般高(暗)", 2))
    # Winner 3 (not the dealer): 123m456p789s123s + EE on E: 单吊 1 + 门清 1 + 单吊幺九 1 = 3;
    # loser 1 (not the dealer) adds 1: 2^(3 + 1) = 16.
    s = ChangbaiSettlement(Rules(), dealer=0)
    s.discard_win(1, {3: score("123m456p789s123sEE")}, {1: loser})
    assert list(s.ledger) == [T(1, 3, 16, "discard_win")]


def test_the_dealer_may_declare_ready_with_its_opening_discard():
    # The dealer's 14: 123m 456m 789m 123p 5s E; discarding E leaves the single wait 5s.
    hands = {0: "123m456m789m123p5sE", 1: "2468p2468sSWNCF", 2: "3579p3579sSWNCF", 3: "19m19p19s199pSWNP"}
    game = start(hands)
    assert DECLARE[T_("E")] in game.pending()[0]
    game.act(0, DECLARE[T_("E")])
    assert game.declared[0] and game.waits[0] == 1 << T_("5s")
    check_game(game)


def test_in_the_last_four_a_loser_is_scored_without_its_kept_tile():
    # No kong: draws 65..68 are the last four (seats 2, 3, 0, 1). Seat 1 declared with E and wins on
    # the 5s it draws last; seats 2, 3 and 0 kept their last-four tiles.
    draws = [None] * 69
    draws[0], draws[68] = "E", "5s"
    hands = {0: "99m99s258sESWNCFP", 1: "123m456m789m123p5s", 2: "111p222p333p444p6s", 3: "3579m579p3579s7sN"}
    game = start(hands, draws=draws)
    drive(game, [(1, DECLARE[T_("E")])], until=lambda g: g.turn == 1 and g.drawn == T_("5s"))
    assert [s for s in range(4) if game.kept[s] >= 0] == [0, 2, 3]
    game.act(1, WIN)
    # Winner: 单吊 5s 1 + 门清 1 = 2. Each loser, read on its 13 tiles without the kept one: 门清 1;
    # the dealer (seat 0) one doubling more. Seats 2, 3: 2^(2+1) = 8; seat 0: 2^(2+1+1) = 16.
    assert list(game.ledger) == [T(2, 1, 8, "self_drawn"), T(3, 1, 8, "self_drawn"), T(0, 1, 16, "self_drawn")]
    # With its kept tile a loser's hand would be complete-sized, which loser_doublings refuses.
    hand = game._loser_hands([1])[0]
    assert hand.n_tiles == 13 and sum(game.hands[0]) == 14


def test_thirteen_orphans_multiplies_after_every_doubling_kong_discard_included():
    orphans = score("19m19p19s12345667z", after_kong_discard=True)   # 十三幺 + 杠后炮 2
    assert orphans.doublings == 2 and orphans.multiplier == 13
    # Winner 1, discarder 0 = the dealer, 门清 loser: 2^(2 + 1 + 1) × 13 = 208, then 飘 2 + 4 = 214
    # (not (16 + 6) × 13, and the 13 is not inside the exponent).
    assert pair_amount(2, 1, True, 4, 2, multiplier=13) == 214
    s = ChangbaiSettlement(Rules(), dealer=0, piao=(2, 4, 0, 0))
    s.discard_win(0, {1: orphans}, {0: "123m456p789s2468m"})
    assert list(s.ledger) == [T(0, 1, 214, "discard_win")]
    # A cap on doublings caps the exponent, and ×13 still comes after it: 2^3 × 13 + 6 = 110.
    assert pair_amount(2, 1, True, 4, 2, multiplier=13, rules=Rules(max_doublings=3)) == 110


def test_four_identical_chows_are_two_identical_chow_patterns_plus_a_tile_hog_per_kind():
    # 123m four times: 两般高 2 + 四归一 for 1m, 2m and 3m (1 each): 5 doublings besides the wait.
    concealed = score("[123m,1]111222333m5s5s")
    assert concealed.items == (("夹胡(单吊)", 1), ("两般高(暗)", 2), ("四归一(暗)", 3))
    melded = score("[123m,1][123m,2][123m,3][123m,1]5s5s")
    assert melded.items == (("夹胡(单吊)", 1), ("两般高(明)", 2), ("手把一", 1), ("四归一(明)", 3))
    assert [p.count for p in melded.patterns if p.key == "tile_hog_melded"] == [3]
