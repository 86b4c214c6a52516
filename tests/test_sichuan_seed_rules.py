"""Issue 15, Sichuan (seed 004, RULES.md §2): the 地胡 fix, 逃跑/强退, 普通场 (qq_normal), 游戏币, and the
decided ambiguities as rule keys (call_transfer, dead_waits_ready, 退税 of held income only).

Every amount is worked by hand from the seed text in the comments (base 6; a hand of F 番 is worth
6 × 2^(F−1); 自摸加底 adds 6 per payer; 刮风下雨: concealed kong 2 base from each other player still in
the hand, direct kong 2 base from the discarder; 查花猪 16 base; escape 16 base per player not yet won).
"""

from __future__ import annotations

import json
import random

import pytest

import mahjong_core as mc
from mahjong_core.game import build_wall, new_game, replay
from mahjong_core.game.constants import MELD_CONCEALED_KONG
from mahjong_core.game.actions import CONCEALED_KONG, DISCARD, PASS, VOID, WIN
from mahjong_core.game.testing import check_game
from mahjong_core.rules import sichuan
from mahjong_core.rules.ledger import Transfer as T
from mahjong_core.rules.sichuan import LeaveEvent, Rules, SichuanSettlement
from mahjong_core.tiles import tile_from_str

M, P, S = VOID

PLAIN = "11123m789m999p456p"                 # 平胡 1 番: 6
PUNGS = "111222444m33399p"                   # 对对胡 2 番: 12 (self-drawn: 12 + 6 = 18 each)
PURE = "11333222456999s"                     # 清一色 3 番: 24 (self-drawn: 30 each)
READY_12 = "[7777p,2]11122233m99p"           # waits 3m / 9p: 对对胡 = 12
READY_96 = "1122334455667s"                  # best wait 7s: 清七对 5 番 = 96
DRAGON_S = "1111223344556s"                  # best wait 6s: 青龙七对 6 番 (根 used) = 192
DRAGON_P = "1111223344556p"                  # the same in p: 192
NOT_READY = "[5555p]13579m24689p"            # two suits, no wait
NOT_READY_KONG = "[1111m]35779m24689p"       # a concealed kong, no wait


def T_(name: str) -> int:
    return int(tile_from_str(name))


def win(hand, rules=None, **flags):
    value = sichuan.score(hand, rules=rules, **flags)
    assert value is not None
    return value


# ---------------------------------------------------------------------------------------------
# 地胡 after a discard win (the repro)

REPRO = {0: "1112223334445s5p", 1: "123m456m789m111p5p", 2: "23445677p34578s", 3: "235689m14789p69s"}


def repro_game(rules=None):
    """Dealer 0 discards 5p, seat 1 wins on it, seat 2 draws 9s: a complete 23445677p 345789s."""
    g = new_game("sichuan", wall=build_wall("sichuan", hands=REPRO, draws="9s"), dealer=0, rules=rules)
    for seat, void in enumerate((M, S, M, S)):
        g.act(seat, void)
    g.act(0, DISCARD[T_("5p")])
    assert g.pending() == {1: [WIN, PASS]}
    g.act(1, WIN)
    assert g.turn == 2 and g.drawn == T_("9s") and g.pending()[2][0] is WIN
    g.act(2, WIN)
    check_game(g)
    return g


def test_a_discard_win_cancels_earthly_hand():
    g = repro_game()
    wins = [e for e in g.event_history() if e[0] == "win"]
    # Seat 1: 平胡 on 0's 5p, 6 from seat 0. Seat 2: 自摸 平胡 (not 地胡: seat 1's win was a claim),
    # 6 + 6 = 12 from each of seats 0 and 3 -> [-6-12, +6, +24, -12].
    assert wins[1][4]["items"] == [["平胡", 1]] and wins[1][4]["payment"] == 12
    assert g.ledger.totals() == [-18, 6, 24, -12]


