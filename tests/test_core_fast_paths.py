"""The fast paths of the binding give the same answers as the plain ones: enum members looked up
at plain-class speed, `Forms` combinations from a table, batch fast path (see test_batch.py)."""

from __future__ import annotations

import enum
import itertools

import pytest

import mahjong_core as mc
from mahjong_core import Forms, Tile

SINGLE = (Forms.STANDARD, Forms.SEVEN_PAIRS, Forms.THIRTEEN_ORPHANS, Forms.HONORS_KNITTED, Forms.KNITTED_STRAIGHT)


def test_forms_or_equals_flag_semantics():
    for a, b in itertools.product(list(Forms.__members__.values()) + [Forms(0)], repeat=2):
        got = a | b
        assert type(got) is Forms and int(got) == int(a) | int(b)
        assert got is Forms(int(a) | int(b))
        assert repr(got) == repr(enum.IntFlag.__or__(a, b))
    assert Forms.STANDARD | Forms.SEVEN_PAIRS is Forms.SICHUAN
    assert Forms.SICHUAN | Forms.THIRTEEN_ORPHANS is Forms.CHANGBAI
    assert Forms.STANDARD | 2 == 3 and 2 | Forms.STANDARD == 3
    assert type(Forms.STANDARD | 2) is Forms


def test_class_attribute_lookup_unchanged():
    for cls in (Tile, Forms):
        for name, member in cls.__members__.items():
            assert getattr(cls, name) is member
        with pytest.raises(AttributeError):
            getattr(cls, "NO_SUCH_MEMBER")
        assert cls.__name__ in repr(cls)
    assert Tile.EAST is Tile(27) and Tile["EAST"] is Tile.EAST
    assert [int(t) for t in Tile] == list(range(34))
    assert Forms.MCR.name == "MCR" and Forms.MCR.value == 31


@pytest.mark.parametrize("forms", list(Forms.__members__.values()))
def test_forms_member_and_int_give_the_same_answers(forms):
    hand = mc.parse("19m19p19s1234567z")
    assert mc.shanten(hand, forms) == mc.shanten(hand, int(forms))
    assert mc.waits(hand, forms) == mc.waits(hand, int(forms))


# ---------------------------------------------------------------------------------------------
# Compact results: EffectiveTiles behaves as the dict it stands for


def _dict_effective(hand, forms=Forms.MCR, visible=None):
    """The old result, rebuilt from the mask: Tile -> 4 - held - visible."""
    eff = mc.effective_tiles(hand, forms, visible)
    held = [a + b for a, b in zip(hand.counts, hand.meld_counts)]
    vis = visible or [0] * 34
    return {Tile(i): 4 - held[i] - vis[i] for i in range(34) if eff.mask >> i & 1}


@pytest.mark.parametrize("text", ["123m456p78s19pESW", "1112345678999m", "19m19p19s1234567z", "[555p,1]123m67s88sEEE"])
def test_effective_tiles_mapping_equals_dict(text):
    hand = mc.parse(text)
    eff = mc.effective_tiles(hand)
    expected = _dict_effective(hand)
    assert eff == expected and expected == eff and not (eff != expected)
    assert dict(eff) == expected and eff.to_dict() == expected and list(eff) == list(expected)
    assert list(eff.items()) == list(expected.items()) and list(eff.keys()) == list(expected)
    assert list(eff.values()) == list(expected.values()) and len(eff) == len(expected)
    assert eff.total == sum(expected.values()) and bool(eff) == bool(expected)
    assert repr(eff) == repr(expected)
    for t in Tile:
        assert (t in eff) == (t in expected) and (int(t) in eff) == (t in expected)
        assert eff.get(t) == expected.get(t) and eff.get(t, -5) == expected.get(t, -5)
        if t in expected:
            assert eff[t] == expected[t] == eff[int(t)]
        else:
            with pytest.raises(KeyError):
                eff[t]
    for bad in (-1, 34, 2**70, "1m", None, 1.0):
        assert bad not in eff and eff.get(bad) is None
    import collections.abc
    import pickle

    assert isinstance(eff, collections.abc.Mapping)
    assert pickle.loads(pickle.dumps(eff)) == expected
    assert mc.effective_tiles(hand.counts_bytes(), melds=hand.n_melds) == eff if not hand.melds else True
    with pytest.raises(TypeError):
        hash(eff)


