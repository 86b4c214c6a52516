"""Every MCR fan scores where it should (one positive hand each) and every exclusion holds.

Exclusions are checked two ways:
* for each (fan, excluded fan) pair of the table, a hand of the corpus (golden cases + generated
  hands) where the reference evaluator raises both before the exclusion step, and the scorer
  counts only the bigger one;
* the pairs that can never both be raised in one reading are listed in STRUCTURAL with the
  reason, and each has an explicit hand where the smaller fan's pattern is present but not counted.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

import mahjong_core as mc
import mcr_handgen
import mcr_reference as ref
from mahjong_core.rules import mcr

BOTZONE = mcr.Rules.presets["botzone"]
OFFICIAL = mcr.Rules.presets["official"]
WITH_FLOWERS = mcr.Rules(flowers=True)
CLASSIC = mcr.Rules.presets["classic"]


def fans_of(hand, rules=OFFICIAL, **context) -> Counter:
    s = mcr.score(hand, rules=rules, **context)
    assert s is not None, f"{hand} should win"
    return Counter(s.fan_ids)


# ---------------------------------------------------------------------------------------------
# The table


def test_table_has_the_81_fans_of_the_rule_book_in_points_order():
    assert len(mcr.FANS) == 83 and len({f.id for f in mcr.FANS}) == 83
    book = [f for f in mcr.FANS if f.id not in ("MINGANGANG", "TINGPAI")]
    assert len(book) == 81
    assert Counter(f.points for f in book) == Counter(
        {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13})
    points = [f.points for f in mcr.FANS[:-2]]
    assert points == sorted(points, reverse=True)
    assert mcr.FAN_BY_ID["MINGANGANG"].points == 5 and mcr.FAN_BY_ID["TINGPAI"].points == 1
    for f in mcr.FANS:
        assert f.name_zh and f.name_en and f.id.isupper()
        assert all(g in mcr.FAN_BY_ID and mcr.FAN_BY_ID[g].points <= f.points for g in f.excludes), f


def test_reference_restates_the_same_table():
    assert ref.VALUES == {f.id: f.points for f in mcr.FANS}
    assert {k: set(v) for k, v in ref.EXCLUDES.items()} == {f.id: set(f.excludes) for f in mcr.FANS if f.excludes}
    assert ref.ORDER == [f.id for f in mcr.FANS]


def test_fan_value_object():
    f = mcr.fan("SIGUIYI", 2)
    assert (f.name_zh, f.name_en, f.points, f.count, f.id, f.total) == ("四归一", "Tile Hog", 2, 2, "SIGUIYI", 4)
    assert mcr.fan("SIGUIYI", 2) is f  # shared, immutable
    assert mcr.fan("HUAPAI", 12).count == 12
    with pytest.raises(KeyError, match="unknown MCR fan id"):
        mcr.fan("NOPE")


# ---------------------------------------------------------------------------------------------
# One positive hand per fan: (hand, rules, context)

POSITIVE = {
    "DASIXI": ("[EEE,2][SSSS,1]WWWNN55pN|EE1000",),
    "DASANYUAN": ("[PPP,2][FFF,3]CC66999sC|EE1000",),
    "LVYISE": ("[234s,2][666s,2]33888sFFF|EE1000",),
    "JIULIANBAODENG": ("11123456789999m|EE1000",),
    "SIGANG": ("[1111s][2222m][3333p][4444p]88s",),
    "LIANQIDUI": ("22334556677884s",),
    "SHISANYAO": ("19m19p119sESWNPFC|EE1000",),
    "QINGYAOJIU": ("[111m,2]111999p11991s|EE1000",),
    "XIAOSIXI": ("[EEE,2][SSSS,1]WWWNN555p|SN1000",),
    "XIAOSANYUAN": ("[PPP,2][FFF,3]345p666sCC|EE1000",),
    "ZIYISE": ("EESSWWNNPPFFCC|EE1000",),
    "SIANKE": ("[1111s][2222m]333444p88s",),
    "YISESHUANGLONGHUI": ("[123p,1]12355778998p|EE1000",),
    "YISESITONGSHUN": ("[234s,1]22333444sFF2s|EE1000",),
    "YISESIJIEGAO": ("[111s,3][222s,3][444s,2]333s22p",),
    "YISESIBUGAO": ("[123m,1][345m,1]67789mCC5m|EE1000",),
    "SANGANG": ("[1111s][2222m][4444p,3][333p,1]88s",),
    "HUNYAOJIU": ("[NNN,3][999s,1][CCC,2]999m11p|ES1000",),
    "QIDUI": ("44558m22p225566s8m|EE1000",),
    "QIXINGBUKAO": ("14m369p25sESWNPFC|EE1000",),
    "QUANSHUANGKE": ("[444m,2][666m,3]22244s88p4s",),
    "QINGYISE": ("[123s,1][333s,2]45678996s|EE1000",),
    "YISESANTONGSHUN": ("[456s,1][456s,1]456s77mCCC",),
    "YISESANJIEGAO": ("[666p,2]77888p678sWW7p",),
    "QUANDA": ("[789m,1][999s,2]7899p789s9p|EE1000",),
    "QUANZHONG": ("[444m,2][666m,3]444p44664s",),
    "QUANXIAO": ("11223333p33s1122m|EE1000",),
    "QINGLONG": ("12345789p55678m6p|EE1000",),
    "SANSESHUANGLONGHUI": ("[123m,1][789m,1][123p,1]89p55s7p|EE1000",),
    "YISESANBUGAO": ("[123m,1][345m,1]567m34sCC5s|EE1000",),
    "QUANDAIWU": ("[345m,1]567m45556p345s",),
    "SANTONGKE": ("[111m,2]111999p11991s|EE1000",),
    "SANANKE": ("[444s,2]333m55pWWCCC5p|EE1000",),
    "QUANBUKAO": ("147m28p69sESWNPF3s|EE1000",),
    "ZUHELONG": ("[FFF,2]147m258p39sWW6s",),
    "DAYUWU": ("[666m,2][777m,2][999m,2]78886m|EE0100",),
    "XIAOYUWU": ("[123p,3]23334p222444s|EE1000",),
    "SANFENGKE": ("[EEE,2][SSS,1]WWW78m55p9m|NN1000",),
    "HUALONG": ("123456m456p11789s",),
    "TUIBUDAO": ("[123p,3]23334p222444s|EE1000",),
    "SANSESANTONGSHUN": ("[789m,1][999s,2]7899p789s9p|EE1000",),
    "SANSESANJIEGAO": ("[444s,2]333666m55pWW5p",),
    "WUFANHU": ("[123m,1][345m,1]678p56sWW7s",),
    "MIAOSHOUHUICHUN": ("[123m,1][345m,1]567m34sCC5s|EE1110",),
    "HAIDILAOYUE": ("[123m,1][345m,1]567m34sCC5s|EE0110",),
    "GANGSHANGKAIHUA": ("[1111m][111p,3]999p11999s|EE1001",),
    "QIANGGANGHU": ("111999p11999s798p|EE0001",),
    "PENGPENGHU": ("[WWW,2][NNNN,3][111p,2]99s55m9s|ES1000",),
    "HUNYISE": ("[CCC,2][789m,1]12345mNN6m|EE1000",),
    "SANSESANBUGAO": ("[345m,1]22456p222567s",),
    "WUMENQI": ("[678m,1][444s,2][FFF,1]234pWW",),
    "QUANQIUREN": ("[234m,1][345p,1][234s,1][CCCC,2]11m",),
    "SHUANGANGANG": ("[CCCC][FFFF]333p67pPP5p|EE1000",),
    "SHUANGJIANKE": ("[PPP,2][FFF,3]3335p999s4p|EE1000",),
    "MINGANGANG": ("[1111s][2222m,1]333444p88s", BOTZONE),
    "QUANDAIYAO": ("[123p,1][CCC,1]999m79998p|EE1000",),
    "BUQIUREN": ("12345789p55678m6p|EE1000",),
    "SHUANGMINGGANG": ("[1111s,1][2222m,1]333444p88s",),
    "HUJUEZHANG": ("[666m,2][777m,2][999m,2]78886m|EE0100",),
    "JIANKE": ("[678m,1][444s,2][FFF,1]234pWW",),
    "QUANFENGKE": ("[EEE,2][SSS,1][CCCC]88m456s|ES1000",),
    "MENFENGKE": ("[EEE,2][SSS,1][CCCC]88m456s|ES1000",),
    "MENQIANQING": ("123456m456p11789s",),
    "PINGHU": ("123456m456p11789s",),
    "SIGUIYI": ("[123s,1][333s,2]45678996s|EE1000",),
    "SHUANGTONGKE": ("[444m,2][666m,3]22244s88p4s",),
    "SHUANGANKE": ("[EEE,2][SSSS,1]WWWNN55pN|EE1000",),
    "ANGANG": ("[EEE,2][SSS,1][CCCC]88m456s|ES1000",),
    "DUANYAO": ("44558m22p225566s8m|EE1000",),
    "YIBANGAO": ("12345566789s22p4s|EE1000",),
    "XIXIANGFENG": ("123456m456p11789s",),
    "LIANLIU": ("234567p34567888s",),
    "LAOSHAOFU": ("[123p,1][CCC,1]999m79998p|EE1000",),
    "YAOJIUKE": ("[WWW,2][NNNN,3][111p,2]99s55m9s|ES1000",),
    "MINGGANG": ("[EEE,2][SSSS,1]WWWNN55pN|EE1000",),
    "QUEYIMEN": ("556699m22334455p",),
    "WUZI": ("556699m22334455p",),
    "BIANZHANG": ("[123m,1][789m,1][123p,1]89p55s7p|EE1000",),
    "KANZHANG": ("[123p,1]12355778998p|EE1000",),
    "DANDIAOJIANG": ("[PPP,2][FFF,3]345p666sCC|EE1000",),
    "ZIMO": ("EESSWWNNPPFFCC|EE1000",),
    "HUAPAI": ("12345789p55678m6p|EE1000|c", WITH_FLOWERS),
    "TINGPAI": ("123m456p789s1122s1s", CLASSIC, {"declared_ready": True}),
}


def test_every_fan_has_a_positive_case():
    assert set(POSITIVE) == {f.id for f in mcr.FANS}


@pytest.mark.parametrize("fan_id", sorted(POSITIVE))
def test_positive(fan_id):
    hand, *rest = POSITIVE[fan_id]
    rules = rest[0] if rest else OFFICIAL
    context = rest[1] if len(rest) > 1 else {}
    assert fans_of(hand, rules, **context)[fan_id] >= 1


# ---------------------------------------------------------------------------------------------
# Repeated fans carry a count

@pytest.mark.parametrize("hand,fan_id,count,rules", [
    ("[111m,1][123m,1]33455553m|EE1000", "SIGUIYI", 3, OFFICIAL),
    ("[222m,1][555m,2]8m222555p8m", "SHUANGTONGKE", 2, OFFICIAL),
    ("[123m,1][123p,1]123m12p44s3p", "YIBANGAO", 2, OFFICIAL),
    ("234567p234567sEE", "XIXIANGFENG", 2, OFFICIAL),
    ("234567p34567888s", "LIANLIU", 2, OFFICIAL),
    ("[WWW,2][NNNN,3][111p,2]99s55m9s|ES1000", "YAOJIUKE", 4, OFFICIAL),
    ("[CCCC][FFFF][PPPP][EEEE]NN|EE1011|8", "HUAPAI", 8, WITH_FLOWERS),
])
def test_repeated_fans(hand, fan_id, count, rules):
    s = mcr.score(hand, rules=rules)
    assert Counter(s.fan_ids)[fan_id] == count
    assert s.total == sum(f.points * f.count for f in s.fans)


# ---------------------------------------------------------------------------------------------
# Exclusions


def _corpus():
    cases = json.loads((Path(__file__).parent / "data" / "mcr_gb_mahjong_cases.json").read_text("utf-8"))
    hands = [c["input"] for c in cases["fanCases"]]
    hands += [hand for hand, *_ in POSITIVE.values()]
    rng = random.Random(11)
    hands += [mcr_handgen.random_hand(rng) for _ in range(20_000)]
    return hands


# Pairs that no single reading raises together, and why; each has an explicit negative below.
STRUCTURAL = {
    ("DASIXI", "YAOJIUKE"): "four wind pungs leave no room for another pung; winds of 风刻 never count 幺九刻",
    ("JIULIANBAODENG", "QUEYIMEN"): "one-suit hands lack two suits; 缺一门 is exactly one missing suit",
    ("LIANQIDUI", "QUEYIMEN"): "one-suit hand",
    ("QINGYISE", "QUEYIMEN"): "one-suit hand",
    ("YISESHUANGLONGHUI", "QUEYIMEN"): "one-suit hand",
    ("QIXINGBUKAO", "DANDIAOJIANG"): "13 distinct tiles always wait on three kinds",
    ("QUANBUKAO", "DANDIAOJIANG"): "13 distinct tiles always wait on three kinds",
    ("QINGLONG", "LIANLIU"): "套算一次: the straight's chows combine once, as 清龙",
    ("QINGLONG", "LAOSHAOFU"): "套算一次",
    ("SANSESANTONGSHUN", "XIXIANGFENG"): "套算一次",
    ("SANTONGKE", "SHUANGTONGKE"): "套算一次",
    ("YISESANTONGSHUN", "YIBANGAO"): "套算一次",
    ("YISESIBUGAO", "YISESANBUGAO"): "套算一次: a four-chow fan stands alone",
    ("YISESITONGSHUN", "YIBANGAO"): "套算一次",
    ("YISESITONGSHUN", "YISESANTONGSHUN"): "套算一次",
    ("YISESIJIEGAO", "YISESANJIEGAO"): "套算一次",
    ("YISESANJIEGAO", "YISESANTONGSHUN"): "the same tiles read as pungs or as chows: two readings, one counted",
    ("YISESANTONGSHUN", "YISESANJIEGAO"): "two readings",
    ("YISESIJIEGAO", "YISESANTONGSHUN"): "two readings",
    ("YISESITONGSHUN", "YISESANJIEGAO"): "two readings",
    ("YISESITONGSHUN", "QIDUI"): "two readings (sets or seven pairs)",
    ("YISESHUANGLONGHUI", "QIDUI"): "two readings (sets or seven pairs)",
}


def test_every_exclusion_of_the_table_is_observed():
    pairs = {(f.id, g) for f in mcr.FANS for g in f.excludes}
    assert set(STRUCTURAL) <= pairs
    rules = mcr.Rules(mil_concealed_melded_kong=True, flowers=True, strict_context=False)
    options = ref.Options(mil_concealed_melded_kong=True)
    witnessed = {}
    for text in _corpus():
        hand = mc.parse(text)
        s = mcr.score(hand, rules=rules)
        raw = ref.evaluate(hand, s.decomposition, ref.context(hand, options), options, exclude=False)
        final = set(s.fan_ids)
        for f in final:
            for g in mcr.FAN_BY_ID[f].excludes:
                if g in raw:
                    assert g not in final, (text, f, g)
                    witnessed.setdefault((f, g), text)
    missing = pairs - set(witnessed) - set(STRUCTURAL)
    assert not missing, f"exclusions never exercised: {sorted(missing)}"


@pytest.mark.parametrize("hand,present,absent", [
    ("[EEE,2][SSSS,1]WWWNN55pN|EE1000", "DASIXI", "YAOJIUKE"),
    ("11123456789999m|EE1000", "JIULIANBAODENG", "QUEYIMEN"),
    ("22334556677884s", "LIANQIDUI", "QUEYIMEN"),
    ("11224455668899p|EE1000", "QINGYISE", "QUEYIMEN"),
    ("[123p,1]12355778998p|EE1000", "YISESHUANGLONGHUI", "QUEYIMEN"),
    ("14m369p25sESWNPFC|EE1000", "QIXINGBUKAO", "DANDIAOJIANG"),
    ("147m28p69sESWNPF3s|EE1000", "QUANBUKAO", "DANDIAOJIANG"),
    ("123456789m456pNN", "QINGLONG", "LIANLIU"),  # 123m-456m
    ("123456789m456pNN", "QINGLONG", "LAOSHAOFU"),  # 123m-789m
    ("123123m123p12sSS3s", "SANSESANTONGSHUN", "XIXIANGFENG"),
    ("[111m,2]111999p11991s|EE1000", "SANTONGKE", "SHUANGTONGKE"),
    ("[456s,1][456s,1]456s77mCCC", "YISESANTONGSHUN", "YIBANGAO"),
    ("12334556778911s", "YISESIBUGAO", "YISESANBUGAO"),
    ("[456s,1][456s,1][456s,3]45s55m6s|EE1100", "YISESITONGSHUN", "YIBANGAO"),
    ("[456s,1][456s,1][456s,3]45s55m6s|EE1100", "YISESITONGSHUN", "YISESANTONGSHUN"),
    ("[111s,3][222s,3][444s,2]333s22p", "YISESIJIEGAO", "YISESANJIEGAO"),
    ("[111s,3][222s,3][444s,2]333s22p", "YISESIJIEGAO", "YISESANTONGSHUN"),
    ("111222333s456p99m|EE1000", "YISESANJIEGAO", "YISESANTONGSHUN"),
    ("[456s,1][456s,1]456s77mCCC", "YISESANTONGSHUN", "YISESANJIEGAO"),
    ("11112222333344m|EE1000", "YISESITONGSHUN", "YISESANJIEGAO"),
    ("11112222333344m|EE1000", "YISESITONGSHUN", "QIDUI"),
    ("11223355778899p|EE1000", "YISESHUANGLONGHUI", "QIDUI"),
])
def test_structural_exclusion(hand, present, absent):
    fans = fans_of(hand)
    assert fans[present] and not fans[absent], dict(fans)


def test_structural_list_has_a_negative_case_each():
    covered = {(p, a) for _, p, a in test_structural_exclusion.pytestmark[0].args[1]}
    assert covered == set(STRUCTURAL)


# Count-type exclusions: 幺九刻 is not counted for a pung another fan already uses.

@pytest.mark.parametrize("hand,yaojiu", [
    ("[EEE,2][SSS,1][CCCC]88m456s|ES1000", 0),  # E prevalent, S seat, C dragon
    ("[EEE,2][SSS,1][CCCC]88m456s|SW1000", 1),  # E is neither: one 幺九刻
    ("[EEE,2][SSS,1]WWW78m55p9m|NN1000", 0),  # 三风刻 takes its three winds
    ("[EEE,2][SSS,1]WWW99m55p9m|NN1000", 1),  # ... but not the 999m
    ("[PPP,2][FFF,3]3335p999s4p|EE1000", 1),  # 双箭刻 takes the dragons
    ("11123456789992p", 1),  # 九莲宝灯 takes one of 111p/999p
])
def test_yaojiuke_counts(hand, yaojiu):
    assert fans_of(hand)["YAOJIUKE"] == yaojiu


def test_prevalent_equal_to_seat_wind_counts_both():
    fans = fans_of("[EEE,2][SSS,1][FFF,3]WWNNW|WW1000")
    assert fans["QUANFENGKE"] == fans["MENFENGKE"] == 1 and not fans["YAOJIUKE"]


# ---------------------------------------------------------------------------------------------
# Special forms


def test_seven_pairs_count_a_quad_twice_and_as_tile_hog():
    fans = fans_of("1122559mNNCCCC9m|EE1000")
    assert fans["QIDUI"] and fans["SIGUIYI"] == 1 and fans["HUNYISE"] and fans["ZIMO"]
    assert not fans["BUQIUREN"] and not fans["MENQIANQING"]


def test_knitted_straight_with_a_meld_and_a_pair():
    s = mcr.score("[678s,3]147m369s25pSS8p")
    assert s.decomposition.form == mc.Forms.KNITTED_STRAIGHT
    assert s.decomposition.sets[0].meld == 0 and s.decomposition.pair == mc.Tile.SOUTH
    assert Counter(s.fan_ids) == Counter({"ZUHELONG": 1}) and s.meets_minimum


def test_honors_and_knitted_with_a_full_knitted_straight():
    assert fans_of("369m147p25sSWNPF8s") == Counter({"QUANBUKAO": 1, "ZUHELONG": 1})


# PyMahjongGB's readings of 1112345678999m won (self-drawn) on each tile (black-box facts).
NINE_GATES = {
    "1": {"QINGLONG": 1, "SIGUIYI": 1},
    "2": {"SHUANGANKE": 1, "LIANLIU": 1, "YAOJIUKE": 1},
    "3": {"LIANLIU": 1},
    "4": {"LIANLIU": 1},
    "5": {"SHUANGANKE": 1, "YAOJIUKE": 1},
    "6": {"LIANLIU": 1},
    "7": {"LIANLIU": 1},
    "8": {"SHUANGANKE": 1, "LIANLIU": 1, "YAOJIUKE": 1},
    "9": {"QINGLONG": 1, "SIGUIYI": 1},
}


@pytest.mark.parametrize("win", sorted(NINE_GATES))
def test_nine_gates_extras_depend_on_the_winning_tile(win):
    fans = fans_of(f"1112345678999m{win}m|EE1000")
    assert fans == Counter({"JIULIANBAODENG": 1, "ZIMO": 1, **NINE_GATES[win]})


def test_nine_gates_needs_the_thirteen_tiles_before_the_win():
    # 11123456789999m won on the 1m: the 13 tiles before were 1123456789999 - not nine gates.
    assert not fans_of("1123456789999m1m|EE1000")["JIULIANBAODENG"]


# ---------------------------------------------------------------------------------------------
# Waits


def test_edge_closed_single_only_on_a_unique_wait():
    assert fans_of("[123m,1][345m,1]678p56sWW7s")["KANZHANG"] == 0  # 56s waits on 4s and 7s
    assert fans_of("[123p,1]12355778998p|EE1000")["KANZHANG"] == 1
    # 77789m with 11p: 7m or 1p wins, so no 边张 although 7m completes 789m.
    assert not fans_of("[NNN,3]77789m11888p7m|EE0000").keys() & {"BIANZHANG", "KANZHANG", "DANDIAOJIANG"}


def test_phantom_waits_count_key():
    # 1111m + 23m: 4m is a real wait, 1m a phantom (all four held); with the phantom the wait is not unique.
    hand = "1111234m456p789s4m"
    assert not fans_of(hand).keys() & {"BIANZHANG", "KANZHANG", "DANDIAOJIANG"}
    assert fans_of(hand, mcr.Rules(phantom_waits_count=False)).keys() & {"BIANZHANG", "KANZHANG", "DANDIAOJIANG"}


def test_knitted_straight_wait_key():
    hand = "258m23469p14788s3p"
    assert fans_of(hand)["KANZHANG"] == 1
    assert fans_of(hand, mcr.Rules(knitted_straight_wait_counts=False))["KANZHANG"] == 0


def test_melded_hand_excludes_single_wait():
    fans = fans_of("[234m,1][345p,1][234s,1][CCCC,2]11m")
    assert fans["QUANQIUREN"] and not fans["DANDIAOJIANG"]


# ---------------------------------------------------------------------------------------------
# Situational fans


@pytest.mark.parametrize("suffix,present,absent", [
    ("|EE1000", {"ZIMO"}, {"MIAOSHOUHUICHUN"}),
    ("|EE1010", {"MIAOSHOUHUICHUN"}, {"ZIMO"}),
    ("|EE0010", {"HAIDILAOYUE"}, {"ZIMO"}),
    ("|EE0100", {"HUJUEZHANG"}, set()),
])
def test_situational(suffix, present, absent):
    fans = fans_of("[123m,1][345m,1]567m34sCC5s" + suffix)
    assert present <= fans.keys() and not absent & fans.keys()


def test_kong_flags():
    assert fans_of("[1111m][111p,3]999p11999s|EE1001").keys() >= {"GANGSHANGKAIHUA"}
    fans = fans_of("111999p11999s798p|EE0101")
    assert fans["QIANGGANGHU"] and not fans["HUJUEZHANG"]  # 抢杠和 drops 和绝张


def test_last_copy_without_the_flag_when_three_copies_are_in_own_melds():
    fans = fans_of("[123m,1][123m,1][123m,1]12m99s3m")
    assert fans["HUJUEZHANG"] == 1


@pytest.mark.parametrize("hand,message", [
    ("123m456p789s11s99m9m|EE0001", "抢杠和"),
    ("123m456p789s11s99m9m|EE1001", "杠上开花"),
    ("123m456p789s11s99m9m|EE0100", "和绝张"),
])
def test_contradictory_flags_raise_under_strict_context_and_drop_otherwise(hand, message):
    with pytest.raises(mc.InvalidHandError, match=message):
        mcr.score(hand)
    lenient = fans_of(hand, mcr.Rules(strict_context=False))
    assert not lenient.keys() & {"QIANGGANGHU", "GANGSHANGKAIHUA", "HUJUEZHANG"}


def test_chicken_hand_and_flowers():
    s = mcr.score("[123m,1][345m,1]678p56sWW7s|EE0000|2", rules=WITH_FLOWERS)
    assert Counter(s.fan_ids) == Counter({"WUFANHU": 1, "HUAPAI": 2})
    assert s.total == 10 and s.base_total == 8 and s.flowers == 2
    # 自摸 is a fan, so a self-drawn plain hand is not a chicken hand.
    assert not fans_of("[123m,1][345m,1]678p56sWW7s|EE1000")["WUFANHU"]


def test_robbing_a_kong_contradicts_the_last_discard():
    # 抢杠和 (flag 4) with 海底捞月 (flag 3, not self-drawn): a robbed kong tile is no discard, and no
    # kong is made once the wall is empty.
    hand = "123m456p789s99m12s3s|EE0011"
    with pytest.raises(mc.InvalidHandError, match="海底捞月"):
        mcr.score(hand)
    # Lenient (the botzone preset): PyMahjongGB 1.4.0 counts both, and so do we.
    lenient = fans_of(hand, mcr.Rules(strict_context=False))
    assert lenient["QIANGGANGHU"] == 1 and lenient["HAIDILAOYUE"] == 1
    # Each flag alone is fine.
    assert "QIANGGANGHU" in mcr.score("123m456p789s99m12s3s|EE0001").fan_ids
    assert "HAIDILAOYUE" in mcr.score("123m456p789s99m12s3s|EE0010").fan_ids
