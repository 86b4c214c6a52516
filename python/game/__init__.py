"""Game engine for all three rulesets: one hand (`new_game`), logs and `replay`, bots, matches, simulation.

    from mahjong_core.game import new_game
    game = new_game("sichuan", seed=7)
    while not game.finished:
        for seat, actions in game.pending().items():
            game.act(seat, actions[0])
    game.ledger, game.log

This layer is ruleset-blind: `registry` lists the rulesets, and each ruleset's package
(`mahjong_core.rules.<name>.flow`) supplies the `Game` subclass that plays it.

Modules: `actions` (Action objects and their integer codes), `constants` (phases, meld kinds),
`wall` (tile sets, seeded shuffle, deal layout, scripted walls), `engine` (the shared state
machine), `registry` (the rulesets), `start` (`new_game`, `replay`), `view`, `log`, `bots`, `match`
(multi-hand matches), `simulate` (self-play runner), `testing` (state checks and a scripted driver),
`cli` (the `mahjong-core simulate` command).
"""

from __future__ import annotations

from mahjong_core.errors import IllegalActionError, ReplayError, StaleActionError

from .actions import SPACES, Action, ActionKind, ActionSpace
from .engine import Game
from .log import LOG_FORMAT
from .registry import RULESETS
from .start import new_game, replay
from .wall import build_wall, shuffled_wall, tile_set

__all__ = [
    "new_game", "replay", "Game", "Action", "ActionKind", "ActionSpace", "SPACES", "RULESETS", "LOG_FORMAT",
    "build_wall", "shuffled_wall", "tile_set", "IllegalActionError", "StaleActionError", "ReplayError",
]
