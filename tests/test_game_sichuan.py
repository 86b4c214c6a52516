"""Sichuan 血战到底 flows of the game engine, each from an explicit (scripted) wall."""

from __future__ import annotations

import pytest

from mahjong_core import IllegalActionError
from mahjong_core.game import build_wall, new_game, replay
from mahjong_core.game.actions import ADDED_KONG, CONCEALED_KONG, DISCARD, PASS, PUNG, VOID, WIN
from mahjong_core.game.engine import CHOOSE, MELD_PUNG
from mahjong_core.game.testing import check_game, drive
from mahjong_core.rules import sichuan
from mahjong_core.tiles import tile_from_str

M, P, S = VOID


def T(name: str) -> int:
    return int(tile_from_str(name))


def reasons(game):
    return [t.reason for t in game.ledger]


def start(hands, voids, draws=None, tail=None, rules=None):
    wall = build_wall("sichuan", hands=hands, draws=draws, tail=tail)
    game = new_game("sichuan", wall=wall, rules=rules)
    for seat, void in enumerate(voids):
        game.act(seat, void)
    check_game(game)
    return game


def test_void_choice_is_simultaneous_and_forced_by_the_suits_held():
    wall = build_wall("sichuan", hands={0: "13579m2468p13579p", 1: "111m234m567m789m5p", 2: "1112223334445p",
                                        3: "1234567899s668m"})
    game = new_game("sichuan", wall=wall)
    pending = game.pending()
    assert pending[0] == [S]          # m and p held: the third suit
    assert pending[2] == [M, S]       # one suit held: either other
    assert pending[3] == [P]
    game.act(0, S)
    assert game.view(1)["void"] == [None, None, None, None]   # not revealed before everyone chose
    assert game.view(0)["void"] == ["s", None, None, None]    # one's own answer
    with pytest.raises(IllegalActionError):
        game.act(0, S)                                       # already answered
    with pytest.raises(IllegalActionError):
        game.act(1, M)                                       # not a legal choice for seat 1
    for seat, void in ((1, S), (2, M), (3, P)):
        game.act(seat, void)
    assert game.view(2)["void"] == ["s", "s", "m", "p"]


def test_void_tiles_must_go_first_and_cannot_be_claimed():
    # Seat 0 holds three suits and picks s: only its s tiles may be discarded. Seat 1 also holds
    # three suits, picks s and holds 99s: the dealer's 9s is still not claimable by it.
    game = start({0: "123m456m456p78p119s", 1: "111m234m567m9m4p99s", 2: "8888m79m12357p99p",
                  3: "3579m12468p3579p"}, [S, S, S, S])
    legal = game.pending()[0]
    assert {a.arg for a in legal} == {T("1s"), T("9s")}
    game.act(0, DISCARD[T("9s")])
    assert list(game.pending()) == [1] and game.turn == 1 and game.drawn >= 0
    assert {a.arg for a in game.pending()[1] if a.kind.name == "DISCARD"} <= {T("9s"), game.drawn}


def test_several_winners_on_one_discard_then_play_goes_on_after_the_last_winner():
    game = start({0: "13579m2468p13579p", 1: "111m234m567m789m5p", 2: "1112223334445p", 3: "1234567899s668m"},
                 [S, S, M, P])
    game.act(0, DISCARD[T("5p")])
    pending = game.pending()
    assert set(pending) == {1, 2} and pending[1][0] is WIN and pending[2][0] is WIN  # seat 3: p is its void
    game.act(2, WIN)
    assert game.pending() == {1: [WIN, PASS]}       # still waiting for seat 1
    game.act(1, WIN)
    assert game.winners == [1, 2]
    assert [(t.payer, t.payee, t.reason) for t in game.ledger] == [(0, 1, "discard_win"), (0, 2, "discard_win")]
    assert game.won_tiles[1] == [T("5p")] and game.won_tiles[2] == []  # the nearest takes the tile
    assert not game.finished and game.turn == 3 and list(game.pending()) == [3]  # after the last winner
    check_game(game)
    # Winners take no further part: the rest of the hand never asks them anything.
    drive(game)
    assert game.finished
    assert sum(game.ledger.totals()) == 0
    assert replay(game.log).state() == game.state()


def test_three_winners_end_the_hand():
    game = start({0: "2468m13579m13579s", 1: "111p222p333p444p5s", 2: "555p666p777p888p5s",
                  3: "222m333m444m46s99s"}, [P, M, M, P])
    game.act(0, DISCARD[T("5s")])
    for seat in (1, 2, 3):
        game.act(seat, WIN)
    assert game.finished and not game.exhausted
    assert game.winners == [1, 2, 3]
    assert game.ledger.totals()[0] < 0 and sum(game.ledger.totals()) == 0
    with pytest.raises(IllegalActionError):
        game.act(0, DISCARD[T("1m")])


