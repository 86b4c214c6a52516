"""The game engine's hot modules are compiled by Cython from their .py files (setup.py,
GAME_HOT_MODULES). The compiled build must behave exactly like the source: this plays seeded hands
with the installed engine and with a fresh, uncompiled copy of the package's .py files, and compares
every log, final state and ledger."""

import importlib
import importlib.machinery
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

from seeded_play import play
from source_first import HOT_MODULES

SETUP_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "setup.py")


def test_the_list_is_setup_pys():
    """HOT_MODULES is what setup.py compiles from .py sources, so the child below plays every one
    of them from its source (a module left off would be compiled on both sides of the comparison)."""
    with open(SETUP_PY, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("GAME_HOT_MODULES = {"):]
    block = block[:block.index("}")]
    assert sorted(re.findall(r'"(mahjong_core\.[\w.]+)": "python/', block)) == sorted(HOT_MODULES)
CONFIGS = [
    ("sichuan", None), ("changbai", None), ("mcr", None),
    ("mcr", dict(mil_concealed_melded_kong=True, flowers=True, strict_context=False)),
    ("sichuan", dict(forced_win_last=4, pass_lock=None, direct_kong="jiajiayou", max_fan=3, zimo_bonus="add_fan")),
    ("changbai", dict(ready_required=False, multiple_winners=False)),
]


# A child process imports every hot module from its .py file (which ships beside the compiled one)
# through a meta-path finder, then plays the same hands; its records must equal the in-process ones.
# One child per test process plays every comparison's hands from the source, a request a line: a
# child's start (Python, then every hot module imported from its .py file) costs ~0.25 s, as much as
# 120 of its hands, and this module asks for 24 comparisons.
_SOURCE_PLAYER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import source_first
source_first.install()
from seeded_play import play
for line in sys.stdin:
    print(json.dumps(play(*json.loads(line))), flush=True)
"""


@pytest.fixture(scope="module")
def play_from_source(tmp_path_factory):
    """`play_from_source(ruleset, variant, bot_names, hands, first=0)`: asks the source player for
    `play`'s result and returns a function that waits for it — the child plays while this process
    plays the same hands compiled."""
    errors = open(tmp_path_factory.mktemp("source_player") / "stderr.txt", "w+", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", _SOURCE_PLAYER, os.path.dirname(os.path.abspath(__file__))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True, cwd=tempfile.gettempdir())

    def play_from_source(ruleset, variant, bot_names, hands, first=0):
        child.stdin.write(json.dumps([ruleset, variant, list(bot_names), hands, first]) + "\n")
        child.stdin.flush()

        def answer():
            line = child.stdout.readline()
            if not line:
                child.wait(timeout=30)
                errors.seek(0)
                pytest.fail(f"the source player stopped (exit status {child.returncode}): {errors.read()[-3000:]}")
            return json.loads(line)
        return answer

    yield play_from_source
    child.stdin.close()
    child.wait(timeout=30)
    errors.close()


def test_hot_modules_are_compiled_unless_opted_out():
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = {name: importlib.import_module(name).__file__.endswith(suffixes) for name in HOT_MODULES}
    if os.environ.get("MAHJONG_CORE_PURE_GAME"):
        return  # built without compiling them (setup.py); nothing to check
    assert all(compiled.values()), f"not compiled: {[n for n, c in compiled.items() if not c]}"


PXD = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python", "pxd", "mahjong_core")


def _declared_fields(pxd_path):
    with open(pxd_path, encoding="utf-8") as f:
        return [line.split()[3] for line in f if line.strip().startswith("cdef public ")]


@pytest.mark.parametrize("module,cls,pxd", [
    ("mahjong_core.game.engine", "Game", "game/engine.pxd"),
    ("mahjong_core.rules.sichuan.flow", "SichuanGame", "rules/sichuan/flow.pxd"),
    ("mahjong_core.rules.changbai.flow", "ChangbaiGame", "rules/changbai/flow.pxd"),
    ("mahjong_core.rules.mcr.flow", "MCRGame", "rules/mcr/flow.pxd"),
])
def test_extension_type_fields_are_the_slots(module, cls, pxd):
    """Compiled, the game classes are extension types whose fields python/pxd declares; the .py
    classes keep the same names in __slots__. A name in one and not the other would be an
    AttributeError in one build only."""
    klass = getattr(importlib.import_module(module), cls)
    slots = [name for name in klass.__dict__["__slots__"] if name != "__weakref__"]
    assert sorted(_declared_fields(os.path.join(PXD, pxd))) == sorted(slots)
    if not importlib.import_module(module).__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        return  # a pure build: plain slotted classes
    assert not klass.__flags__ & (1 << 9), f"{cls} should be an extension type (not a heap type)"
    for name in slots:
        assert type(klass.__dict__[name]).__name__ == "getset_descriptor", name


@pytest.mark.parametrize("ruleset,variant", CONFIGS)
@pytest.mark.parametrize("bot_names", [("random",) * 4, ("greedy", "random", "greedy", "random")])
def test_compiled_engine_plays_exactly_like_the_source(ruleset, variant, bot_names, play_from_source):
    hands = 120
    source = play_from_source(ruleset, variant, bot_names, hands)
    ours = play(ruleset, variant, bot_names, hands)
    theirs = source()
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"{ruleset} {variant} {bot_names}: hand {i} differs"
    assert len(ours) == len(theirs) == hands


#: the long differential run: 2,000 seeded hands per ruleset with mixed bots, in chunks so that
#: pytest-xdist spreads them over its workers
LONG_HANDS, LONG_CHUNK = 2000, 500


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, LONG_HANDS, LONG_CHUNK))
@pytest.mark.parametrize("ruleset", ["sichuan", "changbai", "mcr"])
def test_compiled_engine_plays_2000_hands_like_the_source(ruleset, first, play_from_source):
    bot_names = ("greedy", "random", "random", "greedy")
    source = play_from_source(ruleset, None, bot_names, LONG_CHUNK, first)
    ours = play(ruleset, None, bot_names, LONG_CHUNK, first)
    theirs = source()
    assert len(ours) == len(theirs) == LONG_CHUNK
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"{ruleset} {bot_names}: hand {first + i} differs"
