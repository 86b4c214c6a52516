"""Bad input of every kind: the right MahjongError subclass (also a ValueError), never a crash,
never corrupted state."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mahjong_core as mc
import mahjong_core.batch as batch
from mahjong_core import Forms, InvalidHandError, MahjongError, Meld, Tile

WAITING = mc.parse("1112345678999m")  # 13 tiles, ready (nine gates)
COMPLETE = mc.parse("11123456789995m")  # 14 tiles, complete
WAITING_BYTES = WAITING.counts_bytes()
COMPLETE_BYTES = COMPLETE.counts_bytes()

# (function, a valid argument of the right size) for every analysis entry point.
SINGLE_CALLS = {
    "shanten13": (mc.shanten, WAITING_BYTES),
    "shanten14": (mc.shanten, COMPLETE_BYTES),
    "is_winning": (mc.is_winning, COMPLETE_BYTES),
    "waits": (mc.waits, WAITING_BYTES),
    "effective_tiles": (mc.effective_tiles, WAITING_BYTES),
    "discard_options": (mc.discard_options, COMPLETE_BYTES),
    "decompositions": (mc.decompositions, COMPLETE_BYTES),
}
WITH_MELDS_KEYWORD = {k for k in SINGLE_CALLS if k != "decompositions"}


def _assert_our_value_error(excinfo, cls=MahjongError):
    assert isinstance(excinfo.value, cls), f"{type(excinfo.value).__name__}: {excinfo.value}"
    assert isinstance(excinfo.value, ValueError)
    assert str(excinfo.value)


def _expect_errors(calls, cls=InvalidHandError):
    """Run every (label, thunk); return a description of each that did not raise `cls` (which
    must also be a ValueError) — so one assertion lists every offender."""
    problems = []
    for label, thunk in calls:
        try:
            result = thunk()
        except cls as exc:
            if not isinstance(exc, ValueError) or not str(exc):
                problems.append(f"{label}: {type(exc).__name__} is not a ValueError with a message")
        except Exception as exc:  # noqa: BLE001 - reported
            problems.append(f"{label}: raised {type(exc).__name__}: {exc}")
        else:
            problems.append(f"{label}: returned {result!r}")
    return problems


# ---------------------------------------------------------------------------------------------
# Every function, every kind of bad hand


def _bad_hands(valid: bytes):
    counts = list(valid)
    five = list(counts)
    five[0] = 5
    negative = list(counts)
    negative[0] = -1
    return {
        "33 counts": counts[:33],
        "35 counts": counts + [0],
        "33 bytes": bytes(counts[:33]),
        "35 bytes": bytes(counts + [0]),
        "5 copies (list)": five,
        "5 copies (bytes)": bytes(five),
        "255 copies (bytes)": bytes([255] + counts[1:]),
        "negative count": negative,
        "5 copies (notation)": "11111m2345678999m",
    }


def test_bad_counts():
    calls = [
        (f"{name}({what})", lambda fn=fn, bad=bad: fn(bad))
        for name, (fn, valid) in SINGLE_CALLS.items()
        for what, bad in _bad_hands(valid).items()
    ]
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


def test_huge_count():
    """A count too large for a C long is still just a bad count."""
    calls = []
    for name, (fn, valid) in SINGLE_CALLS.items():
        huge = [2**70] + list(valid)[1:]
        calls.append((f"{name}([2**70, ...])", lambda fn=fn, huge=huge: fn(huge)))
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(SINGLE_CALLS))
def test_wrong_tile_count_for_the_call(name):
    fn, valid = SINGLE_CALLS[name]
    if name.startswith("shanten"):
        wrong_sizes = [12, 15, 11]
    elif name in ("waits", "effective_tiles"):
        wrong_sizes = [14, 12]
    else:
        wrong_sizes = [13, 15]
    for size in wrong_sizes:
        bad = [0] * 34
        for i in range(size):
            bad[i] = 1
        with pytest.raises(InvalidHandError, match=str(size)) as info:
            fn(bytes(bad))
        _assert_our_value_error(info, InvalidHandError)
    # The same hand is fine with the right meld count, wrong with another.
    if name in WITH_MELDS_KEYWORD:
        with pytest.raises(InvalidHandError):
            fn(valid, melds=1)


def test_bad_forms():
    """forms=0 / beyond the five flags: a MahjongError that is also a ValueError."""
    calls = [
        (f"{name}(forms={forms})", lambda fn=fn, valid=valid, forms=forms: fn(valid, forms))
        for name, (fn, valid) in SINGLE_CALLS.items()
        for forms in (0, 32, 63, -1, 2**40, 2**70)
    ]
    problems = _expect_errors(calls, MahjongError)
    assert not problems, "\n".join(problems)


def test_melds_out_of_range():
    calls = [
        (f"{name}(melds={melds})", lambda fn=SINGLE_CALLS[name][0], valid=SINGLE_CALLS[name][1], melds=melds: fn(valid, melds=melds))
        for name in sorted(WITH_MELDS_KEYWORD)
        for melds in (-1, 5, 99, 2**40, 2**70)
    ]
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


def test_meld_objects_making_five_copies():
    """Raw counts with Meld objects: the melds' tiles count towards the four-copy limit."""
    calls = []
    for name in sorted(WITH_MELDS_KEYWORD):
        fn, valid = SINGLE_CALLS[name]
        # 10 or 11 concealed tiles holding three or four 1m, plus a meld with 1m: 5 to 7 copies.
        size = 10 if sum(valid) == 13 else 11
        for ones, meld in ((3, Meld.kong(Tile.M1, 1)), (3, Meld.pung(Tile.M1)), (4, Meld.chow(Tile.M1))):
            counts = [0] * 34
            for t in ([0] * ones + [1, 2, 3, 4, 5, 6, 7, 8])[:size]:
                counts[t] += 1
            for arg in (bytes(counts), counts):
                label = f"{name}({type(arg).__name__} with {ones} 1m, melds=[{meld}])"
                calls.append((label, lambda fn=fn, arg=arg, meld=meld: fn(arg, melds=[meld])))
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


