"""Sichuan settlement scenarios written out by hand from RULES.md §2 (base 6 unless said otherwise).

Every test lists the complete ledger it expects: payer, payee, amount, reason and ref of each
transfer. Seats 0..3 in turn order; "after seat s" means s+1, s+2, ... (wrapping).

Hand values used (points = 6 × 2^(番−1)):
    PLAIN   11123m789m999p456p   平胡 1                       6
    PUNGS   111222444m33399p     对对胡 2                     12  (self-drawn, 自摸加底: 18)
    PURE    11333222456999s      清一色 3                     24
"""

from __future__ import annotations

import pytest

import mahjong_core as mc
from mahjong_core.rules import sichuan
from mahjong_core.rules.ledger import Transfer as T
from mahjong_core.rules.sichuan import Rules, SichuanSettlement

PLAIN = "11123m789m999p456p"
PUNGS = "111222444m33399p"
PURE = "11333222456999s"


def win(hand, rules=None, **flags):
    value = sichuan.score(hand, rules=rules, **flags)
    assert value is not None
    return value


def ledger_of(settlement):
    return list(settlement.ledger)


# ---------------------------------------------------------------------------------------------
# Wins

def test_discard_win():
    s = SichuanSettlement()
    assert s.discard_win(1, {0: win(PURE)}) == (0,)
    assert ledger_of(s) == [T(1, 0, 24, "discard_win")]
    assert s.won == (0,) and s.in_hand == (1, 2, 3) and not s.finished


def test_several_winners_on_one_discard_are_settled_separately_in_turn_order():
    s = SichuanSettlement()
    s.discard_win(2, {0: win(PURE), 3: win(PLAIN)})
    assert ledger_of(s) == [T(2, 3, 6, "discard_win"), T(2, 0, 24, "discard_win")]
    assert s.won == (3, 0) and s.in_hand == (1, 2)


def test_wins_may_be_given_as_pairs():
    s = SichuanSettlement()
    s.discard_win(2, [(0, win(PURE)), (3, win(PLAIN))])
    assert ledger_of(s) == [T(2, 3, 6, "discard_win"), T(2, 0, 24, "discard_win")]


def test_seed_example_self_drawn_all_pungs_costs_each_loser_18():
    s = SichuanSettlement()
    s.self_drawn_win(1, win(PUNGS, self_drawn=True))
    assert ledger_of(s) == [T(2, 1, 18, "self_draw"), T(3, 1, 18, "self_draw"), T(0, 1, 18, "self_draw")]
    assert s.totals() == [-18, 54, -18, -18]  # the seed: winner's X is 54, each loser's 18


@pytest.mark.parametrize("rules, amount", [
    (Rules(zimo_bonus="add_base"), 18),   # 12 + 6
    (Rules(zimo_bonus="add_fan"), 24),    # 对对胡 one 番 higher: 3 番
    (Rules(zimo_bonus=None), 12),
    (Rules(zimo_bonus="add_fan", max_fan=2), 12),  # the extra 番 stays under the cap
    (Rules(zimo_bonus="add_base", base=1), 3),
])
def test_self_draw_bonus_options(rules, amount):
    s = SichuanSettlement(rules)
    s.self_drawn_win(0, win(PUNGS, rules, self_drawn=True))
    assert ledger_of(s) == [T(1, 0, amount, "self_draw"), T(2, 0, amount, "self_draw"), T(3, 0, amount, "self_draw")]


def test_winners_stop_paying_for_later_wins():
    s = SichuanSettlement()
    s.discard_win(1, {0: win(PLAIN)})
    s.self_drawn_win(2, win(PUNGS, self_drawn=True))
    assert ledger_of(s) == [T(1, 0, 6, "discard_win"), T(3, 2, 18, "self_draw"), T(1, 2, 18, "self_draw")]


def test_three_winners_end_the_hand():
    s = SichuanSettlement()
    s.discard_win(3, {0: win(PLAIN), 1: win(PLAIN)})
    assert not s.finished
    s.self_drawn_win(2, win(PUNGS, self_drawn=True))
    assert ledger_of(s) == [T(3, 0, 6, "discard_win"), T(3, 1, 6, "discard_win"), T(3, 2, 18, "self_draw")]
    assert s.finished and s.in_hand == (3,)
    before = ledger_of(s)
    with pytest.raises(mc.IllegalActionError, match="over"):
        s.kong(3, "concealed")
    with pytest.raises(mc.IllegalActionError, match="over"):
        s.drawn_hand({3: "1112223334m999p"})
    assert ledger_of(s) == before


