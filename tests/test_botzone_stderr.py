"""A bot's stderr is kept and pointed at: `botzone match --stderr / --logs`, and `botzone.run`'s traceback
when `decide` raises (issue 25, item 8)."""

import json
import os
import subprocess
import sys
import tempfile

import pytest

from mahjong_core.botzone.judge import match
from mahjong_core.errors import InvalidArgumentError

# A bot that dies in its first turn with a traceback naming its own function
CRASH = """\
import sys
sys.stdin.readline()
def explode_in_turn(x):
    return 1 / x
explode_in_turn(0)
"""

# A bot that says something on stderr, then never answers
HANG = """\
import sys, time
print("thinking very hard", file=sys.stderr, flush=True)
time.sleep(30)
"""

# A quiet bot that always passes (a WA at its first own draw), never writing on stderr
QUIET = """\
import sys
sys.stdin.read()
print("PASS")
"""

# A kit bot whose decide raises: botzone.run prints the traceback, then answers the first legal action
RAISER = """\
from mahjong_core import botzone

def decide(state):
    raise ValueError("decide exploded on purpose")

botzone.run(decide)
"""

DEAL = "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2"


def _bot(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return f"{sys.executable} {path}"


def test_a_crashing_bots_traceback_is_kept_per_game_and_seat(tmp_path):
    crash = _bot(tmp_path, "crash.py", CRASH)
    err = tmp_path / "err"
    result = match(["random", crash, "random", "random"], games=2, seed=3, time_limit=30, stderr_dir=str(err))
    assert result.seats[1].penalties == {"RE": 2}
    assert sorted(os.listdir(err)) == ["game-00000-seat1.stderr", "game-00001-seat1.stderr"]
    for g, fault in enumerate(result.faults):
        path = err / f"game-{g:05d}-seat1.stderr"
        text = path.read_text()
        assert "Traceback (most recent call last)" in text and "explode_in_turn" in text
        assert text.rstrip().endswith("ZeroDivisionError: division by zero")
        assert (fault.game, fault.seat, fault.verdict, fault.stderr) == (g, 1, "RE", str(path))
        assert fault.last_line == "ZeroDivisionError: division by zero"
        assert str(path) in fault.hint() and "ZeroDivisionError" in fault.hint()
    assert result.to_dict()["faults"][0]["stderr"] == str(err / "game-00000-seat1.stderr")


def test_logs_dir_keeps_stderr_beside_the_game_logs(tmp_path):
    crash = _bot(tmp_path, "crash.py", CRASH)
    logs = tmp_path / "logs"
    match([crash, "random", "greedy", "random"], games=1, seed=1, time_limit=30, logs_dir=str(logs))
    assert sorted(os.listdir(logs)) == ["game-00000-seat0.stderr", "game-00000.json"]
    assert "explode_in_turn" in (logs / "game-00000-seat0.stderr").read_text()


def test_without_a_folder_the_hint_says_how_to_keep_stderr(tmp_path):
    result = match([_bot(tmp_path, "crash.py", CRASH), "random", "random", "random"], games=1, seed=1,
                   time_limit=30)
    [fault] = result.faults
    assert fault.stderr is None and fault.verdict == "RE"
    assert "--stderr DIR" in fault.hint()


# A bot that dies in its first turn; only in the first game (no marker file yet) it says why on stderr
CRASH_ONCE_LOUD = """\
import os, sys
sys.stdin.readline()
marker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spoke")
if not os.path.exists(marker):
    open(marker, "w").close()
    print("spoken in the first game only", file=sys.stderr, flush=True)
os._exit(3)
"""


def test_without_a_folder_a_fault_quotes_its_own_games_last_stderr_line(tmp_path):
    """The tail kept in memory is cleared at every game: game 1's silent crash quotes nothing of game 0."""
    result = match([_bot(tmp_path, "loud_once.py", CRASH_ONCE_LOUD), "random", "random", "random"], games=2,
                   seed=1, time_limit=30)
    assert [(f.game, f.verdict, f.stderr, f.last_line) for f in result.faults] == [
        (0, "RE", None, "spoken in the first game only"), (1, "RE", None, "")]
    assert "its last stderr line: spoken in the first game only" in result.faults[0].hint()
    assert "rerun with --stderr DIR" in result.faults[1].hint()


def test_a_time_out_keeps_what_the_bot_wrote(tmp_path):
    err = tmp_path / "err"
    result = match([_bot(tmp_path, "hang.py", HANG), "random", "random", "random"], games=1, seed=1,
                   time_limit=2.0, stderr_dir=str(err))
    [fault] = result.faults
    assert fault.verdict == "TLE" and fault.last_line == "thinking very hard"
    assert (err / "game-00000-seat0.stderr").read_text() == "thinking very hard\n"


def test_a_silent_bot_leaves_no_file_and_old_files_go(tmp_path):
    err = tmp_path / "err"
    err.mkdir()
    (err / "game-00000-seat2.stderr").write_text("from an earlier match\n")
    result = match(["random", "random", _bot(tmp_path, "quiet.py", QUIET), "random"], games=1, seed=1,
                   time_limit=30, stderr_dir=str(err))
    assert os.listdir(err) == []
    [fault] = result.faults
    assert fault.verdict == "WA" and fault.stderr is None and fault.seat == 2
    assert fault.stderr_kept and fault.hint() == f"game 0 seat 2 ({result.seats[2].player}): WA"


def test_unknown_command_or_bad_folder_is_a_clear_error(tmp_path):
    with pytest.raises(InvalidArgumentError, match="not a command on PATH nor a file"):
        match(["no-such-bot-program --fast", "random", "random", "random"])
    with pytest.raises(InvalidArgumentError, match="cannot split the command line"):
        match(["python 'unclosed", "random", "random", "random"])
    (tmp_path / "a_file").write_text("")
    with pytest.raises(InvalidArgumentError, match="cannot write into the folder"):
        match(["random"] * 4, stderr_dir=str(tmp_path / "a_file"))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mahjong_core", "botzone", "match", *args], capture_output=True,
                          text=True, cwd=tempfile.gettempdir(), timeout=300)


