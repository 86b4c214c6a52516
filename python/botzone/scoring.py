"""How the judge scores a win: one function for the table (`BotzoneGame`) and the kit (`BotzoneState`).

The judge's fan calculator gets: the concealed tiles, the melds, the winning tile, the flowers, seat
wind = seat, prevalent wind = quan, and the flags 自摸, 和绝张 (three copies shown before: river
tiles and melds — a robbed kong's tile counts as four), 杠 (a self-draw on a kong replacement not
interrupted by a flower, or robbing a kong) and 海底 (the wall of the seat after the turn seat is
empty). A win needs 8 fans besides the flowers.
"""

from __future__ import annotations

from typing import Any, Sequence, Tuple


def judge_score(mcr: Any, counts: Sequence[int], melds: Sequence[Tuple[int, int, int, int]], tile: int, *,
                self_drawn: bool, robbing: bool, visible: int, wall_last: bool, kong: bool, seat: int,
                quan: int, flowers: int, rules: Any) -> Any:
    """The MCRScore of the win (None when the hand is not complete). `counts` are the concealed
    tiles (with the drawn tile on a self-draw, without the discard otherwise); `visible` the copies of
    `tile` shown outside the hand before this win (the discard itself not included)."""
    from mahjong_core.game.engine import _core_meld
    from mahjong_core.hand import Hand

    hand = bytearray(counts)
    if not self_drawn:
        hand[tile] += 1
    return mcr.score(
        Hand(bytes(hand), tuple(_core_meld(m) for m in melds), tile), win_tile=tile, self_drawn=self_drawn,
        last_copy=not robbing and visible == 3, wall_last=wall_last, kong=kong, seat_wind=seat,
        prevalent_wind=quan, flowers=flowers, rules=rules)


def is_win(score: Any, flowers: int, rules: Any) -> bool:
    """A real win: at least `min_fan` (8) fans besides the flowers."""
    return score is not None and score.total - flowers >= rules.min_fan
