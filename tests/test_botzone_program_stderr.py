"""`ProgramBot` keeps a Botzone program's stderr (a bounded tail in memory, or a file / folder with
`stderr=`), and a crash, a time-out or an illegal answer names it: the fault (`bot.faults`, or the
`ProgramError` raised with ``on_fault="raise"``) quotes the last lines and says where the rest is."""

from __future__ import annotations

import os
import pickle
import random
import sys

import pytest

from mahjong_core.botzone.judge import STDERR_TAIL_LINES
from mahjong_core.botzone.program import ProgramBot, ProgramError
from mahjong_core.errors import InvalidArgumentError, MahjongError
from mahjong_core.game import new_game
from mahjong_core.game.bots import GreedyBot
from mahjong_core.game.botspec import bot_spec
from mahjong_core.game.simulate import play_hand, simulate

PY = sys.executable

# dies in its first turn with a traceback, after 30 lines of chatter (more than the tail keeps)
CRASH = """\
import sys
sys.stdin.readline()
for i in range(30):
    print(f"chatter {i}", file=sys.stderr)
def explode_in_turn(x):
    return 1 / x
explode_in_turn(0)
"""
# says something, then hangs
HANG = "import sys, time\nprint('thinking very hard', file=sys.stderr, flush=True)\ntime.sleep(60)\n"
# reads everything, complains, answers garbage
GARBAGE = "import sys\nsys.stdin.read()\nprint('no idea what to play', file=sys.stderr)\nprint('PLAY W1 W2')\n"
# a huge stderr line without a newline, then a crash
FLOOD = "import sys\nsys.stdin.readline()\nsys.stderr.write('x' * 200000)\nsys.exit(4)\n"


def _bot(tmp_path, body, **options):
    path = tmp_path / "bot.py"
    path.write_text(body)
    return ProgramBot([PY, str(path)], **options)


def _play(bot, seat=1, seed=9):
    game = new_game("mcr", rules="botzone", seed=seed)
    bots = [GreedyBot() for _ in range(4)]
    bots[seat] = bot
    for b in bots:
        b.new_hand(random.Random(0))
    play_hand(game, bots)
    return game


def test_a_crash_raises_with_the_traceback_when_asked_to(tmp_path):
    bot = _bot(tmp_path, CRASH, timeout=10, on_fault="raise")
    with pytest.raises(ProgramError) as caught:
        _play(bot)
    message = str(caught.value)
    assert isinstance(caught.value, MahjongError)
    assert "seat 1" in message and "exited with status 1 without answering (RE)" in message
    assert "ZeroDivisionError: division by zero" in message and "explode_in_turn" in message
    lines = message.splitlines()
    quoted = [line for line in lines if line.startswith("    ")]
    assert len(quoted) == 10 and quoted[-1] == "    ZeroDivisionError: division by zero"
    assert "chatter 0" not in message  # the last lines only
    assert "stderr='DIR/'" in lines[-1]  # where to keep it all
    assert bot.faults[-1] is caught.value


def test_a_penalised_fault_is_kept_and_the_hand_is_scored(tmp_path):
    bot = _bot(tmp_path, CRASH, timeout=10)  # on_fault="penalize", the default
    game = _play(bot)
    assert game.penalty == (1, "RE") and game.ledger.totals() == [10, -30, 10, 10]
    [fault] = bot.faults
    assert "ZeroDivisionError" in str(fault)
    # the memory tail is bounded
    assert len(bot._seats[1].program.tail) == STDERR_TAIL_LINES


def test_a_time_out_and_a_wrong_answer_quote_stderr(tmp_path):
    with pytest.raises(ProgramError, match=r"no answer within 0.5 s \(TLE\)[^\n]*\n    thinking very hard"):
        _play(_bot(tmp_path, HANG, timeout=0.5, on_fault="raise"))
    with pytest.raises(ProgramError) as caught:
        _play(_bot(tmp_path, GARBAGE, timeout=10, on_fault="raise"))
    message = str(caught.value)
    assert "answered 'PLAY W1 W2', not a legal answer here (WA; legal: " in message
    assert "    no idea what to play" in message


def test_stderr_in_a_folder_is_named_in_the_error(tmp_path):
    folder = tmp_path / "err"
    bot = _bot(tmp_path, CRASH, timeout=10, on_fault="raise", stderr=f"{folder}{os.sep}")
    with pytest.raises(ProgramError) as caught:
        _play(bot)
    path = folder / f"seat1-pid{os.getpid()}.stderr"
    text = path.read_text()
    assert text.startswith("--- hand 1 seat 1: ") and "chatter 0" in text and "explode_in_turn" in text
    message = str(caught.value)
    assert message.splitlines()[-1] == f"its full stderr: {path}"
    assert "    ZeroDivisionError: division by zero" in message and "--- hand" not in message


def test_stderr_file_collects_every_hand_and_the_tail_is_this_hands(tmp_path):
    path = tmp_path / "bot.stderr"
    bot = _bot(tmp_path, CRASH, timeout=10, stderr=str(path))
    for seed in (1, 2):
        assert _play(bot, seed=seed).penalty == (1, "RE")
    text = path.read_text()
    assert text.count("ZeroDivisionError") == 2 and "--- hand 2 seat 1" in text
    assert len(bot.faults) == 2 and "--- hand" not in str(bot.faults[1])
    assert str(bot.faults[1]).endswith(f"its full stderr: {path}")


def test_a_flood_of_stderr_stays_bounded(tmp_path):
    bot = _bot(tmp_path, FLOOD, timeout=10, on_fault="raise")
    with pytest.raises(ProgramError, match="exited with status 4") as caught:
        _play(bot)
    assert len(str(caught.value)) < 6000
    assert sum(len(piece) for piece in bot._seats[1].program.tail) <= 500 * STDERR_TAIL_LINES


def test_the_options_travel_in_specs_and_pickles(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text(GARBAGE)
    folder = f"{tmp_path / 'err'}{os.sep}"
    spec = bot_spec(f'botzone(timeout=5, stderr="{folder}", on_fault="raise"):{PY} {script}')
    bot = spec.build()
    assert (bot.stderr, bot.on_fault) == (folder, "raise") and os.path.isdir(folder)
    clone = pickle.loads(pickle.dumps(bot))
    assert (clone.stderr, clone.on_fault) == (folder, "raise")
    assert "on_fault='raise'" in repr(bot)
    with pytest.raises(ProgramError, match="not a legal answer"):
        simulate("mcr", 1, seed=1, rules="botzone", bots=[spec, "greedy", "greedy", "greedy"])


def test_bad_options_say_what_is_wrong(tmp_path):
    with pytest.raises(InvalidArgumentError, match="on_fault is one of 'penalize', 'raise'"):
        ProgramBot([PY, "-c", "pass"], on_fault="explode")
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        ProgramBot([PY, "-c", "pass"], stderr=str(tmp_path / "no" / "such" / "file.txt"))


def test_a_program_that_cannot_start_is_a_clear_error(tmp_path):
    script = tmp_path / "not_executable.sh"
    script.write_text("#!/bin/sh\necho PASS\n")
    script.chmod(0o644)
    bot = ProgramBot(str(script), timeout=5)
    with pytest.raises(MahjongError, match="cannot start: Permission denied.*chmod \\+x"):
        _play(bot)
