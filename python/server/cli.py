"""`mahjong-core serve`: run the table server (WebSocket protocol and browser table on one port)."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal

from mahjong_core.game.registry import RULESETS


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("host mahjong tables: the JSON protocol on ws://HOST:PORT/ws (docs/SERVER.md) and "
                          "a browser table on http://HOST:PORT/")
    parser.add_argument("--ruleset", choices=RULESETS, default="sichuan",
                        help="ruleset of every table (default sichuan)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any free port)")
    parser.add_argument("--bots", type=int, default=0, choices=range(4), metavar="N",
                        help="seats of a new table played by bots (0..3, default 0); a join may ask for another number")
    parser.add_argument("--time-limit", type=float, default=30.0, metavar="S",
                        help="seconds per decision before the default action is played (default 30; 0 = none)")
    parser.add_argument("--log-dir", default=None, metavar="DIR",
                        help="save each table's progress and final log here; tables in progress there are resumed")
    parser.add_argument("--rules", default=None, help="a preset name of the ruleset (default: its default preset)")
    parser.add_argument("--seed", type=int, default=None, help="table n is shuffled with seed + n (default random)")
    parser.add_argument("--bot", default="greedy", choices=("greedy", "random"), help="built-in bot (default greedy)")
    parser.add_argument("--max-tables", type=int, default=1000, metavar="N",
                        help="tables running at once before a join that needs a new one is refused (default 1000)")
    parser.add_argument("--bot-delay", type=float, default=0.4, metavar="S",
                        help="seconds a bot waits before answering, so people can follow (default 0.4)")
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output: a JSON line when listening (with the port, also "
                             "for --port 0) and one when stopped")


def run(args: argparse.Namespace) -> int:
    from .server import TableServer

    server = TableServer(args.ruleset, host=args.host, port=args.port, bots=args.bots,
                         time_limit=args.time_limit or None, log_dir=args.log_dir, rules=args.rules,
                         seed=args.seed, bot=args.bot, bot_delay=args.bot_delay, max_tables=args.max_tables)

    async def main() -> None:
        await server.start()
        url = f"http://{server.host}:{server.port}/"
        if args.json:
            print(json.dumps({"event": "listening", "ruleset": server.ruleset, "host": server.host,
                              "port": server.port, "url": url, "websocket": f"ws://{server.host}:{server.port}/ws",
                              "resumed": list(server.recovered)}), flush=True)
        else:
            print(f"mahjong-core serve: {server.ruleset} tables on {url} "
                  f"(WebSocket /ws){'; resumed ' + ', '.join(server.recovered) if server.recovered else ''}",
                  flush=True)
        stop = asyncio.get_running_loop().create_future()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                asyncio.get_running_loop().add_signal_handler(sig, stop.cancel)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - platforms without signals
                pass
        try:
            await stop
        except asyncio.CancelledError:
            pass
        await server.close()
        if args.json:
            print(json.dumps({"event": "stopped"}), flush=True)

    asyncio.run(main())
    return 0
