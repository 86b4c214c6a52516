"""Batch analysis of many hands at once, with the GIL released.

Input: a C-contiguous uint8 buffer of shape (N, 34) — a NumPy array is the natural input, but any
buffer works (a `bytes` of N*34 counts too). `melds` is one count for every row or one per row.
Outputs are NumPy arrays when NumPy is installed, otherwise `memoryview`s of the same shape.
A bad row raises InvalidHandError naming the row index.
"""

from __future__ import annotations

from typing import Any, Tuple

from . import _core
from .errors import InvalidHandError
from .tiles import Forms

_np: Any
try:  # NumPy is optional at install
    import numpy as _np
except ImportError:  # pragma: no cover - exercised in environments without numpy
    _np = None

__all__ = ["shanten", "is_winning", "waits"]

_NO_MELDS = bytes(0)


def _rows(counts: Any) -> Tuple[Any, int]:
    """The input as a (N, 34) uint8 memoryview-compatible object, and N."""
    if _np is not None and isinstance(counts, _np.ndarray):
        if counts.dtype != _np.uint8:
            raise TypeError(
                f"counts must have dtype uint8, got {counts.dtype}; convert with counts.astype(numpy.uint8)"
            )
        if counts.ndim != 2 or counts.shape[1] != 34:
            raise ValueError(f"counts must have shape (N, 34), got {counts.shape}")
        if not counts.flags.c_contiguous:
            raise ValueError("counts must be C-contiguous; use numpy.ascontiguousarray(counts)")
        return counts, counts.shape[0]
    if isinstance(counts, (bytes, bytearray)):
        if len(counts) % 34:
            raise ValueError(f"a bytes input must hold N*34 counts, got {len(counts)} bytes")
        return memoryview(counts).cast("B", (len(counts) // 34, 34)), len(counts) // 34
    try:
        view = memoryview(counts)
    except TypeError:
        # A nested sequence: convert row by row (the slow, explicit path).
        rows = [bytes(r) for r in counts]
        for i, r in enumerate(rows):
            if len(r) != 34:
                raise InvalidHandError(f"row {i}: expected 34 counts, got {len(r)}") from None
        data = b"".join(rows)
        return memoryview(data).cast("B", (len(rows), 34)), len(rows)
    shape = view.shape or ()
    if view.format != "B" or len(shape) != 2 or shape[1] != 34 or not view.c_contiguous:
        raise ValueError(
            f"counts must be a C-contiguous uint8 buffer of shape (N, 34); got format {view.format!r}, "
            f"shape {view.shape}"
        )
    return view, shape[0]


def _melds(melds: Any, n: int) -> Tuple[int, Any]:
    if isinstance(melds, int):
        if not 0 <= melds <= 4:
            raise InvalidHandError(f"melds must be 0..4, got {melds}")
        return melds, _NO_MELDS
    if _np is not None:
        per_row = _np.ascontiguousarray(melds, dtype=_np.uint8)
    else:
        per_row = bytes(melds)
    if len(per_row) != n:
        raise ValueError(f"melds must be an int or have one entry per row ({n}), got {len(per_row)}")
    return 0, per_row


def _empty(shape: Tuple[int, ...], kind: str) -> Tuple[Any, Any]:
    """An output array and a writable byte view of it."""
    size = 1
    for s in shape:
        size *= s
    if _np is not None:
        arr: Any = _np.zeros(shape, dtype=_np.int8 if kind == "b" else _np.bool_)
        return arr, arr.reshape(-1).view(_np.int8 if kind == "b" else _np.uint8)
    buf = bytearray(size)
    flat = memoryview(buf).cast("b" if kind == "b" else "B")
    result = memoryview(buf).cast("b" if kind == "b" else "?", shape)
    return result, flat


def shanten(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR, *, exclude_exhausted: bool = False) -> Any:
    """Shanten of every row -> int8 array of length N (see `mahjong_core.shanten`)."""
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n,), "b")
    _core._batch_shanten(rows, single, per_row, int(forms), exclude_exhausted, flat)
    return out


def is_winning(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR) -> Any:
    """Whether every row (14 - 3*melds tiles) is complete -> bool array of length N."""
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n,), "?")
    _core._batch_is_winning(rows, single, per_row, int(forms), flat)
    return out


def waits(counts: Any, melds: Any = 0, forms: Forms = Forms.MCR) -> Any:
    """Waits of every row (13 - 3*melds tiles) -> bool array of shape (N, 34)."""
    rows, n = _rows(counts)
    single, per_row = _melds(melds, n)
    out, flat = _empty((n, 34), "?")
    _core._batch_waits(rows, single, per_row, int(forms), flat)
    return out
