"""Changbai scoring: every pattern with positive and negative cases, 明/暗, the best reading,
the loser side, and malformed input. Each expected table is worked out by hand from RULES.md §3."""

import dataclasses

import pytest

from mahjong_core import Hand, InvalidHandError, ParseError, Tile, parse
from mahjong_core.rules.changbai import (
    CATALOGUE,
    ChangbaiScore,
    Rules,
    loser_doublings,
    loser_patterns_of,
    refusal,
    score,
)


def items(hand, **kw):
    result = score(hand, **kw)
    assert result is not None, refusal(hand, win_tile=kw.get("win_tile"))
    assert result.doublings == sum(d for _, d in result.items)
    return result.items


def keys(hand, **kw):
    return {p.key for p in score(hand, **kw).patterns}


# ---------------------------------------------------------------------------------------------
# 夹胡: 坎张, 边张, 单吊 — from the winning tile's block; 单吊幺九 on top


def test_closed_wait():
    assert items("123m456p789s13sEE2s") == (("夹胡(坎张)", 1), ("门清", 1))


def test_edge_wait_on_3_and_on_7():
    assert items("123m456p789s12sEE3s") == (("夹胡(边张)", 1), ("门清", 1))
    assert items("123m456p789m89sEE7s") == (("夹胡(边张)", 1), ("门清", 1))


def test_single_wait_and_single_wait_on_terminal_or_honour():
    assert items("123m456p789s123s5m5m") == (("夹胡(单吊)", 1), ("门清", 1))
    assert items("123m456p789s123sEE") == (("夹胡(单吊)", 1), ("门清", 1), ("单吊幺九", 1))
    assert items("123m456p789s123s9m9m") == (("夹胡(单吊)", 1), ("门清", 1), ("单吊幺九", 1))


def test_no_wait_doubling_for_a_pung_or_a_two_sided_placement():
    # 11222233m567p99s: 2m is a phantom wait, 9s completes the pung 999s — no 夹胡.
    assert items("11222233m567p99s9s") == (("一般高(暗)", 1), ("四归一(暗)", 1), ("门清", 1))
    # A two-sided wait (only scorable when ready is not required): 23s + 1s is not 边张.
    loose = Rules(ready_required=False)
    assert score("123m456p789s23sEE1s", rules=loose).items == (("门清", 1),)


def test_best_placement_of_the_winning_tile():
    # 1222233455m EEE + 5m: 5m completes 345m (two-sided, 0) or the pair 55m (单吊, 1): best is 单吊.
    assert items("1222233455mEEE5m") == (("夹胡(单吊)", 1), ("混一色", 1), ("四归一(暗)", 1), ("门清", 1))


def test_win_tile_argument_overrides_the_notation():
    # The same 14 tiles won on 3s instead of E: 12s waits on 3s (边张) and EE is the pair.
    assert score("123m456p789s123sEE", win_tile="3s").items == (("夹胡(边张)", 1), ("门清", 1))
    assert score("123m456p789s123sEE", win_tile=Tile.S3).win_tile == Tile.S3


# ---------------------------------------------------------------------------------------------
# Special forms


def test_seven_pairs_is_two_doublings_without_concealed_hand():
    assert items("1122m3344p5566s7z7z") == (("七对", 2),)


def test_seven_pairs_with_a_suited_quad_is_also_a_tile_hog():
    assert items("1111m3344p5566sEE") == (("七对", 2), ("四归一(暗)", 1))
    assert items("EEEE1199m1199p5s5s") == (("七对", 2),)  # an honour quad is no 四归一


def test_seven_pairs_needs_a_terminal_or_honour():
    assert score("2233m4455p6677s8s8s") is None
    assert "not a winning hand" in refusal("2233m4455p6677s8s8s")
    assert items("2233m4455p6677s9s9s") == (("七对", 2),)  # the terminal is the winning tile
    assert score("2233m4455p6677s8s8s", rules=Rules(seven_pairs_need_terminal=False)).items == (("七对", 2),)


def test_standard_reading_beats_seven_pairs_when_worth_more():
    result = score("1122334455669m9m")
    assert result.items == (
        ("夹胡(单吊)", 1), ("一般高(暗)", 2), ("清一色", 2), ("门清", 1), ("单吊幺九", 1),
    )
    assert result.doublings == 7  # seven pairs would be 七对 2 + 清一色 2 = 4


def test_thirteen_orphans_multiplies_by_13():
    result = score("19m19p19s12345667z", self_drawn=True)
    assert result.items == (("十三幺", 0),)
    assert (result.doublings, result.multiplier, result.value) == (0, 13, 13)
    after_kong = score("19m19p19s12345667z", after_kong_discard=True)
    assert after_kong.items == (("十三幺", 0), ("杠后炮", 2))
    assert (after_kong.doublings, after_kong.multiplier, after_kong.value) == (2, 13, 52)


