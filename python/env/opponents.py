"""Opponents played inside the single-agent and vector environments."""

from __future__ import annotations

import random
from typing import Any, List, Optional, Sequence

from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game.bots import Bot, make_bot

from .table import next_seat

__all__ = ["resolve_opponents", "play_until", "bot_rng"]


def resolve_opponents(opponents: Any) -> List[Bot]:
    """Three bots from None (three GreedyBots), a bot name or Bot (for all three), or a list of three
    names / Bots (for the seats after the learner, in turn order)."""
    if opponents is None:
        opponents = "greedy"
    if isinstance(opponents, (str, Bot)):
        opponents = [opponents] * 3
    if not isinstance(opponents, Sequence) or len(opponents) != 3:
        raise InvalidArgumentError(f"opponents: give three bots (names or Bot objects) or one for all, got {opponents!r}")
    out: List[Bot] = []
    for bot in opponents:
        if isinstance(bot, str):
            bot = make_bot(bot)
        elif not isinstance(bot, Bot):
            raise InvalidArgumentError(f"an opponent is a bot name or a mahjong_core.game.bots.Bot, got {bot!r}")
        out.append(bot)
    return out


def bot_rng(seed: int, hand_no: int) -> random.Random:
    """The opponents' random stream of hand `hand_no` of `seed` (the convention of `simulate`)."""
    return random.Random(seed * 2**32 + hand_no)


def play_until(game: Any, learner: int, bots: Sequence[Optional[Bot]]) -> int:
    """Let `bots[seat]` answer until `learner` must answer or the hand is over; returns next_seat."""
    seat = next_seat(game)
    while seat >= 0 and seat != learner:
        game.act(seat, bots[seat].choose(game, seat, game._pending[seat]))  # type: ignore[union-attr]
        seat = next_seat(game)
    return seat
