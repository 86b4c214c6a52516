"""Bots that play from observations: `ObservationBot` and `PolicyBot`.

A game-layer bot answers `choose(game, seat, actions)`. An `ObservationBot` answers
`act(observation, mask) -> code` instead — the uint8 (C, 34) observation of `encode` and the int8
mask of `legal_mask` — and its `choose` makes that call, so a trained policy plugs into `Match`,
`play_hand`, the environments' opponents and the Botzone kit (`encode(state, state.seat)`) unchanged:

    class Mine(ObservationBot):
        def act(self, observation, mask):
            return int(mask.nonzero()[0][0])

    Match("sichuan").play([Mine(), GreedyBot(), GreedyBot(), GreedyBot()], hands=8)

`PolicyBot(fn)` wraps a plain function `fn(observation, mask) -> code`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence

from mahjong_core.errors import IllegalActionError
from mahjong_core.game.bots import Bot

from ._deps import numpy
from ._encode import encode_into, mask_into
from .layout import N_PLANES

__all__ = ["ObservationBot", "PolicyBot"]


class ObservationBot(Bot):
    """Base class: override `act(observation, mask) -> int` (an action code of the ruleset)."""

    name = "observation"

    def __init__(self) -> None:
        super().__init__()
        self._buffers: Dict[str, Any] = {}

    def act(self, observation: Any, mask: Any) -> int:
        raise NotImplementedError

    def choose(self, game: Any, seat: int, actions: Sequence[Any]) -> Any:
        buffers = self._buffers.get(game.ruleset)
        if buffers is None:
            np = numpy()
            buffers = self._buffers[game.ruleset] = (
                np.zeros((N_PLANES[game.ruleset], 34), np.uint8), np.zeros(game.space.size, np.int8))
        obs, mask = buffers
        encode_into(game, seat, obs)
        mask_into(list(actions), game.space.code_of_uid, mask)
        code = self.act(obs, mask)
        action = game.space.action(int(code))
        if action not in actions:
            raise IllegalActionError(f"{type(self).__name__} chose {action!r}, not legal for seat {seat}; "
                                     f"legal: {list(actions)}")
        return action


class PolicyBot(ObservationBot):
    """An ObservationBot around `policy(observation, mask) -> code`."""

    name = "policy"

    def __init__(self, policy: Callable[[Any, Any], int], name: str = "policy") -> None:
        super().__init__()
        self.policy = policy
        self.name = name

    def act(self, observation: Any, mask: Any) -> int:
        return self.policy(observation, mask)
