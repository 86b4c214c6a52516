"""The Ray backend on a local instance (ray.init(num_cpus=2), one per module, shut down at the end):
identical results to the local backend, a killed task retried and counted once, the issue's example,
and Botzone program bots started by the Ray workers themselves. (Every Ray test lives in this module:
starting a Ray instance costs seconds, so the suite starts one.)"""

from __future__ import annotations

import json
import os
import textwrap

import pytest
from eval_bots import KillerBot
from mahjong_core.game.results_file import read_results
from mahjong_core.game.simulate import simulate
from program_bots import ExampleBot, assert_same_play, example_spec, needs_proc, new_marker, running_programs


MYPKG = '''
from mahjong_core.game.bots import GreedyBot


class MyBot(GreedyBot):
    """A bot author's bot: greedy, but never claims a chow."""

    name = "mybot"

    def choose(self, game, seat, actions):
        choice = super().choose(game, seat, actions)
        if choice.kind.name == "CHOW":
            return next(a for a in actions if a.kind.name == "PASS")
        return choice
'''


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    """A two-CPU local Ray instance whose workers can import a bot author's package `mypkg`."""
    # imported here, not at collection: importing ray costs every pytest-xdist worker 0.7 s
    ray = pytest.importorskip("ray", reason='the Ray backend tests need pip install "mahjong_core[ray]"')
    root = tmp_path_factory.mktemp("authors")
    (root / "mypkg").mkdir()
    (root / "mypkg" / "__init__.py").write_text("")
    (root / "mypkg" / "bots.py").write_text(textwrap.dedent(MYPKG))
    import sys

    sys.path.insert(0, str(root))
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).strip(os.pathsep)
    # Ray workers start in the driver's working directory and put it on sys.path: inside the source
    # checkout its mahjong_core folder (no compiled extension) would shadow the installed package.
    previous = os.getcwd()
    os.chdir(root)
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}},
             logging_level="ERROR")
    try:
        yield root
    finally:
        ray.shutdown()
        os.chdir(previous)
        sys.path.remove(str(root))


def _same(a, b):
    da, db = a.to_dict(), b.to_dict()
    da.pop("timing"), db.pop("timing")
    assert da == db


def test_ray_gives_the_local_results_hand_for_hand(local_ray, tmp_path):
    bots = ["greedy", "random", "greedy", "random"]
    local = simulate("changbai", 48, seed=6, bots=bots, duplicate=True, out=str(tmp_path / "local.jsonl"))
    remote = simulate("changbai", 48, seed=6, bots=bots, duplicate=True, backend="ray", task_hands=8,
                      out=str(tmp_path / "ray.jsonl"))
    assert remote.timing["backend"] == "ray" and remote.timing["tasks"] == 6
    _same(local, remote)
    hands_local = sorted(read_results(str(tmp_path / "local.jsonl"))[1])
    assert hands_local == sorted(read_results(str(tmp_path / "ray.jsonl"))[1])
    plain = simulate("mcr", 30, seed=2, bots="random", backend="ray", task_hands=7)
    _same(simulate("mcr", 30, seed=2, bots="random"), plain)


def test_a_task_killed_mid_run_is_retried_and_counted_once(local_ray, tmp_path, monkeypatch):
    monkeypatch.setenv("EVAL_TEST_PARENT", str(os.getpid()))
    bots = [(KillerBot, {"marker": str(tmp_path / "killed"), "hand": 5}),
            "greedy", "random", "random"]
    local = simulate("sichuan", 40, seed=3, bots=bots, duplicate=True)
    assert not (tmp_path / "killed").exists()
    remote = simulate("sichuan", 40, seed=3, bots=bots, duplicate=True, backend="ray", task_hands=8)
    assert (tmp_path / "killed").exists()  # a Ray worker died in the task holding wall 5 ...
    _same(local, remote)                   # ... and the retried task was counted once


def test_the_issue_example_runs_on_ray(local_ray):
    result = simulate("sichuan", bots=["mypkg.bots:MyBot", "greedy", "greedy", "greedy"], hands=40,
                      duplicate=True, backend="ray")
    assert result.bots[0] == "mypkg.bots:MyBot" and result.hands == 40 and result.units == 10
    comparison = result.compare("mypkg.bots:MyBot", "greedy")
    assert comparison.difference.low is not None and comparison.paired_over == "walls"
    assert "95% interval" in result.table()
    _same(simulate("sichuan", bots=["mypkg.bots:MyBot", "greedy", "greedy", "greedy"], hands=40, duplicate=True),
          result)


def test_the_command_line_runs_on_ray(local_ray, capsys):
    from mahjong_core.cli import main

    assert main(["simulate", "sichuan", "--hands", "8", "--duplicate", "--bots",
                 "mypkg.bots:MyBot,greedy,greedy,greedy", "--backend", "ray", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["timing"]["backend"] == "ray" and out["bots"][0] == "mypkg.bots:MyBot"


def test_a_choose_only_bot_plays_on_ray(local_ray):
    from eval_bots import ChooseOnly

    bots = ["eval_bots:ChooseOnly", "greedy", ChooseOnly(), "random"]
    remote = simulate("sichuan", 24, seed=8, bots=bots, duplicate=True, backend="ray", task_hands=8)
    assert remote.timing["backend"] == "ray"
    _same(simulate("sichuan", 24, seed=8, bots=bots, duplicate=True), remote)


def test_the_command_line_on_ray_imports_bots_from_its_working_directory(local_ray, tmp_path, monkeypatch, capsys):
    """The Ray workers start elsewhere (the fixture's folder) and have no PYTHONPATH to this one."""
    from mahjong_core.cli import main

    (tmp_path / "raybots.py").write_text("import rayhelper\n\n\nclass FirstLegal:\n"
                                         "    def choose(self, game, seat, actions):\n"
                                         "        return rayhelper.first(actions)\n")
    (tmp_path / "rayhelper.py").write_text("def first(actions):\n    return actions[0]\n")
    import sys

    monkeypatch.setattr(sys, "path", list(sys.path))  # the command adds its working directory
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "sichuan", "--hands", "16", "--duplicate", "--bots",
                 "raybots:FirstLegal,greedy,raybots:FirstLegal,greedy", "--backend", "ray", "--task-hands", "4", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["timing"]["backend"] == "ray" and out["timing"]["tasks"] == 4
    local = simulate("sichuan", 16, bots=["raybots:FirstLegal", "greedy"] * 2, duplicate=True)
    assert out["checksum"] == local.checksum and out["bots"][0] == "raybots:FirstLegal"


@needs_proc
def test_ray_workers_start_their_own_programs(local_ray):
    """A Botzone program bot (examples/botzone_bot.py) is started by each Ray worker itself, plays as its
    in-process counterpart, and no program process outlives the run."""
    marker = new_marker()
    bots = [example_spec(marker), "greedy", "greedy", "greedy"]
    remote = simulate("mcr", 8, seed=5, rules="botzone", duplicate=True, bots=bots, backend="ray", task_hands=4)
    local = simulate("mcr", 8, seed=5, rules="botzone", duplicate=True, bots=[ExampleBot, "greedy", "greedy", "greedy"])
    assert remote.timing["backend"] == "ray" and remote.timing["tasks"] == 2
    assert_same_play(remote, local)
    assert running_programs(marker) == 0
