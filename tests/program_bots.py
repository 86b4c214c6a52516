"""Shared helpers of the Botzone-program tests (test_botzone_program_bot.py, and its Ray test in
test_game_ray.py): the example program, its strategy as an in-process engine bot, a process counter
for the leak checks, and the play comparison."""

from __future__ import annotations

import os
import sys
import uuid

import pytest

from mahjong_core import shanten
from mahjong_core.game.actions import PASS, WIN, ActionKind
from mahjong_core.game.bots import Bot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "botzone_bot.py")
PY = sys.executable

#: running_programs() reads /proc: the tests that count program processes need Linux
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc"), reason="the leak checks read /proc (Linux)")


class ExampleBot(Bot):
    """examples/botzone_bot.py's strategy as an engine bot: win when possible, never claim, discard
    the tile that leaves the lowest shanten (the first such in the legal order)."""

    def choose(self, game, seat, actions):
        if WIN in actions:
            return WIN
        discards = [a for a in actions if a.kind is ActionKind.DISCARD]
        if not discards:
            return PASS
        hand, melds = game.hand_bytes(seat), game.meld_count(seat)

        def after(action):
            h = bytearray(hand)
            h[action.arg] -= 1
            return shanten(bytes(h), melds=melds)

        return min(discards, key=after)


def new_marker() -> str:
    """A unique argument for a test's programs, so that running_programs() finds exactly them."""
    return f"mahjong-core-test-{uuid.uuid4().hex}"


def running_programs(marker: str) -> int:
    """Processes whose command line holds `marker` (the test's programs get it as an argument)."""
    count = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    count += 1
        except OSError:
            continue
    return count


def example_spec(marker: str, keep_running: bool = True, timeout: float = 10.0) -> str:
    """The bot spec that runs examples/botzone_bot.py as a Botzone program."""
    return f"botzone(keep_running={keep_running}, timeout={timeout}):{PY} {EXAMPLE} {marker}"


def assert_same_play(a, b) -> None:
    """Equal results hand for hand (the checksum covers every hand's record) and per seat."""
    assert a.checksum == b.checksum
    assert a.exhausted == b.exhausted
    for sa, sb in zip(a.seats, b.seats):
        assert (sa.points, sa.points_sq, sa.wins, sa.self_draws, sa.deal_ins) == \
               (sb.points, sb.points_sq, sb.wins, sb.self_draws, sb.deal_ins)
