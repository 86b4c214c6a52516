"""`mahjong-core score mcr "<hand>"`: print the fan table of an MCR hand."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any, Dict

from .rules import Rules
from .scoring import score

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Score a winning MCR (Chinese Official, 国标) hand: fan table with Chinese and English names, "
        "points, which sets made each fan, and the total."
    )
    parser.add_argument("hand", help='notation with optional context suffix, e.g. "[123m,1]456p789s11sEEE|EE1000|2"')
    parser.add_argument("--rules", default="official", choices=sorted(Rules.presets),
                        help="rule preset (default: official)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule key, e.g. --set mil_concealed_melded_kong=true --set min_fan=1 "
                             f"(repeatable; keys: {', '.join(Rules.keys())})")
    parser.add_argument("--win-tile", "--win", dest="win_tile", default=None,
                        help="the winning tile, e.g. 5p (default: the last tile written; --win is the older name)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    rules = Rules.presets[args.rules]
    overrides = Rules.parse_assignments(args.overrides)
    if overrides:
        rules = dataclasses.replace(rules, **overrides)
    result = score(args.hand, win_tile=args.win_tile, rules=rules)
    if result is None:
        if args.json:
            print(json.dumps({"hand": args.hand, "winning": False}, ensure_ascii=False))
        else:
            print(f"{args.hand}: not a winning hand")
        return 1
    if args.json:
        out: Dict[str, Any] = {"winning": True}
        out.update(result.to_json())
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(result.table())
    return 0
