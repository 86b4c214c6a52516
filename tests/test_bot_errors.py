"""A bot that fails inside a simulation: the error names the hand, the seat, the bot and how to play
that hand again, keeps the bot's own traceback (across worker processes too), and the command line
shows that traceback and one error line."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
import textwrap

import pytest

from mahjong_core import BotError
from mahjong_core.errors import IllegalActionError
from mahjong_core.game.simulate import simulate, simulated_hand

BOTS = textwrap.dedent("""
    from mahjong_core.game.bots import Bot
    from mahjong_core.game.actions import DISCARD, PASS

    class Crash(Bot):
        name = "crash"

        def choose(self, game, seat, actions):
            if len(game.rivers[seat]) >= 3:
                raise ValueError("boom after three discards")
            return actions[0]

    class Cheat(Bot):
        name = "cheat"

        def choose(self, game, seat, actions):
            return DISCARD[33] if PASS in actions else actions[0]  # a discard where only claims are asked
    """)


@pytest.fixture
def bots_module(tmp_path, monkeypatch):
    (tmp_path / "failing_bots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("workers", [1, 2])
def test_a_crashing_bot_names_its_hand_seat_and_the_replay(bots_module, workers):
    specs = ["greedy", "failing_bots:Crash", "greedy", "greedy"]
    with pytest.raises(BotError) as caught:
        simulate("sichuan", 20, seed=5, bots=specs, workers=workers)
    error = caught.value
    message = str(error)
    # (every hand crashes; with two workers the first task to fail names its first hand: 0, or the other
    # task's first)
    found = re.match(r"hand (\d+) of the run with seed 5: seat 1's bot 'crash' raised ValueError: "
                     r"boom after three discards", message)
    assert found and (workers == 2 or found.group(1) == "0"), message
    hand = int(found.group(1))
    assert f"simulated_hand('sichuan', {hand}, seed=5, bots=...)" in message
    assert 'raise ValueError("boom after three discards")' in error.bot_traceback
    assert "failing_bots.py" in error.bot_traceback
    again = pickle.loads(pickle.dumps(error))  # (how it crosses from a worker process)
    assert type(again) is BotError and str(again) == message and again.bot_traceback == error.bot_traceback
    with pytest.raises(BotError, match="seat 1's bot 'crash' raised ValueError"):
        simulated_hand("sichuan", hand, seed=5, bots=specs)  # the hand the message names fails the same way


def test_an_illegal_answer_stays_an_illegal_action_error_told_its_hand(bots_module):
    with pytest.raises(IllegalActionError) as caught:
        simulate("mcr", 40, seed=2, bots=["failing_bots:Cheat", "greedy", "greedy", "greedy"], duplicate=True)
    message = str(caught.value)
    assert message.startswith("hand ") and " of the run with seed 2: " in message and "is not legal for seat" in message
    assert "duplicate=True" in message


def test_the_command_line_shows_the_bots_traceback_then_one_error_line(bots_module):
    result = subprocess.run([sys.executable, "-m", "mahjong_core", "simulate", "sichuan", "--hands", "20",
                             "--bots", "greedy,failing_bots:Crash,greedy,greedy", "--no-progress"],
                            capture_output=True, text=True, cwd=bots_module, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):" and "failing_bots.py" in result.stderr
    assert lines[-2] == "ValueError: boom after three discards"
    assert lines[-1].startswith("error: hand 0 of the run with seed 1: seat 1's bot 'crash' raised ValueError")
