"""`mahjong-core simulate <ruleset> ...`: self-play hands with any bots and report per-bot results.

    mahjong-core simulate sichuan --hands 100000 --duplicate --bots "mypkg.bots:MyBot,greedy,greedy,greedy" \\
        --backend ray --ray-address auto --out results.jsonl --progress tqdm

`configure` adds one option group per concern (`_add_*`) and `run` goes through small steps
(`run_options` -> `simulate` -> `report`), so that a new option is a line in one group and a line in
one step.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any, Dict

from mahjong_core._extras import require
from mahjong_core.errors import InvalidArgumentError, MahjongError

from .backends import BACKENDS, check_workers
from .bots import BOTS
from .botspec import split_bot_list
from .progress import PROGRESS_KINDS, make_progress
from .registry import RULESETS, game_class
from .simulate import SimulationResult, save_logs, simulate

__all__ = ["configure", "run", "add_run_options", "run_options", "rules_from_args", "progress_from_args",
           "import_from_working_directory"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = "Self-play hands with any bots and report per-bot results with 95% intervals."
    parser.add_argument("ruleset", choices=RULESETS, help="the ruleset to play")
    parser.add_argument("--hands", "--games", dest="hands", type=int, default=1000,
                        help="hands to play (default 1000; duplicate mode: a multiple of 4)")
    parser.add_argument("--seed", type=int, default=1, help="run seed: hand i uses (seed, i) (default 1)")
    parser.add_argument("--bots", default="random,random,random,random",
                        help=f"one bot per seat, comma-separated, or one for all: {', '.join(BOTS)}, or an import "
                             f"path 'package.module:MyBot' with optional literal arguments 'pkg.mod:MyBot(depth=2)', "
                             f"or a Botzone-protocol program 'botzone:python3 my_bot.py' / "
                             f"'botzone(keep_running=True, timeout=2.0):./my_bot' (mcr with --preset botzone)")
    parser.add_argument("--duplicate", action="store_true",
                        help="play every wall 4 times, the bots rotated through the seats (paired over walls)")
    add_run_options(parser)
    parser.add_argument("--out", default=None, metavar="FILE.jsonl",
                        help="stream per-hand results to this JSON Lines file; a partial file of the same run is "
                             "resumed")
    parser.add_argument("--fresh", action="store_true", help="with --out: start the file over instead of resuming")
    parser.add_argument("--save-logs", metavar="DIR", default=None,
                        help="write each hand's log as DIR/hand-NNNNNN.json (open with: mahjong-core replay)")
    parser.add_argument("--plot", metavar="FILE", default=None,
                        help="plot score distributions and win rates to FILE (.png/.svg/.pdf; needs "
                             "mahjong_core[plot])")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Rules, backend and progress options (shared with `mahjong-core league`)."""
    parser.add_argument("--preset", default=None, help="rules preset (default: the ruleset's default)")
    parser.add_argument("--set", "--rule", dest="rule", action="append", default=[], metavar="KEY=VALUE",
                        help="override one rule key, read by its type (e.g. --set max_fan=4); repeatable")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1); results do not depend on it")
    parser.add_argument("--backend", choices=BACKENDS, default="processes",
                        help="processes (default: --workers local processes) or ray (pip install "
                             "'mahjong_core[ray]')")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS",
                        help="with --backend ray: the cluster to join ('auto', 'ray://head:10001'); default: a "
                             "local Ray instance")
    parser.add_argument("--task-hands", type=int, default=None, metavar="N",
                        help="hands per task (default: sized per backend)")
    parser.add_argument("--progress", nargs="?", const="plain", default=None, choices=PROGRESS_KINDS,
                        help="progress display: plain (the built-in bar; default when stderr is a terminal), "
                             "tqdm, rich, none")
    parser.add_argument("--no-progress", dest="progress", action="store_const", const="none",
                        help="no progress display (= --progress none)")


