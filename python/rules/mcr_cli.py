"""`python -m mahjong_core score mcr "<hand>"`: print the fan table of an MCR hand."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any, Dict

from . import mcr


def _override(text: str) -> tuple:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    key, value = text.split("=", 1)
    lowered = value.strip().lower()
    parsed: Any
    if lowered in ("true", "yes", "1", "on"):
        parsed = True
    elif lowered in ("false", "no", "0", "off"):
        parsed = False
    elif lowered.isdigit():
        parsed = int(lowered)
    else:
        parsed = value.strip()
    return key.strip(), parsed


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Score a winning MCR (Chinese Official, 国标) hand: fan table with Chinese and English names, "
        "points, which sets made each fan, and the total."
    )
    parser.add_argument("hand", help='notation with optional context suffix, e.g. "[123m,1]456p789s11sEEE|EE1000|2"')
    parser.add_argument("--rules", default="official", choices=sorted(mcr.Rules.presets),
                        help="rule preset (default: official)")
    parser.add_argument("--set", dest="overrides", action="append", type=_override, default=[], metavar="KEY=VALUE",
                        help="override a rule key, e.g. --set mil_concealed_melded_kong=true (repeatable)")
    parser.add_argument("--win", dest="win_tile", default=None, help="winning tile (default: the last tile written)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    rules = mcr.Rules.presets[args.rules]
    if args.overrides:
        try:
            rules = dataclasses.replace(rules, **dict(args.overrides))
        except TypeError as exc:  # unknown key: report it like any input error
            raise ValueError(str(exc)) from None
    result = mcr.score(args.hand, win_tile=args.win_tile, rules=rules)
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
