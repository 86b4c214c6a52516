"""Changbai 长白麻将 flows of the game engine, each from an explicit (scripted) wall."""

from __future__ import annotations

import pytest

from mahjong_core import IllegalActionError
from mahjong_core.game import build_wall, new_game, replay
from mahjong_core.game.actions import ADDED_KONG, CHOW, CONCEALED_KONG, DECLARE, DISCARD, PASS, PIAO, PUNG, WIN
from mahjong_core.game.engine import MELD_ADDED_KONG, MELD_PUNG
from mahjong_core.game.testing import check_game, drive
from mahjong_core.rules import changbai
from mahjong_core.tiles import tile_from_str


def T(name: str) -> int:
    return int(tile_from_str(name))


def start(hands, piao=(0, 0, 0, 0), draws=None, tail=None, rules=None, dealer=0):
    wall = build_wall("changbai", hands=hands, draws=draws, tail=tail, dealer=dealer)
    game = new_game("changbai", wall=wall, rules=rules, dealer=dealer)
    assert game.hands == [bytearray(34)] * 4            # 飘 comes before the deal
    for seat in range(4):
        game.act(seat, PIAO[piao[seat]])
    check_game(game)
    return game


# Hands that never interfere with the scripted seat (no m tiles; the driver never declares for them).
FILLER = {0: "19p19s258pESWNCFP", 2: "2468p2468sESWNC", 3: "3579p3579sSWNCF"}
DEALER = "99m99s258sESWNCFP"


def test_piao_is_chosen_before_the_deal_and_revealed_together():
    wall = build_wall("changbai", hands={1: "123m456m789m123p5s"})
    game = new_game("changbai", wall=wall)
    assert game.pending() == {s: [PIAO[0], PIAO[2], PIAO[4], PIAO[6]] for s in range(4)}
    assert game.view(1)["hand"] == []
    game.act(1, PIAO[6])
    assert game.view(0)["piao"] == [None, None, None, None]
    assert game.view(1)["piao"] == [None, 6, None, None]
    for seat in (0, 2, 3):
        game.act(seat, PIAO[2])
    assert game.view(0)["piao"] == [2, 6, 2, 2] and len(game.view(1)["hand"]) == 13


def test_declared_ready_refuses_a_kong_that_changes_the_wait():
    # Seat 1 waits on 3p only (555 666 789 88m + 12p). It declares with its first draw; when it
    # draws the fourth 8m, a kong would break the wait, so the tile is discarded automatically.
    hands = {0: FILLER[0], 1: "55566678889m12p", 2: FILLER[2], 3: FILLER[3]}
    game = start(hands, draws=["E", None, None, None, "8m"])
    drive(game, until=lambda g: g.turn == 1 and g.drawn == T("E"))
    assert DECLARE[T("E")] in game.pending()[1]
    assert DECLARE[T("5m")] not in game.pending()[1]      # leaves two winning kinds
    game.act(1, DECLARE[T("E")])
    assert game.declared[1] and game.waits[1] == 1 << T("3p")
    drive(game, until=lambda g: ("auto", 1) in g._events)
    i = game._events.index(("auto", 1))
    assert game._events[i - 1] == ("draw", 1, T("8m")) and game._events[i + 1] == ("discard", 1, T("8m"), False)
    assert game.hands[1][T("8m")] == 3 and game.n_melds[1] == 0
    assert changbai.keeps_ready_wait(
        "[8888m]55566679m12p", "3p") is False     # the ruleset's own verdict on that kong


def test_declared_ready_allows_a_kong_that_keeps_the_wait():
    hands = {0: FILLER[0], 1: "111m234p567p789sP", 2: FILLER[2], 3: FILLER[3]}
    game = start(hands, draws=["E", None, None, None, "1m"])
    drive(game, [(1, DECLARE[T("E")])], until=lambda g: g.turn == 1 and g.drawn == T("1m"))
    assert game.pending() == {1: [CONCEALED_KONG[T("1m")], DISCARD[T("1m")]]}
    game.act(1, CONCEALED_KONG[T("1m")])
    assert game.n_melds[1] == 1 and game.reserve == 0       # 有杠: the wall will be drawn out
    check_game(game)


def test_no_chow_or_pung_after_declaring_and_no_declaration_after_a_claim():
    hands = {0: "1m1m123456789pEEF", 1: "23m456p789p123s5s9s", 2: FILLER[2], 3: FILLER[3]}
    game = start(hands)
    game.act(0, DISCARD[T("1m")])
    assert CHOW[1] in game.pending()[1]                     # 1m with 23m
    game.act(1, CHOW[1])
    actions = game.pending()[1]
    assert all(a.kind.name == "DISCARD" for a in actions)  # after a chow: discard only, no 报听


def _no_declare_game(hands, rules=None, script=()):
    game = start(hands, rules=rules)
    drive(game, script)
    return game


