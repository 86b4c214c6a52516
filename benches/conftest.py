"""Benchmark helpers: every benchmark records how many hands one round processes
(`benchmark.extra_info["hands"]`), and the terminal summary prints ns per hand side by side with
the ratio to the fastest mahjong_core entry of the same group."""

from __future__ import annotations

import os
import sys

import pytest

# The benchmarks share `corpora.py`; with --import-mode=importlib this folder is not on sys.path.
sys.path.insert(0, os.path.dirname(__file__))

import mahjong_core as mc


@pytest.fixture(scope="session", autouse=True)
def _tables_built():
    mc.ensure_init()  # never time the one-off table build


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    groups: dict = {}
    for bench in session.benchmarks:
        hands = bench.extra_info.get("hands")
        if not hands or not getattr(bench, "stats", None):
            continue
        # Whole-process timings (start-up) report the median of their rounds, the rest the best round.
        stat = bench.stats.median if bench.extra_info.get("statistic") == "median" else bench.stats.min
        per = stat / hands * 1e9
        groups.setdefault(bench.group or "-", []).append((bench.name, per, bench.extra_info.get("ours", False)))
    if not groups:
        return
    tr = terminalreporter
    tr.write_sep("=", "ns per hand (best round; start-up: median) and ratio to the fastest mahjong_core entry")
    for group in sorted(groups):
        rows = sorted(groups[group], key=lambda r: r[1])
        ours = [r[1] for r in rows if r[2]]
        ref = min(ours) if ours else rows[0][1]
        tr.write_line(f"[{group}]")
        for name, per, is_ours in rows:
            unit = f"{per:10.1f} ns" if per < 1e5 else (f"{per / 1e3:10.1f} µs" if per < 1e8 else f"{per / 1e6:10.1f} ms")
            tr.write_line(f"  {'*' if is_ours else ' '} {name:58s} {unit}  x{per / ref:7.2f}")
