"""Changbai `Rules`: keys, defaults (RULES.md §3), presets, overrides and rejected values."""

import dataclasses
import pickle

import pytest

from mahjong_core import MahjongError
from mahjong_core.rules.changbai import DEFAULT_PRESET, Rules, RulesError


def test_defaults_are_the_changbai_preset_of_rules_md():
    r = Rules()
    assert r == Rules.presets["changbai"] == Rules.from_preset("changbai")
    assert DEFAULT_PRESET == "changbai"
    assert r.preset_name == "changbai"
    # RULES.md §3 names these keys and defaults.
    assert r.base == 1
    assert r.dealer_doubling is True
    assert r.discard_payers == "discarder"
    assert r.max_doublings is None
    assert r.sanqing is False
    # ... and implies these.
    assert r.piao_choices == (0, 2, 4, 6)
    assert r.multiple_winners is True
    assert (r.melded_kong_base, r.concealed_kong_base) == (1, 2)
    assert r.keep_kong_scores_on_draw is True
    assert r.drawn_hand_base == 2
    assert r.ready_required is True
    assert r.phantom_waits_count is False
    assert r.seven_pairs_need_terminal is True
    assert r.thirteen_orphans is True
    assert r.rob_kong is True
    assert r.first_dealer == "seat0"
    assert (r.reserve_without_kong, r.last_draws_win_only) == (14, 4)


def test_every_key_is_documented_on_the_class():
    doc = Rules.__doc__
    for f in dataclasses.fields(Rules):
        assert f"`{f.name}`" in doc, f"rule key {f.name} is not documented"


def test_overrides_start_from_the_default_preset():
    r = Rules(base=2, discard_payers="all")
    assert r.base == 2 and r.discard_payers == "all"
    assert r.dealer_doubling is True
    assert r.preset_name is None
    assert Rules.from_preset("changbai", base=2) == Rules(base=2)


def test_dataclasses_replace_and_frozen_and_hashable_and_picklable():
    r = dataclasses.replace(Rules(), max_doublings=6)
    assert r.max_doublings == 6
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.base = 3  # type: ignore[misc]
    assert hash(r) == hash(Rules(max_doublings=6))
    assert pickle.loads(pickle.dumps(r)) == r


def test_repr_shows_what_differs_from_the_default():
    assert repr(Rules()) == "Rules()"
    assert repr(Rules(base=2, discard_payers="all")) == "Rules(base=2, discard_payers='all')"


def test_to_dict_is_json_ready_and_round_trips():
    d = Rules(piao_choices=(0, 1)).to_dict()
    assert d["piao_choices"] == [0, 1]
    assert Rules(**d) == Rules(piao_choices=(0, 1))


def test_piao_choices_accepts_any_sequence_and_stores_a_tuple():
    assert Rules(piao_choices=[0, 3]).piao_choices == (0, 3)


@pytest.mark.parametrize("make", [lambda: Rules(foo=1), lambda: dataclasses.replace(Rules(), foo=1)])
def test_unknown_key_is_rejected_naming_it_and_the_known_keys(make):
    with pytest.raises(RulesError, match=r"unknown Changbai rule key\(s\) foo; valid keys: base, "):
        make()


def test_positional_arguments_are_rejected():
    with pytest.raises(RulesError, match="keyword arguments only"):
        Rules(2)  # type: ignore[misc]


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("base", 0, "integer >= 1"),
        ("base", True, "integer >= 1"),
        ("base", 1.5, "integer >= 1"),
        ("dealer_doubling", 1, "True or False"),
        ("discard_payers", "winner", "'discarder', 'all'"),
        ("max_doublings", -1, "None"),
        ("piao_choices", (2, 4), "must include 0"),
        ("piao_choices", (0, 2, 2), "repeat"),
        ("piao_choices", (), "non-empty"),
        ("piao_choices", 5, "non-empty sequence"),
        ("melded_kong_base", -1, "integer >= 0"),
        ("first_dealer", "east", "'seat0', 'random'"),
        ("sanqing", True, "三清/四清"),
    ],
)
def test_bad_values_are_rejected_with_the_key_and_the_fix(key, value, message):
    with pytest.raises(RulesError, match=message) as info:
        Rules(**{key: value})
    assert f"rule key {key}=" in str(info.value)


def test_rules_error_is_a_mahjong_error_and_a_value_error():
    assert issubclass(RulesError, MahjongError) and issubclass(RulesError, ValueError)


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown Changbai preset 'tournament'"):
        Rules.from_preset("tournament")


def test_presets_mapping_is_read_only():
    with pytest.raises(TypeError):
        Rules.presets["x"] = Rules()  # type: ignore[index]