# ---------------------------------------------------------------------------------------------
# Kongs (刮风下雨)

def test_direct_kong_chengbao():
    s = SichuanSettlement()
    record = s.kong(0, "direct", tile="5p", discarder=2)
    assert ledger_of(s) == [T(2, 0, 12, "direct_kong")]
    assert record == sichuan.KongRecord(0, sichuan.KongKind.DIRECT, mc.Tile.P5, 2, (0,))


def test_direct_kong_jiajiayou():
    s = SichuanSettlement(Rules(direct_kong="jiajiayou"))
    s.kong(0, "direct", discarder=2)
    assert ledger_of(s) == [T(2, 0, 12, "direct_kong"), T(1, 0, 6, "direct_kong"), T(3, 0, 6, "direct_kong")]


def test_direct_kong_jiajiayou_skips_winners():
    rules = Rules(direct_kong="jiajiayou")
    s = SichuanSettlement(rules)
    s.discard_win(2, {3: win(PLAIN, rules)})
    s.kong(0, "direct", discarder=2)
    assert ledger_of(s) == [T(2, 3, 6, "discard_win"), T(2, 0, 12, "direct_kong"), T(1, 0, 6, "direct_kong")]


def test_added_kong():
    s = SichuanSettlement()
    s.kong(3, "added", tile="9s")
    assert ledger_of(s) == [T(0, 3, 6, "added_kong"), T(1, 3, 6, "added_kong"), T(2, 3, 6, "added_kong")]


def test_concealed_kong():
    s = SichuanSettlement()
    s.kong(1, sichuan.KongKind.CONCEALED)
    assert ledger_of(s) == [T(2, 1, 12, "concealed_kong"), T(3, 1, 12, "concealed_kong"), T(0, 1, 12, "concealed_kong")]


def test_winners_stop_paying_for_later_kongs():
    s = SichuanSettlement()
    s.discard_win(1, {0: win(PLAIN)})
    s.kong(1, "concealed")
    s.kong(3, "added")
    assert ledger_of(s) == [
        T(1, 0, 6, "discard_win"),
        T(2, 1, 12, "concealed_kong"), T(3, 1, 12, "concealed_kong"),
        T(1, 3, 6, "added_kong"), T(2, 3, 6, "added_kong"),
    ]


def test_base_scales_kongs():
    s = SichuanSettlement(Rules(base=1))
    s.kong(0, "concealed")
    s.kong(0, "direct", discarder=1)
    assert [t.amount for t in s.ledger] == [2, 2, 2, 2]


# ---------------------------------------------------------------------------------------------
# 抢杠胡

def test_robbed_added_kong_is_paid_as_a_discard_and_the_kong_never_happened():
    s = SichuanSettlement()
    s.discard_win(1, {3: win(PLAIN, robbed_kong=True)})  # seat 1's added kong robbed by seat 3
    assert ledger_of(s) == [T(1, 3, 6, "robbed_kong_win")]
    assert s.kongs == ()


def test_robbed_kong_with_two_robbers():
    s = SichuanSettlement()
    s.discard_win(3, {2: win(PURE, robbed_kong=True), 0: win(PLAIN, robbed_kong=True)})
    assert ledger_of(s) == [T(3, 0, 6, "robbed_kong_win"), T(3, 2, 24, "robbed_kong_win")]


def test_a_robbed_kong_must_not_be_recorded_first():
    s = SichuanSettlement()
    s.kong(1, "added", tile="5p")
    before = ledger_of(s)
    robbed_on_5p = win("11123m789m999p465p", robbed_kong=True)
    assert robbed_on_5p.win_tile == mc.Tile.P5
    with pytest.raises(mc.IllegalActionError, match="never happened"):
        s.discard_win(1, {3: robbed_on_5p})
    assert ledger_of(s) == before and s.won == ()


# ---------------------------------------------------------------------------------------------
# 杠上炮 and 呼叫转移, 杠上花

