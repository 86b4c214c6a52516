"""A local Botzone judge: play protocol bots against each other on `Table` (Linux, macOS).

    result = match(["python my_bot.py", "greedy", "random", "random"], games=10, seed=1)
    result.seats[0].score, result.to_dict()

Each player is a command line (any language; it speaks the Botzone protocol on stdin/stdout, simple
or JSON interaction as it likes — the judge sends simple interaction) or the name of a built-in bot
(`random`, `greedy`: the engine's reference bots, played through `BotzoneState`). Without
`keep_running` a program is started afresh every round with the whole history, as on Botzone; with
it, a program that prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` after its answer stays alive and gets
only the new request next time. A program that does not answer within `time_limit` seconds is TLE,
one that exits with an error without answering RE; both are punished like a WA (−30 / +10). Every
game can be written as a judge-format log (`{"log": [...], "initdata": {...}}`), and each program's
stderr kept per game and seat (`stderr_dir`; `game-00000-seat2.stderr`); `MatchResult.faults` names
every penalty with the stderr file and its last line, so a crash shows its traceback.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shlex
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from mahjong_core._display import text_line
from mahjong_core.errors import InvalidArgumentError, InvalidTypeError, MahjongError

from .run import KEEP_RUNNING
from .table import Table, walltiles_from_seed

__all__ = ["match", "MatchResult", "SeatResult", "Fault", "BUILTIN", "ProgramStartError"]


class ProgramStartError(MahjongError, OSError):
    """A Botzone program's command could not be started (not executable, vanished, ...)."""

#: built-in player names (the engine's reference bots)
BUILTIN = ("random", "greedy")


class _StateGame:
    """The part of a Game the reference bots read, over a BotzoneState (one seat's knowledge)."""

    def __init__(self, state: Any) -> None:
        from mahjong_core.tiles import Forms

        self.FORMS = Forms.MCR
        self._state = state
        self.discard = state.discard
        self.drawn = state.drawn if state.turn == state.seat else -1

    def hand_bytes(self, seat: int) -> bytes:
        return bytes(self._state.hand)

    def meld_count(self, seat: int) -> int:
        return len(self._state.melds[seat])

    def pending(self) -> Dict[int, List[Any]]:
        return {self._state.seat: list(self._state.legal)}


class _Builtin:
    def __init__(self, name: str) -> None:
        from mahjong_core.game.bots import make_bot

        self.name = name
        self.bot = make_bot(name)
        self.state: Any = None
        self.previous: Optional[str] = None

    def start(self, rng: random.Random, wall_size: int) -> None:
        from .state import BotzoneState

        self.bot.new_hand(rng)
        self.state = BotzoneState(wall_size=wall_size)
        self.previous = None

    def turn(self, request: str, history: List[str]) -> tuple:
        from .run import answer

        state = self.state.feed(request, self.previous)
        self.previous = answer(state, lambda s: self.bot.choose(_StateGame(s), s.seat, s.legal))
        return "OK", self.previous, 0.0

    def stop(self) -> None:
        pass


#: lines of a program's stderr kept in memory when it is not written to a file (`_Program.stderr_tail`)
STDERR_TAIL_LINES = 20
#: longest piece of one stderr line kept (a longer line is kept in pieces)
_STDERR_LINE_CHARS = 500
#: the line the kit's `botzone.run` writes on stderr each time it answers for a failed `decide`
#: ("mahjong_core.botzone: decide raised ...; answering Discard(5m)"): counted as the seat's fallbacks
KIT_FALLBACK_PREFIX = "mahjong_core.botzone: decide "
KIT_FALLBACK_MARK = "; answering "


def _is_kit_fallback(line: str) -> bool:
    return line.startswith(KIT_FALLBACK_PREFIX) and KIT_FALLBACK_MARK in line


