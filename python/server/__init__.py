"""The table server: tables of mahjong for remote clients and bots over WebSockets, and a browser table.

    mahjong-core serve --ruleset sichuan --port 8765 --bots 3      # then open http://127.0.0.1:8765/

    from mahjong_core.server import TableServer
    server = TableServer("sichuan", port=8765, bots=3, time_limit=30, log_dir="logs")
    await server.start(); await server.serve_forever()

Modules: `protocol` (checking client messages; the JSON protocol of docs/SERVER.md), `engine_api` (the
engine contract the server uses: steps, per-seat events, default actions, verified replay), `table`
(one hand: seats, bots, timers, saving), `server` (`TableServer`: WebSocket and HTTP on one port),
`page` (the browser table), `cli` (`mahjong-core serve`). Needs the optional extra `[server]`
(`pip install "mahjong_core[server]"`, the `websockets` library), imported only when a server starts.
"""

from __future__ import annotations

from .protocol import PROTOCOL, ProtocolError
from .server import TableServer
from .table import Table

__all__ = ["TableServer", "Table", "PROTOCOL", "ProtocolError"]
