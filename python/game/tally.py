"""Per-hand records and the integer sums (`Tally`) a simulation's statistics are made of.

A hand's record is plain ints (cheap to send between processes and to write as JSON):
``(unit, rotation, dealer, totals per seat, winners, deal-in seat per discard win, self-drawing
winners, exhausted)``. A *unit* is one hand in a normal run and one wall in a duplicate run, where
the wall is played four times, bots rotated: in rotation r, seat s is played by bot ``(s - r) % 4``
(`player_at`), so every bot plays every seat of every wall once.

`Tally` keeps, per bot ("player": an index into the run's list of four bots), integer sums over
hands and over units — including the cross products of the players' unit values, from which the
interval of any difference of bots follows. Integer sums are exact and order-free, so a tally
merged from any split of the units (worker processes, Ray tasks, a resumed file) is identical.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

__all__ = ["HandRecord", "Tally", "player_at", "record_checksum"]

HandRecord = Tuple[int, int, int, Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], bool]

_MOD = (1 << 61) - 1


def player_at(seat: int, rotation: int) -> int:
    """The bot (index into the run's four) playing `seat` in `rotation`."""
    return (seat - rotation) % 4


def record_checksum(record: HandRecord) -> int:
    """A hash of a record's outcome (unit, rotation, totals, winners); summed, it is order-free."""
    h = 0
    for v in (record[0], record[1], *record[3], -1, *record[4]):
        h = (h * 1_000_003 + v + 7) % _MOD
    return h


class Tally:
    """Integer sums over hands and units, per player (see the module docstring)."""

    __slots__ = ("hands", "units", "exhausted", "checksum", "wins", "self_draws", "deal_ins", "points",
                 "points_sq", "cross")

    def __init__(self) -> None:
        self.hands = 0
        self.units = 0
        self.exhausted = 0
        self.checksum = 0
        self.wins = [0, 0, 0, 0]
        self.self_draws = [0, 0, 0, 0]
        self.deal_ins = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        #: per player, sum over hands of the hand's points squared
        self.points_sq = [0, 0, 0, 0]
        #: cross[e][f]: sum over units of (unit points of e) * (unit points of f)
        self.cross = [[0] * 4 for _ in range(4)]

    def add_unit(self, records: Sequence[HandRecord]) -> None:
        """Add one unit's records (one hand, or a wall's four rotations)."""
        unit_points = [0, 0, 0, 0]
        for record in records:
            _, rotation, _, totals, winners, deal_ins, self_draws, exhausted = record
            self.hands += 1
            self.exhausted += bool(exhausted)
            self.checksum = (self.checksum + record_checksum(record)) % _MOD
            for seat in range(4):
                p = player_at(seat, rotation)
                points = totals[seat]
                unit_points[p] += points
                self.points[p] += points
                self.points_sq[p] += points * points
            for w in winners:
                self.wins[player_at(w, rotation)] += 1
            for w in self_draws:
                self.self_draws[player_at(w, rotation)] += 1
            for d in deal_ins:
                self.deal_ins[player_at(d, rotation)] += 1
        self.units += 1
        for e in range(4):
            row = self.cross[e]
            for f in range(4):
                row[f] += unit_points[e] * unit_points[f]

    def merge(self, other: "Tally") -> None:
        self.hands += other.hands
        self.units += other.units
        self.exhausted += other.exhausted
        self.checksum = (self.checksum + other.checksum) % _MOD
        for name in ("wins", "self_draws", "deal_ins", "points", "points_sq"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i in range(4):
                mine[i] += theirs[i]
        for e in range(4):
            for f in range(4):
                self.cross[e][f] += other.cross[e][f]

    @classmethod
    def of_units(cls, records: Sequence[HandRecord], hands_per_unit: int) -> "Tally":
        """The tally of `records` holding whole units in order (each unit's records consecutive)."""
        tally = cls()
        for i in range(0, len(records), hands_per_unit):
            tally.add_unit(records[i: i + hands_per_unit])
        return tally

    def __getstate__(self) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and self.__getstate__() == other.__getstate__()

    def __repr__(self) -> str:
        return f"<Tally hands={self.hands} units={self.units} points={self.points}>"


def records_by_unit(records: Sequence[HandRecord]) -> Dict[int, List[HandRecord]]:
    out: Dict[int, List[HandRecord]] = {}
    for record in records:
        out.setdefault(record[0], []).append(record)
    return out