class _Program:
    def __init__(self, command: str, keep_running: bool, time_limit: float, interaction: str = "simple",
                 stderr: Optional[str] = None) -> None:
        self.name = command
        self.argv = shlex.split(command)
        self.keep_running = keep_running
        #: "simple": the turn number and the history, one line each; "json": {"requests", "responses"}
        self.interaction = interaction
        self.time_limit = time_limit
        #: the file the program's stderr is appended to (None: only its last lines are kept, in `tail`);
        #: `match` sets one per game
        self.stderr = stderr
        #: the file offset where the stderr of interest starts (`stderr_tail` reads from there)
        self.stderr_start = 0
        #: the last lines of stderr when it goes to no file (bounded; `clear_stderr` empties it)
        self.tail: "deque[str]" = deque(maxlen=STDERR_TAIL_LINES)
        #: the kit's fallback lines seen on the stderr pipe since `clear_stderr` (without a file)
        self.piped_fallbacks = 0
        self._err_pump: Optional[threading.Thread] = None
        #: the exit status of the last process that ended by itself (None: still running or killed)
        self.returncode: Optional[int] = None
        self.proc: Optional[subprocess.Popen] = None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()

    def start(self, rng: random.Random, wall_size: int) -> None:
        self.stop()

    def clear_stderr(self) -> None:
        """Forget the stderr seen so far: `stderr_tail` shows only what comes next."""
        self.tail.clear()
        self.piped_fallbacks = 0
        self.stderr_start = os.path.getsize(self.stderr) if self.stderr and os.path.exists(self.stderr) else 0

    def fallbacks(self) -> int:
        """How many times since `clear_stderr` the kit's `run` answered for a `decide` that raised or
        answered illegally (its stderr line, `KIT_FALLBACK_PREFIX`): bugs that cost moves, not games."""
        if self.stderr is None:
            return self.piped_fallbacks
        try:
            with open(self.stderr, "rb") as f:
                f.seek(self.stderr_start)
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return 0
        return sum(1 for line in text.splitlines() if _is_kit_fallback(line))

    def stderr_tail(self, lines: int = STDERR_TAIL_LINES) -> List[str]:
        """The last `lines` lines the program wrote on stderr since `clear_stderr` (trailing blank lines dropped)."""
        if self.stderr is not None:
            if not os.path.exists(self.stderr):
                return []
            kept = _file_tail(self.stderr, self.stderr_start, 8192)
        else:
            pump = self._err_pump
            if pump is not None and (self.proc is None or self.proc.poll() is not None):
                pump.join(timeout=1.0)  # the process is gone: let the pump read what it left in the pipe
            kept = _without_trailing_blanks(list(self.tail))
        return kept[-lines:]

    def _spawn(self) -> subprocess.Popen:
        options: Dict[str, Any] = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, errors="replace",
                                       bufsize=1)
        try:
            if self.stderr is None:
                proc = subprocess.Popen(self.argv, stderr=subprocess.PIPE, **options)
            else:  # the child writes straight into the file: nothing to pump, nothing lost when it is killed
                with open(self.stderr, "ab") as err:
                    proc = subprocess.Popen(self.argv, stderr=err, **options)
        except OSError as exc:
            raise ProgramStartError(f"Botzone program {self.name!r} cannot start: {exc.strerror or exc} "
                                    f"({self.argv[0]!r}); make it executable (chmod +x) or start it through its "
                                    f"interpreter, e.g. 'python3 my_bot.py'") from None
        self.returncode = None
        self.lines = queue.Queue()
        lines = self.lines

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        if proc.stderr is not None:
            tail, err_pipe = self.tail, proc.stderr

            def pump_stderr() -> None:  # bounded: the last lines, each cut into pieces of _STDERR_LINE_CHARS
                for piece in iter(lambda: err_pipe.readline(_STDERR_LINE_CHARS), ""):
                    tail.append(piece.rstrip("\r\n"))
                    if _is_kit_fallback(piece):
                        self.piped_fallbacks += 1
                err_pipe.close()

            self._err_pump = threading.Thread(target=pump_stderr, daemon=True)
            self._err_pump.start()
        return proc

    def turn(self, request: str, history: List[str]) -> tuple:
        """(verdict, response, seconds). `history`: request 1, response 1, ..., this request."""
        if self.keep_running and self.proc is not None and self.proc.poll() is None:
            text = f"1\n{request}\n"
        else:
            self.stop()
            self.proc = self._spawn()
            if self.interaction == "json":
                text = json.dumps({"requests": history[0::2], "responses": history[1::2]}) + "\n"
            else:
                text = f"{(len(history) + 1) // 2}\n" + "\n".join(history) + "\n"
        proc = self.proc
        started = time.monotonic()
        try:
            assert proc.stdin is not None
            proc.stdin.write(text)
            proc.stdin.flush()
            if not self.keep_running:
                proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        response: Optional[str] = None
        started_json = ""  # the lines of a JSON answer read so far
        deadline = started + self.time_limit
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                return "TLE", "", self.time_limit
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:  # the program ended (a bot without keep-running answers once)
                proc.wait()
                self.proc = None
                self.returncode = proc.returncode
                if response is None and started_json:  # an unclosed JSON answer: as it came (a WA)
                    response = started_json
                if response is None:
                    return ("RE" if proc.returncode else "OK"), "", time.monotonic() - started
                break
            if response is None:
                if started_json or line.startswith("{"):
                    # JSON interaction's answer, on one line or spread over several (jsoncpp's
                    # `cout << value` prints it indented): read lines until the object is whole
                    if line == KEEP_RUNNING:  # the object never closed: the text as it came (a WA)
                        response = started_json
                        break
                    text = f"{started_json}\n{line}" if started_json else line
                    try:
                        data = json.loads(text)
                    except RecursionError:  # nested deeper than Python reads: no answer object (a WA)
                        data = None
                    except ValueError:
                        started_json = text
                        continue
                    started_json = ""
                    response = str(data.get("response", "")) if isinstance(data, dict) else text
                else:
                    response = line
                if not self.keep_running:
                    break
            elif line == KEEP_RUNNING:
                break
        elapsed = time.monotonic() - started
        if not self.keep_running:
            self.stop()
        return "OK", response, elapsed

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


