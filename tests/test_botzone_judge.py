"""The Botzone table against the real judge, live (skipped unless the judge binary is available).

Build judge/main.cpp of github.com/ailab-pku/Chinese-Standard-Mahjong yourself (it has no licence:
never commit it; see tests/data/botzone/README.md for how) and point $BOTZONE_JUDGE at the binary.
Games are played in lockstep on the judge and on `mahjong_core.botzone.Table` with deterministic
protocol bots, probing alternative answers at every round (tests/botzone_differential.py);
$BOTZONE_JUDGE_GAMES sets how many (default 24).
"""

import os

import pytest

from botzone_judge_driver import judge_path

JUDGE = judge_path()
pytestmark = pytest.mark.skipif(JUDGE is None, reason="set BOTZONE_JUDGE to a built Botzone judge binary")
GAMES = int(os.environ.get("BOTZONE_JUDGE_GAMES", "24"))


def test_lockstep_with_the_real_judge():
    from botzone_differential import lockstep

    problems, probes = [], 0
    for game in range(5000, 5000 + GAMES):
        _, found, made = lockstep(JUDGE, game, probes=2)
        problems += found
        probes += made
    assert problems == [] and probes > GAMES
