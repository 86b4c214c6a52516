"""The package's exceptions. Every one is a `MahjongError`; input errors are also `ValueError`, and an
argument of the wrong type is also a `TypeError` (`InvalidTypeError`)."""

from __future__ import annotations

__all__ = [
    "MahjongError",
    "ParseError",
    "InvalidHandError",
    "InvalidArgumentError",
    "InvalidTypeError",
    "IllegalActionError",
    "StaleActionError",
    "ReplayError",
    "RulesError",
    "BotError",
]


class MahjongError(Exception):
    """Base class of every error raised by mahjong_core."""


class ParseError(MahjongError, ValueError):
    """A notation string is malformed. The message names the column (1-based) and what was expected."""

    def __init__(self, message: str, text: str | None = None, column: int | None = None) -> None:
        self.text = text
        self.column = column
        if text is not None and column is not None:
            message = f"{message}\n  {text}\n  {' ' * (column - 1)}^ (column {column})"
        super().__init__(message)


class InvalidHandError(MahjongError, ValueError):
    """A hand is impossible (a fifth copy, a chow across suits) or has the wrong tile count for the call."""


class InvalidArgumentError(MahjongError, ValueError):
    """An argument other than the hand itself is wrong: `forms` flags out of range, `melds=` given
    together with a Hand (which carries its own melds)."""


class InvalidTypeError(InvalidArgumentError, TypeError):
    """An argument has the wrong type — None where a hand goes, a list where notation text goes. A
    `TypeError` as well, as Python's own are; the message says what the argument takes."""


class IllegalActionError(MahjongError, ValueError):
    """A game action is illegal, stale or out of turn. The game state is unchanged."""


class StaleActionError(IllegalActionError):
    """An answer carried the step id of a decision point that is already closed (`Game.act(...,
    step=k)` with k != `Game.step`): a late or duplicated message. The game state is unchanged."""


class ReplayError(MahjongError, ValueError):
    """`replay(log)` found a malformed log (the message names the field) or a log whose record
    differs from what replaying its actions gives (the message names the first difference)."""


class RulesError(MahjongError, ValueError):
    """A rule key is unknown or has a value it cannot take. The message lists what is allowed."""


class BotError(MahjongError, RuntimeError):
    """A bot failed while a simulation played it: its `choose` raised, or it answered with an action
    that is not legal. The message names the hand, the seat and the bot, and how to play that hand
    again; `bot_traceback` is the bot's own traceback as text (it survives a worker process, where
    the exception's cause does not)."""

    def __init__(self, message: str, bot_traceback: str = "") -> None:
        super().__init__(message)
        self.bot_traceback = bot_traceback

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        """Pickled across worker processes: the message and the traceback text. (Builtin generics in
        the annotation: importing `typing` here would cost every `import mahjong_core` two modules.)"""
        return (type(self), (str(self), self.bot_traceback))