@dataclass(repr=False)
class SeatResult:
    """One seat's tally over a match (`MatchResult.seats[s]`); `repr` is one line."""

    player: str
    games: int = 0
    score: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    penalties: Dict[str, int] = field(default_factory=dict)
    max_seconds: float = 0.0
    #: answers the kit's `botzone.run` gave for a `decide` that raised or answered illegally
    fallbacks: int = 0

    @property
    def mean(self) -> float:
        """Mean score per game."""
        return self.score / self.games if self.games else 0.0

    def penalty_text(self) -> str:
        """The penalties as "RE:2,WA:1" ("-" for none)."""
        return ",".join(f"{k}:{v}" for k, v in sorted(self.penalties.items())) or "-"

    def __repr__(self) -> str:
        return (f"SeatResult({self.player}: {self.games} games, score {self.score:+d} (mean {self.mean:+.2f}), "
                f"{self.wins} wins ({self.self_draws} self-drawn), {self.deal_ins} deal-ins, "
                f"penalties {self.penalty_text()}, max {self.max_seconds:.2f} s)")

    def to_dict(self) -> Dict[str, Any]:
        return {"player": self.player, "games": self.games, "score": self.score,
                "mean": self.mean, "wins": self.wins,
                "self_draws": self.self_draws, "deal_ins": self.deal_ins, "penalties": dict(self.penalties),
                "max_seconds": round(self.max_seconds, 3), "fallbacks": self.fallbacks}