def test_dihu_broken_by_pung_kong_keeps_the_old_reading():
    g = repro_game(Rules(dihu_broken_by="pung_kong"))
    wins = [e for e in g.event_history() if e[0] == "win"]
    # 地胡 6 番 = 6 × 32 = 192, + 6 自摸加底 = 198 from seats 0 and 3 -> [-6-198, +6, +396, -198].
    assert wins[1][4]["items"] == [["地胡", 6]]
    assert g.ledger.totals() == [-204, 6, 396, -198]


def test_a_concealed_kong_cancels_earthly_hand():
    hands = {0: "1111m357m2468p135s", 1: "234m567m888m11p55p", 2: "1122334455667s", 3: "24689m3579p2468s"}
    g = new_game("sichuan", wall=build_wall("sichuan", hands=hands, draws="5p", tail="9s"), dealer=0)
    for seat, void in enumerate((S, S, M, M)):
        g.act(seat, void)
    g.act(0, CONCEALED_KONG[T_("1m")])               # 下雨: 12 from each of seats 1, 2, 3
    g.act(0, DISCARD[T_("9s")])                      # the replacement 9s; nobody can claim it
    assert g.turn == 1 and g.drawn == T_("5p") and g.pending()[1][0] is WIN
    g.act(1, WIN)
    # 234m 567m 888m 11p 555p: 平胡 (not 地胡: the dealer's concealed kong came first), 6 + 6 from
    # seats 2, 3 and 0 -> seat 0: +36 - 12 = 24, seat 1: -12 + 36 = 24, seats 2 and 3: -24.
    win_event = [e for e in g.event_history() if e[0] == "win"][0]
    assert win_event[4]["items"] == [["平胡", 1]]
    assert g.ledger.totals() == [24, 24, -24, -24]


# ---------------------------------------------------------------------------------------------
# 呼叫转移 switch and 退税 of held income only

def test_call_transfer_off_keeps_the_income_with_the_kong_player_and_refunds_it():
    rules = Rules(call_transfer=False)
    s = SichuanSettlement(rules)
    s.kong(0, "concealed")                               # #0 seat 1, #1 seat 2, #2 seat 3 pay 12
    s.discard_win(0, {1: win(PLAIN, rules, after_kong_discard=True)})  # 平胡 1 + 杠上炮 1 = 2 番: 12
    assert list(s.ledger)[3:] == [T(0, 1, 12, "discard_win")]          # no "call_transfer"
    s.drawn_hand({0: NOT_READY_KONG, 2: READY_12, 3: NOT_READY})
    # 查大叫: 0 and 3 pay ready seat 2 its 12; 退税: 0 still holds its kong income -> refunds all three.
    assert list(s.ledger)[4:] == [
        T(0, 2, 12, "not_ready"), T(3, 2, 12, "not_ready"),
        T(0, 1, 12, "kong_refund", 0), T(0, 2, 12, "kong_refund", 1), T(0, 3, 12, "kong_refund", 2),
    ]


def test_refund_covers_only_the_kong_income_still_held():
    s = SichuanSettlement()
    s.kong(0, "concealed")                               # #0..#2: seats 1, 2, 3 pay 12 (kong A)
    s.kong(0, "direct", discarder=3)                     # #3: seat 3 pays 12 (kong B)
    s.discard_win(0, {1: win(PLAIN, after_kong_discard=True)})
    # #4: 杠上炮 12; #5: 呼叫转移 of kong B's 12 (the last kong) to the winner.
    assert list(s.ledger)[4:] == [T(0, 1, 12, "discard_win"), T(0, 1, 12, "call_transfer", 3)]
    s.drawn_hand({0: "[1111m][9999p,3]3579m246p", 2: READY_12, 3: NOT_READY})
    # Seat 0 is not ready: it refunds kong A (still held), not kong B (passed on to the winner).
    assert list(s.ledger)[6:] == [
        T(0, 2, 12, "not_ready"), T(3, 2, 12, "not_ready"),
        T(0, 1, 12, "kong_refund", 0), T(0, 2, 12, "kong_refund", 1), T(0, 3, 12, "kong_refund", 2),
    ]


