"""`mahjong-core league bots.toml --hands N --duplicate`: every combination of four bots plays; a ranking."""

from __future__ import annotations

import argparse
import json
import sys

from mahjong_core.game.cli import (add_run_options, import_from_working_directory, progress_from_args,
                                   rules_from_args, run_options)
from mahjong_core.game.registry import RULESETS

from . import load_league, play_league

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Every combination of four bots from a league file plays a table; the bots ranked by "
                          "mean points per hand with 95% intervals. The file: TOML ([league] defaults, [[bot]] "
                          "entries with name / spec / args) or JSON of the same structure; see "
                          "mahjong_core.league. A spec is any simulate bot: a built-in name, 'pkg.mod:MyBot', or a "
                          "Botzone-protocol program 'botzone:python3 my_bot.py' (ruleset mcr, --preset botzone).")
    parser.add_argument("league", help="the league file (.toml, or .json)")
    parser.add_argument("--ruleset", choices=RULESETS, default=None, help="override the file's ruleset")
    parser.add_argument("--hands", type=int, default=None, help="hands per table (default: the file's, else 1000)")
    parser.add_argument("--seed", type=int, default=None, help="table t uses seed + t (default: the file's, else 1)")
    parser.add_argument("--duplicate", action="store_true", default=None, help="duplicate seating (the default)")
    parser.add_argument("--no-duplicate", dest="duplicate", action="store_false", help="independent hands")
    add_run_options(parser)
    parser.add_argument("--out", default=None, metavar="DIR", help="per-table JSONL results here (resumable)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    import_from_working_directory()
    league = load_league(args.league)
    ruleset = args.ruleset or league.ruleset
    options = run_options(args)
    if args.preset is None:
        args.preset = league.preset  # the file's preset unless --preset overrides it
    options["rules"] = rules_from_args(ruleset, args)
    tables = league.tables()

    def on_table(t: int, total: int, result) -> None:
        if not args.json:
            print(f"table {t + 1}/{total}: {', '.join(result.bots)}", file=sys.stderr)

    hands = args.hands if args.hands is not None else league.hands
    bar = progress_from_args(args, hands * len(tables), f"league {ruleset} ")
    try:
        standings = play_league(league, hands=args.hands, duplicate=args.duplicate, seed=args.seed, ruleset=ruleset,
                                out_dir=args.out, on_table=on_table, progress=bar, **options)
    finally:
        if bar is not None and hasattr(bar, "close"):
            bar.close()
    if args.json:
        print(json.dumps(standings.to_dict(), ensure_ascii=False))
    else:
        print(f"{ruleset}: {len(tables)} table(s) of {hands} hands, "
              f"{'duplicate' if standings.results[0].duplicate else 'independent hands'}")
        print(standings.table())
    return 0
