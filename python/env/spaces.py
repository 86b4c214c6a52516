"""Gymnasium spaces of a ruleset's observations and actions (one cached object per ruleset)."""

from __future__ import annotations

import functools
from typing import Any

from ._deps import gymnasium, numpy
from .layout import N_PLANES

__all__ = ["observation_space", "action_space", "OBS_HIGH"]

#: the largest value of any cell (the INFO plane's concealed-kong counts go up to 4; the rest is 0/1)
OBS_HIGH = 4


@functools.lru_cache(maxsize=None)
def observation_space(ruleset: str) -> Any:
    gym, np = gymnasium(), numpy()
    from . import action_size

    return gym.spaces.Dict({
        "observation": gym.spaces.Box(0, OBS_HIGH, (N_PLANES[ruleset], 34), np.uint8),
        "action_mask": gym.spaces.Box(0, 1, (action_size(ruleset),), np.int8),
    })


@functools.lru_cache(maxsize=None)
def action_space(ruleset: str) -> Any:
    from . import action_size

    return gymnasium().spaces.Discrete(action_size(ruleset))