# ---------------------------------------------------------------------------------------------
# dead_waits_ready

def _seen(**copies):
    counts = [0] * 34
    for name, n in copies.items():
        counts[T_(name[1:] + name[0])] = n
    return counts


def test_dead_waits_ready_true_reads_the_shape():
    s = SichuanSettlement(seats=2)
    # READY_12 holds 33m and 99p; the other two copies of each are visible — still ready by default.
    s.drawn_hand({0: NOT_READY, 1: READY_12}, seen={0: [0] * 34, 1: _seen(m3=2, p9=2)})
    assert list(s.ledger) == [T(0, 1, 12, "not_ready")]


def test_dead_waits_ready_false_drops_waits_whose_copies_are_all_visible():
    rules = Rules(dead_waits_ready=False)
    s = SichuanSettlement(rules, seats=2)
    report = s.drawn_hand({0: NOT_READY, 1: READY_12}, seen={0: [0] * 34, 1: _seen(m3=2, p9=2)})
    assert list(s.ledger) == [] and report.ready == {} and report.not_ready == (0, 1)
    # One wait still live (two 9p unseen): ready, 对对胡 = 12.
    s = SichuanSettlement(rules, seats=2)
    s.drawn_hand({0: NOT_READY, 1: READY_12}, seen={0: [0] * 34, 1: _seen(m3=2)})
    assert list(s.ledger) == [T(0, 1, 12, "not_ready")]


def test_dead_waits_ready_false_needs_what_each_seat_sees():
    s = SichuanSettlement(Rules(dead_waits_ready=False), seats=2)
    with pytest.raises(mc.IllegalActionError, match="seen"):
        s.drawn_hand({0: NOT_READY, 1: READY_12})
    assert len(s.ledger) == 0 and not s.finished


def test_the_flow_passes_exactly_what_each_seat_sees():
    # Every copy is somewhere: seen by the seat + in its own hand and melds + others' concealed
    # tiles and concealed kongs + the live wall = 4.
    for seed in range(25):
        g = new_game("sichuan", seed=seed, rules=Rules(dead_waits_ready=False))
        rng = random.Random(seed)
        while not g.finished:
            for seat, actions in g.pending().items():
                if seat in g.pending():
                    g.act(seat, rng.choice(actions))
        for seat in range(4):
            seen = g._seen([seat])[seat]
            own = g.hand_of(seat).all_counts
            hidden = [0] * 34
            for other in range(4):
                if other != seat:
                    for t in range(34):
                        hidden[t] += g.hands[other][t]
                    for kind, t, _, _ in g.melds[other]:
                        if kind == MELD_CONCEALED_KONG:
                            hidden[t] += 4
            for t in g.wall[g.head:g.tail]:
                hidden[t] += 1
            assert all(seen[t] + own[t] + hidden[t] == 4 for t in range(27)), (seed, seat)


# ---------------------------------------------------------------------------------------------
# 逃跑/强退: the settlement

def test_a_leave_pays_the_penalty_to_each_player_not_yet_won():
    s = SichuanSettlement()
    report = s.leave(2, wall_left=50)
    # 16 × 6 = 96 to each of the three others, in turn order after seat 2.
    assert list(s.ledger) == [T(2, 3, 96, "escape"), T(2, 0, 96, "escape"), T(2, 1, 96, "escape")]
    assert report.charged == "escape" and report.penalty == {3: 96, 0: 96, 1: 96} and report.not_ready == {}
    assert s.left == (2,) and s.in_hand == (0, 1, 3) and not s.finished
    # From now on the leaver neither pays nor receives: a concealed kong by 0 costs seats 1 and 3
    # 12 each, a self-drawn 平胡 by 1 costs 3 and 0 12 each.
    s.kong(0, "concealed")
    s.self_drawn_win(1, win(PLAIN, self_drawn=True))
    assert list(s.ledger)[3:] == [T(1, 0, 12, "concealed_kong"), T(3, 0, 12, "concealed_kong"),
                                  T(3, 1, 12, "self_draw"), T(0, 1, 12, "self_draw")]
    for event in (lambda: s.discard_win(2, {0: win(PLAIN)}), lambda: s.kong(2, "concealed"),
                  lambda: s.leave(2)):
        with pytest.raises(mc.IllegalActionError, match="left"):
            event()
    assert len(s.ledger) == 7


