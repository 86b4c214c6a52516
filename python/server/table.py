"""One table: a hand of mahjong, four seats (remote clients or built-in bots), timers and the saved log.

The table is synchronous: a client's message is handled to the end (checked, applied, bots answered,
every seat told) before the next one is read, so no two answers ever race. It talks to the outside
through `Connection`-like objects with a non-blocking `send(dict)` (the server queues the frames) and
through `loop.call_later` for the time limit and bot pauses.

Each seat receives only what it may see: its own event stream (`engine_api.events(game, seat)`) and
`game.view(seat)`; the omniscient log is written to disk, never sent to a player during the hand.

## What a seat sees of claim windows

The engine opens a claim (or rob) window only when some seat can take the tile, so who is asked is
hidden information; so are a Changbai last draw that wins and a declared-ready seat's turn that
offers more than the discard of its drawn tile (`engine_api.private_window`). A seat is told
(events, state) only at decision points it *sees*: public ones
(turns, 定缺 / 飘, the end) and the windows it is asked in. While a window it is not asked in is
open — or after it answered one that is still open — it is sent nothing (the events wait), so its
messages are the ones it would get had no window opened. The protocol's step ids (`Table.step`)
count public decision points only: a window carries the id of the turn whose discard (or kong) it
is about, so the ids do not show that a window opened. No seat is asked in a claim or rob window
and at the turn before it; a seat asked at a last draw or a declared turn may have been asked at the
turn whose id it carries, but the two questions share no legal action (a last draw: win or pass; a
declared turn: win, kong or the drawn tile's discard; the turn before: a discard, kong or 报听 of
another draw), so a late answer to the first is refused, never applied to the second.
The engine's own `game.step` (which counts every window) stays inside.

## Saving (with a log dir)

While a hand runs, `<table>.table.jsonl` is its journal, appended to and flushed after every change
(O(1) per answer: no rewrite): line 1 is the header (format, table id, time limit, the seats, and
the game's log at the start: ruleset, rules, seed, wall, dealer); each further line is either an
answer `[seat, code, events]` (`events` = the engine's event count after it), a seat change
`{"seat": i, ...}` (claimed, name, token, left), or a leave settled by the ruleset `{"leave": i,
"events": n}`. A crash loses at most a line being written; a torn
last line is ignored. `Table.restore` deals the hand again (the engine checks the wall against the seed)
and applies the answers and leaves in order (each checked legal by the engine), then checks the
event count: the same game at the same step.
When the hand ends the journal is replaced by the finished log `<table>.json` (the engine's log).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
from typing import Any, Callable, Dict, List, Optional

from mahjong_core.game import new_game
from mahjong_core.game.bots import make_bot

from mahjong_core.errors import IllegalActionError, MahjongError

from . import engine_api as api
from .page import replay_viewer
from .protocol import error

__all__ = ["Seat", "Table", "TABLE_FORMAT", "CLOSE_REPLACED", "save_json", "read_journal"]

#: format tag of a table journal's header (`<id>.table.jsonl`)
TABLE_FORMAT = "mahjong_core.server.table/1"

#: WebSocket close code for a connection whose seat was resumed by another connection
CLOSE_REPLACED = 4000


def _line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def save_json(path: str, data: Any) -> None:
    """Write JSON atomically (a crash leaves the old file or the new one, never half of one)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(_line(data))  # dumps, not dump: the C encoder (dump streams through the Python one)
    os.replace(tmp, path)