def test_cli_prints_a_hint_pointing_at_the_stderr_file(tmp_path):
    crash = _bot(tmp_path, "crash.py", CRASH)
    err = tmp_path / "err"
    out = _cli(crash, "random", "random", "greedy", "--stderr", str(err), "--time-limit", "30")
    assert out.returncode == 0, out.stderr
    path = err / "game-00000-seat0.stderr"
    assert f"game 0 seat 0 ({crash}): RE; its stderr is in {path}: ZeroDivisionError: division by zero" \
        in out.stdout.splitlines()
    assert "explode_in_turn" in path.read_text()
    out = _cli(crash, "random", "random", "greedy", "--time-limit", "30", "--json")
    assert out.returncode == 0, out.stderr
    faults = json.loads(out.stdout)["faults"]
    # No file kept: the last line comes from the tail kept in memory.
    assert faults == [{"game": 0, "seat": 0, "player": crash, "verdict": "RE", "stderr": None,
                       "last_line": "ZeroDivisionError: division by zero"}]
    out = _cli(crash, "random", "random", "greedy", "--time-limit", "30")
    assert out.returncode == 0, out.stderr
    assert (f"game 0 seat 0 ({crash}): RE; its last stderr line: ZeroDivisionError: division by zero "
            "(rerun with --stderr DIR to keep all of it)") in out.stdout.splitlines()
    out = _cli("no-such-bot-program", "random", "random", "greedy")
    assert out.returncode != 0 and "not a command on PATH" in out.stderr and "Traceback" not in out.stderr


