"""The engine's wrappers of the core's hot calls (`engine._waits_mask_m`, `_shanten_m`,
`_best_discards_m`) give exactly what the core's Python functions give — the same value for every
valid hand, the same error (type and message) for every invalid one. Compiled, the wrappers call the
core's C entry points (mahjong_core/_core.pxd: `waits_of_counts`, `shanten_of_counts`,
`best_discards_of_counts`), which validate without throwing and leave an invalid input to the
Python call; pure Python they are that call."""

import random

import pytest

from mahjong_core import _core
from mahjong_core.errors import MahjongError
from mahjong_core.game import engine


def _outcome(fn, *args, **kwargs):
    try:
        return ("value", fn(*args, **kwargs))
    except MahjongError as exc:
        return (type(exc).__name__, str(exc))


def _random_counts(rng, tiles):
    counts = bytearray(34)
    for _ in range(tiles):
        counts[rng.randrange(34)] += 1
    return counts


def _cases(rng, extra_tiles, n=3000):
    """Hands of 13 - 3m (+ extra_tiles) tiles for m = 0..4, a few of every kind of invalid input
    (wrong size, five copies, meld counts out of range, forms impossible with melds or out of range)."""
    for _ in range(n):
        melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        tiles = 13 - 3 * melds + extra_tiles + (rng.choice((-1, 1)) if rng.random() < 0.1 else 0)
        counts = _random_counts(rng, max(tiles, 0))
        if rng.random() < 0.03:
            counts[rng.randrange(34)] = 5
        if rng.random() < 0.03:
            melds = rng.choice((-1, 5))
        forms = rng.randrange(1, 32) if rng.random() < 0.97 else rng.choice((0, 32))
        yield counts, forms, melds


def test_waits_wrapper_equals_the_core():
    rng = random.Random(1)
    seen = {"value": 0, "errors": 0}
    for counts, forms, melds in _cases(rng, 0):
        want = _outcome(_core.waits_mask, bytes(counts), forms, melds=melds)
        assert _outcome(engine._waits_mask_m, counts, forms, melds) == want, (bytes(counts), forms, melds)
        assert _outcome(engine._waits_mask_m, bytes(counts), forms, melds) == want
        seen["value" if want[0] == "value" else "errors"] += 1
    assert seen["value"] > 1000 and seen["errors"] > 100  # both paths really ran


def test_ready_hands_have_their_waits():
    """Ready hands (built as complete hands minus one tile), where the waits are non-empty."""
    rng = random.Random(2)
    found = 0
    for _ in range(2000):
        counts = bytearray(34)
        for _ in range(4):
            t = rng.randrange(27)
            if t % 9 <= 6 and rng.random() < 0.6:
                for k in range(3):
                    counts[t + k] += 1
            else:
                counts[t] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        want = _core.waits_mask(bytes(counts), 31)
        assert engine._waits_mask_m(counts, 31, 0) == want
        assert engine._shanten_m(counts, 31, 0) == _core.shanten(bytes(counts), 31)
        found += bool(want)
    assert found > 1000


def test_shanten_wrapper_equals_the_core():
    rng = random.Random(3)
    for extra in (0, 1):
        for counts, forms, melds in _cases(rng, extra):
            want = _outcome(_core.shanten, bytes(counts), forms, melds=melds)
            assert _outcome(engine._shanten_m, counts, forms, melds) == want, (bytes(counts), forms, melds)
            assert _outcome(engine._shanten_m, bytes(counts), forms, melds) == want


def test_best_discards_wrapper_equals_the_core():
    rng = random.Random(4)
    values = 0
    for counts, forms, melds in _cases(rng, 1):
        want = _outcome(_core.best_discards, bytes(counts), forms, melds=melds)
        got = _outcome(engine._best_discards_m, counts, forms, melds)
        assert got == want, (bytes(counts), forms, melds)
        values += want[0] == "value"
    assert values > 1000


@pytest.mark.parametrize("hand", [bytearray(33), bytes(35), [0] * 34, "123m"])
def test_other_inputs_take_the_python_call(hand):
    """Anything but 34 counts in bytes or a bytearray is the Python function's to accept or refuse."""
    assert _outcome(engine._waits_mask_m, hand, 1, 0) == _outcome(_core.waits_mask, hand, 1, melds=0)
    assert _outcome(engine._shanten_m, hand, 1, 0) == _outcome(_core.shanten, hand, 1, melds=0)
