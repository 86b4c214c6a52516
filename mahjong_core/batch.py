"""Batch analysis of many hands at once, with the GIL released.

Input: a C-contiguous uint8 buffer of shape (N, 34) — a NumPy array is the natural input, but any
buffer works (a `bytes` of N*34 counts too). `melds` is one count for every row or one per row.
Outputs are NumPy arrays when NumPy is installed, otherwise `memoryview`s of the same shape.
A bad row raises InvalidHandError naming the row index.
"""

from __future__ import annotations

import importlib
import operator
from . import _core
from .errors import InvalidArgumentError, InvalidHandError, InvalidTypeError
from .tiles import Forms

TYPE_CHECKING = False  # typing is not imported at run time (start-up); checkers read True
if TYPE_CHECKING:
    from typing import Any, Tuple

_UNSET: Any = object()
_np: Any = _UNSET


def _numpy() -> Any:
    """NumPy, or None when it is not installed (it is optional). Imported on the first batch call,
    not with `mahjong_core`: importing it costs ~70 ms and starts its BLAS threads, which game
    servers and simulations that never touch `batch` should not pay for."""
    global _np
    if _np is _UNSET:
        try:
            _np = importlib.import_module("numpy")
        except ImportError:  # pragma: no cover - exercised in environments without numpy
            _np = None
    return _np

__all__ = ["shanten", "is_winning", "waits"]

_NO_MELDS = bytes(0)


def _no_rows() -> Any:
    """No hands: an empty (0, 34) array (a memoryview cannot have a zero in its shape)."""
    np = _numpy()
    if np is None:
        raise InvalidHandError("no hands given (an empty batch needs NumPy to give an empty result)")
    return np.zeros((0, 34), dtype=np.uint8)


