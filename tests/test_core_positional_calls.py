"""The engine's positional hot calls `_core._shanten_melds` / `_waits_mask_melds` are exactly
`shanten(h, f, melds=m)` / `waits_mask(h, f, melds=m)`: same values, same errors."""

from __future__ import annotations

import random

import pytest

from mahjong_core import _core
from mahjong_core.tiles import Forms

PAIRS = [(_core._shanten_melds, lambda h, f, m: _core.shanten(h, f, melds=m)),
         (_core._waits_mask_melds, lambda h, f, m: _core.waits_mask(h, f, melds=m))]


def _outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as exc:  # the error's type and message are part of the contract
        return ("error", type(exc), str(exc))


def test_same_values_on_random_hands():
    rng = random.Random(3)
    checked = 0
    for _ in range(3000):
        melds = rng.randrange(5)
        size = 13 - 3 * melds + rng.randrange(2)
        pool = [t for t in range(34) for _ in range(4)]
        counts = bytearray(34)
        for t in rng.sample(pool, size):
            counts[t] += 1
        forms = rng.choice([Forms.MCR, Forms.SICHUAN, Forms.STANDARD, Forms.STANDARD | Forms.SEVEN_PAIRS])
        for fast, slow in PAIRS:
            for hand in (counts, bytes(counts)):
                assert _outcome(fast, hand, forms, melds) == _outcome(slow, hand, forms, melds)
                checked += 1
    assert checked == 12000


@pytest.mark.parametrize("args", [
    (bytearray(34), Forms.MCR, 5), (bytearray(34), 0, 0), (bytearray(33), Forms.MCR, 0),
    (bytearray(34), Forms.MCR, "1"), ("123m", Forms.MCR, 0), (None, Forms.MCR, 0), (bytearray(34), 99, 0),
])
def test_same_errors(args):
    for fast, slow in PAIRS:
        got, want = _outcome(fast, *args), _outcome(slow, *args)
        assert got == want