def test_effective_tiles_visible_and_equality_between_results():
    hand = mc.parse("123m456p78s19pESW")
    visible = [1] * 34
    a = mc.effective_tiles(hand, Forms.MCR, visible)
    assert a == _dict_effective(hand, Forms.MCR, visible)
    assert a == mc.effective_tiles(hand.counts_bytes(), Forms.MCR, bytes(visible))
    assert a != mc.effective_tiles(hand)


def test_discard_options_effective_are_mappings_and_decompositions_share_blocks():
    options = mc.discard_options("123m456p78s19pESWN")
    assert [o.tile for o in options] and all(o.effective == dict(o.effective) for o in options)
    assert options[0] == mc.DiscardOption(options[0].tile, options[0].shanten, dict(options[0].effective))
    ds = mc.decompositions("11223344556677m")
    again = mc.decompositions("11223344556677m")
    assert ds == again and ds[0].sets[0] is again[0].sets[0]
    built = [mc.Decomposition(d.form, d.sets, d.pair, d.pairs, d.arrangement) for d in ds]
    assert list(ds) == built and [hash(d) for d in ds] == [hash(d) for d in built]
    assert [repr(d) for d in ds] == [repr(d) for d in built]
    for d in ds:
        for b in d.sets:
            assert b == mc.Block(b.kind, b.tile, b.concealed, b.meld)


# ---------------------------------------------------------------------------------------------
# CPU dispatch: the POPCNT and baseline copies of the kernels give identical answers

import subprocess  # noqa: E402
import sys  # noqa: E402

import reference_hands as H  # noqa: E402
from mahjong_core import _core  # noqa: E402


def _answers(cases_waiting, cases_complete):
    out = []
    for case in cases_waiting:
        raw, m = bytes(case.counts), len(case.melds)
        possible = Forms.MCR if m == 0 else (Forms.STANDARD | Forms.KNITTED_STRAIGHT if m == 1 else Forms.STANDARD)
        for forms in (Forms.MCR, Forms.CHANGBAI, Forms.STANDARD, Forms.KNITTED_STRAIGHT | Forms.STANDARD):
            forms = Forms(forms & possible)
            out.append((mc.shanten(raw, forms, melds=m), mc.shanten(raw, forms, melds=m, exclude_exhausted=True),
                        mc.waits_mask(raw, forms, melds=m), mc.effective_tiles(raw, forms, melds=m).mask))
    for case in cases_complete:
        raw, m = bytes(case.counts), len(case.melds)
        forms = Forms.MCR if m == 0 else Forms.STANDARD
        out.append((mc.is_winning(raw, forms, melds=m), mc.best_discards(raw, forms, melds=m)))
    return out


def test_kernel_copies_agree():
    info = mc._core.cpu_dispatch()
    assert info["variant"] in info["available"] and "baseline" in info["available"]
    waiting = H.mixed_cases(seed=6100, n=H.scaled(1_500), size="waiting")
    complete = H.mixed_cases(seed=6200, n=H.scaled(1_500), size="complete")
    before = info["variant"]
    results = {}
    try:
        for variant in info["available"]:
            _core._use_kernels(variant)
            assert _core.cpu_dispatch()["variant"] == variant
            results[variant] = _answers(waiting, complete)
    finally:
        _core._use_kernels(before)
    first = results["baseline"]
    for variant, got in results.items():
        assert got == first, variant
    with pytest.raises(mc.InvalidArgumentError, match="not available"):
        _core._use_kernels("avx9000")


def test_baseline_environment_variable_forces_the_portable_copy(tmp_path):
    code = "import mahjong_core as m; print(m._core.cpu_dispatch()['variant'])"
    env = dict(__import__("os").environ, MAHJONG_CORE_BASELINE="1")
    forced = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                            timeout=120, check=True)
    assert forced.stdout.strip() == "baseline"
    env["MAHJONG_CORE_BASELINE"] = "0"
    default = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                             timeout=120, check=True)
    assert default.stdout.strip() == mc._core.cpu_dispatch()["available"][-1]
