"""Gymnasium spaces of a ruleset's observations and actions.

Every call builds new space objects: a space carries its own random stream (`space.seed(...)`,
`space.sample(mask)`), so each environment — and each PettingZoo agent — holds its own, and
seeding or sampling one never moves another's (PettingZoo's `seed_test` samples two environments'
spaces in lockstep)."""

from __future__ import annotations

from typing import Any

from ._deps import gymnasium, numpy
from .layout import N_PLANES

__all__ = ["observation_space", "action_space", "OBS_HIGH"]

#: the largest value of any cell (the INFO plane's concealed-kong counts go up to 4; the rest is 0/1)
OBS_HIGH = 4


def observation_space(ruleset: str) -> Any:
    """A new `Dict({"observation": Box(0, 4, (C, 34), uint8), "action_mask": Box(0, 1, (A,), int8)})`."""
    gym, np = gymnasium(), numpy()
    from . import action_size

    return gym.spaces.Dict({
        "observation": gym.spaces.Box(0, OBS_HIGH, (N_PLANES[ruleset], 34), np.uint8),
        "action_mask": gym.spaces.Box(0, 1, (action_size(ruleset),), np.int8),
    })


def action_space(ruleset: str) -> Any:
    """A new `Discrete(A)`: the codes of the ruleset's ActionSpace."""
    from . import action_size

    return gymnasium().spaces.Discrete(action_size(ruleset))
