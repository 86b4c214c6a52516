"""Hostile or careless input to the command line, the worker backend, replays and batch calls: each
ends in one clear error (or one line and exit 130 for Ctrl-C), never a traceback or a hang."""

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import mahjong_core as mc
from mahjong_core import batch
from mahjong_core.cli import build_parser, main
from mahjong_core.errors import InvalidArgumentError, InvalidTypeError, ReplayError
from mahjong_core.game import backends, new_game, replay
from mahjong_core.game.simulate import simulate
from mahjong_core.viz import replay_html


def _deep(levels):
    value = []
    for _ in range(levels):
        value = [value]
    return value


def _log(**fields):
    log = new_game("mcr", seed=1).log
    log.update(fields)
    return log


# ---------------------------------------------------------------------------------------------
# 1. A script without the __main__ guard: one clear stop, not five re-runs and "a bot crashed"

_SCRIPT = """
from mahjong_core.game.simulate import simulate
print("top-level code runs", flush=True)
{body}
"""


def _run_script(tmp_path, body):
    script = tmp_path / "script.py"
    script.write_text(_SCRIPT.format(body=textwrap.dedent(body)))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_a_script_without_the_main_guard_stops_at_once_naming_the_guard(tmp_path):
    out = _run_script(tmp_path, 'print(simulate("sichuan", 8, workers=2, start_method="forkserver").hands)')
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert "WorkerLostError" in out.stderr and "died while starting" in out.stderr
    assert 'if __name__ == "__main__":' in out.stderr and "script.py" in out.stderr
    assert "crashes the interpreter" not in out.stderr and "died 4 times" not in out.stderr, last
    # this process and at most one pool of two workers ran the top-level code: no retries
    assert 2 <= out.stdout.count("top-level code runs") <= 3


def test_the_same_script_with_the_guard_runs(tmp_path):
    out = _run_script(tmp_path, '''
        if __name__ == "__main__":
            print(simulate("sichuan", 8, workers=2, start_method="forkserver").hands)
    ''')
    assert out.returncode == 0, out.stderr[-2000:]
    # (a worker re-importing the script prints its unguarded line, maybe after the result)
    assert "8" in out.stdout.splitlines(), out.stdout


# ---------------------------------------------------------------------------------------------
# 2. Workers: never more than the tasks, never an absurd number

def test_a_run_uses_no_more_workers_than_it_has_tasks():
    one = simulate("sichuan", 1, seed=3, workers=8)
    assert one.timing["workers"] == 1 and one.timing["backend"] == "serial"
    two = simulate("sichuan", 8, seed=3, workers=4, task_hands=4)
    assert two.timing["tasks"] == 2 and two.timing["workers"] == 2 and two.timing["backend"] == "processes"
    spread = simulate("sichuan", 8, seed=3, workers=2)  # a small run still uses the workers asked for
    assert spread.timing["workers"] == 2 and spread.timing["tasks"] == 2
    a, b = one.to_dict(), simulate("sichuan", 1, seed=3).to_dict()
    a.pop("timing"), b.pop("timing")
    assert a == b


def test_an_absurd_number_of_workers_is_refused_before_anything_is_written(tmp_path, capsys):
    limit = backends.max_workers()
    assert limit >= 4 * (os.cpu_count() or 1)
    with pytest.raises(InvalidArgumentError, match=f"at most {limit}"):
        simulate("sichuan", 4, workers=limit + 1)
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "sichuan", "--hands", "4", "--workers", str(limit + 1), "--out", str(out),
                 "--no-progress"]) == 2
    assert f"at most {limit}" in capsys.readouterr().err and not out.exists()


# ---------------------------------------------------------------------------------------------
# 3. Faults of Botzone program bots are reported, as `botzone match` does