def read_journal(path: str) -> Dict[str, Any]:
    """A journal as {"header": ..., "seats": [...], "entries": [...], "actions": n, "events": n}: `entries`
    are the answers `("act", seat, code)` and leaves `("leave", seat)` in order.
    Raises MahjongError for a file that is no journal; a torn last line (a crash mid-write) is dropped."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        header = json.loads(lines[0])
    except ValueError:
        raise MahjongError(f"{path}: line 1 is not a table header") from None
    if not isinstance(header, dict) or header.get("format") != TABLE_FORMAT:
        raise MahjongError(f"{path}: not a {TABLE_FORMAT} journal")
    seats = [dict(x) for x in header["seats"]]
    entries: List[tuple] = []
    actions = events = 0
    body = [line for line in lines[1:] if line]
    for number, line in enumerate(body, 2):
        try:
            entry = json.loads(line)
        except ValueError:
            if number == len(body) + 1:
                break  # the line being written when the process died
            raise MahjongError(f"{path}: line {number} is not JSON") from None
        if isinstance(entry, list) and len(entry) == 3 and all(type(v) is int for v in entry):
            entries.append(("act", entry[0], entry[1]))
            actions += 1
            events = entry[2]
        elif isinstance(entry, dict) and entry.get("leave") in range(4):
            entries.append(("leave", entry["leave"]))
            events = entry.get("events", events)
        elif isinstance(entry, dict) and entry.get("seat") in range(4):
            seats[entry.pop("seat")].update(entry)
        else:
            raise MahjongError(f"{path}: line {number} is neither an answer nor a seat change: {line[:60]}")
    return {"header": header, "seats": seats, "entries": entries, "actions": actions, "events": events}


class Seat:
    """One seat: "remote" (a client holding `token`) or "bot"; a remote seat that left is played by a bot."""

    def __init__(self, index: int, kind: str, name: str = "", token: Optional[str] = None) -> None:
        self.index = index
        self.kind = kind
        self.name = name or (f"bot {index}" if kind == "bot" else "")
        self.token = token
        self.claimed = kind == "bot"  # a remote seat is claimed by its first join
        self.left = False             # left for good (settled by the ruleset or played by a bot)
        self.conn: Any = None
        self.sent = 0                 # events of this seat's stream already sent to conn
        self.last_state: Any = None   # what the last state sent showed (step, legal codes, seats)

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.left

    def public(self) -> Dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "name": self.name, "connected": self.conn is not None,
                "left": self.left}

    def to_json(self) -> Dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "token": self.token, "claimed": self.claimed, "left": self.left}


class Table:
    """A hand at one table. Build with `Table.new(...)` or `Table.restore(path)` (from its journal)."""

    def __init__(self, table_id: str, game: Any, seats: List[Seat], *, time_limit: Optional[float],
                 log_dir: Optional[str], bot: str = "greedy", bot_delay: float = 0.0,
                 on_finish: Optional[Callable[["Table"], None]] = None) -> None:
        self.id = table_id
        self.game = game
        self.seats = seats
        self.time_limit = time_limit
        self.log_dir = log_dir
        self.bot_name = bot
        self.bot_delay = bot_delay
        self.on_finish = on_finish
        self.bots: Dict[int, Any] = {}
        self._rng = random.Random(f"{table_id}:{game.seed}")
        self._timer: Optional[asyncio.TimerHandle] = None
        self._timer_step = -1
        self.deadline: Optional[float] = None  # loop time when the current step times out
        self._bot_call: Optional[asyncio.TimerHandle] = None
        self.finished_log: Optional[Dict[str, Any]] = None
        self.closed = False
        self._journal: Any = None          # the open journal file (with a log dir)
        self._journaled = 0                # answers written to it
        self.step = 0                      # the protocol's step id (see the module docstring)
        self._point = -1                   # the engine step of the last public decision point
        for seat in seats:
            if seat.bot_plays:
                self._bot_for(seat.index)
        self._note_point()

    # ---- building ---------------------------------------------------------------------------

    @classmethod
    def new(cls, table_id: str, ruleset: str, *, bots: int = 0, rules: Any = None, seed: Optional[int] = None,
            **options: Any) -> "Table":
        """A fresh hand; the last `bots` seats are bots, the others wait for clients."""
        game = new_game(ruleset, seed=seed, rules=rules)
        seats = [Seat(i, "bot") if i >= 4 - bots else Seat(i, "remote", token=secrets.token_urlsafe(18))
                 for i in range(4)]
        return cls(table_id, game, seats, **options)

    @classmethod
    def restore(cls, path: str, **options: Any) -> "Table":
        """The table of a journal (see the module docstring): the game rebuilt by replaying its
        answers, at the same step. Raises ReplayError / MahjongError."""
        journal = read_journal(path)
        game = api.checked_replay(dict(journal["header"]["log"], actions=[]))
        seats = []
        for i, s in enumerate(journal["seats"]):
            seat = Seat(i, s["kind"], s.get("name", ""), s.get("token"))
            seat.claimed = bool(s.get("claimed", seat.kind == "bot"))
            seat.left = bool(s.get("left", False))
            seats.append(seat)
        options.setdefault("time_limit", journal["header"].get("time_limit"))
        table = cls(journal["header"]["table"], game, seats, **options)
        for number, entry in enumerate(journal["entries"]):
            try:
                if entry[0] == "act":
                    table._play(entry[1], entry[2])
                else:
                    table._leave_game(entry[1])
            except MahjongError as exc:
                raise api.ReplayError(f"{path}: entry {number} {entry} does not replay: {exc}") from None
        if api.event_count(game) != journal["events"]:
            raise api.ReplayError(f"{path}: the replayed game has {api.event_count(game)} events, the journal "
                                  f"recorded {journal['events']}")
        table._journaled = journal["actions"]
        return table

    def _bot_for(self, seat: int) -> Any:
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(self.bot_name)
            bot.new_hand(random.Random(self._rng.random()))
        return bot

    # ---- what the outside asks --------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Every remote seat has been claimed by a client (the hand runs from then on)."""
        return all(seat.claimed for seat in self.seats)

    @property
    def finished(self) -> bool:
        return self.game.finished

    def open_seats(self) -> List[int]:
        return [s.index for s in self.seats if not s.claimed]

    def public_progress(self) -> int:
        """Public decision points answered so far: the step id open now, or the next one while a
        claim window is open (what `tables` shows; it moves on with the discard, as without a window)."""
        return self.step + 1 if api.private_window(self.game) else self.step

    @property
    def connected(self) -> bool:
        """Some connection holds one of the seats."""
        return any(s.conn is not None for s in self.seats)

    def summary(self) -> Dict[str, Any]:
        return {"table": self.id, "ruleset": self.game.ruleset, "open_seats": self.open_seats(),
                "started": self.started, "finished": self.finished, "step": self.public_progress(),
                "seats": [s.public() for s in self.seats]}

    def result_message(self) -> Dict[str, Any]:
        """The `result` message of the finished hand."""
        log = self.finished_log or self.game.log
        return {"type": "result", "table": self.id, "winners": log["winners"], "totals": log["totals"],
                "log": f"/log/{self.id}.json",
                "replay": f"/replay/{self.id}.html" if replay_viewer() is not None else None}

    def claim(self, seat: int, name: str = "") -> Seat:
        """Give the remote seat to a joining client; returns it (its token is the client's key)."""
        s = self.seats[seat]
        s.claimed = True
        s.name = name or f"player {seat}"
        self._journal_seat(s)
        return s

    def attach(self, seat: int, conn: Any, since: int = 0) -> None:
        """Connect `conn` to a seat (a join or a resume): it gets the seat's events from `since` on
        and the current state (once it sees the decision point open now), and the result of a hand
        that is over. A connection the seat had before is told and closed (code CLOSE_REPLACED)."""
        s = self.seats[seat]
        if s.conn is not None and s.conn is not conn:
            s.conn.send(error("replaced", "this seat was resumed by another connection; this one is closed"))
            s.conn.detach()
            s.conn.close(CLOSE_REPLACED, "seat resumed elsewhere")
        s.conn = conn
        s.sent = since  # (clamped to the events the seat may see when they are sent)
        s.last_state = None
        conn.send({"type": "joined", "table": self.id, "seat": seat, "token": s.token, "ruleset": self.game.ruleset,
                   "time_limit": self.time_limit, "seats": [x.public() for x in self.seats]})
        was_over = self.finished_log is not None
        self._advance()
        if was_over:
            conn.send(self.result_message())

    def detach(self, seat: int, conn: Any) -> None:
        """The connection went away (the seat stays; its time limit keeps running)."""
        s = self.seats[seat]
        if s.conn is conn:
            s.conn = None
            self._tell_seats()

    def act(self, seat: int, message: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """A client's answer: None when it was applied, else the error reply (nothing changed).

        Replies name only what the seat itself was told: an answer to anything but its own open
        question is `stale` with one message whatever the reason (closed, already answered, another
        seat's decision, or a claim window the seat is not asked in), and an illegal action lists the
        seat's own legal actions. The engine's messages, which may name other seats, are never sent."""
        game = self.game
        if game.finished:
            return error("finished", "the hand is over", "act")
        if not self.started:
            return error("not_started", f"the table waits for players at seat(s) {self.open_seats()}", "act")
        s = self.seats[seat]
        step = message["step"]
        if step != self.step or not api.asks(game, seat):
            return error("stale", f"seat {seat}: step {step} has no open question for this seat (it is over, "
                                  "answered, or not this seat's); answer the step of the last state whose "
                                  "legal list is not empty", "act")
        try:
            action = api.action_from_wire(game, message["action"])
        except IllegalActionError as exc:
            return error("illegal", str(exc), "act")
        legal = game.legal_actions(seat)
        if action not in legal:
            return error("illegal", f"seat {seat}: {action!r} is not legal at step {step}; legal: "
                                    f"{', '.join(map(repr, legal))}", "act")
        self._play(seat, action)
        if s.conn is not None:
            s.conn.send({"type": "accepted", "step": step, "action": api.action_json(game, action)})
        self._advance()
        return None

    def leave(self, seat: int) -> None:
        """The seat's player leaves for good: the ruleset settles it where it has a rule (e.g. Sichuan
        逃跑, through `game.leave`), otherwise a bot plays the seat to the end."""
        s = self.seats[seat]
        if s.left:
            return
        s.left = True
        s.token = None
        if not self.game.finished and api.leave_settles(self.game, seat):
            self._save_progress()  # the answers before the leave come first in the journal
            try:
                self._leave_game(seat)
            except MahjongError:
                pass  # the ruleset refused at this moment: the bot plays the seat
            else:
                if self.log_dir is not None and not self.game.finished:
                    self._write({"leave": seat, "events": api.event_count(self.game)})
        if s.conn is not None:
            s.conn.send({"type": "left", "seat": seat})
            s.conn.detach()
            s.conn = None
        self._bot_for(seat)
        s.claimed = True
        self._journal_seat(s)
        self._advance()

    def discard(self) -> None:
        """The table goes away unplayed (nobody came back to it): stop it and delete its journal."""
        self.close()
        path = self.progress_path()
        if path is not None and os.path.exists(path):
            os.remove(path)

    def close(self) -> None:
        """Stop timers and close the journal (the server is shutting down; the journal stays for a restart)."""
        self.closed = True
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        for handle in (self._timer, self._bot_call):
            if handle is not None:
                handle.cancel()
        self._timer = self._bot_call = None

    # ---- the hand moves on ------------------------------------------------------------------

    def _play(self, seat: int, action: Any) -> None:
        """Apply an answer checked legal (a client's, a bot's, a timeout's, or a journal's)."""
        self.game.act(seat, action, step=api.step(self.game))
        self._note_point()

    def _leave_game(self, seat: int) -> None:
        """The ruleset settles `seat` leaving (`game.leave`); MahjongError when it refuses."""
        self.game.leave(seat)
        self._note_point()

    def _note_point(self) -> None:
        """A new public decision point gets the next step id; a claim window keeps the id it follows."""
        engine_step = api.step(self.game)
        if engine_step != self._point and not api.private_window(self.game):
            if self._point >= 0:
                self.step += 1
            self._point = engine_step

    def _sees_now(self, seat: int) -> bool:
        """`seat` may be told about the decision point open now: a public one, or a claim window
        that asks it and that it has not answered yet."""
        return not api.private_window(self.game) or api.asks(self.game, seat)

    def _advance(self) -> None:
        """Bots answer, progress is saved, every seat is told, the timer is set (after any change)."""
        if self.closed:
            return
        game = self.game
        if self.started and self._bot_call is None:
            while not game.finished:
                bot_seats = [s for s in game.pending() if self.seats[s].bot_plays]
                if not bot_seats:
                    break
                if self.bot_delay > 0:
                    self._bot_call = asyncio.get_event_loop().call_later(self.bot_delay, self._bot_turn)
                    break
                self._bot_answer(bot_seats[0])
        self._save_progress()
        self._arm_timer()
        self._tell_seats()
        if game.finished and self.finished_log is None:
            self._finish()

    def _bot_answer(self, seat: int) -> None:
        game = self.game
        actions = game.legal_actions(seat)
        self._play(seat, self._bot_for(seat).choose(game, seat, actions))

    def _bot_turn(self) -> None:
        self._bot_call = None
        if self.closed:
            return
        bot_seats = [s for s in self.game.pending() if self.seats[s].bot_plays]
        if bot_seats:
            self._bot_answer(bot_seats[0])
        self._advance()

    def _arm_timer(self) -> None:
        game = self.game
        step = api.step(game)  # (the engine's: every window has its own time limit)
        if game.finished or not self.time_limit or not self.started:
            self._cancel_timer()
            return
        if self._timer is not None and self._timer_step == step:
            return
        self._cancel_timer()
        loop = asyncio.get_event_loop()
        self._timer_step = step
        self.deadline = loop.time() + self.time_limit
        self._timer = loop.call_later(self.time_limit, self._on_timeout, step)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_step = -1
        self.deadline = None

    def _on_timeout(self, step: int) -> None:
        """The time limit of engine step `step` ran out: every seat still to answer gets its default action."""
        self._timer = None
        game = self.game
        if self.closed or game.finished or api.step(game) != step:
            return
        for seat in list(game.pending()):
            if api.step(game) != step:
                break
            if seat in game.pending():
                action = api.default_action(game, seat)
                seat_step = self.step
                self._play(seat, action)
                conn = self.seats[seat].conn
                if conn is not None:
                    conn.send({"type": "timeout", "step": seat_step, "action": api.action_json(game, action)})
        self._advance()

    def _tell_seats(self) -> None:
        """Send each connected seat its new events and state — only while it sees the decision point
        open now (see the module docstring): otherwise everything waits until it does."""
        game = self.game
        now = asyncio.get_event_loop().time()
        for s in self.seats:
            conn = s.conn
            if conn is None or not self._sees_now(s.index):
                continue
            s.sent = min(s.sent, api.event_count(game))
            stream = api.events(game, s.index, s.sent)
            if stream:
                conn.send({"type": "events", "since": s.sent, "events": stream, "next": s.sent + len(stream)})
                s.sent += len(stream)
            legal = api.legal_json(game, s.index) if self.started else []
            key = (self.step, tuple(a["code"] for a in legal), self.started, tuple(x.conn is None for x in self.seats))
            if key == s.last_state and not stream:
                continue
            s.last_state = key
            view = game.view(s.index)
            view["step"] = self.step
            conn.send({"type": "state", "table": self.id, "step": self.step, "started": self.started, "view": view,
                       "legal": legal, "seats": [x.public() for x in self.seats],
                       "time_left": None if self.deadline is None or not legal else round(self.deadline - now, 3)})

    # ---- saving -----------------------------------------------------------------------------

    def progress_path(self) -> Optional[str]:
        return None if self.log_dir is None else os.path.join(self.log_dir, f"{self.id}.table.jsonl")

    def log_path(self) -> Optional[str]:
        return None if self.log_dir is None else os.path.join(self.log_dir, f"{self.id}.json")

    def _write(self, entry: Any) -> None:
        """Append one line to the journal; a new journal starts with the header."""
        journal = self._journal
        if journal is None:
            path = self.progress_path()
            fresh = not os.path.exists(path)  # type: ignore[arg-type]
            journal = self._journal = open(path, "a", encoding="utf-8")  # type: ignore[arg-type]
            if fresh:  # the hand as dealt; every answer follows as a line
                log = self.game.log
                header = {"format": TABLE_FORMAT, "table": self.id, "time_limit": self.time_limit,
                          "seats": [s.to_json() for s in self.seats], "log": dict(log, actions=[])}
                journal.write(_line(header) + "\n")
                self._journaled = 0
        journal.write(_line(entry) + "\n")
        journal.flush()

    def _journal_seat(self, seat: Seat) -> None:
        if self.log_dir is not None and not self.game.finished:
            self._write({"seat": seat.index, **seat.to_json()})

    def _save_progress(self) -> None:
        """Append the answers given since the last save (see "Saving" in the module docstring)."""
        if self.log_dir is None or self.game.finished:
            return
        history = self.game.answer_history()
        if len(history) == self._journaled:
            return
        code = self.game.space.code
        events = api.event_count(self.game)
        for seat, action in history[self._journaled:]:
            self._write([seat, code(action), events])
            self._journaled += 1

    def _finish(self) -> None:
        self._cancel_timer()
        log = self.finished_log = self.game.log
        path = self.log_path()
        if path is not None:
            save_json(path, log)
            if self._journal is not None:
                self._journal.close()
                self._journal = None
            progress = self.progress_path()
            if progress and os.path.exists(progress):
                os.remove(progress)
        result = self.result_message()
        for s in self.seats:
            if s.conn is not None:
                s.conn.send(result)
        if self.on_finish is not None:
            self.on_finish(self)