def test_only_players_not_yet_won_receive_the_penalty():
    s = SichuanSettlement()
    s.discard_win(1, {0: win(PLAIN)})                    # #0: seat 0 won (6 from 1)
    s.leave(3, wall_left=20)                             # 96 to seats 1 and 2 only: 0 has won
    assert list(s.ledger)[1:] == [T(3, 1, 96, "escape"), T(3, 2, 96, "escape")]
    assert s.in_hand == (1, 2)


def test_in_the_last_four_tiles_the_higher_of_penalty_and_ready_check_is_charged():
    s = SichuanSettlement()
    report = s.leave(0, {1: DRAGON_S, 2: DRAGON_P, 3: NOT_READY}, wall_left=4)
    # Penalty 96 × 3 = 288; 查大叫 against the leaver: 192 (青龙七对) + 192 = 384 > 288.
    assert report.penalty == {1: 96, 2: 96, 3: 96} and report.not_ready == {1: 192, 2: 192}
    assert report.charged == "escape_not_ready"
    assert list(s.ledger) == [T(0, 1, 192, "escape_not_ready"), T(0, 2, 192, "escape_not_ready")]


def test_in_the_last_four_tiles_a_smaller_ready_check_leaves_the_penalty():
    s = SichuanSettlement()
    report = s.leave(0, {1: READY_12, 2: READY_96, 3: NOT_READY}, wall_left=1)
    # 12 + 96 = 108 < 288: the penalty stands.
    assert report.not_ready == {1: 12, 2: 96} and report.charged == "escape"
    assert [t.amount for t in s.ledger] == [96, 96, 96]


def test_a_tie_charges_the_penalty():
    s = SichuanSettlement()
    report = s.leave(0, {1: DRAGON_S, 2: READY_96, 3: NOT_READY}, wall_left=0)
    # 192 + 96 = 288 = 96 × 3: a tie -> the penalty.
    assert report.charged == "escape" and sum(report.not_ready.values()) == 288
    assert [t.amount for t in s.ledger] == [96, 96, 96]


def test_the_ready_check_values_a_hand_mid_turn_at_its_best_discard():
    s = SichuanSettlement()
    report = s.leave(0, {1: DRAGON_S + "9m", 2: NOT_READY, 3: NOT_READY}, wall_left=3)
    assert report.not_ready == {1: 192}                    # discard 9m: 青龙七对 waiting on 6s


def test_before_the_last_tiles_no_hands_are_needed():
    s = SichuanSettlement()
    assert s.leave(0, wall_left=5).charged == "escape"     # 5 > escape_ready_check_last = 4
    s = SichuanSettlement(Rules(escape_ready_check_last=0))
    assert s.leave(0, wall_left=0).not_ready == {}


def test_the_ready_check_needs_the_others_hands():
    s = SichuanSettlement()
    with pytest.raises(mc.IllegalActionError, match="hands"):
        s.leave(0, wall_left=4)
    with pytest.raises(mc.IllegalActionError, match="hands"):
        s.leave(0, {1: READY_12}, wall_left=4)
    assert len(s.ledger) == 0 and s.left == ()


def test_a_winner_who_leaves_pays_at_once_and_is_credited_only_at_the_end():
    rules = Rules(escape_penalty=1)
    s = SichuanSettlement(rules)
    s.self_drawn_win(0, win(PURE, rules, self_drawn=True))  # 清一色 24 + 6 = 30 from each: +90
    report = s.leave(0, wall_left=0)                          # a winner: no ready check
    # Penalty 1 × 6 to each of seats 1, 2, 3 (not yet won): 90 - 18 = 72 owed to it, paid at the end.
    assert list(s.ledger)[3:] == [T(0, 1, 6, "escape"), T(0, 2, 6, "escape"), T(0, 3, 6, "escape")]
    assert report.was_winner and report.deferred_credit == 72 and s.deferred == {0: 72}
    assert not s.finished and s.in_hand == (1, 2, 3)
    # With the seed's 16: 90 - 288 < 0, nothing deferred (its loss is paid at once).
    s = SichuanSettlement()
    s.self_drawn_win(0, win(PURE, self_drawn=True))
    assert s.leave(0).deferred_credit == 0 and s.deferred == {}


