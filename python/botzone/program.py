"""`ProgramBot`: a Botzone-protocol program (any language) as an engine bot, for `simulate` / `Match`.

    from mahjong_core.game.simulate import simulate
    simulate("mcr", 40, rules="botzone", bots=["botzone:python3 my_bot.py", "greedy", "greedy", "greedy"])
    simulate("mcr", 40, rules="botzone", bots=[ProgramBot("./my_bot", keep_running=True, timeout=2.0), ...])

The bot spec string is ``"botzone:COMMAND"`` (restarted every round, as on Botzone) or
``"botzone(keep_running=True, timeout=2.0):COMMAND"`` (Python-literal options); the mapping form
``{"bot": "botzone:COMMAND", "args": {"keep_running": True}}`` works too (`game.botspec`). The spec
is plain data: a worker process or a Ray worker builds its own `ProgramBot`, which starts the
program only when its seat is first asked (the command must work there: same path, same machine
layout).

It plays one seat of an engine game on the Botzone table (`new_game("mcr", rules="botzone")`, the
`BotzoneGame`), talking to the program exactly as the local judge does (`judge._Program`:
simple or JSON interaction, keep-running, time limit). The requests are the judge's own (`Table.of_game` reads
them from the game's events; only this seat's line is sent), one turn of the program per round:

- a round in which the engine asks the seat nothing (the deal, 补花, another seat's draw, its own
  discard, a kong) must be answered PASS; those rounds are sent when the seat is next asked (in
  keep-running mode one line each), and a hand that ends in such a round ends without them;
- the round the engine asks about (a draw, a discard, an added kong): the answer must be one the
  judge accepts (`Table.answer_actions`, the engine's legal actions in Botzone's text) or HU, which
  the engine settles as a win or a false win (WH); a pung or chow answer ("PENG T", "CHI M T") is
  the claim now and the discard T at the engine's next question;
- any other answer is WA, a time-out TLE, a crash without an answer RE: the seat is penalised as
  the judge does (`BotzoneGame.penalize`: −30 for it, +10 for each other seat, the hand ends). The
  penalty is charged when the answer is read, so when several seats answer one round wrongly, the
  judge's order among them is not reproduced.

The program is started afresh for every hand (a Botzone game) and stopped at the end of every
`simulate` task and `Match.play` (`release()`, also `close()`), when the bot is garbage-collected, and at exit.
"""

from __future__ import annotations

import os
import shlex
import shutil
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from mahjong_core.errors import BotError, InvalidArgumentError
from mahjong_core.game.actions import PASS, WIN, Action
from mahjong_core.game.bots import Bot
from mahjong_core.game.botspec import PROGRAM_PREFIX as PREFIX

__all__ = ["ProgramBot", "ProgramError"]

#: what a program's fault does: charge Botzone's penalty (the hand goes on scoring) or raise ProgramError
ON_FAULT = ("penalize", "raise")
#: how many faults a bot remembers (`ProgramBot.faults`, the latest)
_FAULTS_KEPT = 100
#: stderr lines quoted in a fault's message
_TAIL_QUOTED = 10


class ProgramError(BotError):
    """A Botzone program crashed (RE), timed out (TLE) or answered illegally (WA) with
    ``on_fault="raise"``; the message quotes the last lines of its stderr and says where the rest is."""