def test_robbing_an_added_kong():
    # Seat 1 pungs the dealer's 5p (seat 2, waiting on 5p, passes its win), later draws the fourth 5p
    # and adds it to the pung: seat 2 robs it (抢杠胡).
    game = start({0: "13579m2468p13579p", 1: "111222333m99m55p", 2: "444555666m46p88p", 3: "1357913579s246s"},
                 [S, S, S, M], draws=["9s", "8m", "8s", "5p"])
    game.act(0, DISCARD[T("5p")])
    assert game.pending() == {1: [WIN, PUNG, PASS], 2: [WIN, PASS]}  # seat 1: 9m/5p shanpon
    game.act(1, PUNG)
    game.act(2, PASS)
    assert game.lock[2] >= 1                      # passed a win: locked until its next draw
    drive(game, [(1, DISCARD[T("9m")])], until=lambda g: g.turn == 1 and g.drawn == T("5p"))
    assert ADDED_KONG[T("5p")] in game.pending()[1]
    game.act(1, ADDED_KONG[T("5p")])
    assert game.pending() == {2: [WIN, PASS]}     # the lock ended with seat 2's draw
    assert game.hands[1][T("5p")] == 1           # the kong is not made yet
    game.act(2, WIN)
    assert game.winners == [2]
    assert game.melds[1][0][0] == MELD_PUNG       # the robbed kong never happened
    assert game.hands[1][T("5p")] == 0
    assert reasons(game) == ["robbed_kong_win"]
    assert game.ledger[0].payer == 1 and game.ledger[0].payee == 2
    assert ("robbed", 1, T("5p")) in game._events
    assert game.turn == 3 and not game.finished
    check_game(game)


def test_kong_replacement_win_and_after_kong_discard_with_call_transfer():
    # 杠上花: the dealer's concealed kong draws the winning tile from the wall's tail.
    game = start({0: "1111m234m567m789m9p", 1: "111p222p333p444p9s", 2: "5555p666p777p88p9p", 3: "123456789s1122s"},
                 [S, M, M, M], tail=["9p"])
    game.act(0, CONCEALED_KONG[T("1m")])
    assert game.drawn == T("9p") and game.replacement and WIN in game.pending()[0]
    game.act(0, WIN)
    assert game.winners == [0]
    assert reasons(game) == ["concealed_kong"] * 3 + ["self_draw"] * 3
    win = [e for e in game._events if e[0] == "win"][0]
    assert "杠上花" in [name for name, _ in win[4]["items"]]

    # 杠上炮 + 呼叫转移: the dealer's replacement is a void tile it must discard; seat 1 wins on it and
    # takes the dealer's income from that kong.
    game = start({0: "1111m234m567m789m8p", 1: "111p222p333p444p9s", 2: "5555p666p777p88p9p", 3: "123456789s2233s"},
                 [S, M, M, M], tail=["9s"])
    game.act(0, CONCEALED_KONG[T("1m")])
    assert game.pending() == {0: [DISCARD[T("9s")]]}   # a void tile must go
    game.act(0, DISCARD[T("9s")])
    assert game.after_kong
    game.act(1, WIN)
    entries = list(game.ledger)
    assert [t.reason for t in entries] == ["concealed_kong"] * 3 + ["discard_win"] + ["call_transfer"] * 3
    kong_income = sum(t.amount for t in entries[:3])
    transfers = entries[4:]
    assert all(t.payer == 0 and t.payee == 1 for t in transfers)
    assert sum(t.amount for t in transfers) == kong_income and [t.ref for t in transfers] == [0, 1, 2]
    win = [e for e in game._events if e[0] == "win"][0]
    assert "杠上炮" in [name for name, _ in win[4]["items"]]
    check_game(game)


