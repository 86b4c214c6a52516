"""Load test of the table server: N tables x 4 WebSocket clients answering at random, on 127.0.0.1.

The server runs as `mahjong-core serve` in a subprocess (so its memory is its own); the clients run
here, `concurrency` tables at a time, each client answering every decision with a random legal
action as soon as it is asked. Reported: tables per second, the answer latency (an answer sent ->
the server's "accepted"; p50 / p99), the server's CPU time per answer (the clients share the
machine: with the server's CPU well below the wall time, the clients are the bound), the server's
peak and final RSS. Nothing may be lost: every
table ends with a result, its saved log replays (verified by the engine) to the same ledger, and the
totals the clients were told are the log's.

Baseline in the same run: the same number of hands played in-process with random answers (no
network, no protocol): the ratio is the price of the server.

    pytest benches/bench_server_load.py -s          # default 24 tables, 8 at a time
    MAHJONG_CORE_LOAD_TABLES=200 MAHJONG_CORE_LOAD_CONCURRENCY=25 pytest benches/bench_server_load.py -s

Bounded: a fixed number of tables, every wait with a timeout, the server killed at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List

import pytest

pytest.importorskip("websockets", reason='the load test needs the [server] extra: pip install "mahjong_core[server]"')

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from mahjong_core.game import new_game, replay  # noqa: E402
from server_clients import WAIT, Client, play  # noqa: E402

TABLES = int(os.environ.get("MAHJONG_CORE_LOAD_TABLES", "24"))
CONCURRENCY = int(os.environ.get("MAHJONG_CORE_LOAD_CONCURRENCY", "8"))
RULESET = os.environ.get("MAHJONG_CORE_LOAD_RULESET", "sichuan")
LIMIT = 600.0  # seconds: the whole load test stops (fails) after this


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kb(pid: int) -> Dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


async def _table(url: str, rng: random.Random, latencies: List[float]) -> Dict[str, Any]:
    clients = [Client(url) for _ in range(4)]
    for c in clients:
        await c.open()
    first = await clients[0].request({"type": "join", "bots": 0}, "joined")
    for c in clients[1:]:
        await c.request({"type": "join", "table": first["table"]}, "joined")
    results = await asyncio.gather(*(play(c, random.Random(rng.random()), latencies=latencies) for c in clients))
    for c in clients:
        await c.close()
    assert all(r == results[0] for r in results), results
    return results[0]


async def _load(url: str, tables: int, concurrency: int, latencies: List[float]) -> List[Dict[str, Any]]:
    gate = asyncio.Semaphore(concurrency)
    rng = random.Random(2026)

    async def one(i: int) -> Dict[str, Any]:
        async with gate:
            return await _table(url, random.Random(rng.random() + i), latencies)

    return await asyncio.gather(*(one(i) for i in range(tables)))


def run_load(tables: int = TABLES, concurrency: int = CONCURRENCY, ruleset: str = RULESET) -> Dict[str, Any]:
    """Play `tables` tables against a fresh server; returns the figures (and checks every log).
    The server's logs go to a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="mahjong_core_load_") as log_dir:
        return _run_load_logging_to(log_dir, tables, concurrency, ruleset)


def _run_load_logging_to(log_dir: str, tables: int, concurrency: int, ruleset: str) -> Dict[str, Any]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_core", "serve", "--ruleset", ruleset, "--host", "127.0.0.1", "--port", "0",
         "--time-limit", "0", "--bot-delay", "0", "--seed", "7", "--log-dir", log_dir],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        rss_start = _rss_kb(proc.pid)["VmRSS"]
        cpu_start = _cpu_seconds(proc.pid)
        latencies: List[float] = []
        start = time.perf_counter()
        results = asyncio.run(asyncio.wait_for(_load(f"ws://127.0.0.1:{port}/ws", tables, concurrency, latencies),
                                               LIMIT))
        elapsed = time.perf_counter() - start
        rss = _rss_kb(proc.pid)
        cpu = _cpu_seconds(proc.pid) - cpu_start
    finally:
        proc.terminate()
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(WAIT)
    # nothing lost: a result per table, each log replays (verified) to the ledger and totals told
    assert len({r["table"] for r in results}) == tables
    answers = 0
    for r in results:
        with open(os.path.join(log_dir, f"{r['table']}.json")) as f:
            log = json.load(f)
        game = replay(log)   # raises ReplayError on any difference from the record
        assert game.finished and game.ledger.to_json() == log["ledger"]
        assert log["totals"] == r["totals"] and log["winners"] == r["winners"]
        answers += len(log["actions"])
    assert not [n for n in os.listdir(log_dir) if n.endswith(".table.jsonl")]  # no table left in progress
    latencies.sort()
    return {
        "tables": tables, "concurrency": concurrency, "seconds": round(elapsed, 3),
        "tables_per_s": round(tables / elapsed, 2), "answers": answers,
        "answers_per_s": round(answers / elapsed, 1),
        "latency_p50_ms": round(1000 * statistics.median(latencies), 3),
        "latency_p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 3),
        "server_cpu_s": round(cpu, 2), "server_cpu_ms_per_answer": round(1000 * cpu / answers, 3),
        "server_rss_start_mb": round(rss_start / 1024, 1), "server_rss_end_mb": round(rss["VmRSS"] / 1024, 1),
        "server_rss_peak_mb": round(rss["VmHWM"] / 1024, 1),
    }


def _in_process(hands: int, ruleset: str = RULESET) -> int:
    """The baseline: the same number of hands, random answers, no server."""
    rng = random.Random(7)
    actions = 0
    for i in range(hands):
        game = new_game(ruleset, seed=7 + i)
        while not game.finished:
            for seat, legal in game.pending().items():
                game.act(seat, rng.choice(legal))
                actions += 1
        game.log  # the server builds the log too
    return actions


@pytest.mark.benchmark(group="server-load")
def test_server_load(benchmark):
    figures: Dict[str, Any] = {}
    benchmark.pedantic(lambda: figures.update(run_load()), rounds=1, iterations=1)
    benchmark.extra_info.update(figures, hands=TABLES, ours=True)
    print("\nserver load:", json.dumps(figures))


@pytest.mark.benchmark(group="server-load")
def test_in_process_baseline(benchmark):
    benchmark.pedantic(lambda: _in_process(TABLES), rounds=3, iterations=1)
    benchmark.extra_info.update(hands=TABLES, ours=True)
