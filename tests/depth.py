"""How many random cases the sampled tests draw: the test depth (`MAHJONG_CORE_DIFF_SCALE`).

Every sampled size in the suite — the random hands the differential tests compare with a reference
or an independent implementation, the Hypothesis examples of the property tests — is written at
full depth and drawn through `scaled` / `examples`, which multiply it by the scale:

- unset: **0.3**, the quick depth of a developer's `pytest` and of the README's test command (about
  a third of the cases, chosen by the same seeds: every comparison and property still runs);
- `MAHJONG_CORE_DIFF_SCALE=1`: the full depth, which CI's second run (the release wheel, `.ci/run`)
  uses; larger values go deeper still.
"""

from __future__ import annotations

import math
import os

#: the scale when MAHJONG_CORE_DIFF_SCALE is unset (the quick depth)
QUICK_SCALE = 0.3
ENV_VAR = "MAHJONG_CORE_DIFF_SCALE"


def diff_scale() -> float:
    """The test depth: MAHJONG_CORE_DIFF_SCALE as a positive number, or QUICK_SCALE when unset."""
    raw = os.environ.get(ENV_VAR, "").strip()
    if not raw:
        return QUICK_SCALE
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{ENV_VAR} must be a number (1: full depth), got {raw!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{ENV_VAR} must be a positive finite number (1: full depth), got {raw!r}")
    return value


def scaled(n: int, minimum: int = 1) -> int:
    """`n` (a full-depth sample size) at the test depth, at least `minimum`."""
    return max(minimum, int(n * diff_scale()))


def examples(n: int) -> int:
    """Hypothesis's `max_examples` for `n` examples at full depth (at least 10 at any depth)."""
    return scaled(n, minimum=10)