def test_thirteen_sided_thirteen_orphans_is_refused():
    assert score("19m19p19s1234567z7z") is None
    assert "13 kinds" in refusal("19m19p19s1234567z7z")


def test_thirteen_orphans_rule_key():
    assert score("19m19p19s12345667z", rules=Rules(thirteen_orphans=False)) is None


# ---------------------------------------------------------------------------------------------
# Identical chows: 一般高 / 两般高, 明 or 暗


def test_double_chow_concealed():
    assert items("123m123m456p789s5s5s") == (("夹胡(单吊)", 1), ("一般高(暗)", 1), ("门清", 1))


def test_double_chow_one_melded_is_still_concealed():
    assert items("[123m,1]123m456p789s5s5s") == (("夹胡(单吊)", 1), ("一般高(暗)", 1))


def test_double_chow_both_melded_is_melded():
    assert items("[123m,1][123m,3]456p789s5s5s") == (("夹胡(单吊)", 1), ("一般高(明)", 1))


def test_same_numbers_in_two_suits_is_no_double_chow():
    assert items("[123m,1]123p456p789s5s5s") == (("夹胡(单吊)", 1),)


def test_two_double_chows_count_each():
    assert dict(items("1122334455669m9m"))["一般高(暗)"] == 2


def test_triple_chow_concealed_replaces_double_chow():
    # 111222333m reads as three pungs or three 123m chows: the chows score 两般高.
    assert items("111222333m789s5s5s") == (("夹胡(单吊)", 1), ("两般高(暗)", 2), ("门清", 1))
    assert items("[123m,1][123m,2]123m789s5s5s") == (("夹胡(单吊)", 1), ("两般高(暗)", 2))


def test_triple_chow_melded():
    assert items("[123m,1][123m,2][123m,3]789s5s5s") == (("夹胡(单吊)", 1), ("两般高(明)", 2))


def test_four_identical_chows_are_one_triple_chow():
    result = score("[123m,1][123m,2][123m,3][123m,1]5s5s")
    assert dict(result.items)["两般高(明)"] == 2
    assert "一般高(明)" not in dict(result.items)


# ---------------------------------------------------------------------------------------------
# Flushes, all pungs


def test_full_flush_one_suit():
    assert "full_flush" in keys("123m456m789m13m55m2m")
    assert dict(items("123m456m789m13m55m2m"))["清一色"] == 2


def test_full_flush_honours_only():
    assert items("EEESSSWWWCCCNN") == (
        ("夹胡(单吊)", 1), ("清一色", 2), ("飘胡", 1), ("门清", 1), ("单吊幺九", 1),
    )


def test_half_flush():
    assert items("123m456m789mEEENN") == (("夹胡(单吊)", 1), ("混一色", 1), ("门清", 1), ("单吊幺九", 1))


def test_no_flush_with_two_suits():
    assert not {"full_flush", "half_flush"} & keys("123m456p789s123sEE")


def test_flush_counts_the_melds():
    # All concealed tiles are m, but the meld is p: no flush.
    assert not {"full_flush", "half_flush"} & keys("[123p,1]123m456m789m5m5m")


def test_all_pungs():
    assert items("[555p,1][666s,2]777mEEENN") == (("夹胡(单吊)", 1), ("飘胡", 1), ("单吊幺九", 1))


def test_all_pungs_broken_by_one_chow():
    assert "all_pungs" not in keys("[555p,1][678s,1]777mEEENN")


# ---------------------------------------------------------------------------------------------
# 手把一, 四归一, 门清


def test_melded_hand():
    assert items("[123m,1][555p,1][666s,2][789s,1]EE") == (("夹胡(单吊)", 1), ("手把一", 1), ("单吊幺九", 1))


@pytest.mark.parametrize("kong", ["[5555p,1]", "[5555p,5]"])
def test_melded_hand_with_a_melded_or_promoted_kong(kong):
    assert "melded_hand" in keys(f"[123m,1]{kong}[666s,2][789s,1]EE")


def test_melded_hand_is_broken_by_a_concealed_kong():
    assert items("[123m,1][5555p][666s,2][789s,1]EE") == (("夹胡(单吊)", 1), ("单吊幺九", 1))


def test_melded_hand_needs_four_melds():
    assert "melded_hand" not in keys("[123m,1][555p,1][666s,2]789sEE")


def test_tile_hog_concealed():
    assert items("111123m456p789sEE") == (("夹胡(单吊)", 1), ("四归一(暗)", 1), ("门清", 1), ("单吊幺九", 1))