def test_kong_discard_with_two_winners_each_receives_the_full_kong_income():
    s = SichuanSettlement()
    s.kong(0, "concealed")                     # #0..#2: seats 1, 2, 3 pay 12 each
    s.discard_win(0, {3: win(PURE, after_kong_discard=True),    # 清一色 3 + 杠上炮 1 = 48
                         1: win(PLAIN, after_kong_discard=True)})  # 平胡 1 + 杠上炮 1 = 12
    assert ledger_of(s) == [
        T(1, 0, 12, "concealed_kong"), T(2, 0, 12, "concealed_kong"), T(3, 0, 12, "concealed_kong"),
        T(0, 1, 12, "discard_win"),
        T(0, 1, 12, "call_transfer", 0), T(0, 1, 12, "call_transfer", 1), T(0, 1, 12, "call_transfer", 2),
        T(0, 3, 48, "discard_win"),
        T(0, 3, 12, "call_transfer", 0), T(0, 3, 12, "call_transfer", 1), T(0, 3, 12, "call_transfer", 2),
    ]
    assert s.totals() == [-96, 36, -12, 72]


def test_call_transfer_moves_only_the_latest_kong():
    s = SichuanSettlement()
    s.kong(2, "concealed")                     # #0..#2: seats 3, 0, 1 pay 12
    s.kong(2, "direct", discarder=1)           # #3: seat 1 pays 12
    s.discard_win(2, {0: win(PLAIN, after_kong_discard=True)})
    assert ledger_of(s)[4:] == [T(2, 0, 12, "discard_win"), T(2, 0, 12, "call_transfer", 3)]


def test_call_transfer_of_a_jiajiayou_kong_includes_every_payment():
    rules = Rules(direct_kong="jiajiayou")
    s = SichuanSettlement(rules)
    s.kong(1, "direct", discarder=3)           # #0 seat 3 pays 12, #1 seat 2 pays 6, #2 seat 0 pays 6
    s.discard_win(1, {3: win(PLAIN, rules, after_kong_discard=True)})
    assert ledger_of(s) == [
        T(3, 1, 12, "direct_kong"), T(2, 1, 6, "direct_kong"), T(0, 1, 6, "direct_kong"),
        T(1, 3, 12, "discard_win"),
        T(1, 3, 12, "call_transfer", 0), T(1, 3, 6, "call_transfer", 1), T(1, 3, 6, "call_transfer", 2),
    ]


def test_kong_discard_needs_a_kong():
    s = SichuanSettlement()
    with pytest.raises(mc.IllegalActionError, match="kong"):
        s.discard_win(2, {0: win(PLAIN, after_kong_discard=True)})
    assert ledger_of(s) == [] and s.won == ()


def test_kong_discard_needs_the_discarders_kong_as_the_last_event():
    s = SichuanSettlement()
    s.kong(2, "concealed")
    s.kong(3, "added")                      # seat 3's kong came after seat 2's
    with pytest.raises(mc.IllegalActionError, match="last event"):
        s.discard_win(2, {0: win(PLAIN, after_kong_discard=True)})
    s.discard_win(1, {0: win(PLAIN)})    # a win in between
    with pytest.raises(mc.IllegalActionError, match="last event"):
        s.discard_win(3, {2: win(PLAIN, after_kong_discard=True)})
    assert len(s.ledger) == 7 and s.won == (0,)


def test_kong_bloom_is_a_self_draw_and_keeps_the_kong_income():
    s = SichuanSettlement()
    s.kong(3, "direct", discarder=1)
    bloom = win("[5555p,2]11123m789m999p", self_drawn=True, kong_replacement=True)  # 平胡 + 杠上花: 12 + 6
    s.self_drawn_win(3, bloom)
    assert ledger_of(s) == [T(1, 3, 12, "direct_kong"),
                            T(0, 3, 18, "self_draw"), T(1, 3, 18, "self_draw"), T(2, 3, 18, "self_draw")]


# ---------------------------------------------------------------------------------------------
# Wall end (流局): 查花猪, 查大叫, 退税

PIG = "123m456p789s1122m"                 # three suits
READY_12 = "[7777p,2]11122233m99p"       # waits 3m / 9p: 对对胡 = 12 (the kong is no 根)
READY_96 = "1122334455667s"              # waits 1s, 4s (清一色 24), 7s (清七对 96)
NOT_READY = "[5555p]13579m24689p"        # two suits, no wait