def test_no_refund_goes_back_to_a_player_who_left():
    s = SichuanSettlement()
    s.kong(2, "concealed")                               # #0 seat 3, #1 seat 0, #2 seat 1 pay 12
    s.discard_win(1, {0: win(PLAIN)})                    # #3: seat 0 wins
    s.leave(0, wall_left=30)                             # #4, #5, #6: 96 to seats 1, 2, 3
    s.drawn_hand({1: READY_12, 2: NOT_READY_KONG, 3: READY_96})
    # Seat 2 is not ready: 查大叫 12 to seat 1 and 96 to seat 3; 退税 to seats 3 and 1 only — seat 0's
    # 12 (#1) stays with seat 2 (seed: 不再退给已经逃跑的胡家).
    assert list(s.ledger)[7:] == [
        T(2, 1, 12, "not_ready"), T(2, 3, 96, "not_ready"),
        T(2, 3, 12, "kong_refund", 0), T(2, 1, 12, "kong_refund", 2),
    ]


def test_the_hand_ends_when_fewer_than_two_are_still_playing():
    s = SichuanSettlement()
    s.discard_win(1, {0: win(PLAIN)})
    s.leave(2, wall_left=30)
    assert not s.finished and s.in_hand == (1, 3)
    s.leave(3, wall_left=30)                             # 96 to seat 1, the only one not yet won
    assert s.finished and list(s.ledger)[-1] == T(3, 1, 96, "escape")
    with pytest.raises(mc.IllegalActionError, match="over"):
        s.leave(1)


def test_escape_ends_hand_true_is_the_seeds_letter():
    s = SichuanSettlement(Rules(escape_ends_hand=True))
    s.leave(1, wall_left=30)
    assert s.finished and len(s.ledger) == 3
    s = SichuanSettlement(Rules(escape_ends_hand=True))
    s.discard_win(1, {0: win(PLAIN, Rules(escape_ends_hand=True))})
    s.leave(0)                                           # a winner leaving: the game goes on
    assert not s.finished


def test_leave_events_replay():
    ledger = sichuan.settle([LeaveEvent(0, {1: DRAGON_S, 2: DRAGON_P, 3: NOT_READY}, wall_left=2)])
    assert ledger.totals() == [-384, 192, 192, 0]


# ---------------------------------------------------------------------------------------------
# 逃跑/强退: the flow

def test_rulesets_without_a_leaving_rule_refuse_leave_and_change_nothing():
    assert new_game("sichuan", seed=1).HAS_LEAVE_RULE is True
    for ruleset in ("mcr", "changbai"):
        g = new_game(ruleset, seed=1)
        assert type(g).HAS_LEAVE_RULE is False
        before = g.state()
        with pytest.raises(mc.IllegalActionError, match="no rule for a player leaving"):
            g.leave(0)
        assert g.state() == before


def _voids_chosen(rules=None, leaver=None):
    g = new_game("sichuan", wall=build_wall("sichuan", hands=REPRO, draws="9s"), dealer=0, rules=rules)
    for seat, void in enumerate((M, S, M, S)):
        if seat == leaver:
            g.leave(seat)
        else:
            g.act(seat, void)
    return g


