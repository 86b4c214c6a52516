"""`mahjong-core botzone match CMD1 CMD2 CMD3 CMD4 ...`: a local Botzone judge (see `judge`)."""

from __future__ import annotations

import argparse
import json

__all__ = ["configure", "run"]

#: penalties explained one line each after the summary (the rest: --json)
HINTS = 10


def configure(parser: argparse.ArgumentParser) -> None:
    from .judge import BUILTIN

    parser.description = "Botzone Chinese-Standard-Mahjong tools."
    sub = parser.add_subparsers(dest="botzone_command", required=True)
    m = sub.add_parser("match", help="play protocol bots against each other on the Botzone table",
                       description="Play four Botzone protocol bots (commands, or built-in "
                                   f"{' / '.join(BUILTIN)}) on the judge's table and report per-seat results.")
    m.add_argument("players", nargs=4, metavar="CMD",
                   help=f"a command line speaking the Botzone protocol (quote it), or a built-in bot: {', '.join(BUILTIN)}")
    m.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    m.add_argument("--seed", type=int, default=1, help="match seed: game i uses the wall of (seed, i) (default 1)")
    m.add_argument("--keep-running", action="store_true",
                   help="keep programs alive between rounds (they print >>>BOTZONE_REQUEST_KEEP_RUNNING<<<)")
    m.add_argument("--time-limit", type=float, default=1.0, help="seconds per answer before TLE (default 1.0)")
    m.add_argument("--flowers", action="store_true", help="144-tile walls with the eight flowers")
    m.add_argument("--logs", metavar="DIR", default=None,
                   help="write each game's judge-format log to DIR (game-00000.json), and the programs' stderr "
                        "unless --stderr says elsewhere")
    m.add_argument("--stderr", metavar="DIR", default=None,
                   help="keep each program's stderr in DIR, one file per game and seat (game-00000-seat2.stderr); "
                        "without it and --logs, only the last line of a faulting program's stderr is shown")
    m.add_argument("--strict", action="store_true",
                   help="exit with status 1 when any program was penalised (RE, TLE, WA, WH) or its decide failed (the "
                        "kit answered for it): a bot's CI check")
    m.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from .judge import match

    result = match(args.players, games=args.games, seed=args.seed, keep_running=args.keep_running,
                   time_limit=args.time_limit, logs_dir=args.logs, flowers=args.flowers, stderr_dir=args.stderr)
    status = 1 if args.strict and (result.faults or any(seat.fallbacks for seat in result.seats)) else 0
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return status
    print(result.headline())
    print(result.table())
    for fault in result.faults[:HINTS]:
        print(fault.hint())
    if len(result.faults) > HINTS:
        print(f"... and {len(result.faults) - HINTS} more penalties (--json lists them all)")
    for line in result.fallback_hints():
        print(line)
    return status
