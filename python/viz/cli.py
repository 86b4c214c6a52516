"""`mahjong-core replay LOG.json -o LOG.html`: a game log (or a Botzone record) as an HTML viewer."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from mahjong_core.errors import InvalidArgumentError

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write a self-contained HTML replay viewer of a game log (Game.log, simulate --save-logs) "
                          "or a Botzone judge record.")
    parser.add_argument("log", help="the log file (JSON); - reads standard input")
    parser.add_argument("-o", "--output", default=None, help="the HTML file (default: the log's name with .html)")
    parser.add_argument("--seat", type=int, choices=range(4), default=None,
                        help="show only what this seat saw (default: everything)")
    parser.add_argument("--title", default=None, help="the page title")
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output: the file written, its size and the seat shown")


def _read(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise InvalidArgumentError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidArgumentError(f"{path} is not JSON ({exc}); expected a game log or a Botzone record") from None
    except RecursionError:
        raise InvalidArgumentError(f"{path} nests its JSON too deeply to be a game log or a Botzone record "
                                   f"(a log is a few levels deep)") from None


def run(args: argparse.Namespace) -> int:
    from .replay import replay_html

    html = replay_html(_read(args.log), args.seat, title=args.title)
    output = args.output
    if output is None:
        output = "replay.html" if args.log == "-" else os.path.splitext(args.log)[0] + ".html"
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(html)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot write {output}: {exc.strerror or exc} (-o names the HTML file)") from None
    if args.json:
        print(json.dumps({"output": output, "bytes": len(html.encode("utf-8")), "seat": args.seat}))
    else:
        print(output)
    return 0
