"""`run(decide)`: the main loop of a Botzone bot — simple, JSON and keep-running interaction.

    from mahjong_core import botzone

    def decide(state):                 # a BotzoneState; return one of state.legal
        return state.legal[0]

    botzone.run(decide)

`decide` is called only when the seat has a choice (its legal answers are more than PASS). It returns
an engine Action (or its integer code, or a response string such as "PLAY W1", checked as the others
are). After PUNG / CHOW[k] it is called again with the discard that follows (`state.phase ==
"after_claim"`); it may also return a pair `(PUNG, DISCARD[t])` at once.

Interaction (detected from the first character of the input, or `mode="simple" | "json"`):
- simple: a line with the turn number n, then 2n−1 lines (request 1, response 1, …, request n);
  the answer is printed as one line;
- JSON: `{"requests": [...], "responses": [...]}`; the answer is `{"response": "..."}`;
- keep-running (`keep_running=True`): after each answer the bot prints
  `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` and waits for the next input, which then holds only the new
  request(s) (in the same format); the state is kept between turns, so no history is re-read.

An exception in `decide` prints its traceback on stderr and the first legal answer is sent, as for
an illegal choice: a bug costs a bad move, not the game. What `decide` prints goes to stderr.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from typing import IO, Any, Callable, Dict, List, Optional, Tuple

from mahjong_core.errors import InvalidArgumentError, InvalidTypeError

__all__ = ["run", "answer", "KEEP_RUNNING"]

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class _DecideRaised(Exception):
    """`decide` raised (its traceback is printed already)."""


def _call(decide: Callable[[Any], Any], state: Any) -> Any:
    """`decide(state)`, its `print()`s sent to stderr: on stdout a stray line would be taken for the
    answer (a WA on Botzone), the first mistake of many a bot."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return decide(state)
    except Exception as exc:
        print("mahjong_core.botzone: decide raised an exception:", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        raise _DecideRaised(f"{type(exc).__name__}: {exc}") from exc


def answer(state: Any, decide: Callable[[Any], Any]) -> str:
    """The response text for `state` now: PASS when there is no choice, else what `decide` picks.
    An exception in `decide` (its traceback printed on stderr) or an illegal choice falls back to
    the first legal answer (and says so on stderr): a crash would lose the game (RE), and a wrong
    answer too (WA)."""
    from mahjong_core.game.actions import Action, ActionKind, PASS

    legal = state.legal
    if not legal or legal == [PASS]:
        return "PASS"
    choice: Any = None
    try:
        choice = _call(decide, state)
        if isinstance(choice, str):  # a response text: read, and checked legal, as an action would be
            from .state import parse_response

            choice = parse_response(choice.strip(), state)
            if choice[1] is None:
                choice = choice[0]
        discard = None
        if isinstance(choice, tuple):
            choice, discard = choice
        if isinstance(choice, int) and not isinstance(choice, Action):
            from mahjong_core.game.actions import SPACES

            choice = SPACES["mcr"].action(choice)
        if isinstance(choice, Action) and choice.kind in (ActionKind.PUNG, ActionKind.CHOW) and choice in legal:
            state.claim(choice)
            if discard is None:
                discard = _call(decide, state)
            if isinstance(discard, int) and not isinstance(discard, Action):
                from mahjong_core.game.actions import DISCARD

                discard = DISCARD[discard] if 0 <= discard < 34 else discard
            return state.respond(discard)
        return state.respond(choice)
    except Exception as exc:  # a bot bug must not cost the game: answer something legal instead
        state.unclaim()
        why = f"decide raised {exc}" if isinstance(exc, _DecideRaised) else f"decide returned {choice!r} ({exc})"
        print(f"mahjong_core.botzone: {why}; answering {legal[0]!r}", file=sys.stderr)
        sys.stderr.flush()
        fallback = legal[0]
        if fallback.kind in (ActionKind.PUNG, ActionKind.CHOW):
            state.claim(fallback)
            return state.respond(state.legal[0])
        return state.respond(fallback)


#: the digits of simple interaction's turn number (a hand has a few hundred requests at most)
_TURN_DIGITS = 6


def _read_simple(first: str, stream: IO[str]) -> Tuple[List[str], List[str]]:
    from .protocol import BotzoneProtocolError, ascii_number, quote_input

    n = ascii_number(first.strip(), _TURN_DIGITS)
    if n < 1:
        raise BotzoneProtocolError(f"simple interaction: the first line is the turn number (1, 2, ...), "
                                   f"got {quote_input(first)}")
    lines: List[str] = []
    for _ in range(2 * n - 1):
        line = stream.readline()
        if not line:
            raise BotzoneProtocolError(f"simple interaction: turn {n} needs {2 * n - 1} lines, got {len(lines)}")
        lines.append(line.rstrip("\r\n"))
    return lines[0::2], lines[1::2]


def _read_json(first: str, stream: IO[str]) -> Tuple[List[str], List[str], Any]:
    from .protocol import BotzoneProtocolError, quote_input

    expected = 'expected {"requests": [request lines], "responses": [response lines]}'
    text = first
    while True:
        try:
            data = json.loads(text)
            break
        except RecursionError:
            raise BotzoneProtocolError(f"JSON interaction: the input nests too deeply to read; {expected}") from None
        except ValueError:  # (JSONDecodeError; or a number of more than 4300 digits)
            more = stream.readline()
            if not more:
                raise BotzoneProtocolError(f"JSON interaction: the input is not JSON: {quote_input(text)}") from None
            text += more
    if not isinstance(data, dict):
        raise BotzoneProtocolError(f"JSON interaction: the input is {_json_kind(data)}; {expected}")
    if "requests" not in data:
        raise BotzoneProtocolError(f"JSON interaction: 'requests' is missing; {expected}")
    for name in ("requests", "responses"):
        lines = data.get(name, [])  # (no "responses": none yet)
        if not isinstance(lines, list):
            raise BotzoneProtocolError(f"JSON interaction: {name!r} is {_json_kind(lines)}, not an array; {expected}")
        for i, line in enumerate(lines):
            if not isinstance(line, str):
                raise BotzoneProtocolError(f"JSON interaction: {name}[{i}] is {_json_kind(line)}, not a string; "
                                           f"{expected}")
    return data["requests"], data.get("responses", []), data


def _json_kind(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words ("an object", "null", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    names: Dict[type, str] = {dict: "an object", list: "an array", str: "a string"}
    return names.get(type(value), "a number")


def run(decide: Callable[[Any], Any], *, mode: str = "auto", keep_running: bool = False,
        stdin: Optional[IO[str]] = None, stdout: Optional[IO[str]] = None, wall_size: int = 136) -> None:
    """Run the bot until the input ends (one turn without `keep_running`). See the module docstring."""
    from .protocol import BotzoneProtocolError
    from .state import BotzoneState

    if not callable(decide):
        raise InvalidTypeError(f"run(decide): decide is your bot's function, state -> answer (e.g. lambda state: "
                               f"state.legal[0]), got {type(decide).__name__}")
    if mode not in ("auto", "simple", "json"):
        raise InvalidArgumentError(f"run: mode is 'auto', 'simple' or 'json', got {mode!r}")

    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    state: Optional[BotzoneState] = None
    last_response: Optional[str] = None
    while True:
        first = inp.readline()
        while first and not first.strip():
            first = inp.readline()
        if not first:
            return
        kind = mode if mode != "auto" else ("json" if first.lstrip().startswith("{") else "simple")
        if kind == "json":
            requests, responses, _ = _read_json(first, inp)
        else:
            requests, responses = _read_simple(first, inp)
        if state is None:
            state = BotzoneState.from_requests(requests, responses, wall_size=wall_size)
        else:  # keep-running: only the new request(s); this seat answered the first already
            if len(responses) not in (len(requests) - 1, len(requests)):
                raise BotzoneProtocolError(
                    f"keep-running: {len(requests)} new request(s) need {len(requests) - 1} response(s) (one per "
                    f"new request but the last; the answer to the first was this bot's), got {len(responses)}")
            for i, request in enumerate(requests):
                state.feed(request, last_response if i == 0 else responses[i - 1])
        last_response = answer(state, decide)
        if kind == "json":
            out.write(json.dumps({"response": last_response}) + "\n")
        else:
            out.write(last_response + "\n")
        if keep_running:
            out.write(KEEP_RUNNING + "\n")
        out.flush()
        if not keep_running:
            return
