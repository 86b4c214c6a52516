"""Constants shared by the engine, the ruleset flows, views and logs (no imports, so no cycles).

Phases of a hand (`Game.phase`) and the meld kinds of the engine's meld tuples
`(kind, tile, marker, from_seat)` (marker = the notation's claim marker).
"""

from __future__ import annotations

__all__ = [
    "CHOOSE", "TURN", "AFTER_CLAIM", "CLAIM", "ROB", "LAST_DRAW", "DONE", "PHASES",
    "MELD_CHOW", "MELD_PUNG", "MELD_KONG", "MELD_ADDED_KONG", "MELD_CONCEALED_KONG", "MELD_NAMES",
    "OTHERS",
]

#: choose (定缺 / 飘: every seat at once), turn (after a draw), after_claim (discard after a chow or
#: pung), claim (a discard's window), rob (an added kong's window), last_draw (Changbai's last four),
#: done
CHOOSE, TURN, AFTER_CLAIM, CLAIM, ROB, LAST_DRAW, DONE = range(7)
PHASES = ("choose", "turn", "after_claim", "claim", "rob", "last_draw", "done")

MELD_CHOW, MELD_PUNG, MELD_KONG, MELD_ADDED_KONG, MELD_CONCEALED_KONG = range(5)
MELD_NAMES = ("chow", "pung", "kong", "added_kong", "concealed_kong")

#: OTHERS[d]: the other seats in turn order after d (claim priority order).
OTHERS = tuple(tuple((d + k) % 4 for k in (1, 2, 3)) for d in range(4))