def test_wall_end_flower_pig_not_ready_and_kong_refund():
    # Seat 0 stays a flower pig (three suits: it draws only void tiles and throws them), seat 1 is
    # ready, seat 2 made a concealed kong and is not ready, seat 3 is not ready. Everyone else
    # discards what it draws and passes every claim.
    hands = {0: "123m456m456p78p119s", 1: "111m234m567m11p22p", 2: "8888m79m12357p99p", 3: "3579m12468p3579p"}
    draws = [None] * 54
    s_tiles = [f"{r}s" for r in (2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8)]
    for j, name in enumerate(s_tiles):
        draws[3 + 4 * j] = name          # the dealer's draws: index 3, 7, 11, ... (seat (1 + k) % 4)
    game = start(hands, [S, S, S, S], draws=draws, tail=["3s"])
    drive(game, [(2, CONCEALED_KONG[T("8m")])])
    assert game.finished and game.exhausted and game.winners == []
    base = game.rules.base
    by_reason = {}
    for t in game.ledger:
        by_reason.setdefault(t.reason, []).append((t.payer, t.payee, t.amount))
    assert by_reason["concealed_kong"] == [(3, 2, 2 * base), (0, 2, 2 * base), (1, 2, 2 * base)]
    assert sorted(by_reason["flower_pig"]) == [(0, s, 16 * base) for s in (1, 2, 3)]
    best = sichuan.best_ready_value(game.hand_of(1), void_suit="s", rules=game.rules)
    assert best is not None
    assert sorted(by_reason["not_ready"]) == [(2, 1, best.points), (3, 1, best.points)]
    assert sorted(by_reason["kong_refund"]) == [(2, s, 2 * base) for s in (0, 1, 3)]
    assert game.wall_report.pigs == (0,) and sorted(game.wall_report.ready) == [1]
    assert replay(game.log).ledger == game.ledger


def test_pass_lock_until_the_next_draw():
    # Seat 2 waits on 5p and passes it; seat 1 then discards another 5p: no win offered (same value);
    # after seat 2 has drawn, seat 3's 5p may be won.
    game = start({0: "13579m2468p13579p", 1: "111222333m99m88p", 2: "444555666m46p77p", 3: "1357913579s246s"},
                 [S, S, S, M], draws=["5p", "9s", "5p"])
    game.act(0, DISCARD[T("5p")])
    assert game.pending() == {2: [WIN, PASS]}
    game.act(2, PASS)
    drive(game, [(1, DISCARD[T("5p")])], until=lambda g: g.discarder == 1)
    assert 2 not in game.pending() or WIN not in game.pending()[2]
    drive(game, [(3, DISCARD[T("5p")])], until=lambda g: g.discarder == 3)
    assert game.pending()[2][0] is WIN


def test_forced_win_in_the_last_tiles():
    # forced_win_last=4: seat 1's winning tile arrives among the last four: WIN is the only action.
    hands = {0: "13579m2468p13798p", 1: "111222333m99m46p", 2: "444666777m88p11s", 3: "5p5p5p123456789s2s"}
    draws = [None] * 55
    draws[52] = "5p"                                   # seat (1 + 52) % 4 == 1
    game = start(hands, [S, S, P, M], draws=draws, rules={"forced_win_last": 4})
    drive(game, until=lambda g: g.turn == 1 and g.drawn == T("5p"))
    assert game.tail - game.head < 4
    assert game.pending() == {1: [WIN]}
    game.act(1, WIN)
    assert game.winners == [1]


def test_a_hand_holding_a_void_tile_cannot_win():
    # Seat 1's hand completes with 9s (single wait), but s is its void suit: it has no wait at all.
    game = start({0: "13579m2468p13579p", 1: "111m234m567m567p9s", 2: "1112223334446p", 3: "1234567899s668m"},
                 [S, S, M, P])
    assert _waits_mask(game.hand_bytes(1)) == 1 << T("9s")
    assert game.waits[1] == 0


def _waits_mask(counts: bytes) -> int:
    import mahjong_core

    return sum(1 << int(t) for t in mahjong_core.waits(counts, mahjong_core.Forms.SICHUAN))


def test_heavenly_and_earthly_wins():
    # 天胡: the dealer's dealt 14 tiles win.
    game = start({0: "111m234m567m789m99p", 1: "2468p2468s13579p", 2: "1122334455667s", 3: "35789m3579s1357p"},
                 [S, M, M, M])
    assert game.pending()[0][0] is WIN
    game.act(0, WIN)
    win = [e for e in game._events if e[0] == "win"][0]
    assert "天胡" in [name for name, _ in win[4]["items"]]
    # 地胡: seat 1's first draw completes its hand (no claim before).
    game = start({0: "13579m2468p13579p", 1: "111m234m567m789m9p", 2: "1122334455667s", 3: "2468s35799s2468m"},
                 [S, S, M, P], draws=["9p"])
    game.act(0, DISCARD[T("3m")])
    assert game.turn == 1 and game.drawn == T("9p") and game.pending()[1][0] is WIN
    game.act(1, WIN)
    win = [e for e in game._events if e[0] == "win"][0]
    assert "地胡" in [name for name, _ in win[4]["items"]]