def _program_run(tmp_path, monkeypatch, *extra):
    monkeypatch.chdir(tmp_path)
    return main(["simulate", "mcr", "--hands", "2", "--preset", "botzone", "--no-progress",
                 "--bots", f"botzone:{sys.executable} nothere.py,greedy,greedy,greedy", *extra])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_lists_the_faults_of_a_program_that_never_starts(tmp_path, monkeypatch, capsys, workers):
    """In this process or in worker processes alike: each task returns its bots' new faults."""
    assert _program_run(tmp_path, monkeypatch, "--workers", workers) == 0
    out = capsys.readouterr().out
    assert "2 Botzone program faults" in out and "(RE)" in out and "nothere.py" in out
    assert out.index("2 Botzone program faults") > out.index("pts/hand")  # after the table
    assert _program_run(tmp_path, monkeypatch, "--workers", workers, "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["fault_count"] == len(result["faults"]) == 2 and "(RE)" in result["faults"][0]["message"]
    assert result["faults"][0]["bot"] == result["bots"][0] == f"botzone:{sys.executable} nothere.py"


def test_a_run_without_program_bots_has_no_faults(capsys):
    assert main(["simulate", "sichuan", "--hands", "2", "--no-progress", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["faults"] == [] and result["fault_count"] == 0


def test_a_result_keeps_the_latest_faults_and_counts_them_all():
    from mahjong_core.game import simulate as simulate_module

    result = simulate(
        "mcr", 8, rules="botzone", seed=1, bots=[f"botzone:{sys.executable} -c 'import sys; sys.exit(3)'", "greedy",
                                                  "greedy", "greedy"])
    assert result.fault_count == 8 and len(result.faults) == 8   # one RE a hand: each ends its hand
    kept = simulate_module.FAULTS_KEPT
    try:
        simulate_module.FAULTS_KEPT = 3
        small = simulate("mcr", 8, rules="botzone", seed=1, bots=result.bots)
    finally:
        simulate_module.FAULTS_KEPT = kept
    assert small.fault_count == 8 and [f["message"] for f in small.faults] == [f["message"] for f in result.faults][-3:]


# ---------------------------------------------------------------------------------------------
# 4. Ctrl-C: one line and exit 130

@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_during_simulate_out_says_what_was_saved(tmp_path, workers):
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "mahjong_core", "simulate", "sichuan", "--hands", "1000000",
                             "--workers", workers, "--task-hands", "50", "--out", str(out), "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to every process of the group, workers too
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the whole group: no worker left behind, whatever happened
        except ProcessLookupError:
            pass
    assert proc.returncode == 130, stderr[-3000:]
    assert "Traceback" not in stderr
    match = re.fullmatch(rf"interrupted; (\d+) hands saved to {re.escape(str(out))}: run the same command again "
                         r"to resume", stderr.strip())
    assert match, stderr
    assert int(match.group(1)) == len({(r["hand"], r["rotation"]) for r in map(json.loads, out.read_text().splitlines()[1:])})


def test_ctrl_c_in_any_command_is_one_line(monkeypatch, capsys):
    import mahjong_core.game.cli as game_cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(game_cli, "simulate", interrupted)
    assert main(["simulate", "sichuan", "--hands", "4", "--no-progress"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


# ---------------------------------------------------------------------------------------------
# 5. Corrupted logs: an error naming the field

def _bad_wall():
    log = new_game("mcr", seed=1).log
    log["wall"][3] = "x"
    return log


@pytest.mark.parametrize("log, field", [
    (_bad_wall(), "wall[3]"),
    (_log(options=5), "options"),
    (_log(ledger=True), "ledger"),
    (_log(ledger=[{"payer": 0, "payee": 9, "amount": 1}]), "ledger[0]"),
    (_log(dealer=[1]), "dealer"),
    (_log(seed=_deep(5000)), "seed"),
    (_log(totals="none"), "totals"),
])
def test_replay_html_names_the_bad_field(log, field):
    with pytest.raises(InvalidArgumentError, match=re.escape(f"log field '{field}'")):
        replay_html(log)


def test_replay_html_names_an_event_that_does_not_fit():
    log = new_game("mcr", seed=1).log
    log["events"].insert(1, {"type": "penalty", "seat": "x", "code": "WA"})  # (its caption names the seat)
    with pytest.raises(InvalidArgumentError, match="event 1 \\('penalty'\\) does not fit"):
        replay_html(log)


@pytest.mark.parametrize("field", ["ledger", "winners", "totals", "options"])
def test_replay_of_a_deeply_nested_field_names_it(field):
    """Too deep for Python's recursion ("nested too deeply"), or — Python 3.13 compares 900 levels —
    simply not what replaying gives: either way a ReplayError naming the field."""
    with pytest.raises(ReplayError, match=rf"^log field '{field}'|^{field}[\[:]"):
        replay(_log(**{field: _deep(900 if field != "options" else 5000)}))


def test_the_replay_command_gives_one_error_line_for_corrupted_logs(tmp_path, capsys):
    bad_wall = tmp_path / "badwall.json"
    bad_wall.write_text(json.dumps(_bad_wall()))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for path, words in ((bad_wall, "log field 'wall[3]'"), (deep, "too deeply")):
        assert main(["replay", str(path), "-o", str(tmp_path / "x.html")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and words in err
    assert not (tmp_path / "x.html").exists()


# ---------------------------------------------------------------------------------------------
# 6. Batch calls check their arguments as the single-hand functions do

_HANDS = np.zeros((2, 34), np.uint8)
_HANDS[:, :13] = 1


@pytest.mark.parametrize("counts", [_HANDS, _HANDS.tolist()])
@pytest.mark.parametrize("call", [batch.shanten, batch.is_winning, batch.waits])
def test_batch_refuses_what_the_scalar_functions_refuse(call, counts):
    for forms in (None, 1.0, True):
        with pytest.raises(InvalidArgumentError, match="forms must be"):
            call(counts, forms=forms)
        with pytest.raises(InvalidArgumentError, match="forms must be"):
            mc.shanten(bytes(_HANDS[0]), forms=forms)
    for melds in (None, 1.0, "1"):
        with pytest.raises(InvalidTypeError, match="melds must be"):
            call(counts, melds=melds)


@pytest.mark.parametrize("counts", [_HANDS, _HANDS.tolist()])
def test_batch_shanten_takes_exclude_exhausted_as_a_bool_only(counts):
    for flag in ("no", 1, None):
        with pytest.raises(InvalidTypeError, match="exclude_exhausted is True or False"):
            batch.shanten(counts, exclude_exhausted=flag)
    assert list(batch.shanten(counts, exclude_exhausted=True)) == [mc.shanten(bytes(_HANDS[0]), exclude_exhausted=True)] * 2


def test_batch_says_notation_text_is_not_a_batch():
    with pytest.raises(InvalidTypeError, match=r"not notation text.*parse\(text\)\.counts"):
        batch.shanten("123m456p789s1122z")
    with pytest.raises(InvalidTypeError, match=r"row 1 is notation text.*parse\(text\)\.counts"):
        batch.waits([_HANDS[0].tolist(), "123m456p789s1122z"])
    hands = ["123m456p789s1122z", "[555p,1]123m67s88sEEE"]
    assert list(batch.shanten([mc.parse(h).counts for h in hands], melds=[mc.parse(h).n_melds for h in hands])) == [0, 0]


# ---------------------------------------------------------------------------------------------
# 7. analyse: its help's examples work, --top applies to --json

def test_the_analyse_help_examples_run(capsys):
    sub = next(a for a in build_parser()._subparsers._group_actions[0].choices["analyse"]._actions if a.dest == "hand")
    examples = re.findall(r'"([^"]+)"', sub.help)
    assert len(examples) == 2
    for hand in examples:
        assert main(["analyse", hand, "--plain"]) == 0, capsys.readouterr().err
    capsys.readouterr()


def test_analyse_top_limits_the_json_discards_too(capsys):
    hand = "123m456p789s1122z3z"
    assert main(["analyse", hand, "--json"]) == 0
    everything = json.loads(capsys.readouterr().out)["discards"]
    assert len(everything) > 8  # --json without --top: all of them, as before
    assert main(["analyse", hand, "--json", "--top", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["discards"] == everything[:2]
    assert main(["analyse", hand, "--top", "2", "--plain"]) == 0
    assert capsys.readouterr().out.count("shanten ") == 2 + 1  # the hand's line and two discards
    assert main(["analyse", hand, "--plain"]) == 0
    assert capsys.readouterr().out.count("shanten ") == 8 + 1


def test_ctrl_c_while_the_driver_waits_on_its_pool_is_a_flag_it_acts_on():
    """Inside `concurrent.futures.wait` a KeyboardInterrupt could leave a future locked (and the exit
    hanging): while the driver waits, Ctrl-C only sets a flag, which it turns into KeyboardInterrupt
    itself; Python's handler is back afterwards."""
    from mahjong_core.game import backends

    with backends._deferred_ctrl_c() as interrupted:
        assert not interrupted()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)   # (the handler runs between bytecodes: no exception here)
        assert interrupted()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
