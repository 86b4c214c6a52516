"""Sichuan fan evaluation (RULES.md §2): every row of the fan table, the extras, and bad input.

Hands are written in the standard notation; the last concealed tile is the winning tile. Expected
values are worked out by hand from the table: points = 6 × 2^(番−1).
"""

from __future__ import annotations

import dataclasses

import pytest

import mahjong_core as mc
from mahjong_core.rules import sichuan
from mahjong_core.errors import RulesError
from mahjong_core.rules.sichuan import Rules


def fan_of(hand, **kwargs):
    result = sichuan.score(hand, **kwargs)
    assert result is not None, f"{hand} should win"
    return result


def items(hand, **kwargs):
    return dict(fan_of(hand, **kwargs).items)


# ---------------------------------------------------------------------------------------------
# Base patterns: one row each, positive and negative.

def test_basic_win_seed_example():
    s = fan_of("23445677p345789s")  # seed: 平胡 23445677筒345789条
    assert s.items == (("平胡", 1),)
    assert (s.fan, s.multiplier, s.points) == (1, 1, 6)
    assert s.pattern.name_zh == "平胡" and s.items[0].name_en == "Basic win"


def test_incomplete_hand_is_not_a_win():
    assert sichuan.score("23445677p345788s") is None


def test_all_pungs():
    assert items("111222444m33399p") == {"对对胡": 2}  # seed: 111222444万33399筒


def test_all_pungs_needs_every_set_a_pung():
    assert items("111222345m44499p") == {"平胡": 1}


def test_melded_pungs_count_for_all_pungs():
    assert items("[333p,1][444m,2]111m22299p") == {"对对胡": 2}


def test_pure_one_suit():
    assert items("11333222456999s") == {"清一色": 3}  # seed: 11333222456999条


def test_two_suits_is_not_pure():
    assert items("11333222456s999p") == {"平胡": 1}


def test_outside_hand_found_in_another_decomposition():
    # 111 222 333 reads as pungs (222, 333 hold no 1/9) and as 123 123 123 (each holds a 1): seed example.
    s = fan_of("111222333m78999p")
    assert dict(s.items) == {"带幺九": 3}
    assert [b.kind for b in s.decomposition.sets[:3]] == [mc.BlockKind.CHOW] * 3


def test_outside_hand_needs_every_set():
    assert items("123m789m123p456p99p") == {"平胡": 1}


def test_outside_hand_needs_the_pair():
    assert items("123m789m123p789p55p") == {"平胡": 1}
    assert items("123m789m123p789p99p") == {"带幺九": 3}


def test_outside_hand_with_melded_terminal_pung():
    assert items("[111p,1][999m,3]123m789p99p") == {"带幺九": 3}


def test_seven_pairs():
    assert items("2244668899m1133p") == {"七对": 3}


def test_seven_pairs_needs_seven_pairs():
    assert sichuan.score("2244668899m1134p") is None


def test_seed_seven_pairs_example_has_a_quad():
    # The seed's 七对 example 2244552299万1199筒 holds 2222万: by the table that is 龙七对 (5), one 根 used.
    assert items("2244552299m1199p") == {"龙七对": 5}


def test_pure_all_pungs():
    assert items("111222444m33399m") == {"清对": 4}


def test_pure_suit_without_pungs_is_not_pure_pungs():
    assert items("11122233345699m") == {"清一色": 3}


def test_all_pungs_of_258():
    assert items("222555888s88855m") == {"将对": 4}  # seed: 222555888条88855万


def test_258_only_counts_with_all_pungs():
    assert items("222555888s88866m") == {"对对胡": 2}  # a 6: plain 对对胡
    assert items("222555888s88822m") == {"将对": 4}
    # only 2/5/8 tiles but not all pungs (seven pairs): 七对, never 将对
    assert items("2255882255m8855p") == {"龙七对": 5, "根": 1}  # two quads: one used by 龙七对


def test_258_pair_must_be_258_too():
    assert items("222555888s88899m") == {"对对胡": 2}


