"""Evaluating bots: bot specs anywhere (spawn workers), duplicate mode and its statistics, JSONL resume,
progress objects, result serialisation, the processes backend's pool (reuse, a killed worker)."""

from __future__ import annotations

import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest
from eval_bots import KillerBot
from mahjong_core.game import backends
from mahjong_core.game.bots import Bot, GreedyBot, RandomBot, make_bot
from mahjong_core.game.botspec import BotSpec, bot_spec, bot_specs, build_bot, split_bot_list
from mahjong_core.game.match import Match
from mahjong_core.game.results_file import read_results
from mahjong_core.game.simulate import compare, simulate
from mahjong_core.game.stats import estimate, t_cdf, t_quantile

from mahjong_core.cli import main
from mahjong_core.errors import InvalidArgumentError


class FirstActionBot(Bot):
    """A test-module bot: always the first legal action, or the last with `last=True`."""

    name = "first"

    def __init__(self, last: bool = False) -> None:
        super().__init__()
        self.last = last

    def choose(self, game, seat, actions):
        return actions[-1] if self.last else actions[0]


def _same(a, b):
    da, db = a.to_dict(), b.to_dict()
    da.pop("timing"), db.pop("timing")
    assert da == db


# ---------------------------------------------------------------------------------------------
# Bot specs

def test_bot_specs_resolve_names_paths_arguments_classes_and_instances():
    assert bot_spec("greedy") == BotSpec("greedy", label="greedy")
    assert isinstance(bot_spec("greedy").build(), GreedyBot)
    spec = bot_spec(f"{__name__}:FirstActionBot(last=True)")
    assert spec.kwargs == (("last", True),) and spec.label == f"{__name__}:FirstActionBot(last=True)"
    assert spec.build().last is True
    pair = bot_spec((f"{__name__}:FirstActionBot", {"last": True}))
    assert pair.kwargs == spec.kwargs and pair.build().last is True
    named = bot_spec({"bot": f"{__name__}:FirstActionBot", "args": {"last": True}, "name": "mine"})
    assert named.label == "mine" and named.build().last is True
    assert bot_spec(GreedyBot).label == "greedy"
    assert bot_spec(FirstActionBot).target == f"{__name__}:FirstActionBot"
    instance = FirstActionBot(last=True)
    inst = bot_spec(instance)
    assert inst.label == "first" and inst.build() is not instance and inst.build().last is True
    assert make_bot(instance) is instance and isinstance(make_bot("random"), RandomBot)
    assert build_bot(instance) is instance and build_bot(f"{__name__}:FirstActionBot(last=True)").last
    assert len(bot_specs("greedy")) == 4 and len(bot_specs(["greedy", "random", "random", "random"])) == 4


@pytest.mark.parametrize("bad, words", [
    ("clever", "unknown bot"),
    ("no_such_module_xyz:Bot", "cannot be imported"),
    (f"{__name__}:NoSuchBot", "has no"),
    (f"{__name__}:FirstActionBot(last=open('x'))", "literals"),
    (f"{__name__}:FirstActionBot(nope=1)", "cannot construct"),
    ("collections:OrderedDict", "choose"),
    ("greedy(", "parentheses"),
    (42, "not a bot spec"),
])
def test_bad_bot_specs_raise_errors_that_say_what_to_do(bad, words):
    with pytest.raises(InvalidArgumentError, match=words.replace("(", r"\(")):
        bot_spec(bad)


def test_bot_list_splits_only_on_top_level_commas():
    assert split_bot_list("greedy, a.b:C(x=1, y='p,q'), random") == ["greedy", "a.b:C(x=1, y='p,q')", "random"]


def test_match_takes_bot_specs():
    a = Match("sichuan", seed=4).play(["greedy", RandomBot, f"{__name__}:FirstActionBot", GreedyBot()], hands=3)
    b = Match("sichuan", seed=4).play([GreedyBot(), RandomBot(), FirstActionBot(), GreedyBot()], hands=3)
    assert a.history == b.history


def test_spawn_workers_build_a_test_module_bot_class_and_instance():
    bots = [FirstActionBot, "greedy", FirstActionBot(last=True), "random"]
    one = simulate("changbai", 60, seed=2, bots=bots)
    spawned = simulate("changbai", 60, seed=2, bots=bots, workers=2, start_method="spawn", task_hands=15)
    assert spawned.timing["tasks"] == 4 and spawned.timing["backend"] == "processes"
    _same(one, spawned)
    assert one.bots[0] == f"{__name__}:FirstActionBot" and one.bots[2] == "first"


# ---------------------------------------------------------------------------------------------
# Statistics

