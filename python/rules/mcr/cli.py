"""`mahjong-core score mcr "<hand>"`: print the fan table of an MCR hand.

Exit status: 0 for a win, 1 when the hand does not win — its tiles do not complete, or it scores
below `min_fan` (8) fans without flowers, so it cannot be declared (`meets_minimum` false; `winning`
in --json says whether the tiles complete) — and 2 for bad input.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any, Dict

from mahjong_core.errors import InvalidHandError
from mahjong_core.notation import parse
from mahjong_core.tiles import as_tile

from .rules import Rules
from .scoring import score

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Score a winning MCR (Chinese Official, 国标) hand: fan table with Chinese and English names, "
        "points, which sets made each fan, and the total."
    )
    parser.add_argument("hand", help='notation with optional context suffix, e.g. "[123m,1]456p789s11sEEE|EE1000" '
                                     '(self-drawn: |EE1000; with 2 flowers, "|EE1000|2", add --set flowers=true)')
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
    hand = parse(args.hand)
    win_tile = None if args.win_tile is None else as_tile(args.win_tile, "--win-tile")
    if win_tile is None and hand.win_tile is None:  # (score's message names its Python argument win_tile=)
        raise InvalidHandError("no winning tile: pass --win-tile, or write the hand with its winning tile last")
    result = score(hand, win_tile=win_tile, rules=rules)
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
    return 0 if result.meets_minimum else 1