def test_reserve_of_fourteen_tiles_without_a_kong():
    game = _no_declare_game({0: FILLER[0], 1: "123m456m789m123p5s", 2: FILLER[2], 3: FILLER[3]})
    assert game.exhausted and game.winners == []
    assert game.tail - game.head == 14                     # 无杠流局: the last 14 stay
    # The last four drawable tiles went one per seat and were kept (no discard).
    assert [e[0] for e in game._events[-10:-2]] == ["draw", "keep"] * 4
    assert sorted(s for s in range(4) if game.kept[s] >= 0) == [0, 1, 2, 3]
    assert [(t.payer, t.payee, t.amount, t.reason) for t in game.ledger] == [
        (0, s, 2 * game.rules.base, "drawn_hand") for s in (1, 2, 3)]


def test_wall_drawn_out_after_a_kong():
    hands = {0: FILLER[0], 1: "1111m456m789m12p5s", 2: FILLER[2], 3: FILLER[3]}
    game = start(hands)
    drive(game, [(1, CONCEALED_KONG[T("1m")])])
    assert game.exhausted and game.tail == game.head        # 有杠流局: every tile drawn
    reasons = [t.reason for t in game.ledger]
    assert reasons == ["concealed_kong"] * 3 + ["drawn_hand"] * 3
    assert sorted(s for s in range(4) if game.kept[s] >= 0) == [0, 1, 2, 3]


def test_several_winners_on_one_discard_with_piao():
    hands = {0: DEALER, 1: "123m456m789m123p5s", 2: "111p222p333p444p5s", 3: "3579m579p379s5sNN"}
    game = start(hands, piao=(0, 2, 4, 6), draws=["E", "S", "W"])
    drive(game, [(1, DECLARE[T("E")]), (2, DECLARE[T("S")]), (3, DISCARD[T("5s")])],
          until=lambda g: g.discarder == 3)
    assert game.pending() == {1: [WIN, PASS], 2: [WIN, PASS]}
    game.act(1, WIN)
    game.act(2, WIN)
    assert game.finished and game.winners == [1, 2]
    wins = [t for t in game.ledger if t.reason == "discard_win"]
    assert [(t.payer, t.payee) for t in wins] == [(3, 1), (3, 2)]
    assert wins[0].amount > 2 + 6 and wins[1].amount > 4 + 6    # doubling part + both 飘
    assert game.next_dealer() == 1                            # a non-dealer won: the deal passes
    assert replay(game.log).ledger == game.ledger


def test_last_four_only_a_self_drawn_win():
    # No kong: 69 drawable tiles; draws 65..68 are the last four (seats 2, 3, 0, 1 with dealer 0).
    draws = [None] * 69
    draws[0] = "E"
    draws[68] = "5s"
    hands = {0: DEALER, 1: "123m456m789m123p5s", 2: "111p222p333p444p6s", 3: "3579m579p3579s7sN"}
    game = start(hands, draws=draws)
    drive(game, [(1, DECLARE[T("E")])], until=lambda g: g.turn == 1 and g.drawn == T("5s"))
    assert game.last_four and game.pending() == {1: [WIN, PASS]}
    assert [s for s in range(4) if game.kept[s] >= 0] == [0, 2, 3]
    game.act(1, WIN)
    assert game.winners == [1]
    assert [t.reason for t in game.ledger] == ["self_drawn"] * 3
    check_game(game)


def _rob_game(declare: bool):
    # The dealer's 5s is punged by seat 2, which then draws the fourth 5s and adds it; seat 1 waits
    # on 5s (46s kanchan) and may rob only when it has declared ready.
    hands = {0: "5s19m19p19sESWNCFP", 1: "123m456m789m46s11p", 2: "55s2468m2468p246s", 3: "3579m3579p3799s3m"}
    game = start(hands, draws=[None, None, "E", "5s"])
    script = [(0, DISCARD[T("5s")]), (2, PUNG)] + ([(1, DECLARE[T("E")])] if declare else [])
    drive(game, script, until=lambda g: g.turn == 2 and g.drawn == T("5s"))
    return game


def test_robbing_an_added_kong_needs_a_declared_winner():
    game = _rob_game(declare=True)
    game.act(2, ADDED_KONG[T("5s")])
    assert game.pending() == {1: [WIN, PASS]}
    game.act(1, WIN)
    assert game.winners == [1] and game.melds[2][0][0] == MELD_PUNG
    assert [(t.payer, t.payee, t.reason) for t in game.ledger] == [(2, 1, "robbed_kong")]
    check_game(game)

    game = _rob_game(declare=False)
    game.act(2, ADDED_KONG[T("5s")])                     # nobody may rob: the kong stands
    assert game.melds[2][0][0] == MELD_ADDED_KONG and game.turn == 2 and game.replacement
    assert [t.reason for t in game.ledger] == ["melded_kong"] * 3


def test_illegal_actions_leave_the_state_unchanged():
    game = start({0: FILLER[0], 1: "123m456m789m123p5s", 2: FILLER[2], 3: FILLER[3]})
    before = game.state()
    for seat, action in ((1, DISCARD[T("1m")]), (0, PUNG), (0, DISCARD[T("5s")]), (0, 9999), (0, "1m"), (7, PASS)):
        with pytest.raises(IllegalActionError):
            game.act(seat, action)
        assert game.state() == before