def test_bad_visible():
    too_many = [0] * 34
    too_many[0] = 2  # the hand holds three or four 1m already
    bads = {
        "2 more 1m": too_many,
        "all 4": [4] * 34,
        "33 counts": [0] * 33,
        "33 bytes": bytes(33),
        "negative": [-1] + [0] * 33,
        "5 (bytes)": bytes([5] + [0] * 33),
        "2**70": [2**70] + [0] * 33,
    }
    calls = [
        (f"{name}(visible={what})", lambda fn=SINGLE_CALLS[name][0], valid=SINGLE_CALLS[name][1], bad=bad: fn(valid, Forms.MCR, bad))
        for name in ("effective_tiles", "discard_options")
        for what, bad in bads.items()
    ]
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


def test_melds_with_a_hand_is_rejected():
    hand = mc.parse("[555p,1]1123m67s88sEE")
    with pytest.raises(MahjongError) as info:
        mc.shanten(hand, melds=1)
    _assert_our_value_error(info)


def test_wrong_types_raise_type_errors():
    for fn, _valid in SINGLE_CALLS.values():
        for bad in (None, 5, 3.5, object()):
            with pytest.raises((TypeError, MahjongError)):
                fn(bad)
    with pytest.raises(TypeError):
        mc.shanten(WAITING_BYTES, melds=["not a meld"])


# ---------------------------------------------------------------------------------------------
# Forms that cannot apply


SPECIAL_CONCEALED = (Forms.SEVEN_PAIRS, Forms.THIRTEEN_ORPHANS, Forms.HONORS_KNITTED)


def test_concealed_only_forms_with_melds():
    """Asking only for forms that need a concealed hand, about a hand with a meld, is an error for
    every function (not an empty answer)."""
    hand13 = mc.parse("[111m]2233445566m")  # 10 concealed tiles + a meld
    hand14 = mc.parse("[111m]2233445566m7m")
    calls = []
    for forms in list(SPECIAL_CONCEALED) + [Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS]:
        for fn, hand in (
            (mc.shanten, hand13),
            (mc.shanten, hand14),
            (mc.is_winning, hand14),
            (mc.waits, hand13),
            (mc.effective_tiles, hand13),
            (mc.discard_options, hand14),
            (mc.decompositions, hand14),
        ):
            calls.append((f"{fn.__name__}({hand}, {forms!r})", lambda fn=fn, hand=hand, forms=forms: fn(hand, forms)))
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)


