"""The game's hot modules imported from their .py files, which ship beside the compiled ones: a
child process calls `install()` before it imports anything of the game, then plays the same hands
as the compiled build (tests/test_game_compiled.py, tests/test_shown.py). Imports nothing of the
package itself."""

import importlib
import importlib.abc
import importlib.util
import os
import sys

# Every module setup.py compiles from a .py file (GAME_HOT_MODULES there; test_game_compiled checks).
HOT_MODULES = [
    "mahjong_core.game.engine", "mahjong_core.game.bots", "mahjong_core.game.simulate", "mahjong_core.game.wall",
    "mahjong_core.rules.sichuan.flow", "mahjong_core.rules.changbai.flow", "mahjong_core.rules.mcr.flow",
    "mahjong_core.rules.sichuan.scoring", "mahjong_core.rules.sichuan.hand", "mahjong_core.rules.sichuan.settlement",
    "mahjong_core.rules.ledger", "mahjong_core.rules.records", "mahjong_core.rules.changbai.ready", "mahjong_core.rules.changbai.scoring",
    "mahjong_core.rules.changbai.patterns", "mahjong_core.rules.changbai.settlement",
]


class SourceFirst(importlib.abc.MetaPathFinder):
    """Finds a hot module's .py file beside its package's compiled modules."""

    def find_spec(self, name, path, target=None):
        if name not in HOT_MODULES:
            return None
        parent = importlib.import_module(name.rpartition(".")[0])
        source = os.path.join(os.path.dirname(parent.__file__), name.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(name, source)


def install():
    """Import every hot module from its source from now on (checked: none was imported before)."""
    sys.meta_path.insert(0, SourceFirst())
    for name in sorted(HOT_MODULES):
        assert importlib.import_module(name).__file__.endswith(".py"), name