def import_from_working_directory() -> None:
    """Put the current directory first on sys.path, as `python -m` does, so that a 'mybots:MyBot' spec
    finds mybots.py here. Worker processes and Ray tasks import it from the same folder (each spec
    records its module's file: `botspec`)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


def rules_from_args(ruleset: str, args: argparse.Namespace) -> Any:
    rules_cls = game_class(ruleset).rules_class()
    rules = rules_cls.resolve(args.preset)
    overrides = rules_cls.parse_assignments(args.rule)
    return dataclasses.replace(rules, **overrides) if overrides else rules


def progress_from_args(args: argparse.Namespace, total: int, label: str) -> Any:
    kind = args.progress if args.progress is not None else ("plain" if sys.stderr.isatty() else "none")
    return make_progress(kind, total, label=label)


def run_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The `simulate` keyword arguments the shared options give (--workers checked before anything is
    written)."""
    check_workers(args.workers, args.backend)
    return {"workers": args.workers, "backend": args.backend, "address": args.ray_address,
            "task_hands": args.task_hands}


def check_plot_file(path: str) -> None:
    """`--plot FILE` checked before any hand is played: its folder exists, matplotlib is installed
    and writes files of its extension (else the run's whole work would end in a traceback)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"--plot {path!r}: the folder {folder} does not exist; create it or give another path")
    require("matplotlib", "--plot", extra="plot")
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = sorted(FigureCanvasBase.get_supported_filetypes())
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if extension not in kinds:
        given = f"a .{extension} file" if extension else "a file without an extension"
        raise InvalidArgumentError(f"--plot {path!r}: matplotlib cannot write {given}; end the name with one of "
                                   f"{', '.join('.' + k for k in kinds)} (e.g. .png, .svg, .pdf)")


def run(args: argparse.Namespace) -> int:
    import_from_working_directory()
    if args.plot:
        check_plot_file(args.plot)
    if args.fresh and not args.out:
        raise InvalidArgumentError("--fresh starts a results file over: it goes with --out FILE")
    ruleset = args.ruleset
    options = run_options(args)
    options.update(seed=args.seed, bots=split_bot_list(args.bots), rules=rules_from_args(ruleset, args),
                   duplicate=args.duplicate, out=args.out, resume=not args.fresh)
    bar = progress_from_args(args, args.hands, f"{ruleset} ")
    try:
        result = simulate(ruleset, args.hands, progress=bar, **options)
    except KeyboardInterrupt:
        if args.out is None:
            raise  # (the command line's own "interrupted")
        print(f"\ninterrupted; {_hands_saved(args.out)} hands saved to {args.out}: run the same command again to "
              f"resume", file=sys.stderr)
        return 130
    finally:
        if bar is not None and hasattr(bar, "close"):
            bar.close()
    if args.save_logs:
        save_logs(args.save_logs, ruleset, args.hands, seed=args.seed, bots=options["bots"], rules=options["rules"],
                  duplicate=args.duplicate)
    if args.plot:
        result.plot(args.plot)
    report(result, args)
    return 0


def _hands_saved(path: str) -> str:
    """How many hands the results file `path` holds (what a rerun resumes from), or "no" / "some"."""
    from .results_file import read_results

    try:
        _, records = read_results(path)
    except (OSError, MahjongError):
        return "no"
    return str(len({(record[0], record[1]) for record in records}))


def report(result: SimulationResult, args: argparse.Namespace) -> None:
    """The result as text (headline, table, faults of Botzone programs) or as JSON (`--json`, with the
    run's "faults" and "fault_count": `SimulationResult.faults`)."""
    if args.json:
        print(json.dumps(dict(result.to_dict(), faults=result.faults, fault_count=result.fault_count),
                         ensure_ascii=False))
        return
    t = result.timing
    print(f"{result.headline()}, "
          f"{t['backend']} x{t['workers']}, {result.elapsed:.1f} s ({result.hands_per_second:,.0f} hands/s)"
          + (f", {t['resumed_hands']} resumed from {args.out}" if t.get("resumed_hands") else ""))
    print(result.exhausted_line())
    print(result.table())
    count = result.fault_count
    if count:
        print(f"{count} Botzone program fault{'s' if count > 1 else ''} (each: -30 for its seat, +10 for every other, "
              f"the hand ends)" + ("; the latest (--json lists up to 100):" if count > 1 else ":"))
        print(result.faults[-1]["message"])
