"""Scaling a simulation: worker processes and Ray against one worker, measured in the same run.

Goals (issue 17): the processes backend with 2 workers >= 1.8x one worker for >= 3,000 hands (the
pool is started once and reused, so a warm-up run pays its start-up); Ray on a local instance
(`ray.init(num_cpus=2)`) >= 1.6x one worker; and the figures a cluster estimate needs — tasks/s
and the cost of one task (empty tasks: submit, build the bots, return a tally), and from those a
paper estimate of hands/s on a 100-node cluster (docs/SCALING.md).

    pytest benches/bench_eval.py            # the speed-up ratios as benchmarks (one round each)
    python benches/bench_eval.py [hands]    # a plain report, incl. the Ray figures and the estimate

Everything uses the same seeded Sichuan hands (greedy vs random bots), so every run plays the
same games; the results of all backends are compared for equality on the way.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Dict

import pytest
from mahjong_core.game.backends import Job, shutdown_pools
from mahjong_core.game.botspec import bot_specs
from mahjong_core.game.registry import resolve_rules
from mahjong_core.game.simulate import play_task, simulate

RULESET = "sichuan"
BOTS = ["greedy", "random", "random", "random"]
HANDS = 3000
#: assumptions of the paper estimate
NODES, CORES_PER_NODE = 100, 16


def _timed(**options: Any) -> Any:
    started = time.perf_counter()
    result = simulate(RULESET, options.pop("hands", HANDS), seed=1, bots=BOTS, **options)
    return time.perf_counter() - started, result


def _same(a: Any, b: Any) -> None:
    da, db = a.to_dict(), b.to_dict()
    da.pop("timing"), db.pop("timing")
    assert da == db, "backends disagree"


def measure_processes(hands: int = HANDS) -> Dict[str, float]:
    simulate(RULESET, 40, seed=2, bots=BOTS, workers=2)  # start the pool (kept for the timed run)
    one, r1 = _timed(hands=hands)
    two, r2 = _timed(hands=hands, workers=2)
    _same(r1, r2)
    return {"one_worker_s": one, "two_workers_s": two, "speedup": one / two, "hands_per_s_1": hands / one}


def measure_ray(hands: int = HANDS) -> Dict[str, float]:
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    simulate(RULESET, 40, seed=2, bots=BOTS, backend="ray", task_hands=20)  # warm the workers
    one, r1 = _timed(hands=hands)
    both, r2 = _timed(hands=hands, backend="ray")
    _same(r1, r2)
    # the cost of one task: empty tasks (0 hands) through the same remote function
    from mahjong_core.game.backends import _RAY_REMOTE

    job = Job(RULESET, resolve_rules(RULESET), 1, bot_specs(BOTS), True)
    ref = ray.put(job)
    n = 400
    started = time.perf_counter()
    ray.get([_RAY_REMOTE[0].remote(play_task, ref, 0, 0, False) for _ in range(n)])
    empty = time.perf_counter() - started
    tasks_per_s = n / empty
    per_task_cpu = empty * 2 / n  # two CPUs busy with the empty tasks
    task_hands = r2.timing["task_hands"]
    task_seconds = task_hands / (hands / one)
    return {"one_worker_s": one, "ray_s": both, "speedup": one / both, "tasks": r2.timing["tasks"],
            "task_hands": task_hands, "tasks_per_s": tasks_per_s, "overhead_per_task_ms": per_task_cpu * 1e3,
            "overhead_fraction": per_task_cpu / task_seconds, "hands_per_s_1": hands / one}


def cluster_estimate(hands_per_s_core: float, tasks_per_s: float, task_hands: int, efficiency: float
                     ) -> Dict[str, float]:
    """hands/s of NODES x CORES_PER_NODE cores: the cores' rate at the measured efficiency, capped
    by how many results the one driver takes per second (tasks/s x hands per task)."""
    cores = NODES * CORES_PER_NODE
    compute = cores * hands_per_s_core * efficiency
    driver = tasks_per_s * task_hands
    return {"cores": cores, "compute_bound": compute, "driver_bound": driver, "estimate": min(compute, driver)}


# ---------------------------------------------------------------------------------------------
# pytest-benchmark entries (one round each: a run is seconds long)

def _bench(benchmark: Any, **options: Any) -> None:
    benchmark.group = f"eval: {HANDS} {RULESET} hands, greedy vs random"
    benchmark.pedantic(lambda: simulate(RULESET, HANDS, seed=1, bots=BOTS, **options), rounds=1, iterations=1)


def test_one_worker(benchmark):
    benchmark.name = "processes, 1 worker (baseline)"
    _bench(benchmark)


def test_two_worker_processes(benchmark):
    simulate(RULESET, 40, seed=2, bots=BOTS, workers=2)  # the pool starts once, outside the timing
    benchmark.name = "processes, 2 workers (goal >= 1.8x)"
    _bench(benchmark, workers=2)


def test_ray_local(benchmark):
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    simulate(RULESET, 40, seed=2, bots=BOTS, backend="ray", task_hands=20)
    benchmark.name = "ray, local instance of 2 CPUs (goal >= 1.6x)"
    try:
        _bench(benchmark, backend="ray")
    finally:
        ray.shutdown()


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else HANDS
    print(f"{hands} {RULESET} hands, greedy vs random, cpus={os.cpu_count()}")
    p = measure_processes(hands)
    print(f"processes: 1 worker {p['one_worker_s']:.2f} s ({p['hands_per_s_1']:,.0f} hands/s), "
          f"2 workers {p['two_workers_s']:.2f} s: {p['speedup']:.2f}x (goal >= 1.8x)")
    shutdown_pools()
    try:
        r = measure_ray(hands)
    except ImportError:
        print("ray: not installed (pip install 'mahjong_core[ray]')")
        return
    print(f"ray local (2 CPUs): {r['ray_s']:.2f} s vs 1 worker {r['one_worker_s']:.2f} s: {r['speedup']:.2f}x "
          f"(goal >= 1.6x); {r['tasks']} tasks of {r['task_hands']} hands")
    print(f"ray tasks/s (empty tasks, 2 CPUs): {r['tasks_per_s']:,.0f}; overhead per task "
          f"{r['overhead_per_task_ms']:.2f} ms of CPU = {r['overhead_fraction']:.2%} of a {r['task_hands']}-hand task")
    e = cluster_estimate(r["hands_per_s_1"], r["tasks_per_s"], 20000, r["speedup"] / 2)
    print(f"paper estimate, {NODES} nodes x {CORES_PER_NODE} cores = {e['cores']} cores: compute-bound "
          f"{e['compute_bound']:,.0f} hands/s, driver-bound {e['driver_bound']:,.0f} hands/s (20,000-hand tasks) "
          f"-> ~{e['estimate']:,.0f} hands/s")


if __name__ == "__main__":
    main()