def test_wall_end_with_a_pig_two_ready_players_and_kong_refunds():
    s = SichuanSettlement()
    s.kong(2, "concealed")                 # #0 seat 3, #1 seat 0, #2 seat 1 pay 12
    s.kong(1, "direct", discarder=3)       # #3 seat 3 pays 12
    report = s.drawn_hand({0: PIG, 1: READY_12, 2: NOT_READY, 3: READY_96})
    assert ledger_of(s) == [
        T(3, 2, 12, "concealed_kong"), T(0, 2, 12, "concealed_kong"), T(1, 2, 12, "concealed_kong"),
        T(3, 1, 12, "direct_kong"),
        # 查花猪: the pig pays 16 × 6 to every non-pig still in the hand
        T(0, 1, 96, "flower_pig"), T(0, 2, 96, "flower_pig"), T(0, 3, 96, "flower_pig"),
        # 查大叫: the non-ready non-pig pays each ready player their best discard-win value
        T(2, 1, 12, "not_ready"), T(2, 3, 96, "not_ready"),
        # 退税: the non-ready kong owner refunds every payment of the kong to its payer
        T(2, 3, 12, "kong_refund", 0), T(2, 0, 12, "kong_refund", 1), T(2, 1, 12, "kong_refund", 2),
    ]
    assert report.pigs == (0,) and report.not_ready == (0, 2)
    assert {seat: v.points for seat, v in report.ready.items()} == {1: 12, 3: 96}
    assert report.entries == tuple(range(4, 12))
    assert s.totals() == [-288, 120, -12, 180] and s.finished


def test_pigs_pay_only_non_pigs_and_are_not_charged_as_non_ready():
    s = SichuanSettlement()
    report = s.drawn_hand({0: PIG, 1: "123m456p789s1122p", 2: READY_96, 3: NOT_READY})
    assert ledger_of(s) == [
        T(0, 2, 96, "flower_pig"), T(0, 3, 96, "flower_pig"),
        T(1, 2, 96, "flower_pig"), T(1, 3, 96, "flower_pig"),
        T(3, 2, 96, "not_ready"),
    ]
    assert report.pigs == (0, 1) and report.not_ready == (0, 1, 3)


def test_a_pig_refunds_its_kongs():
    s = SichuanSettlement()
    s.kong(0, "added")                     # #0..#2: seats 1, 2, 3 pay 6
    s.drawn_hand({0: "[5555s,6]123m456p1122m", 1: READY_96, 2: READY_12, 3: READY_12})
    assert ledger_of(s)[3:] == [
        T(0, 1, 96, "flower_pig"), T(0, 2, 96, "flower_pig"), T(0, 3, 96, "flower_pig"),
        T(0, 1, 6, "kong_refund", 0), T(0, 2, 6, "kong_refund", 1), T(0, 3, 6, "kong_refund", 2),
    ]


def test_ready_players_keep_their_kong_income():
    s = SichuanSettlement()
    s.kong(3, "concealed")
    s.drawn_hand({0: READY_12, 1: READY_12, 2: READY_12, 3: READY_96})
    assert len(s.ledger) == 3  # everybody ready: nothing to pay, nothing refunded


def test_wall_end_after_a_win_refunds_winners_too_by_default():
    s = SichuanSettlement()
    s.kong(0, "concealed")                 # #0 seat 1, #1 seat 2, #2 seat 3 pay 12
    s.discard_win(1, {3: win(PLAIN)})   # #3
    s.drawn_hand({0: "[1111m]35779m24689p", 1: "1112223334m999p", 2: "13579m13579p246p"})
    assert ledger_of(s)[4:] == [
        T(0, 1, 12, "not_ready"), T(2, 1, 12, "not_ready"),  # seat 1's best wait: 平胡 + 根 = 12
        T(0, 1, 12, "kong_refund", 0), T(0, 2, 12, "kong_refund", 1), T(0, 3, 12, "kong_refund", 2),
    ]


def test_wall_end_refund_to_winners_off():
    rules = Rules(refund_to_winners=False)
    s = SichuanSettlement(rules)
    s.kong(0, "concealed")
    s.discard_win(1, {3: win(PLAIN, rules)})
    s.drawn_hand({0: "[1111m]35779m24689p", 1: "1112223334m999p", 2: "13579m13579p246p"})
    assert ledger_of(s)[4:] == [
        T(0, 1, 12, "not_ready"), T(2, 1, 12, "not_ready"),
        T(0, 1, 12, "kong_refund", 0), T(0, 2, 12, "kong_refund", 1),
    ]


