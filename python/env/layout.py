"""The observation plane layout (docs/OBSERVATION.md is the reader's copy; this module is the source).

An observation is a uint8 array of shape `(C, 34)`: C planes over the 34 tile kinds. Seats are
*relative* to the observer: r = (s - seat) % 4 (0 = itself, 1 = the next seat — 下家 —, 2 opposite,
3 the previous — 上家). Planes 0..59 are shared by the three rulesets; each ruleset appends its own.
`LAYOUT_IDS[ruleset]` names the version: a saved model should store it and refuse another.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

__all__ = [
    "LAYOUT_VERSION", "LAYOUT_IDS", "PLANES", "N_PLANES", "plane_names", "HAND", "DRAWN", "SEAT_BASE",
    "SEAT_PLANES", "UNSEEN", "VISIBLE", "LAST_DISCARD", "KONG_TILE", "SEAT_WIND", "PREVALENT_WIND", "INFO",
    "WALL", "WALL_END", "RULESET_BASE", "INFO_CELLS",
]

LAYOUT_VERSION = 1

HAND = 0            # 0..3: own concealed count >= 1, 2, 3, 4
DRAWN = 4           # the tile the observer just drew (its turn only)
SEAT_BASE = 5       # per relative seat r: planes SEAT_BASE + SEAT_PLANES * r + k, k below
SEAT_PLANES = 10
#: k -> meaning, for the per-seat block
SEAT_FIELDS = ("river>=1", "river>=2", "river>=3", "last_discard", "recent3", "chow>=1", "chow>=2", "pung",
               "exposed_kong", "concealed_kong")
UNSEEN = 45         # 45..48: copies the observer cannot see >= 1..4 (4 - own - visible)
VISIBLE = 49        # 49..52: copies visible outside the own hand >= 1..4
LAST_DISCARD = 53   # the most recent discard (the one on offer in a claim window)
KONG_TILE = 54      # the tile of an added kong that may be robbed (rob window)
SEAT_WIND = 55      # one-hot at 27 + the observer's seat wind (E = dealer)
PREVALENT_WIND = 56  # one-hot at 27 + the prevalent wind (MCR; zero elsewhere)
INFO = 57           # scalar cells, see INFO_CELLS
WALL = 58           # cell k set while wall_remaining > 4k (coarse: 0..136)
WALL_END = 59       # cell k set while wall_remaining > k (fine near the end)
RULESET_BASE = 60

#: INFO plane cells: (first cell, length, meaning)
INFO_CELLS: Tuple[Tuple[int, int, str], ...] = (
    (0, 4, "dealer, one-hot by relative seat"),
    (4, 4, "the last discard's seat, one-hot by relative seat (none before the first discard)"),
    (8, 4, "whose turn, one-hot by relative seat"),
    (12, 7, "phase one-hot: choose, turn, after_claim, claim, rob, last_draw, done"),
    (19, 4, "has won, by relative seat"),
    (23, 4, "has declared ready (报听), by relative seat"),
    (27, 4, "number of concealed kongs (0..4), by relative seat"),
)

#: ruleset -> its own planes after RULESET_BASE
RULESET_PLANES: Dict[str, Tuple[str, ...]] = {
    "sichuan": ("void r0", "void r1", "void r2", "void r3",            # the 9 cells of the void suit (定缺)
                "won_tiles r0", "won_tiles r1", "won_tiles r2", "won_tiles r3"),
    "changbai": ("piao",),     # cell 4r + i set: seat r chose PIAO_VALUES[i] (0, 2, 4, 6)
    "mcr": ("flowers",),       # cells 8r .. 8r + n - 1 set: seat r has set aside n flowers
}

N_PLANES: Dict[str, int] = {k: RULESET_BASE + len(v) for k, v in RULESET_PLANES.items()}
LAYOUT_IDS: Dict[str, str] = {k: f"mahjong_core.obs.{k}.v{LAYOUT_VERSION}.c{n}" for k, n in N_PLANES.items()}


def plane_names(ruleset: str) -> List[str]:
    """One name per plane of `ruleset`'s observation (for documentation and debugging)."""
    from mahjong_core.game.registry import check_ruleset  # (here: importing the layout stays free of the game)

    check_ruleset(ruleset)
    names = [f"hand>={k + 1}" for k in range(4)] + ["drawn"]
    for r in range(4):
        names += [f"r{r} {f}" for f in SEAT_FIELDS]
    names += [f"unseen>={k + 1}" for k in range(4)] + [f"visible>={k + 1}" for k in range(4)]
    names += ["last_discard", "kong_tile", "seat_wind", "prevalent_wind", "info", "wall", "wall_end"]
    names += list(RULESET_PLANES[ruleset])
    assert len(names) == N_PLANES[ruleset]
    return names


PLANES = {k: plane_names(k) for k in RULESET_PLANES}