def test_dragon_seven_pairs_uses_one_root():
    # seed: 11222244筒557799万: one quad (2222p) -> 龙七对 5, its 根 used up.
    s = fan_of("11222244p557799m")
    assert s.items == (("龙七对", 5),)
    assert s.points == 96


def test_dragon_seven_pairs_with_two_quads_keeps_one_root():
    assert items("1111m2222p335577m") == {"龙七对": 5, "根": 1}


def test_pure_seven_pairs():
    assert items("11334466778899s") == {"清七对": 5}  # seed: 11334466778899条


def test_pure_outside():
    assert items("11123777888999p") == {"清幺九": 5}  # seed: 11123777888999筒


def test_pure_suit_without_terminals_everywhere_is_not_pure_outside():
    assert items("11123777888456p") == {"清一色": 3}


def test_pure_dragon_seven_pairs():
    s = fan_of("11224444557799m")  # seed: 11224444557799万, one 根 used
    assert s.items == (("青龙七对", 6),)
    assert s.points == 192


def test_pure_dragon_with_two_quads():
    assert items("11112222m334455m") == {"青龙七对": 6, "根": 1}


def test_heavenly_hand():
    s = fan_of("11122233m456p789p", first_draw=True, dealer=True, self_drawn=True)
    assert s.items == (("天胡", 6),)


def test_earthly_hand():
    assert items("11122233m456p789p", first_draw=True, self_drawn=True) == {"地胡": 6}


def test_first_draw_replaces_smaller_pattern_and_keeps_roots():
    # 青龙七对 would be 6 + (2 − 1) 根; 天胡 keeps both 根: 6 + 2.
    assert items("11112222m334455m", first_draw=True, dealer=True, self_drawn=True) == {"天胡": 6, "根": 2}


def test_no_heavenly_hand_without_first_draw():
    assert items("11122233m456p789p", dealer=True, self_drawn=True) == {"平胡": 1}


@pytest.mark.parametrize("flags", [dict(first_draw=True), dict(first_draw=True, dealer=True),
                                   dict(first_draw=True, self_drawn=True, kong_replacement=True)])
def test_first_draw_needs_a_plain_self_draw(flags):
    with pytest.raises(mc.InvalidHandError, match="first_draw"):
        sichuan.score("[5555p]111222333m99p", **flags)


def test_first_draw_hand_has_no_melds():
    with pytest.raises(mc.InvalidHandError, match="no melds"):
        sichuan.score("[555p,1]111222333m99p", first_draw=True, self_drawn=True)


# ---------------------------------------------------------------------------------------------
# Extras

def test_kong_bloom():
    s = fan_of("[5555p,1]11123m789m999p", self_drawn=True, kong_replacement=True)
    assert s.items == (("平胡", 1), ("杠上花", 1))
    assert s.fan == 2 and s.points == 12


def test_kong_bloom_needs_a_kong_and_a_self_draw():
    with pytest.raises(mc.InvalidHandError, match="杠上花"):
        sichuan.score("11123m789m999p456p", self_drawn=True, kong_replacement=True)
    with pytest.raises(mc.InvalidHandError, match="self_drawn"):
        sichuan.score("[5555p,1]11123m789m999p", kong_replacement=True)


def test_kong_discard():
    assert items("11123m789m999p456p", after_kong_discard=True) == {"平胡": 1, "杠上炮": 1}


@pytest.mark.parametrize("flags", [dict(after_kong_discard=True, self_drawn=True),
                                   dict(robbed_kong=True, self_drawn=True),
                                   dict(robbed_kong=True, after_kong_discard=True)])
def test_impossible_flag_combinations(flags):
    with pytest.raises(mc.InvalidHandError):
        sichuan.score("11123m789m999p456p", **flags)


def test_robbed_kong_has_no_fan_of_its_own():
    s = fan_of("11123m789m999p456p", robbed_kong=True)
    assert s.items == (("平胡", 1),) and s.robbed_kong and not s.self_drawn


def test_root_from_four_concealed():
    assert items("11112233m456789p") == {"平胡": 1, "根": 1}