def test_strict_exits_one_when_a_program_was_penalised(tmp_path):
    crash = _bot(tmp_path, "crash.py", CRASH)
    out = _cli(crash, "random", "random", "greedy", "--time-limit", "30", "--strict", "--json")
    assert out.returncode == 1 and json.loads(out.stdout)["faults"][0]["verdict"] == "RE", out.stderr
    out = _cli("greedy", "random", "random", "greedy", "--strict")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("option, value, says", [
    ("--seed", "-3", "seed (--seed) must be a non-negative integer, got -3"),
    ("--games", "0", "games (--games) must be a positive integer, got 0"),
    ("--time-limit", "-1", "time_limit (--time-limit) must be a positive number of seconds, got -1.0"),
])
def test_match_numbers_are_refused_on_stderr_naming_the_option(option, value, says):
    """The values as given (a seed used to be reported shifted: "got -3145728"), on stderr, status 2."""
    out = _cli("random", "random", "random", "random", option, value)
    assert out.returncode == 2 and out.stdout == "" and out.stderr == f"error: botzone match: {says}\n"
    with pytest.raises(InvalidArgumentError, match=r"\(--seed\)"):
        match(["random"] * 4, seed=True)


def test_a_failing_decide_is_counted_though_the_kit_answers_for_it(tmp_path):
    """A decide that raises costs no game (the kit answers), so no penalty shows it: the match counts
    the kit's fallback answers per seat, read off the stderr pipe or off the kept files alike."""
    raiser = _bot(tmp_path, "raiser.py", RAISER.replace("botzone.run(decide)", "botzone.run(decide, keep_running=True)"))
    piped = match([raiser, "greedy", "random", "greedy"], games=1, seed=4, keep_running=True, time_limit=30)
    kept = match([raiser, "greedy", "random", "greedy"], games=1, seed=4, keep_running=True, time_limit=30,
                 stderr_dir=str(tmp_path / "err"))
    assert piped.seats[0].fallbacks == kept.seats[0].fallbacks > 3 and piped.seats[0].penalties == {}
    assert [seat.fallbacks for seat in piped.seats[1:]] == [0, 0, 0]
    assert piped.to_dict()["seats"][0]["fallbacks"] == piped.seats[0].fallbacks
    (hint,) = piped.fallback_hints()
    assert hint.startswith(f"seat 0 ({raiser}): decide raised or answered illegally {piped.seats[0].fallbacks} time(s)")
    out = _cli(raiser, "greedy", "random", "greedy", "--seed", "4", "--keep-running", "--time-limit", "30", "--strict")
    assert out.returncode == 1 and hint in out.stdout.splitlines(), out.stdout + out.stderr


def test_run_prints_the_traceback_of_a_raising_decide_then_answers(tmp_path):
    bot = tmp_path / "raiser.py"
    bot.write_text(RAISER)
    stdin = f"3\n0 0 2\nPASS\n{DEAL}\nPASS\n2 J3\n"
    out = subprocess.run([sys.executable, str(bot)], input=stdin, capture_output=True, text=True, timeout=120,
                         cwd=tempfile.gettempdir())
    assert out.returncode == 0, out.stderr
    assert out.stdout == "PLAY W1\n"  # the first legal answer: the game goes on
    err = out.stderr
    assert "Traceback (most recent call last)" in err and f'File "{bot}"' in err and "in decide" in err
    assert "ValueError: decide exploded on purpose" in err
    # the traceback comes before the line that says what was answered instead
    assert err.index("ValueError: decide exploded") < err.index("answering Discard(1m)")


def test_run_traceback_after_a_claim(capsys):
    """decide picks the pung, then raises when asked for the discard after it: the traceback, then
    the fallback (the first legal action, here the pung, with the first discard after it)."""
    import io

    from mahjong_core.botzone.run import run
    from mahjong_core.game.actions import PUNG

    def decide(state):
        if state.phase == "after_claim":
            raise RuntimeError("no idea what to discard")
        return PUNG

    lines = ["0 1 0", "1 0 0 0 0 F1 F1 W2 W3 B4 B5 B6 T7 T8 T9 J1 J2 J3", "3 0 DRAW", "3 0 PLAY F1"]
    stdin = f"{len(lines)}\n" + "\nPASS\n".join(lines) + "\n"
    out = io.StringIO()
    run(decide, stdin=io.StringIO(stdin), stdout=out)
    err = capsys.readouterr().err
    assert "RuntimeError: no idea what to discard" in err and "Traceback" in err
    assert out.getvalue() == "PENG W2\n"  # the fallback: the first legal action, the pung, and its first discard
