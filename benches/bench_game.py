"""Game engine throughput: complete self-play hands per second, per ruleset and bot type (one core).

Goals (issue #6): random-legal self-play >= 3,000 Sichuan hands/s and >= 1,500 MCR / Changbai
hands/s; greedy-bot self-play >= 1,000 hands/s for every ruleset. The summary prints ns per hand
(hands/s = 1e9 / that); `extra_info["goal_hands_per_s"]` records the goal next to each figure.

Each round plays the same seeded hands (hand i = seed 1, hand number i; bots seeded per hand), so
rounds and runs are comparable. MCR needs the MCR scorer (`mahjong_core.rules.mcr`); without it the
MCR rows run against the flow-only test double of tests/test_game_mcr.py and are named so (engine
overhead only).

    pytest benches/bench_game.py
    python benches/bench_game.py            # a plain hands/s table without pytest
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from contextlib import nullcontext
from typing import Any, ContextManager, Tuple

import pytest

from mahjong_core.game.registry import resolve_rules
from mahjong_core.game.simulate import _run_range

GOALS = {("sichuan", "random"): 3000, ("changbai", "random"): 1500, ("mcr", "random"): 1500,
         ("sichuan", "greedy"): 1000, ("changbai", "greedy"): 1000, ("mcr", "greedy"): 1000}
HANDS = {"random": 300, "greedy": 150}
HAVE_MCR = importlib.util.find_spec("mahjong_core.rules.mcr") is not None


def _mcr_backend() -> Tuple[str, ContextManager[Any]]:
    if HAVE_MCR:
        return "mcr", nullcontext()
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from test_game_mcr import FlowOnlyMCRDouble  # noqa: E402

    from mahjong_core.rules.mcr.flow import backend_override

    return "mcr-flow-double", backend_override(FlowOnlyMCRDouble(lambda call: 8 + 2 * call["self_drawn"]))


def _context(ruleset: str) -> Tuple[str, ContextManager[Any]]:
    return _mcr_backend() if ruleset == "mcr" else (ruleset, nullcontext())


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("ruleset", ["sichuan", "changbai", "mcr"])
def test_self_play(benchmark, ruleset, bot):
    label, context = _context(ruleset)
    n = HANDS[bot]
    with context:
        rules = resolve_rules(ruleset)
        benchmark.group = f"game: complete hands, {bot} bots"
        benchmark.name = f"{label} {bot} x4"
        benchmark.extra_info.update(hands=n, ours=True, goal_hands_per_s=GOALS[(ruleset, bot)])
        records = benchmark.pedantic(_run_range, args=(ruleset, rules, 1, (bot,) * 4, 0, n), rounds=3,
                                     iterations=1, warmup_rounds=1)
    assert len(records) == n


def main() -> None:
    import mahjong_core

    mahjong_core.ensure_init()
    print(f"{'ruleset':<18}{'bots':<8}{'hands/s':>10}{'goal':>8}")
    for ruleset in ("sichuan", "changbai", "mcr"):
        for bot in ("random", "greedy"):
            label, context = _context(ruleset)
            with context:
                rules = resolve_rules(ruleset)
                n = HANDS[bot]
                best = float("inf")
                for _ in range(3):
                    started = time.perf_counter()
                    _run_range(ruleset, rules, 1, (bot,) * 4, 0, n)
                    best = min(best, time.perf_counter() - started)
            print(f"{label:<18}{bot:<8}{n / best:>10,.0f}{GOALS[(ruleset, bot)]:>8,}")


if __name__ == "__main__":
    main()
