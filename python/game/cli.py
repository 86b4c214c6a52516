"""`mahjong-core simulate <ruleset> ...`: self-play hands with the reference bots and report per-seat results."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from .bots import BOTS
from .registry import RULESETS, game_class
from .simulate import ProgressBar, simulate

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = "Self-play hands with the reference bots and report per-seat results."
    parser.add_argument("ruleset", choices=RULESETS, help="the ruleset to play")
    parser.add_argument("--games", type=int, default=1000, help="hands to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="run seed: hand i uses (seed, i) (default 1)")
    parser.add_argument("--bots", default="random,random,random,random",
                        help=f"one bot per seat, comma-separated, or one for all ({', '.join(BOTS)})")
    parser.add_argument("--preset", default=None, help="rules preset (default: the ruleset's default)")
    parser.add_argument("--set", "--rule", dest="rule", action="append", default=[], metavar="KEY=VALUE",
                        help="override one rule key, read by its type (e.g. --set max_fan=4); repeatable")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1); results do not depend on it")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show the progress bar (default: when stderr is a terminal)")
    group.add_argument("--no-progress", dest="progress", action="store_false")


def run(args: argparse.Namespace) -> int:
    ruleset = args.ruleset
    rules_cls = game_class(ruleset).rules_class()
    rules = rules_cls.resolve(args.preset)
    overrides = rules_cls.parse_assignments(args.rule)
    if overrides:
        rules = dataclasses.replace(rules, **overrides)
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(args.games, label=f"{ruleset} ") if show else None
    result = simulate(ruleset, args.games, seed=args.seed, bots=bots, rules=rules, workers=args.workers, progress=bar)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    print(f"{ruleset}: {result.games} hands, seed {result.seed}, preset {result.preset or 'custom'}, "
          f"{result.workers} worker(s), {result.elapsed:.1f} s ({result.hands_per_second:,.0f} hands/s)")
    print(f"hands that ran to the end of the wall: {result.exhausted} ({result.exhausted / result.games:.1%})")
    print(f"{'seat':<5}{'bot':<8}{'wins':>8}{'win%':>8}{'self':>8}{'deal-in':>9}{'deal%':>8}"
          f"{'points':>11}{'mean':>10}{'SD':>10}")
    for seat, st in enumerate(result.seats):
        d = st.to_dict()
        print(f"{seat:<5}{st.bot:<8}{st.wins:>8}{d['win_rate']:>8.1%}{st.self_draws:>8}{st.deal_ins:>9}"
              f"{d['deal_in_rate']:>8.1%}{st.points:>11}{st.mean:>10.2f}{st.sd:>10.2f}")
    return 0