def test_tile_hog_melded_when_all_four_are_in_exposed_melds():
    assert items("[555p,1][456p,1]111m999sEE") == (("夹胡(单吊)", 1), ("四归一(明)", 1), ("单吊幺九", 1))


def test_tile_hog_with_three_visible_is_concealed():
    assert dict(items("[555p,1]456p111m999sEE")) == {"夹胡(单吊)": 1, "四归一(暗)": 1, "单吊幺九": 1}


def test_tile_hog_completed_by_the_winning_tile_is_concealed():
    assert items("[555p,1]123m789s46pEE5p") == (("夹胡(坎张)", 1), ("四归一(暗)", 1))


def test_a_kong_is_no_tile_hog():
    assert not {"tile_hog", "tile_hog_melded"} & keys("[5555p,1]123m789s456sEE")


def test_each_tile_hog_counts():
    assert dict(items("111123m999978sEE"))["四归一(暗)"] == 2


def test_concealed_hand_allows_concealed_kongs():
    assert items("[EEEE]123m456p789s5s5s") == (("夹胡(单吊)", 1), ("门清", 1))


def test_concealed_hand_is_broken_by_any_exposed_meld():
    assert "concealed_hand" not in keys("[123m,1]456p789s123s5m5m")
    assert "concealed_hand" not in keys("[5555p,1]123m789s456sEE")


def test_concealed_hand_on_a_discard_completing_a_pung():
    assert "concealed_hand" in keys("11222233m567p99s9s")


# ---------------------------------------------------------------------------------------------
# Kong-related wins, 抢杠胡, 报听


def test_win_on_kong_replacement():
    assert items("[EEEE]123m456p789s5s5s", self_drawn=True, kong_replacement=True) == (
        ("夹胡(单吊)", 1), ("门清", 1), ("杠上花", 2),
    )


def test_win_on_kong_replacement_needs_a_kong():
    with pytest.raises(InvalidHandError, match="has none"):
        score("123m456p789s123sEE", self_drawn=True, kong_replacement=True)


def test_win_on_the_discard_after_a_kong():
    assert items("123m456p789s123sEE", after_kong_discard=True)[-1] == ("杠后炮", 2)


def test_self_drawn_and_robbed_kong_add_no_doubling():
    plain = score("123m456p789s123sEE").doublings
    assert score("123m456p789s123sEE", self_drawn=True).doublings == plain
    robbed = score("123m456p789s123sEE", robbed_kong=True)
    assert robbed.doublings == plain and robbed.context.robbed_kong


def test_a_win_without_declaring_ready_is_none():
    assert score("123m456p789s123sEE", declared_ready=False) is None
    assert "报听" in refusal("123m456p789s123sEE", declared_ready=False)
    assert score("123m456p789s123sEE", declared_ready=False, rules=Rules(ready_required=False)) is not None


def test_a_hand_that_waited_on_two_kinds_cannot_have_declared():
    assert score("123m456p789s23sEE1s") is None
    assert "2 kinds" in refusal("123m456p789s23sEE1s")


def test_a_hand_that_does_not_complete_is_none():
    assert score("123m456p789s24sEE1s") is None
    assert score("123m456p789s24sEE1s", rules=Rules(ready_required=False)) is None


def test_plain_win_when_nothing_applies():
    # Ready not required: a two-sided win with a melded chow and mixed suits scores nothing.
    result = score("[123m,1]456p789s23sEE1s", rules=Rules(ready_required=False))
    assert result.items == (("穷胡", 0),) and result.doublings == 0 and result.value == 1


# ---------------------------------------------------------------------------------------------
# The result object


def test_result_is_frozen_with_names_in_both_languages_and_a_readable_repr():
    result = score("123m456p789s123sEE")
    assert isinstance(result, ChangbaiScore)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.patterns = ()  # type: ignore[misc]
    assert result.items_en == (("Single wait", 1), ("Concealed hand", 1), ("Single wait on a terminal or honour", 1))
    assert repr(result) == "ChangbaiScore(3 doublings, win E: 夹胡(单吊) 1, 门清 1, 单吊幺九 1)"
    assert result.value == 8 and result.multiplier == 1
    assert result.win_tile == Tile.EAST


def test_catalogue_matches_rules_md_values():
    values = {zh: d for zh, _, d, _ in CATALOGUE.values()}
    assert values == {
        "穷胡": 0, "夹胡(坎张)": 1, "夹胡(边张)": 1, "夹胡(单吊)": 1, "七对": 2, "十三幺": 0,
        "一般高(明)": 1, "一般高(暗)": 1, "两般高(明)": 2, "两般高(暗)": 2, "清一色": 2, "混一色": 1,
        "飘胡": 1, "手把一": 1, "四归一(明)": 1, "四归一(暗)": 1, "门清": 1, "单吊幺九": 1,
        "杠上花": 2, "杠后炮": 2,
    }
    assert CATALOGUE["thirteen_orphans"][3] == 13


