"""Learning environments: a native observation encoder, PettingZoo / Gymnasium environments, a
vector env for self-play, determinization for search bots, and bots that play from observations.

    from mahjong_core.env import encode, legal_mask, aec_env, VectorEnv
    obs = encode(game, seat)            # uint8 (C, 34), docs/OBSERVATION.md
    mask = legal_mask(game, seat)       # int8 (A,), the ruleset's ActionSpace codes

Needs the `[rl]` extra (numpy, gymnasium, pettingzoo): `pip install "mahjong_core[rl]"`. Importing
this package imports none of them; each is imported by the first call that needs it (an ImportError
naming that line when missing).

`import mahjong_core.env` registers the Gymnasium ids (mahjong_core/Sichuan-v0, MCR-v0,
Changbai-v0) without importing Gymnasium: at once if it is imported, else right after its import
(`registration`).

Modules: `layout` (the plane layout, no dependency), `registration` (the Gymnasium ids, no
dependency), `_encode` (the compiled encoder), `table` (the shared driver of one hand for the
environments), `pettingzoo_env` (`aec_env`, `parallel_env`), `gym_env` (`MahjongEnv`), `vector`
(`VectorEnv`), `render` (the table as text or a picture), `determinize`, `bots` (`ObservationBot`,
`PolicyBot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mahjong_core._lazy import lazy_exports

from .layout import LAYOUT_IDS, LAYOUT_VERSION, N_PLANES, plane_names
from .registration import register_on_import

__all__ = [
    "LAYOUT_IDS", "LAYOUT_VERSION", "N_PLANES", "plane_names", "encode", "legal_mask", "n_planes", "action_size",
    "aec_env", "parallel_env", "MahjongEnv", "VectorEnv", "determinize", "ObservationBot", "PolicyBot",
    "register_envs", "SOURCE_ATTRIBUTES",
]

_LAZY = {
    "encode": "._encode", "legal_mask": "._encode", "n_planes": "._encode", "SOURCE_ATTRIBUTES": "._encode",
    "aec_env": ".pettingzoo_env", "parallel_env": ".pettingzoo_env",
    "MahjongEnv": ".gym_env", "register_envs": ".registration",
    "VectorEnv": ".vector", "determinize": ".determinize",
    "ObservationBot": ".bots", "PolicyBot": ".bots",
}


def action_size(ruleset: str) -> int:
    """A, the number of action codes of `ruleset` (its `ActionSpace.size`)."""
    from mahjong_core.game.actions import SPACES
    from mahjong_core.game.registry import check_ruleset

    return SPACES[check_ruleset(ruleset)].size


__getattr__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # what type checkers and editors see; at run time each name loads on first use
    from ._encode import SOURCE_ATTRIBUTES, encode, legal_mask, n_planes
    from .bots import ObservationBot, PolicyBot
    from .determinize import determinize
    from .gym_env import MahjongEnv
    from .pettingzoo_env import aec_env, parallel_env
    from .registration import register_envs
    from .vector import VectorEnv


register_on_import()
