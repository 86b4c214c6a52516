"""Where a simulation's hands run: in this process, on a pool of worker processes, or on Ray.

Work is a list of unit ranges (hands, or walls in duplicate mode). Each backend cuts them into
tasks and runs the caller's `task(job, start, stop, keep_records[, local])` for each — for a
simulation `simulate.play_task`, which builds the bots from the run's `BotSpec`s, plays the units
and returns ``(start, stop, Tally, records or None)``. (The task is a parameter so that this module
does not import the simulation.) The driver accepts each task's result exactly
once (`on_result`), so a task that is retried — its worker process died, its Ray node was lost — is
never counted twice, and since every hand is seeded by its own number the retried task plays the
same hands.

- ``serial``: this process (``workers=1``).
- ``processes``: a `ProcessPoolExecutor` started once per (workers, start method) and kept for later
  runs (`shutdown_pools()` stops them; they also stop at exit). A pool broken by a dying worker
  is replaced and the unfinished tasks are submitted again (at most `retries` times) — unless no
  worker ever started (a script without an `if __name__ == "__main__":` guard, which every
  worker not forked imports again): that stops the run at once, saying so. A run uses at most one
  worker per task (a run of one task plays in this process) and refuses more than `max_workers()`.
- ``ray``: Ray tasks (`max_retries=retries` for lost workers and nodes), each sized to about
  `RAY_TASK_SECONDS` of play so that Ray's per-task cost (~1-5 ms) stays far below 5%.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from mahjong_core._extras import require
from mahjong_core.errors import InvalidArgumentError, MahjongError

from .botspec import BotSpec
from .tally import HandRecord, Tally

__all__ = ["Job", "BACKENDS", "run_job", "shutdown_pools", "plan_tasks", "WorkerLostError", "TaskResult",
           "check_workers", "max_workers"]

BACKENDS = ("processes", "ray")
#: Ray tasks are cut to at least this many hands (~0.2-0.4 s of play with the reference bots, against
#: ~5 ms of Ray's cost per task: under 2.5%) ...
RAY_MIN_TASK_HANDS = 400
#: ... and at most this many, so that a run still spreads over many tasks for load balance
RAY_MAX_TASK_HANDS = 20000

#: a task's (start, stop, tally, records or None, faults): `faults`, (bot label, message) of each fault a
#: bot with `fault_count` (a Botzone `ProgramBot`) had in the task
TaskResult = Tuple[int, int, Tally, Optional[List[HandRecord]], List[Tuple[str, str]]]
#: worker processes allowed per CPU (`max_workers`): more only queue for the same cores
WORKERS_PER_CPU = 4


class WorkerLostError(MahjongError, RuntimeError):
    """Worker processes kept dying; the run was stopped after `retries` replacements."""


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play any range of a run's units (plain, picklable data)."""

    ruleset: str
    rules: Any
    seed: int
    specs: Tuple[BotSpec, ...]
    duplicate: bool

    @property
    def hands_per_unit(self) -> int:
        return 4 if self.duplicate else 1


def max_workers() -> int:
    """The most worker processes a run may ask for: `WORKERS_PER_CPU` per CPU of this machine (at least 8)."""
    return max(8, WORKERS_PER_CPU * (os.cpu_count() or 1))


def check_workers(workers: int, backend: str = "processes") -> None:
    """Refuse a number of worker processes this machine cannot use (the Ray backend ignores it)."""
    limit = max_workers()
    if backend == "processes" and workers > limit:
        raise InvalidArgumentError(f"workers={workers} is more than this machine can use: at most {limit} "
                                   f"({WORKERS_PER_CPU} per CPU, {os.cpu_count() or 1} CPUs here); "
                                   f"about one per CPU is fastest")


