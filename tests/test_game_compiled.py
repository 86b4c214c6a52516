"""The game engine's hot modules are compiled by Cython from their .py files (setup.py,
GAME_HOT_MODULES). The compiled build must behave exactly like the source: this plays seeded hands
with the installed engine and with a fresh, uncompiled copy of the package's .py files, and compares
every log, final state and ledger."""

import importlib
import importlib.machinery
import json
import os
import random
import shutil
import sys

import pytest

import mahjong_core.game as installed

HOT_MODULES = ["engine", "sichuan_flow", "changbai_flow", "mcr_flow", "bots", "simulate", "wall"]

CONFIGS = [
    ("sichuan", None), ("changbai", None), ("mcr", None), ("mcr", "botzone"),
    ("sichuan", dict(forced_win_last=4, pass_lock=None, direct_kong="jiajiayou", max_fan=3, zimo_bonus="add_fan")),
    ("changbai", dict(ready_required=False, multiple_winners=False)),
]


@pytest.fixture(scope="module")
def pure(tmp_path_factory):
    """The installed game package's .py files, copied under another name and imported from source."""
    source = os.path.dirname(installed.__file__)
    target = tmp_path_factory.mktemp("pure") / "pure_game"
    target.mkdir()
    for name in os.listdir(source):
        if name.endswith(".py"):
            shutil.copy(os.path.join(source, name), target / name)
    sys.path.insert(0, str(target.parent))
    try:
        package = importlib.import_module("pure_game")
        for name in HOT_MODULES:
            module = importlib.import_module(f"pure_game.{name}")
            assert module.__file__.endswith(".py"), module.__file__
        yield package
    finally:
        sys.path.remove(str(target.parent))
        for name in [m for m in sys.modules if m == "pure_game" or m.startswith("pure_game.")]:
            del sys.modules[name]


def test_hot_modules_are_compiled_unless_opted_out():
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = {name: importlib.import_module(f"mahjong_core.game.{name}").__file__.endswith(suffixes)
                for name in HOT_MODULES}
    if os.environ.get("MAHJONG_CORE_PURE_GAME"):
        return  # built without compiling them (setup.py); nothing to check
    assert all(compiled.values()), f"not compiled: {[n for n, c in compiled.items() if not c]}"


def _play(package, ruleset, variant, bot_names, hands):
    simulate = importlib.import_module(f"{package.__name__}.simulate")
    rules = simulate.resolve_rules(ruleset, variant)
    bots = [simulate.make_bot(name) for name in bot_names]
    records = []
    for i in range(hands):
        rng = random.Random(3 * 2**32 + i)
        for bot in bots:
            bot.new_hand(rng)
        game = package.new_game(ruleset, seed=3, hand_no=i, rules=rules, dealer=i % 4)
        simulate.play_hand(game, bots)
        records.append(json.dumps([game.log, game.state(), game.ledger.to_json()], sort_keys=True, default=str))
    return records


@pytest.mark.parametrize("ruleset,variant", CONFIGS)
@pytest.mark.parametrize("bot_names", [("random",) * 4, ("greedy", "random", "greedy", "random")])
def test_compiled_engine_plays_exactly_like_the_source(pure, ruleset, variant, bot_names):
    hands = 120
    ours = _play(installed, ruleset, variant, bot_names, hands)
    theirs = _play(pure, ruleset, variant, bot_names, hands)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"{ruleset} {variant} {bot_names}: hand {i} differs"
    assert len(ours) == len(theirs) == hands