def test_leaving_during_void_choice_takes_the_first_legal_suit():
    g = _voids_chosen(leaver=3)
    # 3 left before choosing: its first legal choice (m) stands; it paid 96 to each of 0, 1, 2.
    assert g.void_suit(3) == "m" and g.left == [3] and g.ledger.totals() == [96, 96, 96, -288]
    assert g.view(0)["left"] == [3] and g.state()["left"] == [3]
    assert ("leave", 3, "escape", {"0": 96, "1": 96, "2": 96}, 3) in g.event_history()
    g.act(0, DISCARD[T_("5p")])
    g.act(1, WIN)                                        # 6 from seat 0
    g.act(2, WIN)                                        # 自摸 平胡 12 from seat 0 only (3 left)
    # Only seat 0 is still playing: the hand is over.
    assert g.finished and g.ledger.totals() == [96 - 6 - 12, 96 + 6, 96 + 12, -288]
    check_game(g)


def test_a_leaver_in_a_claim_window_passes_and_leaving_is_no_claim():
    g = _voids_chosen()
    g.act(0, DISCARD[T_("5p")])
    g.leave(1)                                           # it could have won on 5p
    # Seat 1 passed by leaving; seat 2 draws 9s — 地胡 still (a leave is no pung, kong or win).
    assert g.pending()[2][0] is WIN and g.turn == 2
    g.act(2, WIN)
    # 96 from seat 1 to each of 0, 2, 3; 地胡 192 + 6 from seats 3 and 0.
    assert g.ledger.totals() == [96 - 198, -288, 96 + 396, 96 - 198]
    assert not g.finished and 1 not in g.pending()
    check_game(g)


def test_leaving_on_ones_own_turn_skips_it():
    g = _voids_chosen()
    assert list(g.pending()) == [0]
    g.leave(0)
    # The dealer keeps its 14 tiles; seat 1 (the next seat still playing) draws.
    assert g.turn == 1 and list(g.pending()) == [1] and sum(g.hands[0]) == 14
    check_game(g)


def test_a_discarder_who_leaves_closes_the_claim_window_on_its_tile():
    g = _voids_chosen()
    g.act(0, DISCARD[T_("5p")])
    assert g.pending() == {1: [WIN, PASS]}
    g.leave(0)                                           # nobody can win on the leaver's tile now
    assert g.turn == 1 and 0 not in g.winners and list(g.pending()) == [1]
    assert g.ledger.totals() == [-288, 96, 96, 96]
    check_game(g)


def test_escape_ends_hand_in_the_flow():
    g = _voids_chosen(Rules(escape_ends_hand=True))
    g.leave(2)
    assert g.finished and g.pending() == {} and g.event_history()[-1][0] == "end"
    with pytest.raises(mc.IllegalActionError, match="over"):
        g.leave(1)


def test_leave_rejects_bad_seats_and_changes_nothing():
    g = _voids_chosen()
    g.leave(3)
    before = g.state()
    for seat in (3, 4, -1, "0", True):
        with pytest.raises(mc.IllegalActionError):
            g.leave(seat)
    assert g.state() == before


@pytest.mark.parametrize("preset", ["qq", "qq_normal"])
def test_random_leaves_keep_the_hand_sound(preset):
    for seed in range(60):
        rng = random.Random(seed)
        g = new_game("sichuan", seed=seed, rules=preset)
        leaver, at, step = rng.randrange(4), rng.randrange(80), 0
        left_total = None
        while not g.finished:
            if step == at and leaver not in g.left:
                g.leave(leaver)
                left_total = g.ledger.totals()[leaver]
                check_game(g)
                continue
            step += 1
            for seat, actions in g.pending().items():
                assert seat not in g.left
                if seat in g.pending():
                    g.act(seat, rng.choice(actions))
        check_game(g)
        if left_total is not None:                       # nothing paid or received after leaving
            assert g.ledger.totals()[leaver] == left_total
        again = replay(json.loads(json.dumps(g.log)))    # the log repeats the leave where it came
        assert again.log == g.log and again.ledger == g.ledger


# ---------------------------------------------------------------------------------------------
# 普通场: preset qq_normal