def test_transferred_kong_is_not_refunded():
    s = SichuanSettlement()
    s.kong(0, "concealed")                                        # #0..#2
    s.discard_win(0, {1: win(PLAIN, after_kong_discard=True)})  # #3 win, #4..#6 呼叫转移
    s.drawn_hand({0: "[1111m]35779m24689p", 2: READY_12, 3: NOT_READY})
    assert ledger_of(s)[7:] == [T(0, 2, 12, "not_ready"), T(3, 2, 12, "not_ready")]


def test_void_suit_decides_readiness_at_wall_end():
    s = SichuanSettlement()
    s.drawn_hand({0: "1112223334m999p", 1: "1112223334m999p", 2: READY_96, 3: READY_96},
                     void_suits={0: "p", 1: "s", 2: "m", 3: "m"})
    assert ledger_of(s) == [T(0, 1, 12, "not_ready"), T(0, 2, 96, "not_ready"), T(0, 3, 96, "not_ready")]


def test_max_fan_caps_not_ready_payments():
    rules = Rules(max_fan=3)
    s = SichuanSettlement(rules)
    s.drawn_hand({0: NOT_READY, 1: READY_96, 2: READY_12, 3: NOT_READY})
    assert ledger_of(s) == [T(0, 1, 24, "not_ready"), T(0, 2, 12, "not_ready"),
                            T(3, 1, 24, "not_ready"), T(3, 2, 12, "not_ready")]


def test_wall_end_needs_exactly_the_hands_still_in_play():
    s = SichuanSettlement()
    s.discard_win(1, {0: win(PLAIN)})
    with pytest.raises(mc.IllegalActionError, match="exactly the seats"):
        s.drawn_hand({0: READY_12, 1: READY_12, 2: READY_12, 3: READY_12})
    with pytest.raises(mc.IllegalActionError, match="exactly the seats"):
        s.drawn_hand({1: READY_12, 2: READY_12})
    assert not s.finished and len(s.ledger) == 1


def test_wall_end_bad_hand_changes_nothing():
    s = SichuanSettlement()
    s.kong(0, "concealed")
    with pytest.raises(mc.InvalidHandError, match="seat 2"):
        s.drawn_hand({0: PIG, 1: READY_12, 2: PUNGS, 3: READY_96})  # seat 2: a 14-tile hand
    with pytest.raises(mc.InvalidHandError, match="seat 0"):
        s.drawn_hand({0: "123m456p789s11223m", 1: READY_12, 2: NOT_READY, 3: READY_96})  # a pig, 14 tiles
    with pytest.raises(mc.InvalidHandError):
        s.drawn_hand({0: PIG, 1: READY_12, 2: NOT_READY, 3: READY_96}, void_suits={2: "x"})
    assert len(s.ledger) == 3 and not s.finished


# ---------------------------------------------------------------------------------------------
# Bad events change nothing

@pytest.fixture
def after_one_win():
    s = SichuanSettlement()
    s.kong(2, "concealed")
    s.discard_win(1, {0: win(PLAIN)})
    return s


@pytest.mark.parametrize("event, error", [
    (lambda s: s.kong(0, "concealed"), "already won"),
    (lambda s: s.kong(2, "direct", discarder=0), "already won"),
    (lambda s: s.discard_win(0, {1: win(PLAIN)}), "already won"),
    (lambda s: s.discard_win(1, {0: win(PLAIN)}), "already won"),
    (lambda s: s.self_drawn_win(0, win(PUNGS, self_drawn=True)), "already won"),
    (lambda s: s.discard_win(1, {1: win(PLAIN)}), "own discard"),
    (lambda s: s.discard_win(1, {}), "at least one"),
    (lambda s: s.discard_win(1, [(2, win(PLAIN)), (2, win(PLAIN))]), "only once"),
    (lambda s: s.discard_win(1, {2: win(PLAIN, self_drawn=True)}), "self_drawn=False"),
    (lambda s: s.self_drawn_win(2, win(PLAIN)), "self_drawn=True"),
    (lambda s: s.discard_win(1, {2: win(PLAIN, Rules(base=10))}), "rules|Rules"),
    (lambda s: s.discard_win(1, {2: win(PLAIN), 3: win(PLAIN, robbed_kong=True)}), "agree"),
    (lambda s: s.kong(1, "direct"), "discarder"),
    (lambda s: s.kong(1, "direct", discarder=1), "own discard"),
    (lambda s: s.kong(1, "added", discarder=2), "only a direct kong"),
    (lambda s: s.kong(1, "big"), "kong kind"),
    (lambda s: s.kong(4, "concealed"), "seat 0..3"),
    (lambda s: s.kong(True, "concealed"), "seat 0..3"),
    (lambda s: s.discard_win(-1, {2: win(PLAIN)}), "seat 0..3"),
])
def test_illegal_events_raise_and_change_nothing(after_one_win, event, error):
    before = (ledger_of(after_one_win), after_one_win.won, after_one_win.kongs)
    with pytest.raises(mc.IllegalActionError, match=error):
        event(after_one_win)
    assert (ledger_of(after_one_win), after_one_win.won, after_one_win.kongs) == before