def test_root_from_melded_pung_and_fourth_tile():
    assert items("[111m,1]123m456p789p55p") == {"平胡": 1, "根": 1}


@pytest.mark.parametrize("kong", ["[1111m,1]", "[1111m]", "[1111m,5]"])
def test_kongs_are_not_roots_by_default(kong):
    hand = kong + "234m456p789p55p"
    assert items(hand) == {"平胡": 1}
    assert items(hand, rules=Rules(gen_counts_kongs=True)) == {"平胡": 1, "根": 1}


def test_roots_add_up():
    # 1111 2222 333m 999p: every reading (e.g. 11 + 123 + 123 + 22? no: 111 + 123 + 222? ...) holds both quads.
    s = fan_of("11112222333m999p")
    assert dict(s.items)["根"] == 2


def test_all_extras_together():
    s = fan_of("[5555p,1]11112233m999p", self_drawn=True, kong_replacement=True)
    assert dict(s.items) == {"平胡": 1, "杠上花": 1, "根": 1}
    assert s.fan == 3 and s.points == 24


# ---------------------------------------------------------------------------------------------
# Void suit, three suits, malformed input

def test_three_suits_never_win():
    assert sichuan.score("123m456p789s11m456m") is None


def test_void_suit_tile_blocks_the_win():
    assert sichuan.score("111222444m33399p", void_suit="p") is None
    assert sichuan.score("111222444m33399p", void_suit="s") is not None


def test_void_suit_in_a_meld_blocks_the_win():
    assert sichuan.score("[555s,1]111222444m33m", void_suit="s") is None


@pytest.mark.parametrize("hand, error", [
    ("[123m,1]111222m44499p", mc.InvalidHandError),   # chow meld
    ("111222333m444pEE", mc.InvalidHandError),         # honours
    ("111222444m33399p|EE1000", mc.InvalidHandError),  # MCR context suffix
    ("111222444m3339p", mc.InvalidHandError),          # 13 tiles: not a complete hand
    ("111222444m3x399p", mc.ParseError),
    ("11111222444m339p", mc.InvalidHandError),         # five copies
])
def test_malformed_hands(hand, error):
    with pytest.raises(error):
        sichuan.score(hand)


def test_chow_meld_message_says_why():
    with pytest.raises(mc.InvalidHandError, match="no chow"):
        sichuan.score("[123m,1]111222m44499p")


@pytest.mark.parametrize("void", ["z", "M", 0, "mp"])
def test_bad_void_suit(void):
    with pytest.raises(mc.InvalidHandError, match="void_suit"):
        sichuan.score("111222444m33399p", void_suit=void)


def test_win_tile_must_be_held():
    with pytest.raises(mc.InvalidHandError):
        sichuan.score("111222444m33399p", win_tile=mc.Tile.S5)
    with pytest.raises(mc.InvalidHandError):
        sichuan.score("111222444m33399p", win_tile=99)


def test_flags_must_be_bools():
    with pytest.raises(TypeError):
        sichuan.score("111222444m33399p", self_drawn="yes")


def test_rules_take_a_rules_a_preset_name_or_overrides():
    # One contract across rulesets: a Rules, a preset name, or a dict of key overrides.
    by_name = sichuan.score("111222444m33399p", rules="qq")
    assert by_name == sichuan.score("111222444m33399p", rules=sichuan.Rules())
    assert sichuan.score("111222444m33399p", rules={"base": 2}).points == 4  # 对对胡: 2 × 2^1
    from mahjong_core.rules import changbai
    with pytest.raises(RulesError):
        sichuan.score("111222444m33399p", rules=changbai.Rules())
    with pytest.raises(RulesError, match="preset"):
        sichuan.score("111222444m33399p", rules="no-such-preset")


def test_malformed_input_errors_are_value_errors():
    for bad in ("[123m,1]111222m44499p", "xyz"):
        with pytest.raises(ValueError):
            sichuan.score(bad)


