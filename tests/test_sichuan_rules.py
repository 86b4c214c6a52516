"""Sichuan `Rules`: keys and defaults of RULES.md §2, presets, overrides, rejection of bad keys."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

import mahjong_core as mc
from mahjong_core.rules.sichuan import Rules, RulesError

QQ_DEFAULTS = {
    "base": 6,
    "zimo_bonus": "add_base",
    "direct_kong": "chengbao",
    "gen_counts_kongs": False,
    "max_fan": None,
    "refund_to_winners": True,
    "forced_win_last": 0,
    "pass_lock": "until_draw",
    "dealer_rule": "random",
    "dihu_broken_by": "pung_kong_win",
    "call_transfer": True,
    "dead_waits_ready": True,
    "blood_battle": True,
    "escape_penalty": 16,
    "escape_ready_check_last": 4,
    "escape_ends_hand": False,
}


def test_defaults_are_the_qq_preset():
    assert Rules().to_dict() == QQ_DEFAULTS
    assert Rules.presets["qq"] == Rules()
    assert Rules.preset("qq") is Rules.presets["qq"]
    assert Rules.DEFAULT_PRESET == "qq"


def test_every_key_is_documented():
    doc = Rules.__doc__ or ""
    for key in Rules.keys():
        assert f"{key}:" in doc, f"rule key {key} is not documented on Rules"


def test_overrides_start_from_the_default_preset():
    rules = Rules(max_fan=4)
    assert rules.max_fan == 4 and rules.base == 6 and rules.zimo_bonus == "add_base"
    assert Rules.preset("qq", zimo_bonus="add_fan").zimo_bonus == "add_fan"


def test_replace_works_and_validates():
    rules = dataclasses.replace(Rules(), direct_kong="jiajiayou")
    assert rules.direct_kong == "jiajiayou"
    with pytest.raises(RulesError):
        dataclasses.replace(Rules(), direct_kong="both")


def test_unknown_key_lists_the_valid_keys():
    with pytest.raises(RulesError) as info:
        Rules(zimo="add_base")
    message = str(info.value)
    assert "zimo" in message
    for key in QQ_DEFAULTS:
        assert key in message


def test_rules_error_is_a_mahjong_error_and_value_error():
    assert issubclass(RulesError, mc.MahjongError) and issubclass(RulesError, ValueError)


@pytest.mark.parametrize("changes", [
    {"base": 0}, {"base": 2.5}, {"base": True}, {"base": "6"},
    {"zimo_bonus": "add_double"}, {"zimo_bonus": False},
    {"direct_kong": None}, {"gen_counts_kongs": 1}, {"max_fan": 0}, {"max_fan": "4"},
    {"refund_to_winners": None}, {"forced_win_last": -1}, {"pass_lock": "forever"},
    {"dealer_rule": "winner"},
])
def test_bad_values_are_rejected(changes):
    with pytest.raises(RulesError, match=next(iter(changes))):
        Rules(**changes)


def test_positional_arguments_are_rejected():
    with pytest.raises(RulesError, match="keyword"):
        Rules(6)  # type: ignore[call-arg]


def test_unknown_preset():
    with pytest.raises(RulesError, match="qq"):
        Rules.preset("tournament")


def test_frozen_hashable_picklable():
    rules = Rules(max_fan=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.base = 1  # type: ignore[misc]
    assert {rules: 1}[Rules(max_fan=3)] == 1
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_repr_names_the_preset_or_the_changes():
    assert repr(Rules()) == "Rules()"
    assert repr(Rules(max_fan=3, base=1)) == "Rules(base=1, max_fan=3)"
    assert Rules(max_fan=3).preset_name is None and Rules().preset_name == "qq"


def test_to_dict_is_json_serialisable():
    assert json.loads(json.dumps(Rules(max_fan=5).to_dict()))["max_fan"] == 5