def test_wait_and_discard_hooks_before_the_void_choice():
    """Before 定缺 (a CHOOSE window, as `determinize` rebuilds one) nobody can win: the wait hook
    gives 0 for every seat — the dealer's 14 tiles included — and reads only the hand's 34 counts
    (the compiled hooks scan the hand's buffer in C, so a void index outside 0..2 must not be used
    as an offset)."""
    for seed in range(30):
        game = new_game("sichuan", seed=seed)
        assert game.phase == CHOOSE
        for s in range(4):
            game.waits[s] = -1
            game._update_waits(s)
            assert game.waits[s] == 0
            # the discards of a seat with no void suit yet: every kind it holds
            assert game._discard_options(s) == [DISCARD[t] for t in range(27) if game.hands[s][t]]


def test_a_settlement_pickled_before_in_hand_was_a_field_plays_on():
    """SichuanSettlement keeps `in_hand` as a field (refreshed when a seat wins or leaves). One
    unpickled from an older version, without that field, derives it and plays on identically."""
    import pickle
    import random

    from mahjong_core.game.bots import make_bot
    from mahjong_core.game.simulate import play_hand
    from mahjong_core.rules.sichuan.settlement import SichuanSettlement

    for hand in range(12):
        game = new_game("sichuan", seed=9, hand_no=hand)
        bots = [make_bot("greedy") for _ in range(4)]
        for bot in bots:
            bot.new_hand(random.Random(hand))
        while not game.finished and not game.settlement._won:  # up to the first win
            seat, actions = next(iter(game.pending().items()))
            game.act(seat, bots[seat].choose(game, seat, actions))
        settlement = game.settlement
        twin = pickle.loads(pickle.dumps(game))
        state = dict(twin.settlement.__dict__)  # (its ledger is the twin's)
        for field in ("_in_hand", "_turn_rank"):
            del state[field]
        old = SichuanSettlement.__new__(SichuanSettlement)
        old.__setstate__(state)
        assert old.in_hand == settlement.in_hand and old._turn_rank == settlement._turn_rank
        assert old.finished == settlement.finished
        twin.settlement = old
        for g in (game, twin):
            rest = [make_bot("random") for _ in range(4)]
            rng = random.Random(hand)
            for bot in rest:
                bot.new_hand(rng)
            play_hand(g, rest)
        assert twin.log == game.log and twin.finished


def test_finished_hands_pickle_and_clone_with_their_reports():
    """A hand ended by the wall (its WallEndReport holds a read-only mapping, which pickle cannot
    take as is) or with a seat gone pickles, deep-copies and clones like any other game."""
    import copy
    import pickle
    import random
    from types import MappingProxyType

    from mahjong_core.game.bots import make_bot
    from mahjong_core.game.simulate import play_hand

    walls = leaves = 0
    for hand in range(40):
        game = new_game("sichuan", seed=21, hand_no=hand)
        bots = [make_bot("random") for _ in range(4)]
        rng = random.Random(hand)
        for bot in bots:
            bot.new_hand(rng)
        if hand % 4 == 0:  # a seat leaves after a few answers
            for _ in range(12):
                seat, actions = next(iter(game.pending().items()))
                game.act(seat, bots[seat].choose(game, seat, actions))
            game.leave(hand // 4 % 4)
            leaves += 1
        play_hand(game, bots)
        assert game.finished
        if game.wall_report is not None:
            walls += 1
            assert isinstance(game.wall_report.ready, MappingProxyType)
        for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), game.clone()):
            assert twin.log == game.log and twin.state() == game.state()
            if game.wall_report is not None:
                assert twin.wall_report == game.wall_report
                assert isinstance(twin.wall_report.ready, MappingProxyType)
    assert walls > 5 and leaves == 10


def test_the_settlements_reports_pickle_with_read_only_mappings():
    import copy
    import pickle
    from types import MappingProxyType

    from mahjong_core.rules.sichuan.settlement import LeaveReport, WallEndReport

    reports = [LeaveReport(1, False, MappingProxyType({2: 4, 3: 4}), MappingProxyType({0: 8}), "escape", 0, (3, 4, 5)),
               WallEndReport((2,), MappingProxyType({}), (2, 3), (7,))]
    for report in reports:
        for twin in (pickle.loads(pickle.dumps(report)), copy.deepcopy(report)):
            assert twin == report and type(twin) is type(report)
            assert all(isinstance(getattr(twin, f), MappingProxyType)
                       for f in ("penalty", "not_ready", "ready") if isinstance(getattr(report, f, None), MappingProxyType))