@pytest.mark.parametrize("df, q975", [(1, 12.706204736), (2, 4.302652730), (5, 2.570581836), (10, 2.228138852),
                                      (30, 2.042272456), (120, 1.979930405), (math.inf, 1.959963985)])
def test_t_quantiles_match_the_published_table(df, q975):
    assert t_quantile(0.975, df) == pytest.approx(q975, abs=1e-8)
    assert t_cdf(q975, df) == pytest.approx(0.975, abs=1e-9)
    assert t_quantile(0.025, df) == pytest.approx(-q975, abs=1e-8)


def test_interval_from_sums_matches_a_direct_computation():
    rng = random.Random(5)
    values = [rng.randint(-40, 60) for _ in range(37)]
    e = estimate(len(values), sum(values), sum(v * v for v in values), scale=0.25)
    mean = statistics.fmean(values) / 4
    se = statistics.stdev(values) / math.sqrt(len(values)) / 4
    assert e.mean == pytest.approx(mean) and e.se == pytest.approx(se)
    assert e.high - e.mean == pytest.approx(t_quantile(0.975, 36) * se)


def test_duplicate_plays_each_wall_four_times_with_the_bots_rotated(tmp_path):
    out = tmp_path / "d.jsonl"
    simulate("mcr", 16, seed=9, bots="greedy", duplicate=True, out=str(out))
    header, records = read_results(str(out))
    assert header["duplicate"] is True and len(records) == 16
    by_wall = {}
    for r in records:
        by_wall.setdefault(r[0], {})[r[1]] = r
    assert sorted(by_wall) == [0, 1, 2, 3] and all(sorted(v) == [0, 1, 2, 3] for v in by_wall.values())
    for rotations in by_wall.values():
        # the same deterministic bot in every seat: the same wall and dealer play out identically
        assert len({(r[2], r[3], r[4]) for r in rotations.values()}) == 1
    line = json.loads(out.read_text().splitlines()[2])
    assert line["rotation"] == 1 and line["players"] == [3, 0, 1, 2]


def test_same_bot_in_all_four_seats_differs_from_itself_by_nothing():
    greedy = simulate("sichuan", 80, seed=3, bots="greedy", duplicate=True)
    c = greedy.compare(0, 1)
    assert c.difference.mean == 0 and c.difference.contains(0) and c.p_value == 1.0   # exact: same plays
    rnd = simulate("sichuan", 400, seed=3, bots="random", duplicate=True)
    for a, b in ((0, 1), (0, 2), (1, 3)):
        c = rnd.compare(a, b)
        assert c.difference.contains(0) and c.paired_over == "walls" and c.difference.units == 100


def test_intervals_of_a_bot_against_itself_cover_zero_about_95_percent_of_the_time():
    # 40 independent small duplicate runs of random vs random: the 95% interval should miss 0 in
    # about 2 of them (P(7 or more misses) < 0.3%)
    misses = sum(not simulate("changbai", 40, seed=100 + k, bots="random", duplicate=True).compare(0, 1)
                 .difference.contains(0) for k in range(40))
    assert misses <= 6


def test_greedy_and_random_are_separated():
    c = compare("greedy", "random", "sichuan", hands=200, seed=1)
    assert c.a == "greedy" and c.b == "random"
    assert c.difference.low > 0 and c.p_value < 1e-4
    result = simulate("sichuan", 200, seed=1, bots=["greedy", "random", "random", "random"], duplicate=True)
    assert result.comparison().difference.low > 0
    assert set(result.by_bot()) == {"greedy", "random"}


# ---------------------------------------------------------------------------------------------
# Results: serialisation, progress, JSONL and resuming

def test_to_dict_is_json_and_equal_between_runs_without_timing():
    a = simulate("sichuan", 24, seed=7, bots=["greedy", "random", "greedy", "random"], duplicate=True)
    b = simulate("sichuan", 24, seed=7, bots=["greedy", "random", "greedy", "random"], duplicate=True, workers=2)
    da = json.loads(json.dumps(a.to_dict()))
    assert set(da["timing"]) >= {"elapsed_seconds", "hands_per_second", "backend", "workers"}
    _same(a, b)
    assert da["comparison"]["paired_over"] == "walls" and da["hands"] == da["games"] == 24


def test_to_pandas_gives_the_per_bot_table():
    pandas = pytest.importorskip("pandas")
    frame = simulate("sichuan", 12, seed=1, bots="greedy").to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame.index) == [0, 1, 2, 3]
    assert {"bot", "mean", "ci_low", "ci_high", "win_rate"} <= set(frame.columns)


