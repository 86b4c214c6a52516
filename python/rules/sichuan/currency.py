"""游戏币 (seed 004 §4): a hand's ledger turned into game-coin changes with a room factor and a fee.

Seed: in a normally finished hand a losing player spends X·N + A coins, the winner receives the sum
of the losers' X times N, minus A, and the house collects A from every player (X = the player's
points in the hand, N = the room factor 房间系数, A = the per-hand fee 每盘自动回收的游戏币).

With X read as each seat's signed total in the ledger, every seat's change is X·N − A: a loser
(total −X) loses X·N + A, a winner (total ΣX) gains ΣX·N − A — the seed's formula — and the same
rule covers hands with several winners or none (a drawn hand). The house keeps A × players.

    >>> from mahjong_core.rules.sichuan import coins
    >>> coins([54, -18, -18, -18], room_factor=200, fee=400)
    Coins(change=(10400, -4000, -4000, -4000), before_fee=(10800, -3600, -3600, -3600), house=1600)
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence, Tuple, Union

from mahjong_core.errors import InvalidArgumentError

from ..ledger import Ledger

__all__ = ["Coins", "coins"]


class Coins(NamedTuple):
    """Per-seat coin changes with the fee (`change`) and before it (`before_fee`), and what the
    house collects (`house` = fee × players). `sum(change) + house == 0`."""

    change: tuple[int, ...]
    before_fee: tuple[int, ...]
    house: int


def coins(ledger: Union[Ledger, Sequence[int]], *, room_factor: int, fee: int = 0) -> Coins:
    """The 游戏币 result of one hand: `ledger` is the hand's `Ledger` (or its per-seat totals),
    `room_factor` N >= 1, `fee` A >= 0 (collected from every player). InvalidArgumentError for a
    bad value or totals that do not sum to zero."""
    for name, value, low in (("room_factor", room_factor, 1), ("fee", fee, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InvalidArgumentError(f"{name} must be an integer >= {low}, got {value!r}")
    totals = _totals(ledger)
    before = tuple(x * room_factor for x in totals)
    return Coins(tuple(c - fee for c in before), before, fee * len(totals))


def _totals(ledger: Any) -> Tuple[int, ...]:
    if isinstance(ledger, Ledger):
        return tuple(ledger.totals())
    try:
        totals = tuple(ledger)
    except TypeError:
        raise InvalidArgumentError(f"coins needs a Ledger or per-seat totals, got {type(ledger).__name__}") from None
    if not totals or any(isinstance(x, bool) or not isinstance(x, int) for x in totals):
        raise InvalidArgumentError(f"per-seat totals must be integers, got {list(totals)!r}")
    if sum(totals) != 0:
        raise InvalidArgumentError(f"a hand's totals sum to zero; these sum to {sum(totals)}: {list(totals)}")
    return totals