@dataclass(repr=False)
class Fault:
    """A penalty that ended a game (WA, WH, TLE, RE), with where to look for the reason."""

    game: int
    seat: int
    player: str
    verdict: str
    #: the file holding the program's stderr in that game (None: not kept, or it wrote nothing)
    stderr: Optional[str] = None
    #: the last non-empty line of that stderr (a traceback's exception line), "" if none; without a
    #: file, the last line of the tail kept in memory
    last_line: str = ""
    #: whether the match kept stderr at all (`stderr_dir` or `logs_dir` given)
    stderr_kept: bool = False

    def hint(self) -> str:
        """One line for a person: what happened and where the program's stderr is."""
        head = f"game {self.game} seat {self.seat} ({self.player}): {self.verdict}"
        if self.stderr is not None:
            return f"{head}; its stderr is in {self.stderr}" + (f": {self.last_line}" if self.last_line else "")
        if self.verdict not in ("RE", "TLE"):
            return head
        if self.stderr_kept:
            return f"{head}; it wrote nothing on stderr"
        if self.last_line:
            return f"{head}; its last stderr line: {self.last_line} (rerun with --stderr DIR to keep all of it)"
        return f"{head}; rerun with --stderr DIR (or --logs DIR) to keep its stderr"

    def __repr__(self) -> str:
        return f"Fault({self.hint()})"

    def to_dict(self) -> Dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "player": self.player, "verdict": self.verdict,
                "stderr": self.stderr, "last_line": self.last_line}


@dataclass(repr=False)
class MatchResult:
    """A match's tally. `str`/`repr` show the per-seat table (`table()`) and how many games ended
    in a penalty; the raw data stays in the fields (`logs`: every game's judge-format log) and `to_dict()`."""

    games: int
    seed: int
    seats: List[SeatResult]
    outcomes: Dict[str, int]
    logs: List[Dict[str, Any]]
    #: every game that ended in a penalty, in game order
    faults: List[Fault] = field(default_factory=list)

    _HEADER = ("seat", "score", "mean", "wins", "self", "deal-in", "penalties", "max s", "player")
    _WIDTHS = (-5, 8, 9, 6, 6, 9, 12, 8, -2)

    def to_dict(self) -> Dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "outcomes": dict(self.outcomes),
                "seats": [s.to_dict() for s in self.seats], "faults": [f.to_dict() for f in self.faults]}

    def headline(self) -> str:
        """One line: games, seed and how the games ended ("HU 8, HUANG 1, RE 1")."""
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        return f"botzone match: {self.games} game(s), seed {self.seed}: {outcomes}"

    def _rows(self) -> List[Tuple[str, ...]]:
        return [(str(seat), str(st.score), f"{st.mean:.2f}", str(st.wins), str(st.self_draws), str(st.deal_ins),
                 st.penalty_text(), f"{st.max_seconds:.2f}", st.player) for seat, st in enumerate(self.seats)]

    def table(self) -> str:
        """Per seat: total score, mean per game, wins, self-draws, deal-ins, penalties, slowest answer, player."""
        header = text_line(self._HEADER[:-1], self._WIDTHS[:-1]) + "  " + self._HEADER[-1]
        return "\n".join([header] + [text_line(row[:-1], self._WIDTHS[:-1]) + "  " + row[-1] for row in self._rows()])

    def fallback_hints(self) -> List[str]:
        """A line per seat whose `decide` failed and was answered for by the kit (none: [])."""
        return [f"seat {s} ({st.player}): decide raised or answered illegally {st.fallbacks} time(s); the kit sent "
                f"the first legal answer instead — its stderr says why (look for 'mahjong_core.botzone: decide', "
                f"kept with --stderr DIR)" for s, st in enumerate(self.seats) if st.fallbacks]

    def fault_summary(self) -> str:
        """One line: how many games ended in a penalty and the first one's hint ("" without any)."""
        if not self.faults:
            return ""
        n = len(self.faults)
        more = f"; all {n} in .faults" if n > 1 else ""
        return f"{n} fault{'s' if n > 1 else ''}, first: {self.faults[0].hint()}{more}"

    def __str__(self) -> str:
        summary = self.fault_summary()
        return f"{self.headline()}\n{self.table()}" + (f"\n{summary}" if summary else "")

    #: the REPL shows the summary; the logs are in `logs`, the raw tallies in `to_dict()`
    __repr__ = __str__

    def _repr_html_(self) -> str:
        """The per-seat table as HTML (notebooks)."""
        from mahjong_core._display import html_table

        summary = self.fault_summary()
        return html_table(self._HEADER, self._rows(), caption=self.headline(), right=(0, 1, 2, 3, 4, 5, 7),
                          notes=[summary] if summary else [])


