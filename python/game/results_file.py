"""A simulation's per-hand results as JSON Lines, and resuming a run from a partial file.

The file is a header line, then one line per hand::

    {"format": "mahjong_core.simulate/1", "ruleset": "sichuan", "seed": 1, "duplicate": true,
     "bots": ["mypkg.bots:MyBot", "greedy", "greedy", "greedy"], "rules": {...}, "hands": 400}
    {"hand": 0, "rotation": 0, "dealer": 0, "players": [0, 1, 2, 3], "points": [12, -4, -4, -4],
     "winners": [0], "deal_ins": [], "self_draws": [0], "exhausted": false}

``hand`` is the hand number — the wall (`new_game(..., hand_no=hand)`); in duplicate mode each
wall has four lines, rotations 0..3; ``players[seat]`` is the bot (index into ``bots``) in that
seat, ``points[seat]`` that seat's result. Lines come in the order tasks finished (sort by
``hand``, ``rotation`` for the run order): `pandas.read_json(path, lines=True)` reads them.

Resuming (`ResultsFile.open` with `resume=True`): a file whose header describes the same run (hand
count aside, so a run can be extended) is read back; a broken last line (the run was killed while
writing), repeated lines and incomplete walls are dropped — the file is rewritten without them — and
the complete units are returned, so the run plays only what is missing and counts every hand once.
"""

from __future__ import annotations

import json
import os
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, Tuple

from mahjong_core.errors import InvalidArgumentError

from .tally import HandRecord, player_at

__all__ = ["FORMAT", "ResultsFile", "read_results", "record_to_json", "record_from_json"]

FORMAT = "mahjong_core.simulate/1"
#: header keys that must match for a file to be resumed ("hands" may differ: a run can be extended)
_IDENTITY = ("format", "ruleset", "seed", "duplicate", "bots", "rules")


def record_to_json(record: HandRecord) -> Dict[str, Any]:
    unit, rotation, dealer, totals, winners, deal_ins, self_draws, exhausted = record
    return {"hand": unit, "rotation": rotation, "dealer": dealer,
            "players": [player_at(s, rotation) for s in range(4)], "points": list(totals),
            "winners": list(winners), "deal_ins": list(deal_ins), "self_draws": list(self_draws),
            "exhausted": bool(exhausted)}


def _ints(value: Any, length: Optional[int] = None) -> Tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("bad list")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError("bad int")
    return tuple(value)


def record_from_json(data: Any) -> HandRecord:
    """A record from its JSON object; ValueError when the line is not a well-formed record."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    unit, rotation, dealer = data["hand"], data["rotation"], data["dealer"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (unit, rotation, dealer)):
        raise ValueError("bad index")
    if not (unit >= 0 and 0 <= rotation < 4 and 0 <= dealer < 4) or not isinstance(data["exhausted"], bool):
        raise ValueError("out of range")
    return (unit, rotation, dealer, _ints(data["points"], 4), _ints(data["winners"]), _ints(data["deal_ins"]),
            _ints(data["self_draws"]), data["exhausted"])


def _lines(path: str) -> Iterator[str]:
    with open(path, "r", encoding="utf-8") as fh:
        yield from fh


def read_results(path: str) -> Tuple[Dict[str, Any], List[HandRecord]]:
    """(header, records) of a results file, skipping lines that are not well-formed records."""
    header: Optional[Dict[str, Any]] = None
    records: List[HandRecord] = []
    for line in _lines(path):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if header is None:
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise InvalidArgumentError(f"{path}: not a simulation results file (its first line is not a "
                                           f"{FORMAT} header)")
            header = data
            continue
        try:
            records.append(record_from_json(data))
        except (ValueError, KeyError, TypeError):
            continue
    if header is None:
        raise InvalidArgumentError(f"{path}: empty results file")
    return header, records


class ResultsFile:
    """The JSONL stream of one run (see the module docstring)."""

    def __init__(self, path: str, header: Dict[str, Any], hands_per_unit: int) -> None:
        self.path = os.fspath(path)
        # through JSON once, so it compares equal to a header read back (tuples become lists)
        self.header = json.loads(json.dumps(dict(header, format=FORMAT)))
        self.hands_per_unit = hands_per_unit
        self._fh: Optional[IO[str]] = None

    def open(self, resume: bool = True) -> Dict[int, List[HandRecord]]:
        """Open for writing; with `resume`, the complete units already in the file (unit -> records).
        InvalidArgumentError when the file cannot be read or written (a missing folder, no permission)."""
        done: Dict[int, List[HandRecord]] = {}
        try:
            if resume and os.path.exists(self.path) and os.path.getsize(self.path) > 0:
                done = self._read_back()
            else:
                self._rewrite({})
            self._fh = open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise InvalidArgumentError(f"cannot write the results file {self.path}: {exc.strerror or exc} "
                                       f"(does its folder exist, and may you write there?)") from None
        return done

    def _read_back(self) -> Dict[int, List[HandRecord]]:
        header, records = read_results(self.path)
        mismatched = [k for k in _IDENTITY if header.get(k) != self.header.get(k)]
        if mismatched:
            raise InvalidArgumentError(
                f"{self.path} holds a different run ({', '.join(mismatched)} differ); resume it with the same "
                f"arguments, or write to another file (or start over: --fresh / resume=False)")
        by_unit: Dict[int, Dict[int, HandRecord]] = {}
        repeated = 0
        for record in records:
            rotations = by_unit.setdefault(record[0], {})
            if record[1] in rotations:
                repeated += 1
            rotations[record[1]] = record
        done = {unit: [rotations[r] for r in sorted(rotations)] for unit, rotations in by_unit.items()
                if len(rotations) == self.hands_per_unit}
        kept = sum(len(v) for v in done.values())
        lines = sum(1 for _ in _lines(self.path)) - 1
        if kept != lines or header != self.header:
            self._rewrite(done)  # drop broken, repeated and incomplete lines (or update the header)
        return done

    def _rewrite(self, done: Dict[int, List[HandRecord]]) -> None:
        tmp = f"{self.path}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(self.header, separators=(",", ":")) + "\n")
            for unit in sorted(done):
                fh.write(self._text(done[unit]))
        os.replace(tmp, self.path)

    @staticmethod
    def _text(records: Sequence[HandRecord]) -> str:
        return "".join(json.dumps(record_to_json(r), separators=(",", ":")) + "\n" for r in records)

    def write(self, records: Sequence[HandRecord]) -> None:
        """Append whole units' records (one write, flushed: a kill leaves at most one broken line)."""
        if self._fh is None:
            raise RuntimeError("results file is not open")
        self._fh.write(self._text(records))
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