def test_progress_accepts_anything_with_update_and_a_tqdm_bar(tmp_path):
    class Counter:
        n = 0

        def update(self, k):
            self.n += k

    counter = Counter()
    simulate("sichuan", 30, seed=1, progress=counter, workers=2)
    assert counter.n == 30
    tqdm = pytest.importorskip("tqdm")
    with open(tmp_path / "bar.txt", "w") as fh:
        bar = tqdm.tqdm(total=12, file=fh)
        simulate("sichuan", 12, seed=1, progress=bar)
        assert bar.n == 12
        bar.close()


def test_hands_and_its_old_name_games():
    _same(simulate("sichuan", hands=8, seed=2), simulate("sichuan", games=8, seed=2))
    with pytest.raises(InvalidArgumentError, match=r"multiple of 4, got 10 \(use 8 or 12\)"):
        simulate("sichuan", 10, duplicate=True)
    with pytest.raises(InvalidArgumentError, match=r"got 3 \(use 4\)"):
        simulate("sichuan", 3, duplicate=True)
    with pytest.raises(InvalidArgumentError, match="not both"):
        simulate("sichuan", hands=8, games=9)


def test_a_partial_results_file_is_resumed_without_counting_a_hand_twice(tmp_path):
    bots = ["greedy", "random", "random", "random"]
    fresh = simulate("sichuan", 80, seed=5, bots=bots, duplicate=True)
    out = tmp_path / "r.jsonl"
    simulate("sichuan", 80, seed=5, bots=bots, duplicate=True, out=str(out))
    lines = out.read_text().splitlines(keepends=True)
    # a killed run: walls 3 and 7 half written, one repeated line, a broken last line
    kept = [line for line in lines[1:] if json.loads(line)["hand"] not in (3, 7) or json.loads(line)["rotation"] < 2]
    out.write_text(lines[0] + "".join(kept[:50]) + kept[5] + kept[50][:17])
    resumed = simulate("sichuan", 80, seed=5, bots=bots, duplicate=True, out=str(out))
    _same(fresh, resumed)
    assert 0 < resumed.timing["resumed_hands"] < 80 and resumed.timing["resumed_hands"] % 4 == 0
    header, records = read_results(str(out))
    assert len(records) == 80 and len({(r[0], r[1]) for r in records}) == 80
    again = simulate("sichuan", 80, seed=5, bots=bots, duplicate=True, out=str(out))   # nothing left to play
    assert again.timing["resumed_hands"] == 80 and again.timing["tasks"] == 0
    _same(fresh, again)
    longer = simulate("sichuan", 120, seed=5, bots=bots, duplicate=True, out=str(out))  # extend the run
    assert longer.timing["resumed_hands"] == 80
    _same(simulate("sichuan", 120, seed=5, bots=bots, duplicate=True), longer)
    with pytest.raises(InvalidArgumentError, match="different run"):
        simulate("sichuan", 80, seed=6, bots=bots, duplicate=True, out=str(out))


def test_a_killed_command_line_run_resumes(tmp_path):
    out = tmp_path / "k.jsonl"
    args = ["simulate", "sichuan", "--hands", "2000", "--seed", "4", "--bots", "greedy,random,random,random",
            "--duplicate", "--out", str(out), "--no-progress", "--json"]
    # (run outside the checkout: `python -m` puts the working directory first on sys.path, where the
    # source folder would shadow the installed package)
    proc = subprocess.Popen([sys.executable, "-m", "mahjong_core", *args], stdout=subprocess.DEVNULL,
                            cwd=tempfile.gettempdir())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 200):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    partial = out.read_text().count("\n") - 1
    assert 0 < partial < 2000
    assert main(args) == 0
    _, records = read_results(str(out))
    assert len(records) == 2000 and len({(r[0], r[1]) for r in records}) == 2000


def test_simulate_command_runs_duplicate_with_an_import_path_bot(capsys, tmp_path):
    code = main(["simulate", "changbai", "--hands", "16", "--duplicate", "--bots",
                 f"{__name__}:FirstActionBot(last=False),greedy,greedy,greedy", "--json", "--progress", "none",
                 "--out", str(tmp_path / "c.jsonl")])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["bots"] == [f"{__name__}:FirstActionBot(last=False)", "greedy", "greedy", "greedy"]
    assert result["duplicate"] and result["comparison"] is not None
    assert main(["simulate", "sichuan", "--hands", "6", "--duplicate", "--no-progress"]) == 2


# ---------------------------------------------------------------------------------------------
# The processes backend

def test_the_worker_pool_is_started_once_and_reused():
    simulate("sichuan", 8, seed=1, workers=2)
    pool = backends._POOLS[(2, backends.default_start_method())]
    simulate("sichuan", 8, seed=2, workers=2)
    assert backends._POOLS[(2, backends.default_start_method())] is pool