def _rows(counts: Any) -> Tuple[Any, int]:
    """The input as a (N, 34) uint8 memoryview-compatible object, and N."""
    np = _numpy()
    if np is not None and isinstance(counts, np.ndarray):
        if counts.dtype != np.uint8:
            raise InvalidTypeError(
                f"counts must have dtype uint8, got {counts.dtype}; convert with counts.astype(numpy.uint8)"
            )
        if counts.ndim != 2 or counts.shape[1] != 34:
            raise InvalidHandError(f"counts must have shape (N, 34), got {counts.shape}")
        if not counts.flags.c_contiguous:
            raise InvalidHandError("counts must be C-contiguous; use numpy.ascontiguousarray(counts)")
        return counts, counts.shape[0]
    if isinstance(counts, (bytes, bytearray)):
        if len(counts) % 34:
            raise InvalidHandError(f"a bytes input must hold N*34 counts, got {len(counts)} bytes")
        if not counts:
            return _no_rows(), 0
        return memoryview(counts).cast("B", (len(counts) // 34, 34)), len(counts) // 34
    if isinstance(counts, str):
        raise InvalidTypeError(f"counts is a batch of hands ((N, 34) tile counts), not notation text ({counts!r}): "
                               f"for one hand call mahjong_core.shanten / is_winning / waits; for many, stack their "
                               f"counts, e.g. [parse(text).counts for text in hands] (mahjong_core.parse)")
    try:
        view = memoryview(counts)
    except TypeError:
        # A nested sequence: convert row by row (the slow, explicit path).
        rows = []
        try:
            iter(counts)
        except TypeError:
            raise InvalidTypeError(f"counts must be an (N, 34) uint8 array, N*34 bytes or N rows of 34 counts, "
                                   f"got {type(counts).__name__}") from None
        for i, r in enumerate(counts):
            if isinstance(r, str):
                raise InvalidTypeError(f"row {i} is notation text ({r!r}), not 34 tile counts: give parse(text).counts "
                                       f"(mahjong_core.parse) for each hand")
            try:
                row = bytes(r)
            except (TypeError, ValueError) as exc:
                raise InvalidHandError(f"row {i}: expected 34 counts 0..4, got {r!r} ({exc})") from None
            if len(row) != 34:
                raise InvalidHandError(f"row {i}: expected 34 counts, got {len(row)}")
            rows.append(row)
        if not rows:
            return _no_rows(), 0
        data = b"".join(rows)
        return memoryview(data).cast("B", (len(rows), 34)), len(rows)
    shape = view.shape or ()
    if view.format != "B" or len(shape) != 2 or shape[1] != 34 or not view.c_contiguous:
        raise InvalidHandError(
            f"counts must be a C-contiguous uint8 buffer of shape (N, 34); got format {view.format!r}, "
            f"shape {view.shape}"
        )
    return view, shape[0]


def _melds(melds: Any, n: int) -> Tuple[int, Any]:
    """One meld count for every row (an int) or one per row (a sequence or buffer of N counts)."""
    try:
        single = operator.index(melds)  # an int or a NumPy integer
    except TypeError:
        single = None
    if single is not None:
        if not 0 <= single <= 4:
            raise InvalidHandError(f"melds must be 0..4, got {single}")
        return single, _NO_MELDS
    if isinstance(melds, str) or not hasattr(melds, "__iter__"):
        raise InvalidTypeError(f"melds must be an int 0..4 (every row) or one count per row (a sequence or a 1-D "
                               f"integer array), got {type(melds).__name__} {melds!r}")
    if isinstance(melds, (bytes, bytearray, memoryview)):
        per_row: Any = bytes(melds)
    elif (np := _numpy()) is not None and isinstance(melds, np.ndarray):
        if melds.ndim != 1 or melds.dtype.kind not in "iu":
            raise InvalidHandError(f"per-row melds must be a 1-D integer array, got {melds.dtype} of shape {melds.shape}")
        bad = np.flatnonzero((melds < 0) | (melds > 4))
        if bad.size:
            raise InvalidHandError(f"row {bad[0]}: melds must be 0..4, got {melds[bad[0]]}")
        per_row = np.ascontiguousarray(melds, dtype=np.uint8)
    else:
        values = []
        for i, v in enumerate(melds):
            try:
                value = operator.index(v)  # an int or a NumPy integer, not 1.0 or "1"
            except TypeError:
                value = -1
            if not 0 <= value <= 4:
                raise InvalidHandError(f"row {i}: melds must be 0..4, got {v!r}")
            values.append(value)
        per_row = bytes(values)
    if len(per_row) != n:
        raise InvalidHandError(f"melds must be an int or have one entry per row ({n}), got {len(per_row)}")
    return 0, per_row


def _forms(forms: Any) -> int:
    """The forms mask as an int, range-checked before it reaches the C++ (which takes an unsigned);
    as `mahjong_core.shanten` checks it (an int or NumPy integer, not a bool)."""
    try:
        value = -1 if isinstance(forms, bool) else operator.index(forms)
    except TypeError:
        value = -1
    if not 0 < value <= int(Forms.MCR):
        raise InvalidArgumentError(
            f"forms must be a non-empty combination of Forms flags (1..31, e.g. Forms.MCR), got {forms!r}"
        )
    return value


def _empty(shape: Tuple[int, ...], kind: str) -> Tuple[Any, Any]:
    """An output array and a writable byte view of it."""
    size = 1
    for s in shape:
        size *= s
    np = _numpy()
    if np is not None:
        arr: Any = np.zeros(shape, dtype=np.int8 if kind == "b" else np.bool_)
        return arr, arr.reshape(-1).view(np.int8 if kind == "b" else np.uint8)
    buf = bytearray(size)
    flat = memoryview(buf).cast("b" if kind == "b" else "B")
    result = memoryview(buf).cast("b" if kind == "b" else "?", shape)
    return result, flat


# The common input (a NumPy uint8 array, int or uint8-array melds) goes through
# _core._batch_fast in one C call; it returns None for everything else, which the general path
# below converts and checks.
_fast = _core._batch_fast


def shanten(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR, *, exclude_exhausted: bool = False) -> Any:
    """Shanten of every row -> int8 array of length N (see `mahjong_core.shanten`)."""
    if exclude_exhausted is not True and exclude_exhausted is not False:  # (as mahjong_core.shanten: no truthiness)
        raise InvalidTypeError(f"exclude_exhausted is True or False, got {exclude_exhausted!r}")
    out = _fast(0, counts, melds, forms, exclude_exhausted, _np)
    if out is not None:
        return out
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n,), "b")
    _core._batch_shanten(rows, single, per_row, _forms(forms), exclude_exhausted, flat)
    return out


def is_winning(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR) -> Any:
    """Whether every row (14 - 3*melds tiles) is complete -> bool array of length N."""
    out = _fast(1, counts, melds, forms, False, _np)
    if out is not None:
        return out
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n,), "?")
    _core._batch_is_winning(rows, single, per_row, _forms(forms), flat)
    return out


def waits(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR) -> Any:
    """Waits of every row (13 - 3*melds tiles) -> bool array of shape (N, 34)."""
    out = _fast(2, counts, melds, forms, False, _np)
    if out is not None:
        return out
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n, 34), "?")
    _core._batch_waits(rows, single, per_row, _forms(forms), flat)
    return out
