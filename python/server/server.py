"""`TableServer`: tables over WebSockets (`/ws`) and the browser table over plain HTTP, on one port.

    server = TableServer("sichuan", port=8765, bots=3, time_limit=30, log_dir="logs")
    await server.start()          # listens; tables in log_dir/*.table.json are resumed first
    await server.serve_forever()

HTTP (GET): `/` the browser table (one self-contained page), `/log/<table>.json` a finished table's
log, `/replay/<table>.html` its replay viewer (when `mahjong_core.viz.replay_html` is installed),
`/tables` the tables as JSON. Everything else is the WebSocket protocol of docs/SERVER.md on `/ws`.
The `websockets` library is the optional extra `[server]`, imported when a server is built.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import json
import os
import re
from http import HTTPStatus
from typing import Any, Dict, List, Optional, Set, Tuple

from mahjong_core.game.registry import check_ruleset, resolve_rules

from mahjong_core._extras import require
from mahjong_core.errors import InvalidArgumentError, InvalidTypeError, MahjongError
from mahjong_core.game.bots import make_bot

from .page import page_html, replay_viewer
from .protocol import MAX_MESSAGE, PROTOCOL, ProtocolError, error, parse_message
from .table import Table

__all__ = ["TableServer", "load_websockets"]


def load_websockets() -> Any:
    """The `websockets.asyncio.server` module; ImportError naming the extra when it is missing."""
    return require("websockets.asyncio.server", "the table server", extra="server",
                   library="the websockets library (13 or newer)")


def _tracked_connection_class(ws_server: Any, sockets: Set[Any]) -> Any:
    """websockets' ServerConnection that keeps itself in `sockets` from the TCP accept to its loss:
    the server's own list holds a connection only once its handshake is done, so this is how
    `TableServer.close()` finds the sockets that never sent a request."""

    class TrackedConnection(ws_server.ServerConnection):  # type: ignore[misc, name-defined]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            sockets.add(self)

        def connection_lost(self, exc: Optional[Exception]) -> None:
            sockets.discard(self)
            super().connection_lost(exc)

    return TrackedConnection


#: characters a connection may have queued and not yet written (a client that does not read is closed)
QUEUE_LIMIT = 1 << 20
#: WebSocket close code for a client that lets more than QUEUE_LIMIT of its messages pile up unread
CLOSE_NOT_READING = 4001
#: seconds such a client gets to take the close frame before its socket is dropped
ABORT_UNREAD_AFTER = 2.0


class _Connection:
    """One client: frames are queued and written by one task, so the table's code never waits.
    A queue over QUEUE_LIMIT characters (the client does not read) closes the connection."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self.queued = 0   # characters in the queue
        self.closing = False
        self.table: Optional[Table] = None
        self.seat = -1

    def send(self, message: Dict[str, Any]) -> None:
        if self.closing:
            return
        frame = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        self.queued += len(frame)
        if self.queued > QUEUE_LIMIT:
            self.close(CLOSE_NOT_READING, f"over {QUEUE_LIMIT} characters of messages left unread")
            return
        self.queue.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Close the connection with `code` after the frames queued so far (all of them dropped when
        the client does not read)."""
        if self.closing:
            return
        self.closing = True
        if code == CLOSE_NOT_READING:  # (its writer may wait on the socket forever: abort it soon)
            while not self.queue.empty():
                self.queue.get_nowait()
            asyncio.get_event_loop().call_later(ABORT_UNREAD_AFTER, self.ws.transport.abort)
        self.queue.put_nowait((code, reason))

    def detach(self) -> None:
        """The seat no longer belongs to this connection (resumed elsewhere, or left)."""
        self.table = None
        self.seat = -1

    async def writer(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            if isinstance(frame, tuple):
                await self.ws.close(*frame)
                return
            self.queued -= len(frame)
            await self.ws.send(frame)


#: frames longer than this close the connection (code 1009); up to it a long message gets an error reply
FRAME_LIMIT = 16 * MAX_MESSAGE

_LOG_PATH = re.compile(r"^/(log|replay)/([A-Za-z0-9_-]{1,64})\.(json|html)$")


class TableServer:
    """Hosts tables of one ruleset; see the module docstring and docs/SERVER.md."""

    #: seconds a table that has not started is kept once no connection holds one of its seats (so
    #: that a reload or a dropped connection can resume); then it is removed
    abandoned_grace = 10.0

    def __init__(self, ruleset: str = "sichuan", *, host: str = "127.0.0.1", port: int = 8765, bots: int = 0,
                 time_limit: Optional[float] = 30.0, log_dir: Optional[str] = None, rules: Any = None,
                 seed: Optional[int] = None, bot: str = "greedy", bot_delay: float = 0.0,
                 keep_finished: int = 10000, max_tables: int = 1000) -> None:
        self.ruleset = check_ruleset(ruleset)
        self.rules = resolve_rules(ruleset, rules)
        if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots <= 3:
            raise InvalidArgumentError(f"bots must be 0..3 (seats a table fills with bots), got {bots!r}")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise InvalidArgumentError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
        if not isinstance(host, str) or not host:
            raise InvalidTypeError(f"host is an address to listen on, such as '127.0.0.1', got {host!r}")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise InvalidArgumentError(f"port must be 0..65535 (0: any free port), got {port!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise InvalidArgumentError(f"seed must be a non-negative integer or None (random tables), got {seed!r}")
        make_bot(bot)  # (checks the name now, not when a table first needs a bot)
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or not bot_delay >= 0:
            raise InvalidArgumentError(f"bot_delay must be a number of seconds >= 0, got {bot_delay!r}")
        for name, value in (("keep_finished", keep_finished), ("max_tables", max_tables)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgumentError(f"{name} must be a positive integer, got {value!r}")
        self.host = host
        self.port = port
        self.bots = bots
        self.time_limit = time_limit
        self.log_dir = log_dir
        self.seed = seed
        self.bot = bot
        self.bot_delay = bot_delay
        self.keep_finished = keep_finished
        self.max_tables = max_tables
        self.tables: Dict[str, Table] = {}
        self.tokens: Dict[str, Tuple[Table, int]] = {}
        self.finished_logs: Dict[str, Dict[str, Any]] = {}
        self.abandoned: Dict[str, asyncio.TimerHandle] = {}  # unstarted tables nobody is connected to
        self._ids = itertools.count(1)
        self._server: Any = None
        self._sockets: Set[Any] = set()   # every accepted TCP connection, until it is lost
        self.recovered: List[str] = []
        if log_dir is not None:
            os.makedirs(log_dir, exist_ok=True)

    # ---- life cycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume the saved tables (crash recovery), then listen."""
        ws_server = load_websockets()
        self.recover()
        self._server = await ws_server.serve(self._handle, self.host, self.port, process_request=self._http,
                                             max_size=FRAME_LIMIT, ping_interval=20, ping_timeout=20,
                                             create_connection=_tracked_connection_class(ws_server, self._sockets),
                                             compression=None)  # frames are small: deflate costs more than it saves
        if self.port == 0:
            self.port = next(iter(self._server.sockets)).getsockname()[1]

    async def serve_forever(self) -> None:
        await self._server.serve_forever()

    async def close(self) -> None:
        """Stop listening and stop every table's timers; the journals stay for a restart."""
        for handle in self.abandoned.values():
            handle.cancel()
        self.abandoned.clear()
        for table in self.tables.values():
            table.close()
        if self._server is not None:
            self._server.close()
            self._drop_unopened_sockets()
            await self._server.wait_closed()

    def _drop_unopened_sockets(self) -> None:
        """Abort the sockets that never sent their HTTP request. A browser opens such spare sockets
        (speculative pre-connects), and websockets' close waits for each one's opening handshake to
        time out (`open_timeout`, 10 s); a socket that sent its request is left to the normal close
        (a 503 for a handshake in progress, the close handshake for an open connection)."""
        for connection in list(self._sockets):
            if not connection.request_rcvd.done():
                connection.transport.abort()

    def recover(self) -> None:
        """Rebuild every table whose journal is in log_dir (a checked replay: the same step)."""
        if self.log_dir is None:
            return
        for path in sorted(glob.glob(os.path.join(self.log_dir, "*.table.jsonl"))):
            table = Table.restore(path, **self._table_options())
            self._add(table)
            self.recovered.append(table.id)
            number = table.id.rsplit("-", 1)[-1]
            if number.isdigit():  # new tables continue the numbering
                self._ids = itertools.count(max(int(number) + 1, next(self._ids)))
        for table in list(self.tables.values()):
            table._advance()  # a restored table's bots and timers resume
            self._check_abandoned(table)

    def _table_options(self) -> Dict[str, Any]:
        return {"time_limit": self.time_limit, "log_dir": self.log_dir, "bot": self.bot,
                "bot_delay": self.bot_delay, "on_finish": self._finished}

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        for seat in table.seats:
            if seat.token:
                self.tokens[seat.token] = (table, seat.index)

    def _check_abandoned(self, table: Table) -> None:
        """A table that has not started and that no connection holds a seat of is removed after
        `abandoned_grace` seconds (unless someone resumes or joins it meanwhile); it does not count
        toward `max_tables`, and at most `max_tables` such tables wait (the oldest goes first)."""
        if table.started or table.finished or table.connected or table.id not in self.tables:
            self._cancel_abandoned(table)
            return
        if table.id in self.abandoned:
            return
        loop = asyncio.get_event_loop()
        self.abandoned[table.id] = loop.call_later(self.abandoned_grace, self._remove_if_abandoned, table)
        while len(self.abandoned) > self.max_tables:
            self._remove_table(self.tables[next(iter(self.abandoned))])

    def _cancel_abandoned(self, table: Table) -> None:
        handle = self.abandoned.pop(table.id, None)
        if handle is not None:
            handle.cancel()

    def _remove_if_abandoned(self, table: Table) -> None:
        self.abandoned.pop(table.id, None)
        if not (table.started or table.finished or table.connected):
            self._remove_table(table)

    def _remove_table(self, table: Table) -> None:
        """Forget an unplayed table: its seats' tokens stop working and its journal is deleted."""
        self._cancel_abandoned(table)
        self.tables.pop(table.id, None)
        for seat in table.seats:
            self.tokens.pop(seat.token or "", None)
        table.discard()

    def running_tables(self) -> int:
        """Tables counted toward `max_tables`: neither finished nor abandoned (`_check_abandoned`)."""
        return sum(1 for t in self.tables.values() if not t.finished and t.id not in self.abandoned)

    def new_table(self, bots: Optional[int] = None) -> Table:
        """A new table (`bots` bot seats, default the server's). MahjongError when `max_tables` hands are
        running already."""
        running = self.running_tables()
        if running >= self.max_tables:
            raise MahjongError(f"the server runs {running} tables, its limit; join an open table or try later")
        number = next(self._ids)
        seed = None if self.seed is None else self.seed + number
        table = Table.new(f"t-{number}", self.ruleset, bots=self.bots if bots is None else bots, rules=self.rules,
                          seed=seed, **self._table_options())
        self._add(table)
        return table

    def _finished(self, table: Table) -> None:
        self.finished_logs[table.id] = table.finished_log  # type: ignore[assignment]
        while len(self.finished_logs) > self.keep_finished:
            old = next(iter(self.finished_logs))
            del self.finished_logs[old]
            gone = self.tables.pop(old, None)
            if gone is not None:
                for seat in gone.seats:
                    self.tokens.pop(seat.token or "", None)

    # ---- HTTP -------------------------------------------------------------------------------

    def _http(self, connection: Any, request: Any) -> Any:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None  # the WebSocket handshake goes on
        if path in ("/", "/index.html"):
            return self._response(connection, HTTPStatus.OK, page_html(), "text/html; charset=utf-8")
        if path == "/tables":
            body = json.dumps([t.summary() for t in self.tables.values()], allow_nan=False)
            return self._response(connection, HTTPStatus.OK, body, "application/json")
        match = _LOG_PATH.match(path)
        if match:
            kind, table_id, ext = match.groups()
            log = self.finished_logs.get(table_id)
            if log is None:
                return self._response(connection, HTTPStatus.NOT_FOUND, f"no finished table {table_id}\n")
            if kind == "log" and ext == "json":
                return self._response(connection, HTTPStatus.OK, json.dumps(log, ensure_ascii=False),
                                      "application/json", download=f"{table_id}.json")
            if kind == "replay" and ext == "html":
                viewer = replay_viewer()
                if viewer is None:
                    return self._response(connection, HTTPStatus.NOT_FOUND,
                                          "the replay viewer (mahjong_core.viz.replay_html) is not installed\n")
                return self._response(connection, HTTPStatus.OK, viewer(log), "text/html; charset=utf-8")
        return self._response(connection, HTTPStatus.NOT_FOUND, "not found: GET / (the table), /ws (WebSocket)\n")

    @staticmethod
    def _response(connection: Any, status: HTTPStatus, body: str, content_type: str = "text/plain; charset=utf-8",
                  download: Optional[str] = None) -> Any:
        response = connection.respond(status, body)
        del response.headers["Content-Type"]
        response.headers["Content-Type"] = content_type
        response.headers["Cache-Control"] = "no-store"
        if download:
            response.headers["Content-Disposition"] = f'attachment; filename="{download}"'
        return response

    # ---- WebSocket --------------------------------------------------------------------------

    async def _handle(self, ws: Any) -> None:
        conn = _Connection(ws)
        writer = asyncio.ensure_future(conn.writer())
        conn.send({"type": "hello", "protocol": PROTOCOL, "ruleset": self.ruleset, "time_limit": self.time_limit,
                   "limits": {"message_chars": MAX_MESSAGE, "frame_bytes": FRAME_LIMIT, "unread_chars": QUEUE_LIMIT,
                              "max_tables": self.max_tables}})
        try:
            async for raw in ws:
                self.handle_message(conn, raw)
        except Exception as exc:  # a closed connection ends the loop; anything else is logged by websockets
            if not type(exc).__name__.startswith("ConnectionClosed"):
                raise
        finally:
            table = conn.table
            if table is not None:
                table.detach(conn.seat, conn)
                self._check_abandoned(table)
            conn.queue.put_nowait(None)
            try:
                await asyncio.wait_for(writer, 5)
            except Exception:
                writer.cancel()

    def handle_message(self, conn: Any, raw: Any) -> None:
        """One client frame: checked completely, then applied; any problem is an error reply."""
        try:
            message = parse_message(raw)
        except ProtocolError as exc:
            conn.send(error(exc.code, str(exc), exc.request))
            return
        kind = message["type"]
        try:
            getattr(self, f"_on_{kind}")(conn, message)
        except MahjongError as exc:  # e.g. a ruleset refusing something: nothing was changed
            conn.send(error("refused", str(exc), kind))

    def _on_ping(self, conn: Any, message: Dict[str, Any]) -> None:
        conn.send({"type": "pong", "id": message.get("id")})

    def _on_tables(self, conn: Any, message: Dict[str, Any]) -> None:
        conn.send({"type": "tables", "tables": [t.summary() for t in self.tables.values() if not t.finished]})

    def _on_join(self, conn: Any, message: Dict[str, Any]) -> None:
        if conn.table is not None:
            conn.send(error("already_seated", f"this connection holds seat {conn.seat} at table {conn.table.id}; "
                                              "open another connection to join again", "join"))
            return
        table_id = message.get("table")
        if table_id is not None:
            if "bots" in message:
                conn.send(error("bad_field", "join: \"bots\" is for a new table; leave out \"table\" with it", "join"))
                return
            table = self.tables.get(table_id)
            if table is None or table.finished:
                conn.send(error("unknown_table", f"no open table {table_id!r}; send {{\"type\": \"tables\"}}", "join"))
                return
        elif "bots" in message:
            table = self.new_table(message["bots"])
        else:
            table = next((t for t in self.tables.values() if t.open_seats() and not t.finished), None) \
                or self.new_table()
        open_seats = table.open_seats()
        seat = message.get("seat", open_seats[0] if open_seats else None)
        if seat not in open_seats:
            conn.send(error("seat_taken", f"table {table.id}: seat {seat} is not open; open seats: {open_seats}",
                            "join"))
            return
        table.claim(seat, message.get("name", ""))
        conn.table, conn.seat = table, seat
        table.attach(seat, conn, 0)
        self._check_abandoned(table)

    def _on_resume(self, conn: Any, message: Dict[str, Any]) -> None:
        found = self.tokens.get(message["token"])
        if found is None or found[0].seats[found[1]].token != message["token"]:
            conn.send(error("unknown_token", "no seat holds this token (the hand may be over and forgotten, "
                                             "or the seat was left)", "resume"))
            return
        table, seat = found
        before = conn.table
        if before is not None and (before, conn.seat) != (table, seat):
            before.detach(conn.seat, conn)
        conn.table, conn.seat = table, seat
        table.attach(seat, conn, message.get("since", 0))
        self._check_abandoned(table)
        if before is not None and before is not table:
            self._check_abandoned(before)

    def _seated(self, conn: Any, kind: str) -> Optional[Table]:
        if conn.table is None:
            conn.send(error("not_seated", f"{kind}: join a table or resume a seat first", kind))
        return conn.table

    def _on_act(self, conn: Any, message: Dict[str, Any]) -> None:
        table = self._seated(conn, "act")
        if table is not None:
            reply = table.act(conn.seat, message)
            if reply is not None:
                conn.send(reply)

    def _on_leave(self, conn: Any, message: Dict[str, Any]) -> None:
        table = self._seated(conn, "leave")
        if table is not None:
            seat = conn.seat
            self.tokens.pop(table.seats[seat].token or "", None)
            table.leave(seat)
            conn.detach()
            self._check_abandoned(table)