def test_qq_normal_preset():
    rules = Rules.preset("qq_normal")
    assert (rules.blood_battle, rules.dealer_rule) == (False, "discarder")
    assert rules == Rules(blood_battle=False, dealer_rule="discarder")
    s = SichuanSettlement(rules)
    s.discard_win(2, {0: win(PLAIN, rules), 3: win(PURE, rules)})  # several winners on one discard
    assert s.finished and s.totals() == [6, 0, -30, 24]
    with pytest.raises(mc.IllegalActionError, match="over"):
        s.kong(1, "concealed")


def test_qq_normal_first_win_ends_the_hand():
    g = new_game("sichuan", wall=build_wall("sichuan", hands=REPRO, draws="9s"), dealer=0, rules="qq_normal")
    for seat, void in enumerate((M, S, M, S)):
        g.act(seat, void)
    g.act(0, DISCARD[T_("5p")])
    g.act(1, WIN)
    assert g.finished and g.winners == [1] and g.ledger.totals() == [-6, 6, 0, 0]
    assert g.next_dealer() == 0                          # the discarder deals


def test_qq_normal_hands_over_many_seeds():
    seen_win = seen_draw = 0
    for seed in range(120):
        rng = random.Random(seed)
        g = new_game("sichuan", seed=seed, rules="qq_normal")
        while not g.finished:
            for seat, actions in g.pending().items():
                if seat in g.pending():
                    g.act(seat, rng.choice(actions))
        wins = [e for e in g.event_history() if e[0] == "win"]
        if wins:
            seen_win += 1
            assert {e[3] for e in wins} == {wins[0][3]}  # one discard (or one self-draw)
            discarder = wins[0][3]
            assert g.next_dealer() == (wins[0][1] if discarder < 0 else discarder)
            assert not g.exhausted
        else:
            seen_draw += 1
            assert g.exhausted and g.next_dealer() == g.dealer
            report = g.wall_report                       # 查花猪 / 查大叫 / 退税 over all four
            assert sorted(report.not_ready + tuple(report.ready)) == [0, 1, 2, 3]
    assert seen_win and seen_draw


def test_qq_normal_on_the_command_lines(capsys):
    from mahjong_core.cli import main

    assert main(["score", "sichuan", "111222444m33399p", "--self-drawn", "--void", "s", "--rules", "qq_normal"]) == 0
    assert "18" in capsys.readouterr().out
    assert main(["simulate", "sichuan", "--preset", "qq_normal", "--games", "20", "--no-progress"]) == 0
    assert "preset qq_normal" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# 游戏币

def test_coins_on_the_seeds_example():
    # Seed: N = 200, the winner's X = 54, each loser's X = 18 (a self-drawn 对对胡: 12 + 6 from each),
    # A = 400: winner 200 × (18 + 18 + 18) = 10,800, each loser 200 × 18 = 3,600; with the fee
    # +10,400 and -4,000 each, the house keeping 400 from every player = 1,600.
    s = SichuanSettlement()
    s.self_drawn_win(0, win(PUNGS, self_drawn=True))
    assert s.totals() == [54, -18, -18, -18]
    result = sichuan.coins(s.ledger, room_factor=200, fee=400)
    assert result.before_fee == (10_800, -3_600, -3_600, -3_600)
    assert result.change == (10_400, -4_000, -4_000, -4_000)
    assert result.house == 1_600 and sum(result.change) + result.house == 0
    assert sichuan.coins([54, -18, -18, -18], room_factor=200).change == (10_800, -3_600, -3_600, -3_600)


@pytest.mark.parametrize("kwargs", [dict(room_factor=0), dict(room_factor=200, fee=-1), dict(room_factor=True)])
def test_coins_rejects_bad_values(kwargs):
    with pytest.raises(mc.InvalidArgumentError):
        sichuan.coins([6, -6, 0, 0], **kwargs)


def test_coins_rejects_totals_that_do_not_balance():
    with pytest.raises(mc.InvalidArgumentError, match="sum to zero"):
        sichuan.coins([6, 0, 0, 0], room_factor=1)


def test_the_coins_module_example_holds():
    import doctest

    from mahjong_core.rules.sichuan import currency as coins_module

    assert doctest.testmod(coins_module, raise_on_error=False).failed == 0