# ---------------------------------------------------------------------------------------------
# Loser side


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("[123m,1][123m,3]456p789s5s", {"一般高(明)": 1}),
        ("[123m,1]123m456p789s5s", {}),  # 暗: counts only when winning
        ("[123m,1][123m,2][123m,3]789s5s", {"两般高(明)": 2}),
        ("[123m,1][123m,2]123m789s5s", {"一般高(明)": 1}),  # only the melded pair is visible
        ("[123m,1][555p,1][666s,2][789s,1]E", {"手把一": 1}),
        ("[123m,1][5555p,1][666s,2][789s,1]E", {"手把一": 1}),
        ("[123m,1][5555p][666s,2][789s,1]E", {}),  # a concealed kong breaks 手把一
        ("[555p,1][456p,1]111m999sE", {"四归一(明)": 1}),
        ("[555p,1]456p111m999sE", {}),  # 四归一 with a concealed copy: 暗
        ("123m456p789s12sCC", {"门清": 1}),
        ("[EEEE]123m456p789s5s", {"门清": 1}),
        ("1122m3344p5566s7z", {"门清": 1}),  # a seven-pairs loser is 门清
        ("[123m,1]456m789mEEEN", {}),  # 混一色 never counts for a loser
        ("[123m,1]456m789m1234m", {}),  # nor 清一色
        ("[123m,1][123m,3][456p,1][456p,2]E", {"一般高(明)": 2, "手把一": 1}),
    ],
)
def test_loser_doublings(hand, expected):
    patterns = loser_patterns_of(hand)
    assert {p.name_zh: p.doublings for p in patterns} == expected
    assert loser_doublings(hand) == sum(expected.values())


def test_loser_doublings_needs_the_hand_after_the_discard():
    with pytest.raises(InvalidHandError, match="13 concealed tiles"):
        loser_doublings("123m456p789s123sEE")


# ---------------------------------------------------------------------------------------------
# Malformed input


def test_score_needs_a_complete_size_hand():
    with pytest.raises(InvalidHandError, match="14 concealed tiles"):
        score("123m456p789s123sE")


def test_score_needs_the_winning_tile():
    hand = Hand.from_counts(parse("123m456p789s123sEE").counts)
    assert hand.win_tile is None
    with pytest.raises(InvalidHandError, match="needs the winning tile"):
        score(hand)
    assert score(hand, win_tile=Tile.EAST).doublings == 3


@pytest.mark.parametrize("win_tile", ["9x", True, 34, -1, 2.0])
def test_bad_win_tile(win_tile):
    with pytest.raises(InvalidHandError, match="win_tile"):
        score("123m456p789s123sEE", win_tile=win_tile)


def test_win_tile_not_in_the_hand():
    with pytest.raises(InvalidHandError, match="not among the concealed tiles"):
        score("123m456p789s123sEE", win_tile="9p")


@pytest.mark.parametrize(
    "flags, message",
    [
        (dict(kong_replacement=True), "self_drawn=True"),
        (dict(self_drawn=True, after_kong_discard=True), "cannot be self_drawn"),
        (dict(self_drawn=True, robbed_kong=True), "cannot be self_drawn"),
        (dict(robbed_kong=True, after_kong_discard=True), "not a discard"),
    ],
)
def test_contradictory_flags(flags, message):
    with pytest.raises(InvalidHandError, match=message):
        score("123m456p789s123sEE", **flags)


@pytest.mark.parametrize("flag", ["self_drawn", "kong_replacement", "after_kong_discard", "robbed_kong", "declared_ready"])
def test_flags_must_be_booleans(flag):
    with pytest.raises(TypeError, match=f"{flag} must be True or False"):
        score("123m456p789s123sEE", **{flag: "yes"})


def test_bad_notation_fifth_copy_and_wrong_type():
    with pytest.raises(ParseError):
        score("123m456p789s123sXX")
    with pytest.raises(InvalidHandError, match="at most 4"):
        score("[1111m,1]1m23m456p789sEE")
    with pytest.raises(InvalidHandError):
        score(list(range(34)))  # not counts of a hand: 5.. copies of a kind
    with pytest.raises(InvalidHandError, match="a hand is"):
        score(3.5)  # type: ignore[arg-type]


def test_counts_and_melds_are_a_hand_too():
    # The shared hand contract: notation, a Hand, or 34 counts + melds.
    from mahjong_core import parse

    hand = parse("[123m,1][123m,3]456p789s5s5s")
    assert score(hand.counts, melds=hand.melds, win_tile="5s") == score(hand)
