"""Opponents played inside the single-agent and vector environments."""

from __future__ import annotations

import random
from typing import Any, List, Optional, Sequence, Tuple

from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game.bots import Bot, hand_stream, is_bot, make_bot, start_hand
from mahjong_core.game.native import advance

from ._encode import next_seat  # (compiled: the hot loop of every opponent decision)

__all__ = ["resolve_opponents", "play_until", "bot_rng", "start_hand"]


def resolve_opponents(opponents: Any) -> List[Any]:
    """Three bots from None (three GreedyBots), a bot name or bot (for all three), or a list of three
    names / bots (for the seats after the learner, in turn order). A bot is anything with
    `choose(game, seat, actions)`."""
    if opponents is None:
        opponents = "greedy"
    if isinstance(opponents, (str, type)) or is_bot(opponents):
        opponents = [opponents] * 3  # (a class is refused below, with a hint)
    if not isinstance(opponents, Sequence) or len(opponents) != 3:
        raise InvalidArgumentError(f"opponents: give three bots (names or bot objects) or one for all, got {opponents!r}")
    out: List[Any] = []
    for bot in opponents:
        if isinstance(bot, str):
            bot = make_bot(bot)
        elif not is_bot(bot):
            hint = " (a class: pass an instance, e.g. MyBot())" if isinstance(bot, type) else ""
            raise InvalidArgumentError(
                f"an opponent is a bot name ('random', 'greedy') or an object with a choose(game, seat, actions) "
                f"method, got {bot!r}{hint}")
        out.append(bot)
    return out


def bot_rng(seed: int, hand_no: int) -> random.Random:
    """The opponents' random stream of hand `hand_no` of `seed` (the convention of `simulate`)."""
    return hand_stream(seed * 2**32 + hand_no)


def play_until(game: Any, learner: int, bots: Sequence[Optional[Bot]], native: Optional[Tuple[Any, Any]] = None) -> int:
    """Let `bots[seat]` answer until `learner` must answer or the hand is over; returns next_seat.

    Seats answer in `next_seat` order (a claim window: lowest seat first). With `native`
    (`game.native.seats_for(game, bots)`, read once per hand after `start_hand`), the built-in
    bots' answers come from the native self-play loop — the same choices in the same order, without
    a Python call per decision (hot path: the opponents play three of every four decisions of a
    single-agent env); any other bot answers through `choose`."""
    seat = next_seat(game)
    while seat >= 0 and seat != learner:
        if native is not None:
            advance(game, native, True)  # stops at the learner's question or another bot's
            seat = next_seat(game)
            if seat < 0 or seat == learner:
                break
        game.act(seat, bots[seat].choose(game, seat, game._pending[seat]))  # type: ignore[union-attr]
        seat = next_seat(game)
    return seat
