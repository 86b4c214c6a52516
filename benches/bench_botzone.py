"""Cold start of a Botzone kit bot: one turn as Botzone runs it in simple interaction (a fresh
process: interpreter start + `import mahjong_core.botzone` + reading the history + one decision).

Goal (issue 12): a turn of the ~10-line example bot (examples/botzone_bot.py) within 150 ms on the
development VM. Measured as CPU time (user + sys of the child: the machine is shared, wall time
is not meaningful under load) against the bare interpreter in the same run; bytecode caching is
enabled as in an installed package.
"""

import os
import resource
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BOT = os.path.join(HERE, os.pardir, "examples", "botzone_bot.py")
TURN = ("3\n0 0 2\nPASS\n1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2\nPASS\n2 J3\n")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cpu(argv, stdin=""):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


CASES = {
    "interpreter": ([sys.executable, "-c", "pass"], ""),
    "import mahjong_core": ([sys.executable, "-c", "import mahjong_core"], ""),
    "import the kit": ([sys.executable, "-c", "from mahjong_core.botzone.state import BotzoneState"], ""),
    "kit bot turn": ([sys.executable, BOT], TURN),
}


@pytest.mark.parametrize("case", list(CASES))
def test_botzone_cold_start(benchmark, case):
    argv, stdin = CASES[case]
    _cpu(argv, stdin)  # warm the bytecode cache
    benchmark.extra_info["cpu_seconds"] = min(_cpu(argv, stdin) for _ in range(5))
    benchmark.pedantic(_cpu, args=(argv, stdin), rounds=3, iterations=1)
