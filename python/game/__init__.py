"""Game engine for all three rulesets: one hand (`new_game`), logs and `replay`, bots, matches, simulation.

    from mahjong_core.game import new_game
    game = new_game("sichuan", seed=7)
    while not game.finished:
        for seat, actions in game.pending().items():
            game.act(seat, actions[0])
    game.ledger, game.log

Modules: `actions` (Action objects and their integer codes), `wall` (tile sets, seeded shuffle, deal
layout, scripted walls), `engine` (the shared state machine), `sichuan_flow` / `changbai_flow` /
`mcr_flow` (ruleset rules on top of it), `view`, `log` (logs and replay), `bots`, `match`
(multi-hand matches), `simulate` (self-play runner and the `simulate` command).
"""

from __future__ import annotations

import argparse

from .actions import SPACES, Action, ActionKind, ActionSpace
from .engine import Game
from .log import LOG_FORMAT, replay
from .rulesets import RULESETS, new_game
from .wall import build_wall, shuffled_wall, tile_set

__all__ = [
    "new_game", "replay", "Game", "Action", "ActionKind", "ActionSpace", "SPACES", "RULESETS", "LOG_FORMAT",
    "build_wall", "shuffled_wall", "tile_set", "configure_simulate_cli", "run_simulate_cli",
]


def configure_simulate_cli(parser: "argparse.ArgumentParser") -> None:
    """Add the `simulate <ruleset>` options (see mahjong_core.game.simulate)."""
    from .simulate import configure_simulate_cli as configure

    return configure(parser)


def run_simulate_cli(args: "argparse.Namespace") -> int:
    """Run `simulate <ruleset>` (see mahjong_core.game.simulate)."""
    from .simulate import run_simulate_cli as run

    return run(args)