def test_knitted_straight_with_two_melds():
    hand = mc.parse("[111m][222m]3334455m")  # 7 concealed tiles
    complete = mc.parse("[111m][222m]33344555m")
    calls = [(f"{fn.__name__}(waiting)", lambda fn=fn: fn(hand, Forms.KNITTED_STRAIGHT)) for fn in (mc.shanten, mc.waits, mc.effective_tiles)]
    calls += [
        (f"{fn.__name__}(complete)", lambda fn=fn: fn(complete, Forms.KNITTED_STRAIGHT))
        for fn in (mc.is_winning, mc.decompositions, mc.discard_options, mc.shanten)
    ]
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)
    # With the standard form included it is simply answered.
    assert mc.shanten(hand, Forms.KNITTED_STRAIGHT | Forms.STANDARD) == mc.shanten(hand, Forms.STANDARD)


def test_batch_forms_that_cannot_apply():
    counts = np.array([mc.parse("[111m]2233445566m").counts], dtype=np.uint8)
    complete = np.array([mc.parse("[111m]2233445566m7m").counts], dtype=np.uint8)
    calls = [
        ("batch.shanten", lambda: batch.shanten(counts, 1, Forms.SEVEN_PAIRS)),
        ("batch.waits", lambda: batch.waits(counts, 1, Forms.SEVEN_PAIRS)),
        ("batch.is_winning", lambda: batch.is_winning(complete, 1, Forms.SEVEN_PAIRS)),
    ]
    problems = _expect_errors(calls)
    assert not problems, "\n".join(problems)
    with pytest.raises(InvalidHandError, match="row 0"):
        batch.shanten(counts, 1, Forms.SEVEN_PAIRS)


# ---------------------------------------------------------------------------------------------
# Batch input errors


def test_batch_input_errors():
    good = np.zeros((3, 34), dtype=np.uint8)
    for bad in (
        np.zeros((3, 33), dtype=np.uint8),
        np.zeros((3, 34, 1), dtype=np.uint8),
        np.zeros(34, dtype=np.uint8),
        np.zeros((34, 6), dtype=np.uint8).T,  # not C-contiguous
        bytes(35),
        memoryview(bytearray(68)).cast("B", (4, 17)),
    ):
        for fn in (batch.shanten, batch.is_winning, batch.waits):
            with pytest.raises(MahjongError) as info:
                fn(bad)
            _assert_our_value_error(info)
    with pytest.raises(TypeError, match="uint8"):
        batch.shanten(good.astype(np.int64))
    for melds in (5, -1, [0, 1], np.zeros(4, dtype=np.uint8), np.zeros((3, 1), dtype=np.uint8), [0, 0, 9]):
        with pytest.raises(InvalidHandError):
            batch.shanten(good, melds)


def test_batch_bad_forms():
    good = np.zeros((3, 34), dtype=np.uint8)
    calls = [
        (f"{fn.__name__}(forms={forms})", lambda fn=fn, forms=forms: fn(good, 0, forms))
        for fn in (batch.shanten, batch.is_winning, batch.waits)
        for forms in (0, 32, -1, 2**70)
    ]
    problems = _expect_errors(calls, MahjongError)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Hand construction


def test_hand_construction_errors():
    counts = list(WAITING.counts)
    with pytest.raises(InvalidHandError):
        mc.Hand(counts[:33])
    with pytest.raises(InvalidHandError):
        mc.Hand(counts, win_tile=Tile.M1)  # a winning tile needs a complete-size hand
    with pytest.raises(InvalidHandError):
        mc.Hand(list(COMPLETE.counts), win_tile=Tile.P1)  # not among the tiles
    with pytest.raises(InvalidHandError):
        mc.Hand([1] * 13 + [0] * 21, [Meld.pung(Tile.EAST)] * 5)
    with pytest.raises(TypeError):
        mc.Hand(counts, ["not a meld"])
    with pytest.raises(TypeError):
        mc.Hand("1112345678999m")
    with pytest.raises(InvalidHandError):
        WAITING.without_tile(Tile.EAST)
    with pytest.raises(InvalidHandError):
        WAITING.with_tile(Tile.M1).with_tile(Tile.M1)


@pytest.mark.parametrize("kind", [bytes, bytearray, list, tuple])
def test_hand_from_every_count_container(kind):
    # bytes / bytearray take a fast path in the binding; it must accept and refuse exactly the same.
    counts = list(WAITING.counts)
    assert mc.Hand(kind(counts)) == mc.Hand(counts)
    assert mc.Hand(kind(counts)).counts == tuple(counts)
    for tile in (0, 17, 33):
        bad = counts[:]
        bad[tile] = 5
        with pytest.raises(InvalidHandError, match=f"5 copies of {Tile(tile)}"):
            mc.Hand(kind(bad))
    with pytest.raises(InvalidHandError, match="needs 34 counts"):
        mc.Hand(kind(counts + [0]))
    with pytest.raises(InvalidHandError, match="needs 34 counts"):
        mc.Hand(kind(counts[:33]))


