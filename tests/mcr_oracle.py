"""PyMahjongGB 1.4.0 (`import MahjongGB`) as a black-box MCR oracle: argument conversion and fan ids.

Only used by tests and benches; PyMahjongGB is a test dependency, never imported by the package.
"""

from __future__ import annotations

from collections import Counter
from typing import Tuple

import mahjong_core as mc
from mahjong_core.rules import mcr

try:
    import MahjongGB
except ImportError:  # pragma: no cover - the test extra installs it
    MahjongGB = None

# PyMahjongGB writes the three wait fans as 独听・边张 / 独听・嵌张 / 独听・单钓.
_ID_OF_ZH = {f.name_zh: f.id for f in mcr.FANS}
_ID_OF_ZH.update({"独听・边张": "BIANZHANG", "独听・嵌张": "KANZHANG", "独听・单钓": "DANDIAOJIANG"})


def gb_tile(t: int) -> str:
    """Our tile index as PyMahjongGB's code: W1..W9 (万), B1..B9 (饼), T1..T9 (条), F1..F4, J1..J3."""
    t = int(t)
    if t < 27:
        return "WBT"[t // 9] + str(t % 9 + 1)
    return f"F{t - 26}" if t < 31 else f"J{t - 30}"


#: gb_tile of every kind, looked up per tile of the 100,000-hand differential runs
_GB_TILES = tuple(gb_tile(t) for t in range(34))


def gb_args(hand: mc.Hand) -> Tuple:
    """The positional arguments of MahjongGB.MahjongFanCalculator for a hand with win tile and context."""
    ctx = hand.context or mc.MCRContext()
    packs = []
    for m in hand.melds:
        if m.kind == mc.MeldKind.CHOW:
            packs.append(("CHI", gb_tile(m.tile + 1), m.claimed or 1))
        elif m.kind == mc.MeldKind.PUNG:
            packs.append(("PENG", gb_tile(m.tile), m.source or 1))
        else:
            packs.append(("GANG", gb_tile(m.tile), 0 if m.concealed else (m.source or 1)))
    counts = list(hand.counts)
    counts[hand.win_tile] -= 1
    standing = tuple(name for name, n in zip(_GB_TILES, counts) for _ in range(n))
    return (tuple(packs), standing, _GB_TILES[hand.win_tile], ctx.flowers, ctx.self_drawn, ctx.last_copy, ctx.kong,
            ctx.wall_last, ctx.seat_wind, ctx.prevalent_wind)


def gb_fans(hand: mc.Hand) -> Counter:
    """PyMahjongGB's fans of the hand as {our fan id: count}."""
    out: Counter = Counter()
    for points, count, zh, _en in MahjongGB.MahjongFanCalculator(*gb_args(hand), verbose=True):
        fid = _ID_OF_ZH[zh]
        assert mcr.FAN_BY_ID[fid].points == points, (zh, points)
        out[fid] += count
    return out