def test_is_winning_is_the_cheap_win_test():
    assert sichuan.is_winning("111222444m33399p") is True
    assert sichuan.is_winning("111222444m33399p", void_suit="p") is False
    assert sichuan.is_winning("123m456p789s11m456m") is False
    assert sichuan.is_winning("23445677p345788s") is False
    with pytest.raises(mc.InvalidHandError):
        sichuan.is_winning("111222444m3339p")


# ---------------------------------------------------------------------------------------------
# Input forms and the win tile

def test_accepts_hand_counts_and_bytes():
    hand = mc.parse("111222444m33399p")
    expected = sichuan.score(hand).items
    assert sichuan.score(hand.counts).items == expected
    assert sichuan.score(hand.counts_bytes()).items == expected
    assert sichuan.score(list(hand.counts)).items == expected


def test_win_tile_from_notation_and_override():
    assert sichuan.score("111222444m33399p").win_tile == mc.Tile.P9
    assert sichuan.score("111222444m33399p", win_tile=mc.Tile.M4).win_tile == mc.Tile.M4
    assert sichuan.score("111222444m33399p", win_tile="3p").win_tile == mc.Tile.P3
    assert sichuan.score(mc.parse("111222444m33399p").counts).win_tile is None


def test_not_a_hand_at_all():
    with pytest.raises(mc.InvalidHandError, match="a hand is"):
        sichuan.score(12345)


def test_counts_with_melds_are_a_hand_too():
    # The shared hand contract: notation, a Hand, or 34 counts + melds.
    hand = mc.parse("[555p,1]11223344m999p")
    assert sichuan.score(hand.counts, melds=hand.melds) == sichuan.score(hand.replace(win_tile=None))


# ---------------------------------------------------------------------------------------------
# Points, payments, caps

def test_seed_example_self_drawn_all_pungs_costs_18():
    s = fan_of("111222444m33399p", self_drawn=True)
    assert (s.fan, s.points, s.payment) == (2, 12, 18)


def test_self_draw_bonus_variants():
    hand = "111222444m33399p"
    assert fan_of(hand, self_drawn=True, rules=Rules(zimo_bonus="add_fan")).payment == 24
    assert fan_of(hand, self_drawn=True, rules=Rules(zimo_bonus=None)).payment == 12
    assert fan_of(hand, rules=Rules(zimo_bonus="add_fan")).payment == 12  # no bonus on a discard win


def test_self_draw_bonus_does_not_change_fan_or_points():
    s = fan_of("111222444m33399p", self_drawn=True, rules=Rules(zimo_bonus="add_fan"))
    assert (s.fan, s.points) == (2, 12)


def test_base_scales_everything():
    s = fan_of("111222444m33399p", self_drawn=True, rules=Rules(base=10))
    assert (s.points, s.payment) == (20, 30)


def test_max_fan_caps_the_total():
    s = fan_of("11112222m334455m", rules=Rules(max_fan=4))
    assert (s.fan, s.uncapped_fan, s.multiplier, s.points, s.capped) == (4, 7, 8, 48, True)
    assert sum(i.fan for i in s.items) == 7  # the items still say what the hand holds


def test_max_fan_caps_the_add_fan_bonus():
    rules = Rules(max_fan=2, zimo_bonus="add_fan")
    assert fan_of("111222444m33399p", self_drawn=True, rules=rules).payment == 12  # 2 + 1 capped at 2
    rules = Rules(max_fan=3, zimo_bonus="add_fan")
    assert fan_of("111222444m33399p", self_drawn=True, rules=rules).payment == 24


def test_uncapped_score_is_not_capped():
    s = fan_of("111222444m33399p")
    assert not s.capped and s.uncapped_fan == s.fan


# ---------------------------------------------------------------------------------------------
# 查大叫: best_ready_value and score_waits

def test_best_ready_value_takes_the_best_wait():
    best = sichuan.best_ready_value("1122334455667s")  # waits 1s, 4s (清一色 3) and 7s (清七对 5)
    assert best.win_tile == mc.Tile.S7 and best.points == 96 and dict(best.items) == {"清七对": 5}


