"""Bots for the evaluation tests (a helper module, importable as `eval_bots` and loadable from its file)."""

from __future__ import annotations

import os

from mahjong_core.game.bots import GreedyBot


class KillerBot(GreedyBot):
    """Greedy, but kills its own process (once: a marker file records it) when it meets hand `hand`."""

    def __init__(self, marker: str, hand: int) -> None:
        super().__init__()
        self.marker, self.hand = marker, hand

    def choose(self, game, seat, actions):
        if game.hand_no == self.hand and os.getpid() != int(os.environ.get("EVAL_TEST_PARENT", "0")):
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.close(fd)
                os._exit(1)  # the worker dies mid-task
        return super().choose(game, seat, actions)


class CountingBot(GreedyBot):
    """Greedy; appends its process id to `path` each time one is constructed."""

    def __init__(self, path: str) -> None:
        super().__init__()
        with open(path, "a") as fh:
            fh.write(f"{os.getpid()}\n")


class ChooseOnly:
    """A duck-typed bot: no base class, no new_hand / release hooks; the first legal action."""

    def choose(self, game, seat, actions):
        return actions[0]


def first_action_bot():
    """The same choices as `ChooseOnly`, from the package's `Bot` base class (a reference)."""
    from mahjong_core.game.bots import Bot

    class FirstAction(Bot):
        def choose(self, game, seat, actions):
            return actions[0]

    return FirstAction()
