"""`BotzoneSource(state)`: a Botzone kit `BotzoneState` as an observation source, so a policy trained
on `new_game("mcr", rules="botzone")` plays on Botzone unchanged:

    from mahjong_core.env import encode, legal_mask
    from mahjong_core.env.botzone import BotzoneSource
    source = BotzoneSource(state)                 # state = BotzoneState.from_requests(...)
    action = policy(encode(source, state.seat), legal_mask(source, state.seat))

It maps the kit's fields onto the attributes `encode` reads (docs/OBSERVATION.md, "Sources"):
Botzone's MCR has no 报听, no second winner and no dealer (seat 0 starts), and the tiles left are
the sum of the four seats' walls. Once `BotzoneState` exposes these attributes itself the state can
be passed to `encode` directly and this adapter is a no-op wrapper.
"""

from __future__ import annotations

from typing import Any, List

from mahjong_core.game.actions import SPACES
from mahjong_core.game.constants import CHOOSE, PHASES

__all__ = ["BotzoneSource"]

_PHASE = {name: i for i, name in enumerate(PHASES)}
_NONE = bytes(34)


class BotzoneSource:
    """A read-only view of a `BotzoneState` with the observation-source attributes."""

    ruleset = "mcr"
    space = SPACES["mcr"]
    dealer = 0

    def __init__(self, state: Any) -> None:
        self.state = state
        self.won = [False] * 4
        self.declared = [False] * 4
        self.won_tiles: List[List[int]] = [[], [], [], []]

    @property
    def hands(self) -> List[Any]:
        st = self.state
        return [st.hand if s == st.seat else _NONE for s in range(4)]

    def __getattr__(self, name: str) -> Any:  # melds, rivers, flowers, turn, drawn, discard, discarder, kong_tile
        return getattr(self.state, name)

    @property
    def phase(self) -> int:
        return _PHASE.get(self.state.phase, CHOOSE)

    def wall_remaining(self) -> int:
        return sum(self.state.walls)

    @property
    def prevalent_wind(self) -> int:
        return self.state.quan

    def legal_actions(self, seat: int) -> List[Any]:
        return list(self.state.legal) if seat == self.state.seat else []