def _player(spec: str, keep_running: bool, time_limit: float) -> Any:
    if spec in BUILTIN:
        return _Builtin(spec)
    argv = _argv(spec)
    exe = argv[0]
    if shutil.which(exe) is None and not (os.sep in exe and os.path.isfile(exe)):
        raise InvalidArgumentError(f"botzone match: player {spec!r}: {exe!r} is not a command on PATH nor a file; "
                                   f"give the command line that starts the bot (e.g. 'python3 my_bot.py') or a "
                                   f"built-in bot ({', '.join(BUILTIN)})")
    return _Program(spec, keep_running, time_limit)


def _argv(command: Union[str, Sequence[str]]) -> List[str]:
    """A program's command line as argv (a string is split as a shell does)."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise InvalidArgumentError(f"Botzone program {command!r}: cannot split the command line ({exc})") from None
    else:
        try:
            argv = [str(a) for a in command]
        except TypeError:
            raise InvalidTypeError(f"a Botzone program is a command line (a string or a list of arguments), got "
                                   f"{type(command).__name__}") from None
    if not argv:
        raise InvalidArgumentError("Botzone program: the command is empty")
    return argv


def _without_trailing_blanks(lines: List[str]) -> List[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _file_tail(path: str, start: int, max_bytes: int) -> List[str]:
    """The lines of a (possibly large) text file's last `max_bytes` bytes from offset `start` on,
    trailing blank lines dropped."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(start, f.tell() - max_bytes))
        return _without_trailing_blanks(f.read().decode("utf-8", "replace").splitlines())


def play_game(players: Sequence[Any], walltiles: str, quan: int, rng: random.Random,
              seconds: Optional[List[float]] = None) -> Table:
    """One game of `players` (built by `match`) on a fresh table; returns the finished Table."""
    table = Table(walltiles=walltiles, quan=quan)
    size = len(table.game.wall)
    for p in players:
        p.start(random.Random(rng.random()), size)
    histories: List[List[str]] = [[], [], [], []]
    try:
        while not table.finished:
            requests = table.requests()
            verdicts: Dict[int, str] = {}
            responses: Dict[int, str] = {}
            for s, p in enumerate(players):
                histories[s].append(requests[s])
                verdict, response, took = p.turn(requests[s], histories[s])
                histories[s].append(response)
                verdicts[s], responses[s] = verdict, response
                if seconds is not None:
                    seconds[s] = max(seconds[s], took)
            table.respond(responses, verdicts)
    finally:
        for p in players:
            p.stop()
    return table


def _check_match_numbers(games: Any, seed: Any, time_limit: Any) -> None:
    """`match`'s counts, refused before any game with the option's name (the CLI's and Python's)."""
    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not whole(games) or games < 1:
        raise InvalidArgumentError(f"botzone match: games (--games) must be a positive integer, got {games!r}")
    if not whole(seed) or seed < 0:
        raise InvalidArgumentError(f"botzone match: seed (--seed) must be a non-negative integer, got {seed!r}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise InvalidArgumentError(f"botzone match: time_limit (--time-limit) must be a positive number of seconds, "
                                   f"got {time_limit!r}")


