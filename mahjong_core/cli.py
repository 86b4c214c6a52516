"""Command line: `python -m mahjong_core <command> ...`.

    analyse "<hand>"                       shanten, waits, effective tiles, best discards
    score {mcr,sichuan,changbai} "<hand>"  score a winning hand (the ruleset's options: --help)
    simulate {mcr,sichuan,changbai} ...    self-play games with the reference bots

Every command takes --json for machine-readable output.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import List, Optional, Sequence

from . import _core
from .errors import MahjongError
from .notation import format_tiles
from .tiles import Forms

RULESETS = ("mcr", "sichuan", "changbai")
_FORMS = {"mcr": Forms.MCR, "sichuan": Forms.SICHUAN, "changbai": Forms.CHANGBAI, "standard": Forms.STANDARD}


def _tiles_text(tiles, glyphs: bool) -> str:
    if not tiles:
        return "-"
    text = format_tiles(tiles)
    return f"{text}  {''.join(t.glyph for t in sorted(tiles))}" if glyphs else text


def _analyse(args: argparse.Namespace) -> int:
    from .notation import parse

    hand = parse(args.hand)
    forms = _FORMS[args.forms]
    size = hand.n_tiles
    waiting = 13 - 3 * hand.n_melds
    result: dict = {"hand": str(hand), "forms": forms.name, "melds": hand.n_melds}
    result["shanten"] = _core.shanten(hand, forms)
    if size == waiting:
        result["waits"] = [str(t) for t in _core.waits(hand, forms)]
        eff = _core.effective_tiles(hand, forms)
        result["effective"] = {str(t): n for t, n in eff.items()}
        result["effective_total"] = sum(eff.values())
    else:
        result["winning"] = _core.is_winning(hand, forms)
        options = _core.discard_options(hand, forms)
        result["discards"] = [
            {"tile": str(o.tile), "shanten": o.shanten, "effective": {str(t): n for t, n in o.effective.items()},
             "total": o.total}
            for o in options
        ]
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    glyphs = not args.plain
    print(f"hand     {hand}" + (f"   {hand.glyphs()}" if glyphs else ""))
    print(f"forms    {args.forms}")
    shanten = result["shanten"]
    label = {-1: "complete", 0: "ready (tenpai)"}.get(shanten, f"{shanten} from ready")
    print(f"shanten  {shanten} ({label})")
    if size == waiting:
        print(f"waits    {_tiles_text(_core.waits(hand, forms), glyphs)}")
        eff = _core.effective_tiles(hand, forms)
        print(f"effective {result['effective_total']} tiles: "
              + (" ".join(f"{t}x{n}" for t, n in eff.items()) or "-"))
    else:
        if result["winning"]:
            print("winning  yes")
        print("discards (best first):")
        for o in options[: args.top]:
            tiles = " ".join(f"{t}x{n}" for t, n in o.effective.items())
            glyph = f"{o.tile.glyph} " if glyphs else ""
            print(f"  {glyph}{str(o.tile):>2}  shanten {o.shanten}  {o.total:>3} tiles  {tiles}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mahjong_core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    analyse = sub.add_parser("analyse", aliases=["analyze"], help="shanten, waits, effective tiles, best discards")
    analyse.add_argument("hand", help='notation, e.g. "123m456p789s1122z" or "[555p,1]123m67s88sEE"')
    analyse.add_argument("--forms", choices=sorted(_FORMS), default="mcr", help="winning forms (default: mcr = all five)")
    analyse.add_argument("--top", type=int, default=8, help="discards to list (default 8)")
    analyse.add_argument("--plain", action="store_true", help="no Unicode tile glyphs")
    analyse.add_argument("--json", action="store_true", help="machine-readable output")
    analyse.set_defaults(run=_analyse)

    score = sub.add_parser("score", help="score a winning hand under a ruleset")
    score_sub = score.add_subparsers(dest="ruleset", required=True)
    for name in RULESETS:
        # The ruleset module adds the real options (and --help) once the command is known.
        p = score_sub.add_parser(name, help=f"score under {name}", add_help=False)
        p.set_defaults(module=f"mahjong_core.rules.{name}", entry="run_cli", configure="configure_cli")

    simulate = sub.add_parser("simulate", help="self-play games with the reference bots", add_help=False)
    simulate.add_argument("ruleset", choices=RULESETS)
    simulate.set_defaults(module="mahjong_core.game", entry="run_simulate_cli", configure="configure_simulate_cli")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # Ruleset/game commands add their own options: parse the command first, then let the module
    # configure its parser and parse again.
    known, _ = parser.parse_known_args(argv)
    if getattr(known, "module", None):
        try:
            module = importlib.import_module(known.module)
        except ImportError as exc:  # pragma: no cover - a ruleset not installed
            print(f"error: {known.module} is not available ({exc})", file=sys.stderr)
            return 2
        sub_parser = argparse.ArgumentParser(prog=f"python -m mahjong_core {' '.join(argv[:2])}")
        getattr(module, known.configure)(sub_parser)
        sub_args = sub_parser.parse_args(argv[2:])
        if known.command == "simulate":
            sub_args.ruleset = known.ruleset
        try:
            return int(getattr(module, known.entry)(sub_args) or 0)
        except MahjongError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except MahjongError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
