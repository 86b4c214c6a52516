"""A bot is anything with `choose(game, seat, actions)`: `new_hand` and `release` are optional hooks
everywhere a bot is accepted (simulate on every backend, Match, leagues, bot specs), and the
command line imports `module:Class` specs from its working directory, in its workers too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from eval_bots import ChooseOnly, first_action_bot
from mahjong_core.game.botspec import bot_spec
from mahjong_core.game.match import Match
from mahjong_core.game.simulate import simulate
from mahjong_core.league import League, play_league

from mahjong_core.errors import InvalidArgumentError


def _same(a, b):
    da, db = a.to_dict(), b.to_dict()
    for d in (da, db):
        d.pop("timing")
        d.pop("bots")
        d.pop("by_bot")
        d.pop("comparison")
        for seat in d["seats"]:
            seat.pop("bot")
    assert da == db


@pytest.mark.parametrize("spec", ["eval_bots:ChooseOnly", ChooseOnly, ChooseOnly()])
def test_a_choose_only_bot_plays_like_the_same_bot_built_on_bot(spec):
    reference = simulate("sichuan", 24, seed=5, bots=[first_action_bot(), "greedy"] * 2, duplicate=True)
    duck = simulate("sichuan", 24, seed=5, bots=[spec, "greedy"] * 2, duplicate=True)
    _same(reference, duck)
    assert duck.seats[0].mean < duck.seats[1].mean  # the first legal action loses to greedy


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_a_choose_only_bot_plays_on_worker_processes(start_method):
    local = simulate("changbai", 16, seed=2, bots=["eval_bots:ChooseOnly", "random"] * 2, duplicate=True)
    pooled = simulate("changbai", 16, seed=2, bots=["eval_bots:ChooseOnly", "random"] * 2, duplicate=True,
                      workers=2, task_hands=4, start_method=start_method)
    assert pooled.timing["backend"] == "processes"
    _same(local, pooled)


def test_a_match_plays_choose_only_bots():
    duck = Match("mcr", seed=4).play([ChooseOnly(), ChooseOnly, "eval_bots:ChooseOnly", "greedy"], hands=3)
    reference = Match("mcr", seed=4).play([first_action_bot(), first_action_bot(), first_action_bot(), "greedy"],
                                          hands=3)
    assert duck.history == reference.history and duck.hand_no == 3


def test_a_league_ranks_choose_only_bots():
    league = League([bot_spec({"bot": "eval_bots:ChooseOnly", "name": "first"}), bot_spec("greedy"),
                     bot_spec({"bot": ChooseOnly(), "name": "first-instance"}), bot_spec("random"),
                     bot_spec({"bot": "greedy", "name": "greedy-2"})], ruleset="sichuan", hands=8)
    standings = play_league(league)
    assert {s.bot for s in standings.standings} == {"first", "greedy", "first-instance", "random", "greedy-2"}
    assert all(s.tables == 4 for s in standings.standings)


class _NoChoose:
    def new_hand(self, rng):
        pass


def test_an_object_without_choose_is_refused_with_what_a_bot_needs():
    with pytest.raises(InvalidArgumentError, match=r"no choose\(game, seat, actions\) method.*optional"):
        simulate("sichuan", 4, bots=_NoChoose)
    with pytest.raises(InvalidArgumentError, match="bot spec"):
        simulate("sichuan", 4, bots=_NoChoose())


# -- the working directory of the command line, seen by its workers --------------------------------

BOTS_MODULE = """
import helper_{tag}


class FirstLegal:
    def choose(self, game, seat, actions):
        return helper_{tag}.first(actions)
"""


def _bot_folder(path, tag):
    """A folder with a bot module that imports a sibling module (both found only through that folder)."""
    (path / f"mybots_{tag}.py").write_text(textwrap.dedent(BOTS_MODULE.format(tag=tag)))
    (path / f"helper_{tag}.py").write_text("def first(actions):\n    return actions[0]\n")
    return f"mybots_{tag}:FirstLegal"


def _console_script():
    exe = os.path.join(os.path.dirname(sys.executable), "mahjong-core")
    if not os.path.exists(exe):
        pytest.skip("the mahjong-core console script is not installed beside this Python")
    return exe


@pytest.mark.parametrize("workers", [1, 2])
def test_the_command_line_imports_bots_from_its_working_directory(tmp_path, workers):
    spec = _bot_folder(tmp_path, f"cli{workers}")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([_console_script(), "simulate", "sichuan", "--hands", "8", "--duplicate", "--json",
                          "--no-progress", "--workers", str(workers), "--bots", f"{spec},greedy,{spec},greedy"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["bots"][0] == spec and out["hands"] == 8 and out["timing"]["workers"] == workers
    reference = simulate("sichuan", 8, bots=[first_action_bot(), "greedy"] * 2, duplicate=True)
    assert out["checksum"] == reference.checksum


def test_spawned_workers_import_a_bot_from_the_folder_the_driver_found_it_in(tmp_path, monkeypatch):
    spec = _bot_folder(tmp_path, "spawn")
    monkeypatch.syspath_prepend(str(tmp_path))
    resolved = bot_spec(spec)  # imported here: the spec records the module's file
    monkeypatch.undo()  # spawned workers get this process's sys.path: without the folder
    assert str(tmp_path) not in sys.path and resolved.file == str(tmp_path / "mybots_spawn.py")
    pooled = simulate("sichuan", 8, bots=[resolved, "greedy"] * 2, duplicate=True, workers=2, task_hands=4,
                      start_method="spawn")
    assert pooled.checksum == simulate("sichuan", 8, bots=[first_action_bot(), "greedy"] * 2,
                                       duplicate=True).checksum


def test_start_hand_honours_a_random_bots_own_new_hand():
    """start_hand sets a RandomBot's stream in place only while the bot keeps Bot.new_hand: a hook
    set on the instance (or a subclass's) is still called."""
    import random as _random

    from mahjong_core.game.bots import RandomBot, start_hand

    plain, hooked, forwarding, target = RandomBot(), RandomBot(), RandomBot(), RandomBot()
    seen = []
    hooked.new_hand = lambda rng: seen.append(rng)
    forwarding.new_hand = target.new_hand  # Bot.new_hand, bound to another bot
    rng = _random.Random(5)
    start_hand([plain, hooked, forwarding], rng)
    assert plain.rng is rng and seen == [rng] and hooked.rng is not rng
    assert target.rng is rng and forwarding.rng is not rng


@pytest.mark.parametrize("key", [0, 1, 7 * 2**32 + 3, (5 * 2**32 + 9) * 4 + 3, 2**200 + 11, -12345, "a-string", 2.5])
def test_hand_stream_is_random_random_of_its_key(key):
    """The bots' per-hand stream is built without Random.__init__'s Python frames: the same
    generator in the same state as `random.Random(key)` (simulate's documented stream)."""
    import random as _random

    from mahjong_core.game.bots import hand_stream

    ours, theirs = hand_stream(key), _random.Random(key)
    assert type(ours) is _random.Random and vars(ours) == vars(theirs)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] + [ours.gauss(0, 1)] == [theirs.random() for _ in range(5)] + [theirs.gauss(0, 1)]
