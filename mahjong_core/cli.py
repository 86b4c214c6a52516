"""Command line: `mahjong-core <command> ...` (also `python -m mahjong_core`).

  mahjong-core analyse "[555p,1]123m67s88sEEE"          shanten, waits, effective tiles, best discards
  mahjong-core score mcr "[555p,1]123p789p88pEEE"       score a winning hand (mcr, sichuan or changbai)
  mahjong-core simulate sichuan --hands 1000 --bots greedy,random,random,random
  mahjong-core league bots.toml --hands 4000            every four bots of a list, ranked with intervals
  mahjong-core serve --ruleset sichuan --bots 3         tables over WebSockets and a browser table
  mahjong-core replay logs/hand-000007.json -o hand.html   a game log as a self-contained viewer
  mahjong-core botzone match CMD CMD CMD CMD --games 4  Botzone protocol programs at a local judge

Every command takes --json for machine-readable output; `mahjong-core COMMAND --help` lists its options.
"""

# A command other than `analyse` lives in its own `cli` module (`configure(parser)` / `run(args)`),
# imported only when it is run: `COMMANDS` lists them.

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Dict, Optional, Sequence, Tuple

from . import _core
from ._extras import MissingExtraError
from .errors import MahjongError
from .notation import format_tiles
from .tiles import Forms

PROG = "mahjong-core"
RULESETS = ("mcr", "sichuan", "changbai")

#: command -> (module with configure(parser) / run(args), one-line help)
COMMANDS: Dict[str, Tuple[str, str]] = {
    "simulate": ("mahjong_core.game.cli", "self-play hands with the reference bots"),
    "league": ("mahjong_core.league.cli", "every combination of four bots from a list; a ranking with intervals"),
    "serve": ("mahjong_core.server.cli", "host tables: WebSocket protocol and a browser table"),
    "replay": ("mahjong_core.viz.cli", "a game log or Botzone record as a self-contained HTML viewer"),
    "botzone": ("mahjong_core.botzone.cli", "Botzone: a local judge for protocol bots (match)"),
}
#: `score <ruleset>` -> the ruleset's cli module
SCORE_COMMANDS: Dict[str, str] = {name: f"mahjong_core.rules.{name}.cli" for name in RULESETS}
#: discards `analyse` lists in text without --top (--json lists them all)
TOP_DISCARDS_SHOWN = 8
_FORMS = {"mcr": Forms.MCR, "sichuan": Forms.SICHUAN, "changbai": Forms.CHANGBAI, "standard": Forms.STANDARD}


def _positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return value


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
    result: dict = {"hand": str(hand), "forms": args.forms, "melds": hand.n_melds}  # (the --forms value, as the text shows it)
    result["shanten"] = _core.shanten(hand, forms)
    if size == waiting:
        result["waits"] = [str(t) for t in _core.waits(hand, forms)]
        eff = _core.effective_tiles(hand, forms)
        result["effective"] = {str(t): n for t, n in eff.items()}
        result["effective_total"] = sum(eff.values())
    else:
        result["winning"] = _core.is_winning(hand, forms)
        options = _core.discard_options(hand, forms)
        if args.top is not None:
            options = options[: args.top]
        result["discards"] = [
            {"tile": str(o.tile), "shanten": o.shanten, "effective": {str(t): n for t, n in o.effective.items()},
             "total": o.total}
            for o in options
        ]
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    glyphs = not args.plain
    print(f"hand      {hand}" + (f"   {hand.glyphs()}" if glyphs else ""))
    print(f"forms     {args.forms}")
    shanten = result["shanten"]
    label = {-1: "complete", 0: "ready, tenpai"}.get(shanten, f"{shanten} from ready")
    print(f"shanten   {shanten} ({label})")
    if size == waiting:
        print(f"waits     {_tiles_text(_core.waits(hand, forms), glyphs)}")
        eff = _core.effective_tiles(hand, forms)
        print(f"effective {result['effective_total']} tiles: "
              + (" ".join(f"{t}x{n}" for t, n in eff.items()) or "-"))
    else:
        if result["winning"]:
            print("winning   yes")
        print("discards (best first):")
        for o in options[: args.top or TOP_DISCARDS_SHOWN]:
            tiles = " ".join(f"{t}x{n}" for t, n in o.effective.items())
            glyph = f"{o.tile.glyph} " if glyphs else ""
            print(f"  {glyph}{str(o.tile):>2}  shanten {o.shanten}  {o.total:>3} tiles  {tiles}")
    return 0


def _version() -> str:
    from . import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    analyse = sub.add_parser("analyse", aliases=["analyze"], help="shanten, waits, effective tiles, best discards")
    analyse.add_argument("hand", help='notation, e.g. "123m456p789s1122z" or "[555p,1]123m67s88sEEE"')
    analyse.add_argument("--forms", choices=sorted(_FORMS), default="mcr", help="winning forms (default: mcr = all five)")
    analyse.add_argument("--top", type=_positive_int, default=None,
                         help=f"discards to list, best first (default: {TOP_DISCARDS_SHOWN}; with --json all of them)")
    analyse.add_argument("--plain", action="store_true", help="no Unicode tile glyphs")
    analyse.add_argument("--json", action="store_true", help="machine-readable output")
    analyse.set_defaults(run=_analyse)

    score = sub.add_parser("score", help="score a winning hand under a ruleset",
                           description="score a winning hand: mahjong-core score RULESET HAND [options]; "
                                       "mahjong-core score RULESET --help lists a ruleset's options")
    score_sub = score.add_subparsers(dest="ruleset", required=True, metavar="RULESET")
    for name in SCORE_COMMANDS:
        score_sub.add_parser(name, help=f"score under {name}", add_help=False)
    for name, (_, text) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _lazy_command(argv: Sequence[str]) -> Optional[Tuple[str, str, Sequence[str]]]:
    """(prog, module, remaining argv) when argv names a command implemented in another module."""
    if argv and argv[0] in COMMANDS:
        return f"{PROG} {argv[0]}", COMMANDS[argv[0]][0], argv[1:]
    if len(argv) >= 2 and argv[0] == "score" and argv[1] in SCORE_COMMANDS:
        return f"{PROG} score {argv[1]}", SCORE_COMMANDS[argv[1]], argv[2:]
    return None


def _main(argv: Sequence[str]) -> int:
    lazy = _lazy_command(argv)
    if lazy is not None:
        prog, module_name, rest = lazy
        module = importlib.import_module(module_name)
        sub_parser = argparse.ArgumentParser(prog=prog)
        module.configure(sub_parser)
        args = sub_parser.parse_args(rest)
        return int(module.run(args) or 0)
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, 1 for a file the system refused —
    a folder that does not exist, no permission — or a missing optional library, with the error on
    stderr)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        status = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return status
    except MahjongError as exc:
        bot_traceback = getattr(exc, "bot_traceback", "")  # (a BotError: the bot's own frames first)
        if bot_traceback:
            print(bot_traceback, end="", file=sys.stderr)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except MissingExtraError as exc:  # (an optional library: the message names its pip line)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (`simulate --out` says what it saved)
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `mahjong-core ... --json | head`: the reader went away; leave quietly (no traceback, and no
        # second error when Python flushes stdout at exit).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:
        # a file the command was told to read or write (a plot, logs, a folder) that the system
        # refused: what and where, not a traceback
        print(f"error: {exc.strerror or exc}: {exc.filename}" if exc.filename else f"error: {exc}",
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