def plan_tasks(ranges: Sequence[Tuple[int, int]], units_per_task: int) -> List[Tuple[int, int]]:
    """Cut unit ranges into tasks of at most `units_per_task` units."""
    step = max(1, units_per_task)
    return [(a, min(b, a + step)) for a, b in ranges for a in range(a, b, step)]


def _units_per_task(total_units: int, hands_per_unit: int, parallel: int, per_worker: int, low: int,
                    high: int, task_hands: Optional[int]) -> int:
    if task_hands is not None:
        hands = task_hands
    else:
        hands = min(high, max(low, total_units * hands_per_unit // max(1, parallel * per_worker)))
    return max(1, hands // hands_per_unit)


# ---------------------------------------------------------------------------------------------
# Worker process pools, started once and reused

_POOLS: Dict[Tuple[int, str], ProcessPoolExecutor] = {}
#: per pool, the event its workers set once started (the main module imported, the initializer run)
_STARTED: Dict[Tuple[int, str], Any] = {}


def default_start_method(specs: Sequence[BotSpec] = ()) -> str:
    """How worker processes start for bots `specs` unless the caller says: "fork" while this process
    runs a single thread (the children inherit the built tables and the imported modules and start at
    once); else "forkserver" (a clean single-threaded parent: ~0.15 s once per pool) or "spawn".
    Forking a process that runs other threads — NumPy's BLAS pool, a web server's — can deadlock a
    child on a lock copied mid-use (Python 3.12 and later warn of it). The exception: a bot defined in
    a `__main__` that has no file (a notebook, the REPL, `python -c`), which only a forked worker
    has — there "fork" stays, as before. Nothing else a task needs depends on the method (bots are
    rebuilt from their specs): every one gives the same results."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and (_thread_count() == 1 or any(_only_a_fork_has(spec) for spec in specs)):
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _only_a_fork_has(spec: BotSpec) -> bool:
    """Whether `spec`'s bot lives in a `__main__` without a file: a fresh worker can neither import
    nor load it (botspec's fallback reads the file), a forked one inherits it."""
    return spec.target.startswith("__main__:") and spec.file is None


def _thread_count() -> int:
    """This process's threads, the operating system's count where it tells (Linux: /proc), which
    includes the threads of C libraries; else the ones Python started."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _init_worker(started: Any) -> None:
    from mahjong_core import ensure_init

    ensure_init()
    # Ctrl-C reaches every process of the terminal's group: the driver stops the run (and the pool);
    # a worker taking it too would die mid-task with a traceback of its own, or leave the pool hanging
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    started.set()  # this worker got past its start-up (a script's re-import included)


def process_pool(workers: int, start_method: Optional[str] = None) -> ProcessPoolExecutor:
    method = start_method or default_start_method()
    if method not in multiprocessing.get_all_start_methods():
        raise InvalidArgumentError(f"start method must be one of {', '.join(multiprocessing.get_all_start_methods())}; "
                                   f"got {method!r}")
    key = (workers, method)
    pool = _POOLS.get(key)
    if pool is None:
        from mahjong_core import ensure_init

        ensure_init()  # before forking, so every child has the tables
        context = multiprocessing.get_context(method)
        started = _STARTED[key] = context.Event()
        pool = _POOLS[key] = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                                 initargs=(started,))
    return pool


def _discard_pool(workers: int, method: str, wait: bool = False) -> None:
    _STARTED.pop((workers, method), None)
    pool = _POOLS.pop((workers, method), None)
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


def shutdown_pools() -> None:
    """Stop the kept worker pools (a later run starts new ones)."""
    for key in list(_POOLS):
        _STARTED.pop(key, None)
        pool = _POOLS.pop(key)
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_pools)


#: tasks submitted to a pool at a time, per worker: `wait` locks every future it is given on every call,
#: so the window stays small however many tasks a run has (a million hands in tasks of 50: 20,000)
IN_FLIGHT_PER_WORKER = 2


@contextlib.contextmanager
def _deferred_ctrl_c() -> Iterator[Callable[[], bool]]:
    """While the driver waits on its pool, Ctrl-C only sets a flag (the yielded function reads it):
    a KeyboardInterrupt raised inside `concurrent.futures.wait`, between its locking of the futures
    and its release, left a future locked and the pool's manager thread — and the exit that joins
    it — blocked for good. The driver raises it itself at its next check (every `_CHECK_SECONDS`).
    Only in the main thread, and only over Python's own handler (a program's own handler stays)."""
    hits: List[int] = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: hits.append(signum))
    try:
        yield lambda: bool(hits)
    finally:
        signal.signal(signal.SIGINT, previous)


_CHECK_SECONDS = 0.2


def _run_processes(task: Callable[..., TaskResult], job: Job, tasks: List[Tuple[int, int]], workers: int,
                   start_method: Optional[str], keep: bool, on_result: Callable[[TaskResult], None],
                   retries: int) -> int:
    method = start_method or default_start_method(job.specs)
    pending = set(tasks)  # the tasks not finished yet
    replaced = 0
    window = IN_FLIGHT_PER_WORKER * workers
    with _deferred_ctrl_c() as interrupted:
        while pending:
            pool = process_pool(workers, method)
            queue = collections.deque(sorted(pending))
            in_flight: Dict[Future, Tuple[int, int]] = {}
            try:
                while queue or in_flight:
                    while queue and len(in_flight) < window:
                        a, b = queue.popleft()
                        in_flight[pool.submit(task, job, a, b, keep)] = (a, b)
                    done, _ = wait(in_flight, timeout=_CHECK_SECONDS, return_when=FIRST_COMPLETED)
                    if interrupted():
                        raise KeyboardInterrupt
                    for fut in done:
                        unit_range = in_flight.pop(fut)
                        result = fut.result()
                        pending.discard(unit_range)
                        on_result(result)
            except BrokenProcessPool:
                started = _STARTED.get((workers, method))
                if method != "fork" and started is not None and not started.is_set():
                    _discard_pool(workers, method)
                    raise WorkerLostError(_no_worker_started(method)) from None
                for fut, unit_range in in_flight.items():  # keep what finished before the pool broke
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        pending.discard(unit_range)
                        on_result(fut.result())
                _discard_pool(workers, method)
                replaced += 1
                if replaced > retries:
                    raise WorkerLostError(f"worker processes died {replaced} times; {len(pending)} task(s) not "
                                          f"played. A bot that crashes the interpreter (or runs out of memory) "
                                          f"stops the run") from None
                logging.getLogger(__name__).warning("a worker process died; replaying %d unfinished task(s)",
                                                    len(pending))
            except KeyboardInterrupt:
                # The pool stops here, its running tasks finished (their workers ignore Ctrl-C): left to
                # the interpreter's exit, its manager thread could close its wake-up pipe while the exit
                # hook writes to it (CPython 3.11: OSError "Bad file descriptor" and a traceback)
                _discard_pool(workers, method, wait=True)
                raise
            except BaseException:
                for fut in in_flight:
                    fut.cancel()
                raise
    return replaced


def _no_worker_started(method: str) -> str:
    """Why every worker of a pool died while starting (before its initializer ran), and the fix."""
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    head = f"worker processes (start method {method!r}) died while starting, before playing any hand"
    if script is None:
        return (f"{head}: importing what the run needs failed in them (the error is printed above) or the system "
                f"ran out of memory; retrying would not help")
    return (f"{head}: each one imports this script ({script}) again, and its top-level code, run again there, "
            f"starts processes itself (the error printed above). Put the script's top-level code under "
            f"`if __name__ == \"__main__\":`, as multiprocessing requires. (Workers start by {method!r}, not "
            f"'fork', when this process runs other threads — NumPy's, once it is imported — or when asked: "
            f"backends.default_start_method.)")


# ---------------------------------------------------------------------------------------------
# Ray

def import_ray() -> Any:
    return require("ray", "the Ray backend", extra="ray", library="Ray")


_RAY_REMOTE: List[Any] = []


def _ray_task(task: Callable[..., TaskResult], job: Job, start: int, stop: int, keep: bool) -> TaskResult:
    return task(job, start, stop, keep)


def _ray_parallelism(ray: Any, address: Optional[str], runtime_env: Optional[Dict[str, Any]]) -> int:
    if not ray.is_initialized():
        ray.init(address=address, runtime_env=runtime_env, include_dashboard=False, logging_level=logging.WARNING)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _run_ray(task: Callable[..., TaskResult], job: Job, tasks: List[Tuple[int, int]], keep: bool,
             on_result: Callable[[TaskResult], None], retries: int) -> int:
    ray = import_ray()
    if not _RAY_REMOTE:
        _RAY_REMOTE.append(ray.remote(_ray_task))
    remote = _RAY_REMOTE[0].options(max_retries=retries, retry_exceptions=False)
    job_ref = ray.put(job)
    refs = {remote.remote(task, job_ref, a, b, keep): (a, b) for a, b in tasks}
    try:
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=min(len(refs), 8), timeout=0.2)
            for ref in ready:
                refs.pop(ref)
                on_result(ray.get(ref))  # each task's result is taken once, however often it ran
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
    return 0


# ---------------------------------------------------------------------------------------------

def run_job(task: Callable[..., TaskResult], job: Job, ranges: Sequence[Tuple[int, int]], *, backend: str,
            workers: int,
            on_result: Callable[[TaskResult], None], keep_records: bool, start_method: Optional[str] = None,
            address: Optional[str] = None, runtime_env: Optional[Dict[str, Any]] = None, retries: int = 3,
            task_hands: Optional[int] = None) -> Dict[str, Any]:
    """Run `task` over the unit `ranges` of `job` on `backend`; returns how it ran (backend, tasks, replaced
    pools). `task(job, start, stop, keep_records, local)` must be a module-level function (workers
    import it by name)."""
    total = sum(b - a for a, b in ranges)
    hpu = job.hands_per_unit
    if backend not in BACKENDS:
        raise InvalidArgumentError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    check_workers(workers, backend)
    if backend == "ray" or workers > 1:
        pickle.dumps(job)  # an unpicklable bot instance fails here, with its message, before any work
    if backend == "ray":
        ray = import_ray()
        parallel = _ray_parallelism(ray, address, runtime_env)
        per_task = _units_per_task(total, hpu, parallel, 4, RAY_MIN_TASK_HANDS, RAY_MAX_TASK_HANDS, task_hands)
        tasks = plan_tasks(ranges, per_task)
        _run_ray(task, job, tasks, keep_records, on_result, retries)
        return {"backend": "ray", "workers": parallel, "tasks": len(tasks), "task_hands": per_task * hpu}
    if workers > 1:
        per_task = _units_per_task(total, hpu, workers, 8, 40, 1000, task_hands)
        if task_hands is None:  # a small run spreads over the workers rather than filling a few tasks
            per_task = min(per_task, max(1, -(-total // workers)))
        tasks = plan_tasks(ranges, per_task)
        workers = min(workers, len(tasks))  # a worker without a task would only cost its start
    if workers <= 1:
        per_task = _units_per_task(total, hpu, 1, 100, 4, 200, task_hands)
        tasks = plan_tasks(ranges, per_task)
        for a, b in tasks:
            on_result(task(job, a, b, keep_records, True))
        return {"backend": "serial", "workers": 1, "tasks": len(tasks), "task_hands": per_task * hpu}
    replaced = _run_processes(task, job, tasks, workers, start_method, keep_records, on_result, retries)
    return {"backend": "processes", "workers": workers, "tasks": len(tasks), "task_hands": per_task * hpu,
            "pools_replaced": replaced}