def test_score_waits_lists_each_wait():
    values = sichuan.score_waits("1122334455667s")
    assert {str(t): v.fan for t, v in values.items()} == {"1s": 3, "4s": 3, "7s": 5}


def test_best_ready_value_ties_go_to_the_lower_tile():
    best = sichuan.best_ready_value("[7777p,3]11122233m99p")  # 3m and 9p both 对对胡 (the kong is no 根)
    assert best.win_tile == mc.Tile.M3 and best.points == 12


def test_best_ready_value_counts_roots_not_self_draw_or_kong_extras():
    best = sichuan.best_ready_value("1111m234567899m")
    assert dict(best.items) == {"清一色": 3, "根": 1}
    assert best.payment == best.points == 48 and not best.self_drawn


def test_best_ready_value_respects_max_fan():
    assert sichuan.best_ready_value("1122334455667s", rules=Rules(max_fan=3)).points == 24


def test_not_ready_hand_has_no_value():
    assert sichuan.best_ready_value("[5555p]13579m24689p") is None


def test_waits_that_would_break_the_void_do_not_count():
    assert sichuan.best_ready_value("1112223334m999p", void_suit="p") is None
    assert sichuan.best_ready_value("1112223334m999p", void_suit="s").points == 12


def test_flower_pig_is_never_ready():
    assert sichuan.best_ready_value("123m456p789s1122m") is None
    assert all(v is None for v in sichuan.score_waits("123m456p789s1122m").values())


def test_a_wait_on_a_tile_all_held_does_not_count():
    # The only wait is 7m, and all four 7m are in the player's own kong.
    assert mc.waits("[7777m]89m456p789p99p", mc.Forms.SICHUAN) == (mc.Tile.M7,)
    assert sichuan.score_waits("[7777m]89m456p789p99p") == {}
    assert sichuan.best_ready_value("[7777m]89m456p789p99p") is None


def test_best_ready_value_needs_a_waiting_hand():
    with pytest.raises(mc.InvalidHandError, match="waiting hand"):
        sichuan.best_ready_value("111222444m33399p")


# ---------------------------------------------------------------------------------------------
# 花猪

@pytest.mark.parametrize("hand, pig", [
    ("123m456p789s1122m", True),
    ("123m456p1122m789p", False),
    ("[555s,1]123m456m78m99m", False),
    ("[555s,1]123m456p78m99m", True),   # a meld counts
])
def test_flower_pig(hand, pig):
    assert sichuan.is_flower_pig(hand) is pig


def test_flower_pig_from_tiles_and_counts():
    assert sichuan.is_flower_pig([mc.Tile.M1, mc.Tile.P2, mc.Tile.S3]) is True
    assert sichuan.is_flower_pig(["1m", "2p"]) is False
    assert sichuan.is_flower_pig(mc.parse("123m456p789s1122m").counts) is True
    with pytest.raises(mc.InvalidHandError):
        sichuan.is_flower_pig(["1m", "E"])


# ---------------------------------------------------------------------------------------------
# The result object

def test_score_is_frozen_and_printable():
    s = fan_of("[5555p,1]11112233m999p", self_drawn=True, kong_replacement=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.fan = 9  # type: ignore[misc]
    assert repr(s) == "SichuanScore(平胡 1 + 杠上花 1 + 根 1 = 3 番, x4, 24 points)"
    text = str(s)
    for line in ("平胡", "Basic win", "杠上花", "根", "total 3 番", "24 points", "each player still in the hand pays 30"):
        assert line in text
    assert s.to_dict()["items"][1] == {"name_zh": "杠上花", "name_en": "Win on a kong replacement tile", "fan": 1}


def test_every_fan_name_has_an_english_name():
    for pattern in sichuan.PATTERNS + sichuan.EXTRAS:
        assert sichuan.ENGLISH_NAMES[pattern.name_zh] == pattern.name_en
    assert [p.fan for p in sichuan.PATTERNS] == sorted((p.fan for p in sichuan.PATTERNS), reverse=True)