class ProgramBot(Bot):
    """A Botzone-protocol program playing one seat of a Botzone-table game (module docstring).

    `command`: the command line (a string, split like a shell does, or an argv list).
    `keep_running`: keep the program alive between rounds when it prints the keep-running line
    (otherwise it is started afresh every round with the whole history, as on Botzone).
    `timeout`: seconds per answer (TLE after it). `interaction`: "simple" (the turn number, then
    the history one line each; the judge's default) or "json" (`{"requests": [...], "responses":
    [...]}` on one line; programs started every round only). `name`: the label in results.

    `stderr`: where the program's stderr goes. None (the default): only its last lines are kept,
    in memory. A folder (an existing one, or a path ending in a separator; created): one file per
    process and seat, ``seat1-pid4242.stderr``. Any other path: one file every program of this bot
    appends to. A line ``--- hand N seat S: COMMAND ---`` opens each hand in a file.
    `on_fault`: "penalize" (the default; Botzone's −30 / +10, the hand ends) or "raise": a
    `ProgramError` saying what the program did, quoting its last stderr lines and where the rest is.
    Either way `faults` holds the latest faults (`ProgramError`s, in this process) for a look afterwards.
    """

    def __init__(self, command: Union[str, Sequence[str]], *, keep_running: bool = False, timeout: float = 1.0,
                 interaction: str = "simple", name: Optional[str] = None, stderr: Optional[str] = None,
                 on_fault: str = "penalize") -> None:
        super().__init__()
        from .judge import _argv

        argv = _argv(command)
        exe = argv[0]
        if shutil.which(exe) is None and not (os.sep in exe and os.path.isfile(exe)):
            raise InvalidArgumentError(f"Botzone program {exe!r} not found (not on PATH, not a file); give the "
                                       f"command that starts your bot, e.g. 'botzone:python3 my_bot.py'")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise InvalidArgumentError(f"Botzone program timeout must be a positive number of seconds, got {timeout!r}")
        if interaction not in ("simple", "json"):
            raise InvalidArgumentError(f"Botzone program interaction is 'simple' or 'json', got {interaction!r}")
        if interaction == "json" and keep_running:
            raise InvalidArgumentError("Botzone program: JSON interaction is supported for programs started every "
                                       "round (keep_running=False); a keep-running program gets simple interaction")
        if on_fault not in ON_FAULT:
            raise InvalidArgumentError(f"Botzone program on_fault is one of {', '.join(map(repr, ON_FAULT))}, "
                                       f"got {on_fault!r}")
        if stderr is not None:
            stderr = _stderr_target(os.fspath(stderr))
        self.stderr = stderr
        self.on_fault = on_fault
        #: the latest faults of this bot's programs in this process (at most 100), oldest first
        self.faults: List[ProgramError] = []
        #: how many faults this bot has had in this process (`faults` keeps the latest of them)
        self.fault_count = 0
        self.interaction = interaction
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.keep_running = bool(keep_running)
        self.timeout = float(timeout)
        self.name = name if name else f"{PREFIX}:{self.command}"
        #: seat -> the program playing it and what it was told (one bot may play several seats)
        self._seats: Dict[int, _Seat] = {}

    # -- life cycle -----------------------------------------------------------------------------

    def new_hand(self, rng: Any) -> None:
        super().new_hand(rng)
        self.close()

    def close(self) -> None:
        """Stop the program(s) (a later question starts them again)."""
        for seat in self._seats.values():
            seat.program.stop()

    #: what `simulate` and `Match.play` call at the end of every task (`simulate.release_bots`)
    release = close

    def __getstate__(self) -> Dict[str, Any]:  # plain data: the receiving process starts its own program
        return {"command": self.command, "keep_running": self.keep_running, "timeout": self.timeout,
                "interaction": self.interaction, "name": self.name, "stderr": self.stderr, "on_fault": self.on_fault}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["command"], keep_running=state["keep_running"],  # type: ignore[misc]
                      timeout=state["timeout"], interaction=state["interaction"], name=state["name"],
                      stderr=state.get("stderr"), on_fault=state.get("on_fault", "penalize"))

    def __repr__(self) -> str:
        extra = (f", stderr={self.stderr!r}" if self.stderr else "") + (
            f", on_fault={self.on_fault!r}" if self.on_fault != "penalize" else "")
        return f"ProgramBot({self.command!r}, keep_running={self.keep_running}, timeout={self.timeout}{extra})"

    # -- playing --------------------------------------------------------------------------------

    def _seat(self, game: Any, seat: int) -> "_Seat":
        """The seat's program, told about `game` from its start (a new game: a new Botzone game)."""
        state = self._seats.get(seat)
        if state is not None and state.game is game:
            return state
        from .game import BotzoneGame

        if not isinstance(game, BotzoneGame):
            ruleset = getattr(game, "ruleset", type(game).__name__)
            preset = getattr(getattr(game, "rules", None), "preset_name", None)
            raise InvalidArgumentError(
                f"bot {self.name!r} is a Botzone program: it plays MCR on the Botzone table only, e.g. "
                f"simulate('mcr', rules='botzone', ...) or --preset botzone (this game: {ruleset}"
                f"{', preset ' + str(preset) if preset else ''})")
        if state is None:
            from .judge import _Program

            state = self._seats[seat] = _Seat(_Program(self.command, self.keep_running, self.timeout,
                                                       self.interaction, stderr=self._stderr_file(seat)))
            # the program dies with this bot, whatever happens to it
            weakref.finalize(self, state.program.stop)
        state.hands += 1
        state.start(game, f"--- hand {state.hands} seat {seat}: {self.command} ---")
        return state

    def _stderr_file(self, seat: int) -> Optional[str]:
        if self.stderr is None or not self.stderr.endswith(os.sep):
            return self.stderr
        return os.path.join(self.stderr, f"seat{seat}-pid{os.getpid()}.stderr")

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        state = self._seat(game, seat)
        lines = [r.requests[seat] for r in state.table.take_rounds() if not r.finish]
        if not lines:  # the discard after this seat's pung / chow: named in its answer already
            discard, state.discard = state.discard, None
            if discard is not None and discard in actions:
                return discard
            raise InvalidArgumentError(f"bot {self.name!r}: seat {seat} is asked with no new Botzone request "
                                       f"(legal: {list(actions)})")
        state.discard = None
        for line in lines[:-1]:  # rounds the engine asks this seat nothing about: PASS
            verdict, text = state.turn(line)
            if verdict != "OK" or text != "PASS":
                return self._penalize(game, seat, verdict, text, ["PASS"])
        verdict, text = state.turn(lines[-1])
        if verdict != "OK":
            return self._penalize(game, seat, verdict, text, [])
        if text == "HU":
            return WIN  # a win, or a false win the engine settles as WH
        legal = state.table.answer_actions(seat, actions)
        found = legal.get(text)
        if found is None:
            return self._penalize(game, seat, verdict, text, list(legal) + ["HU"])
        action, state.discard = found
        return action

    def history(self, seat: int) -> List[str]:
        """What the program of `seat` was told and answered this hand: request 1, response 1, ..."""
        state = self._seats.get(seat)
        return list(state.history) if state is not None else []

    def _penalize(self, game: Any, seat: int, verdict: str, text: str, legal: List[str]) -> Action:
        """Charge the judge's penalty (WA for a wrong answer, else the verdict: TLE, RE); the hand
        ends, and `play_hand` drops the PASS returned here. With on_fault="raise": a ProgramError."""
        code = "WA" if verdict == "OK" else verdict
        program = self._seats[seat].program
        program.stop()
        error = ProgramError(self._fault_message(seat, code, text, legal, program))
        self.faults = self.faults[-(_FAULTS_KEPT - 1):] + [error]
        self.fault_count += 1
        if self.on_fault == "raise":
            raise error
        game.penalize(seat, code)
        return PASS

    def _fault_message(self, seat: int, code: str, text: str, legal: List[str], program: Any) -> str:
        """What the program did, the last lines of its stderr, and where its full stderr is."""
        if code == "TLE":
            what = f"no answer within {self.timeout:g} s (TLE)"
        elif code == "RE":
            what = f"it exited with status {program.returncode} without answering (RE)"
        elif not text:
            what = "it exited without answering (WA)"
        else:
            shown = ", ".join(legal[:8]) + (f", ... ({len(legal)} in all)" if len(legal) > 8 else "")
            what = f"it answered {text!r}, not a legal answer here (WA; legal: {shown})"
        head = f"bot {self.name!r}, seat {seat}, its hand {self._seats[seat].hands} in this process: {what}"
        tail = program.stderr_tail(_TAIL_QUOTED)
        if tail:
            quoted = "\n".join(f"    {line}" for line in tail)
            head += f"; the last {len(tail)} line{'s' if len(tail) > 1 else ''} of its stderr:\n{quoted}"
        else:
            head += "; it wrote nothing on stderr"
        if program.stderr is not None:
            return head + f"\nits full stderr: {program.stderr}"
        return head + ("\nonly the last lines of its stderr are kept: pass stderr='DIR/' to keep it all "
                       "(ProgramBot(..., stderr='err/') or 'botzone(stderr=\"err/\"):COMMAND')")