def match(players: Sequence[str], *, games: int = 1, seed: int = 1, keep_running: bool = False,
          time_limit: float = 1.0, logs_dir: Optional[str] = None, flowers: bool = False,
          stderr_dir: Optional[str] = None) -> MatchResult:
    """Play `games` games (game i on the wall of seed (seed, i), prevalent wind i % 4) and tally per seat.

    `logs_dir`: write each game's judge-format log there (`game-00000.json`). `stderr_dir` (default:
    `logs_dir`): keep each program's stderr there, one file per game and seat
    (`game-00000-seat2.stderr`, appended to by every process of that seat in that game; a file
    is left only when the program wrote something). Without either, only the last lines are kept, in
    memory, for a fault's `last_line`."""
    if len(players) != 4:
        raise InvalidArgumentError(f"a match needs 4 players (commands or {', '.join(BUILTIN)}), got {len(players)}")
    _check_match_numbers(games, seed, time_limit)
    seats = [SeatResult(p) for p in players]
    built = [_player(p, keep_running, time_limit) for p in players]
    outcomes: Dict[str, int] = {}
    logs: List[Dict[str, Any]] = []
    faults: List[Fault] = []
    if stderr_dir is None:
        stderr_dir = logs_dir
    for folder in sorted({logs_dir, stderr_dir} - {None}):  # type: ignore[type-var]
        try:
            os.makedirs(folder, exist_ok=True)  # type: ignore[arg-type]
        except OSError as exc:
            raise InvalidArgumentError(f"botzone match: cannot write into the folder {folder!r} ({exc.strerror}); "
                                       "give a folder path for --logs / --stderr") from None
    for g in range(games):
        walltiles = walltiles_from_seed((seed << 20) + g, flowers=flowers)
        seconds = [0.0] * 4
        err_files: Dict[int, str] = {}
        for s, p in enumerate(built):
            if not isinstance(p, _Program):
                continue
            if stderr_dir:
                p.stderr = err_files[s] = os.path.join(stderr_dir, f"game-{g:05d}-seat{s}.stderr")
                if os.path.exists(p.stderr):  # a file of an earlier match in the same folder
                    os.remove(p.stderr)
            else:
                p.clear_stderr()  # the in-memory tail holds this game's lines only
        table = play_game(built, walltiles, g % 4, random.Random(f"{seed}-{g}"), seconds)
        for s, p in enumerate(built):
            if isinstance(p, _Program):
                p.stderr_tail(1)  # (a process that ended: its stderr pump drains first)
                seats[s].fallbacks += p.fallbacks()
        for s, path in list(err_files.items()):
            if os.path.exists(path) and os.path.getsize(path) == 0:
                os.remove(path)
            if not os.path.exists(path):
                del err_files[s]
        display = table.display
        action = display.get("action", "")
        outcomes[action] = outcomes.get(action, 0) + 1
        scores = table.scores or [0, 0, 0, 0]
        for s in range(4):
            r = seats[s]
            r.games += 1
            r.score += scores[s]
            r.max_seconds = max(r.max_seconds, seconds[s])
        player = display.get("player")
        if action == "HU" and isinstance(player, int):
            seats[player].wins += 1
            if scores.count(min(scores)) == 3:  # a self-draw: the three others pay alike
                seats[player].self_draws += 1
            else:
                loser = scores.index(min(scores))
                seats[loser].deal_ins += 1
        elif action not in ("HUANG", "") and isinstance(player, int):
            seats[player].penalties[action] = seats[player].penalties.get(action, 0) + 1
            # The last line the program wrote in this game: read from its file, or from the tail kept
            # in memory without one (a built-in bot writes nothing).
            program = built[player]
            tail = program.stderr_tail(1) if isinstance(program, _Program) else []
            faults.append(Fault(g, player, players[player], action, err_files.get(player),
                                tail[0].strip() if tail else "", bool(stderr_dir)))
        log = table.log
        logs.append(log)
        if logs_dir:
            with open(os.path.join(logs_dir, f"game-{g:05d}.json"), "w", encoding="utf-8") as f:
                json.dump(log, f, ensure_ascii=False)
    return MatchResult(games, seed, seats, outcomes, logs, faults)
