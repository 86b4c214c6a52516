"""mahjong_core.batch equals the per-hand functions; bad rows are named; threads share safely."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import mahjong_core as mc
import mahjong_core.batch as batch
import reference_hands as H
from mahjong_core import Forms

FORM_CHOICES = (Forms.MCR, Forms.SICHUAN, Forms.CHANGBAI, Forms.STANDARD)


def _corpus(seed: int, n: int, size: str):
    cases = H.mixed_cases(seed=seed, n=n, size=size)
    counts = np.array([c.counts for c in cases], dtype=np.uint8)
    melds = np.array([len(c.melds) for c in cases], dtype=np.uint8)
    return cases, counts, melds


def _per_hand_shanten(cases, forms, limited=False):
    return [mc.shanten(bytes(c.counts), forms, melds=len(c.melds), exclude_exhausted=limited) for c in cases]


@pytest.mark.parametrize("forms", [Forms.STANDARD, Forms.SICHUAN, Forms.MCR])
@pytest.mark.parametrize("limited", [False, True])
def test_shanten_equals_per_hand(forms, limited):
    cases, counts, melds = _corpus(seed=3000 + int(forms), n=H.scaled(8_000), size="either")
    expected = _per_hand_shanten(cases, forms, limited)
    if forms == Forms.STANDARD:
        # Standard applies with any meld count: per-row melds for every row.
        got = batch.shanten(counts, melds, forms, exclude_exhausted=limited)
        assert got.dtype == np.int8 and got.shape == (len(cases),)
        assert got.tolist() == expected
        assert batch.shanten(counts, melds.tolist(), forms, exclude_exhausted=limited).tolist() == expected
    # One meld count for all rows: group the rows by meld count.
    for m in range(5):
        rows = [i for i, c in enumerate(cases) if len(c.melds) == m]
        if not rows:
            continue
        sub = np.ascontiguousarray(counts[rows])
        got = batch.shanten(sub, m, forms, exclude_exhausted=limited)
        assert got.tolist() == [expected[i] for i in rows], m


def test_shanten_all_forms_melds_per_row_and_concealed_rows():
    cases, counts, melds = _corpus(seed=3100, n=H.scaled(8_000), size="either")
    expected = _per_hand_shanten(cases, Forms.MCR)
    assert batch.shanten(counts, melds, Forms.MCR).tolist() == expected
    assert batch.shanten(counts, melds).tolist() == expected  # MCR is the default


def test_is_winning_equals_per_hand():
    cases, counts, melds = _corpus(seed=3200, n=H.scaled(8_000), size="complete")
    for forms in FORM_CHOICES:
        expected = [mc.is_winning(bytes(c.counts), forms, melds=len(c.melds)) for c in cases]
        got = batch.is_winning(counts, melds, forms)
        assert got.dtype == np.bool_ and got.shape == (len(cases),)
        assert got.tolist() == expected
        assert any(expected) and not all(expected)


def test_waits_equals_per_hand():
    cases, counts, melds = _corpus(seed=3300, n=H.scaled(6_000), size="waiting")
    for forms in (Forms.MCR, Forms.STANDARD, Forms.SICHUAN):
        got = batch.waits(counts, melds, forms)
        assert got.dtype == np.bool_ and got.shape == (len(cases), 34)
        for i, c in enumerate(cases):
            expected = mc.waits(bytes(c.counts), forms, melds=len(c.melds))
            assert tuple(mc.Tile(t) for t in np.flatnonzero(got[i])) == expected, H.notation(c.counts, c.melds)


def test_non_numpy_buffers():
    cases, counts, melds = _corpus(seed=3400, n=H.scaled(2_000), size="waiting")
    expected = batch.shanten(counts, melds).tolist()
    raw = counts.tobytes()
    assert batch.shanten(raw, melds.tolist()).tolist() == expected  # bytes of N*34 counts
    assert batch.shanten(bytearray(raw), bytes(melds)).tolist() == expected
    view = memoryview(bytearray(raw)).cast("B", (len(cases), 34))
    assert batch.shanten(view, melds).tolist() == expected  # any 2-D uint8 buffer
    assert batch.shanten([list(c.counts) for c in cases], melds).tolist() == expected  # nested lists
    expected_waits = batch.waits(counts, melds)
    assert (batch.waits(raw, melds) == expected_waits).all()


def test_outputs_without_numpy(monkeypatch):
    """With NumPy absent the batch functions still work and return memoryviews."""
    cases, counts, melds = _corpus(seed=3500, n=300, size="waiting")
    expected_shanten = batch.shanten(counts, melds).tolist()
    expected_waits = batch.waits(counts, melds).tolist()
    monkeypatch.setattr(batch, "_np", None)
    raw = counts.tobytes()
    got = batch.shanten(raw, bytes(melds))
    assert isinstance(got, memoryview) and got.tolist() == expected_shanten
    got_waits = batch.waits(raw, bytes(melds))
    assert got_waits.shape == (len(cases), 34) and got_waits.tolist() == expected_waits
    complete = np.array([H.near_standard(random.Random(i), 0, "complete").counts for i in range(50)], dtype=np.uint8)
    got_win = batch.is_winning(complete.tobytes(), 0)
    assert got_win.tolist() == [mc.is_winning(bytes(r)) for r in complete.tolist()]


def test_empty_batch():
    empty = np.zeros((0, 34), dtype=np.uint8)
    assert batch.shanten(empty).shape == (0,)
    assert batch.is_winning(empty).shape == (0,)
    assert batch.waits(empty).shape == (0, 34)


def test_input_is_not_modified():
    cases, counts, melds = _corpus(seed=3600, n=500, size="waiting")
    before = counts.copy()
    batch.shanten(counts, melds)
    batch.waits(counts, melds)
    assert (counts == before).all()


# ---------------------------------------------------------------------------------------------
# A bad row is named by its index


def _rows_with_bad(n_rows: int, bad_index: int, bad_row):
    cases = H.mixed_cases(seed=3700, n=n_rows, size="waiting", max_melds=0)
    counts = np.array([c.counts for c in cases], dtype=np.uint8)
    counts[bad_index] = bad_row
    return counts


@pytest.mark.parametrize("bad_index", [0, 17, 99])
def test_bad_row_index_in_message(bad_index):
    five = [0] * 34
    five[3] = 5
    five[10:18] = [1] * 8
    too_many = [1] * 14 + [0] * 20  # 14 tiles where 13 are expected by waits
    too_few = [1] * 12 + [0] * 22
    for bad, fns in (
        (five, (batch.shanten, batch.waits)),
        (too_few, (batch.shanten, batch.waits)),
        (too_many, (batch.waits,)),
    ):
        counts = _rows_with_bad(100, bad_index, bad)
        for fn in fns:
            with pytest.raises(mc.InvalidHandError, match=rf"\brow {bad_index}\b"):
                fn(counts)
    complete = np.array([c.counts for c in H.mixed_cases(seed=3701, n=100, size="complete", max_melds=0)], dtype=np.uint8)
    for bad in (five, too_few):
        counts = complete.copy()
        counts[bad_index] = bad
        with pytest.raises(mc.InvalidHandError, match=rf"\brow {bad_index}\b"):
            batch.is_winning(counts)


def test_bad_per_row_meld_count_is_named():
    cases, counts, melds = _corpus(seed=3800, n=200, size="waiting")
    melds = melds.copy()
    melds[42] = (melds[42] + 1) % 5  # the tile count no longer fits
    with pytest.raises(mc.InvalidHandError, match=r"\brow 42\b"):
        batch.shanten(counts, melds)
    for impossible in (5, 7, 255):
        melds[42] = impossible
        with pytest.raises(mc.InvalidHandError, match=r"\brow 42\b"):
            batch.shanten(counts, melds)
        with pytest.raises(mc.InvalidHandError, match=r"\brow 42\b"):
            batch.shanten(counts, melds.tolist())
        with pytest.raises(mc.InvalidHandError, match=r"\brow 42\b"):
            batch.shanten(counts, melds.tobytes())
    as_int64 = melds.astype(np.int64)
    as_int64[42] = -1
    with pytest.raises(mc.InvalidHandError, match=r"\brow 42\b"):
        batch.shanten(counts, as_int64)


def test_form_not_applicable_names_row():
    cases, counts, melds = _corpus(seed=3900, n=200, size="waiting")
    first_melded = next(i for i, c in enumerate(cases) if c.melds)
    with pytest.raises(mc.InvalidHandError, match=rf"\brow {first_melded}\b"):
        batch.shanten(counts, melds, Forms.SEVEN_PAIRS)


def test_nested_list_with_short_row():
    rows = [[0] * 34 for _ in range(5)]
    rows[3] = [1] * 33
    with pytest.raises(mc.InvalidHandError, match=r"\brow 3\b"):
        batch.shanten(rows)


# ---------------------------------------------------------------------------------------------
# Threads: one Hand and the batch functions shared across a pool


def _everything(hand: mc.Hand, hand14: mc.Hand, counts, melds):
    return (
        mc.shanten(hand),
        mc.shanten(hand, Forms.STANDARD, exclude_exhausted=True),
        mc.waits(hand),
        mc.effective_tiles(hand),
        [(o.tile, o.shanten, dict(o.effective)) for o in mc.discard_options(hand14)],
        mc.decompositions(hand14),
        mc.is_winning(hand14),
        batch.shanten(counts, melds).tolist(),
        batch.waits(counts, melds).tolist(),
        batch.is_winning(counts[melds == 99]).tolist(),
    )


def test_threads_share_one_hand_and_batches():
    hand = mc.parse("[555p,1]1123m67s88sEE")  # 10 concealed tiles, one meld
    hand14 = hand.with_tile(mc.Tile.EAST)
    cases, counts, melds = _corpus(seed=4000, n=3_000, size="waiting")
    sequential = _everything(hand, hand14, counts, melds)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(_everything, hand, hand14, counts, melds) for _ in range(16)]
        results = [f.result() for f in futures]
    for r in results:
        assert r == sequential
    # The shared inputs are unchanged.
    assert mc.parse(str(hand)) == hand


def test_numpy_is_imported_by_the_first_batch_call_not_by_the_package():
    # `import mahjong_core` (and a whole game) must not pay NumPy's import or start its threads.
    import subprocess
    import sys

    code = (
        "import sys, mahjong_core, mahjong_core.game\n"
        "from mahjong_core.game import simulate\n"
        "simulate.simulate('sichuan', 3, seed=1)\n"
        "assert 'numpy' not in sys.modules, 'numpy imported early'\n"
        "row = bytes([3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25)\n"
        "out = mahjong_core.batch.shanten(row * 2)\n"
        "assert out.tolist() == [0, 0], out\n"
        "assert 'numpy' in sys.modules and type(out).__module__ == 'numpy', type(out)\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


# ---------------------------------------------------------------------------------------------
# The private kernels check their lengths (issue 11 R2) and per-row melds take NumPy integers


def test_private_kernels_check_out_and_melds_lengths():
    """`_core._batch_*` are reachable from Python: a short `out` or per-row melds array must raise,
    not write or read past its end."""
    from mahjong_core import _core
    from mahjong_core.errors import InvalidArgumentError

    rows = np.zeros((8, 34), dtype=np.uint8)
    rows[:, 0] = 3
    rows[:, 1:11] = 1  # 13 tiles each
    with pytest.raises(InvalidArgumentError, match="out must hold 8"):
        _core._batch_shanten(rows, 0, b"", 31, False, np.zeros(1, dtype=np.int8))
    with pytest.raises(InvalidArgumentError, match="out must hold 8"):
        _core._batch_is_winning(rows, 0, b"", 31, np.zeros(7, dtype=np.uint8))
    with pytest.raises(InvalidArgumentError, match=r"out must hold 272"):
        _core._batch_waits(rows, 0, b"", 31, np.zeros(34, dtype=np.uint8))
    with pytest.raises(InvalidArgumentError, match="melds_rows must be empty or hold one meld count per row"):
        _core._batch_shanten(rows, 0, bytes(2), 31, False, np.zeros(8, dtype=np.int8))
    with pytest.raises(InvalidArgumentError, match="melds_rows"):
        _core._batch_waits(rows, 0, bytes(9), 31, np.zeros(8 * 34, dtype=np.uint8))
    out = np.full(8, 7, dtype=np.int8)
    _core._batch_shanten(rows, 0, bytes(8), 31, False, out)  # exact lengths still work
    assert out.tolist() == batch.shanten(rows).tolist()


def test_numpy_integer_melds_in_a_list():
    cases, counts, melds = _corpus(seed=3900, n=60, size="waiting")
    expected = batch.shanten(counts, melds).tolist()
    as_np = [np.int64(m) for m in melds.tolist()]
    assert batch.shanten(counts, melds=as_np).tolist() == expected
    assert batch.shanten(counts[:3], melds=[np.int64(v) for v in melds[:3].tolist()]).tolist() == expected[:3]
    with pytest.raises(mc.InvalidHandError, match="row 1: melds must be 0..4"):
        batch.shanten(counts[:3], melds=[0, 1.0, 0])
    with pytest.raises(mc.InvalidHandError, match="row 2: melds must be 0..4"):
        batch.shanten(counts[:3], melds=[0, 0, np.int64(5)])


def test_fast_path_matches_general_path():
    """The one-call NumPy path and the general path (bytes input) agree, errors included."""
    cases, counts, melds = _corpus(seed=4000, n=300, size="waiting")
    raw = counts.tobytes()
    for forms in (Forms.MCR, Forms.SICHUAN, 1):
        assert batch.shanten(counts, melds, forms).tolist() == batch.shanten(raw, bytes(melds), forms).tolist()
        assert (batch.waits(counts, melds, forms) == batch.waits(raw, bytes(melds), forms)).all()
        assert batch.shanten(counts[:1], int(melds[0]), forms).tolist() == batch.shanten(raw[:34], int(melds[0]), forms).tolist()
    bad = counts.copy()
    bad[5, 0] = 5
    with pytest.raises(mc.InvalidHandError, match="row 5"):
        batch.shanten(bad, melds)
    with pytest.raises(mc.InvalidHandError, match="row 5"):
        batch.shanten(bad.tobytes(), bytes(melds))
    with pytest.raises(mc.InvalidArgumentError, match="forms must be"):
        batch.shanten(counts, melds, 0)
    with pytest.raises(mc.InvalidHandError, match="melds must be 0..4"):
        batch.shanten(counts, 5)
    with pytest.raises(mc.InvalidHandError, match="C-contiguous"):
        batch.shanten(np.asfortranarray(counts))
    with pytest.raises(mc.InvalidHandError, match="one entry per row"):
        batch.shanten(counts, melds[:-1])