# ---------------------------------------------------------------------------------------------
# Never a crash, never corrupted state


def test_errors_do_not_corrupt_a_hand():
    hand = mc.parse("[555p,1]1123m67s88sEE")
    before = (mc.shanten(hand), mc.waits(hand), mc.effective_tiles(hand), hand.counts, hand.melds)
    for bad_visible in ([4] * 34, [0] * 33, [-1] * 34):
        with pytest.raises(InvalidHandError):
            mc.effective_tiles(hand, Forms.MCR, bad_visible)
    with pytest.raises(ValueError):
        mc.shanten(hand, 0)
    with pytest.raises(InvalidHandError):
        mc.is_winning(hand)
    assert (mc.shanten(hand), mc.waits(hand), mc.effective_tiles(hand), hand.counts, hand.melds) == before


FUZZ = textwrap.dedent(
    """
    import random, sys
    import numpy as np
    import mahjong_core as mc
    import mahjong_core.batch as batch

    rng = random.Random(int(sys.argv[1]))
    fns = [mc.shanten, mc.is_winning, mc.waits, mc.effective_tiles, mc.discard_options, mc.decompositions]
    allowed = (mc.MahjongError, TypeError, ValueError, OverflowError)
    unexpected = []
    for i in range(int(sys.argv[2])):
        kind = rng.random()
        if kind < 0.4:
            arg = bytes(rng.randrange(256) if rng.random() < 0.1 else rng.randrange(5) for _ in range(rng.choice([33, 34, 34, 34, 35])))
        elif kind < 0.7:
            arg = [rng.choice([-1, 0, 1, 2, 3, 4, 5, 300]) for _ in range(rng.choice([0, 34, 34, 40]))]
        else:
            arg = "".join(rng.choice("123456789mpszESWNCFP[],|01") for _ in range(rng.randrange(20)))
        fn = rng.choice(fns)
        kwargs = {}
        if fn is not mc.decompositions and rng.random() < 0.5:
            kwargs["melds"] = rng.choice([0, 1, 2, 3, 4, 5, -1])
        try:
            fn(arg, rng.choice([1, 2, 3, 7, 31, 0, 40]), **kwargs)
        except allowed:
            pass
        except Exception as exc:  # noqa: BLE001 - reported below
            unexpected.append(f"{fn.__name__}({arg!r}, {kwargs}): {type(exc).__name__}: {exc}")
        if i % 10 == 0:
            rows = np.random.default_rng(i).integers(0, rng.choice([5, 256]), size=(rng.randrange(4), rng.choice([34, 34, 33])), dtype=np.uint8)
            try:
                rng.choice([batch.shanten, batch.waits, batch.is_winning])(rows, rng.choice([0, 1, 5]), rng.choice([31, 1, 0]))
            except allowed:
                pass
            except Exception as exc:  # noqa: BLE001
                unexpected.append(f"batch: {type(exc).__name__}: {exc}")
    print("\\n".join(unexpected[:20]))
    sys.exit(3 if unexpected else 0)
    """
)


def test_random_garbage_never_crashes_the_interpreter(tmp_path):
    """Random bad input in a child process: only our errors (or TypeError/ValueError) and the
    process survives (a segfault or abort would show as a negative return code)."""
    # cwd: a fresh directory, so `python -c` cannot import the source folder (see conftest.py).
    result = subprocess.run(
        [sys.executable, "-c", FUZZ, "7", "20000"], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert result.returncode == 0, f"return code {result.returncode}\n{result.stdout}\n{result.stderr[-2000:]}"


def test_non_integer_counts_are_rejected():
    """Counts are integers: 1.9 copies must not silently become 1."""
    floats = [1.9] * 13 + [0] * 21
    problems = []
    for fn, args in ((mc.shanten, (floats,)), (mc.waits, (floats,)), (mc.effective_tiles, (WAITING_BYTES, Forms.MCR, [0.5] * 34))):
        try:
            result = fn(*args)
        except (TypeError, InvalidHandError):
            continue
        problems.append(f"{fn.__name__}: returned {result!r}")
    assert not problems, "\n".join(problems)
