"""The test depth (tests/depth.py): quick by default, full with MAHJONG_CORE_DIFF_SCALE=1, bad values refused."""

import pytest

import depth


def test_unset_is_the_quick_depth_and_one_is_full(monkeypatch):
    monkeypatch.delenv(depth.ENV_VAR, raising=False)
    assert depth.diff_scale() == depth.QUICK_SCALE < 1
    assert depth.scaled(100_000) == int(100_000 * depth.QUICK_SCALE)
    monkeypatch.setenv(depth.ENV_VAR, "1")
    assert depth.scaled(100_000) == 100_000 and depth.examples(250) == 250
    monkeypatch.setenv(depth.ENV_VAR, " 2.5 ")
    assert depth.scaled(40) == 100


def test_sizes_keep_their_minimums(monkeypatch):
    monkeypatch.setenv(depth.ENV_VAR, "0.001")
    assert depth.scaled(1000) == 1 and depth.scaled(1000, minimum=200) == 200
    assert depth.examples(300) == 10


@pytest.mark.parametrize("raw", ["abc", "0", "-1", "nan", "inf"])
def test_a_bad_depth_is_refused_with_the_variable_named(monkeypatch, raw):
    monkeypatch.setenv(depth.ENV_VAR, raw)
    with pytest.raises(ValueError, match=depth.ENV_VAR):
        depth.diff_scale()