def test_wrong_types():
    s = SichuanSettlement()
    with pytest.raises(mc.IllegalActionError, match="SichuanScore"):
        s.discard_win(1, {0: 24})
    with pytest.raises(mc.IllegalActionError, match="SichuanScore"):
        s.self_drawn_win(0, "111222444m33399p")
    with pytest.raises(mc.RulesError):
        SichuanSettlement(42)
    with pytest.raises(mc.InvalidArgumentError):
        SichuanSettlement(seats=5)
    with pytest.raises(mc.InvalidHandError):
        s.kong(0, "concealed", tile="E")
    assert len(s.ledger) == 0


def test_errors_are_mahjong_errors_and_value_errors():
    s = SichuanSettlement()
    with pytest.raises(mc.MahjongError):
        s.kong(1, "direct")
    with pytest.raises(ValueError):
        s.kong(1, "direct")


# ---------------------------------------------------------------------------------------------
# The functional form

def test_settle_replays_events():
    rules = Rules(direct_kong="jiajiayou")
    events = [
        sichuan.KongEvent(2, "direct", tile="5p", discarder=3),
        sichuan.KongEvent(0, "concealed"),
        sichuan.DiscardWinEvent(0, {1: win(PLAIN, rules, after_kong_discard=True)}),
        sichuan.SelfDrawEvent(3, win(PUNGS, rules, self_drawn=True)),
        sichuan.WallEndEvent({0: "[1111m]35779m24689p", 2: READY_12}),
    ]
    live = SichuanSettlement(rules)
    for event in events:
        live.apply(event)
    assert sichuan.settle(events, rules) == live.ledger
    assert live.finished
    assert ledger_of(live) == [
        T(3, 2, 12, "direct_kong"), T(0, 2, 6, "direct_kong"), T(1, 2, 6, "direct_kong"),
        T(1, 0, 12, "concealed_kong"), T(2, 0, 12, "concealed_kong"), T(3, 0, 12, "concealed_kong"),
        # seat 0's discard after its kong: 杠上炮 and 呼叫转移 of the concealed kong
        T(0, 1, 12, "discard_win"),
        T(0, 1, 12, "call_transfer", 3), T(0, 1, 12, "call_transfer", 4), T(0, 1, 12, "call_transfer", 5),
        # seat 3 self-draws 对对胡: seats 0 and 2 pay 12 + 6
        T(0, 3, 18, "self_draw"), T(2, 3, 18, "self_draw"),
        # wall end: seat 0 (not ready) pays seat 2 (ready: 对对胡 12); its kong was transferred, no 退税;
        # seat 2 is ready and keeps its kong income
        T(0, 2, 12, "not_ready"),
    ]


def test_apply_rejects_unknown_events():
    with pytest.raises(mc.IllegalActionError, match="not a Sichuan settlement event"):
        SichuanSettlement().apply("kong")


def test_reasons_have_chinese_names():
    s = SichuanSettlement()
    s.kong(0, "concealed")
    s.discard_win(0, {1: win(PLAIN, after_kong_discard=True)})
    s.drawn_hand({0: PIG, 2: READY_12, 3: NOT_READY})
    assert {t.reason for t in s.ledger} <= set(sichuan.REASONS)
    assert sichuan.REASONS["call_transfer"] == "呼叫转移"


def test_deprecated_verb_names_are_the_shared_verbs():
    # The rulesets share discard_win / self_drawn_win / drawn_hand; the old names stay one release.
    assert SichuanSettlement.win_on_discard is SichuanSettlement.discard_win
    assert SichuanSettlement.self_draw is SichuanSettlement.self_drawn_win
    assert SichuanSettlement.wall_exhausted is SichuanSettlement.drawn_hand