def test_a_killed_worker_process_is_replaced_and_its_task_counted_once(tmp_path, monkeypatch):
    monkeypatch.setenv("EVAL_TEST_PARENT", str(os.getpid()))
    bots = [(KillerBot, {"marker": str(tmp_path / "killed"), "hand": 7}), "greedy", "random", "random"]
    local = simulate("sichuan", 40, seed=8, bots=bots, duplicate=True)
    assert not (tmp_path / "killed").exists()          # this process never dies
    pooled = simulate("sichuan", 40, seed=8, bots=bots, duplicate=True, workers=2, task_hands=8)
    assert (tmp_path / "killed").exists() and pooled.timing["pools_replaced"] == 1
    _same(local, pooled)


def test_optional_extras_are_imported_only_when_asked_for(monkeypatch):
    code = ("import sys, mahjong_core, mahjong_core.game.simulate, mahjong_core.game.cli, mahjong_core.league.cli\n"
            "print(sorted(m for m in ('ray', 'tqdm', 'rich', 'pandas', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir()).stdout
    assert out.strip() == "[]"
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r'pip install "mahjong_core\[ray\]"'):
        simulate("sichuan", 4, backend="ray")
    with pytest.raises(InvalidArgumentError, match="backend must be"):
        simulate("sichuan", 4, backend="dask")


def test_workers_fork_only_from_a_single_threaded_process():
    """Forking a process that runs other threads can deadlock the child (Python 3.12+ warns): the
    default start method is "fork" in a single-threaded process and "forkserver" once a thread runs,
    and the results do not depend on it — except for a bot defined in a `__main__` without a file
    (here `python -c`, as in a notebook), which only a forked worker has: it keeps "fork" and plays."""
    code = textwrap.dedent("""
        import threading, warnings
        from mahjong_core.game import backends
        from mahjong_core.game.bots import Bot
        from mahjong_core.game.botspec import bot_specs
        from mahjong_core.game.simulate import simulate

        class First(Bot):
            def choose(self, game, seat, actions):
                return actions[0]

        mine = [First, "random", "random", "random"]
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)  # Python 3.12+: fork with threads warns
            first = backends.default_start_method()
            alone = simulate("sichuan", 16, seed=3, workers=2, task_hands=4).to_dict()["by_bot"]
            stop = threading.Event()
            thread = threading.Thread(target=stop.wait)
            thread.start()
            second = backends.default_start_method()
            threaded = simulate("sichuan", 16, seed=3, workers=2, task_hands=4).to_dict()["by_bot"]
        third = backends.default_start_method(bot_specs(mine))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # (that fork, with the thread running)
            own = simulate("sichuan", 8, seed=3, workers=2, task_hands=4, bots=mine).to_dict()["by_bot"]
        stop.set()
        thread.join()
        print(first, second, third, alone == threaded, sorted(own))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=tempfile.gettempdir())
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["fork", "forkserver", "fork", "True", "['__main__:First',", "'random']"]


def test_progress_kinds_by_name(capsys):
    from mahjong_core.game.progress import make_progress

    assert make_progress("none", 5) is None
    pytest.importorskip("rich")
    bar = make_progress("rich", 8, label="x")
    simulate("sichuan", 8, seed=1, progress=bar)
    bar.close()
    assert main(["simulate", "sichuan", "--hands", "4", "--progress", "tqdm"]) == 0
    assert "4/4" in capsys.readouterr().err


def test_an_unpicklable_instance_runs_here_and_is_refused_for_workers():
    class Local(Bot):  # a local class: pickle cannot find it
        def choose(self, game, seat, actions):
            return actions[0]

    assert simulate("sichuan", 4, bots=[Local(), "greedy", "greedy", "greedy"]).hands == 4
    with pytest.raises(InvalidArgumentError, match="cannot be pickled"):
        simulate("sichuan", 4, bots=[Local(), "greedy", "greedy", "greedy"], workers=2)


def test_a_worker_builds_a_bot_once_not_once_per_task(tmp_path):
    from eval_bots import CountingBot

    log = tmp_path / "built"
    result = simulate("sichuan", 64, seed=1, bots=[(CountingBot, {"path": str(log)}), "random", "random", "random"],
                      workers=2, task_hands=8)
    assert result.timing["tasks"] == 8
    pids = log.read_text().split()
    workers = [p for p in pids if int(p) != os.getpid()]
    assert pids.count(str(os.getpid())) == 1      # the check when the spec was given
    assert 1 <= len(workers) <= 2 and len(set(workers)) == len(workers)   # one per worker process