def _stderr_target(path: str) -> str:
    """`stderr` checked: a folder (created; returned with a trailing separator) or a file in an existing folder."""
    if os.path.isdir(path) or path.endswith(os.sep) or (os.altsep and path.endswith(os.altsep)):
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as exc:
            raise InvalidArgumentError(f"Botzone program stderr={path!r}: cannot create the folder "
                                       f"({exc.strerror}); give a folder (ending in '/') or a file path") from None
        return os.path.join(os.path.abspath(path), "")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"Botzone program stderr={path!r}: the folder {folder!r} does not exist; "
                                   f"create it, or give a folder ending in '/' (created for you)")
    return os.path.abspath(path)


class _Seat:
    """One seat's program (`judge._Program`) and what it was told in the current game."""

    def __init__(self, program: Any) -> None:
        self.program = program
        #: hands this seat's program has been started for (in this process)
        self.hands = 0
        self.game: Any = None
        self.table: Any = None
        self.history: List[str] = []
        self.discard: Optional[Action] = None

    def start(self, game: Any, header: str) -> None:
        from .table import Table

        self.program.stop()
        if self.program.stderr is not None:
            with open(self.program.stderr, "a", encoding="utf-8") as f:
                f.write(header + "\n")
        self.program.clear_stderr()
        self.game = game
        self.table = Table.of_game(game)
        self.history = []
        self.discard = None

    def turn(self, request: str) -> Tuple[str, str]:
        """One round: the request out, (verdict, response) back."""
        self.history.append(request)
        verdict, response, _ = self.program.turn(request, self.history)
        self.history.append(response)
        return verdict, response
