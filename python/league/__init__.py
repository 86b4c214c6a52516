"""Leagues: every combination of four bots from a list plays a (duplicate) table; a ranking with intervals.

    from mahjong_core.league import load_league, play_league
    league = load_league("bots.toml")            # or .json
    standings = play_league(league, hands=4000, duplicate=True)
    print(standings.table())

The league file (TOML; JSON with the same structure on Pythons without `tomllib`/`tomli`)::

    [league]                 # optional defaults; command-line options override them
    ruleset = "sichuan"
    hands = 4000             # per table
    seed = 1
    duplicate = true
    preset = "botzone"       # the rules preset (optional; "botzone" for Botzone programs, ruleset "mcr")

    [[bot]]
    name = "greedy"
    spec = "greedy"

    [[bot]]
    name = "mine"
    spec = "mypkg.bots:MyBot"
    args = { depth = 2 }     # constructor keyword arguments (optional)

    [[bot]]
    name = "program"
    spec = "botzone:python3 my_bot.py"        # a Botzone-protocol program (mcr, preset botzone)
    args = { keep_running = true, timeout = 2.0 }

Table t (the t-th 4-combination of the bots, in list order) is one `simulate` run with seed
``seed + t`` (its own walls). A bot's league score is the unweighted mean of its per-table mean
points per hand; its interval combines the tables' intervals (independent runs; Welch–Satterthwaite
degrees of freedom, `stats.combine`).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from mahjong_core.game.botspec import BotSpec, bot_spec
from mahjong_core.game.simulate import SimulationResult, simulate
from mahjong_core.game.stats import Estimate, combine

from mahjong_core._display import text_line
from mahjong_core._extras import require
from mahjong_core.errors import InvalidArgumentError, InvalidTypeError

__all__ = ["League", "Standing", "Standings", "load_league", "play_league"]


@dataclass(repr=False)
class League:
    bots: List[BotSpec]
    ruleset: str = "sichuan"
    hands: int = 1000
    seed: int = 1
    duplicate: bool = True
    #: the rules preset of every table (None: the ruleset's default)
    preset: Optional[str] = None

    def tables(self) -> List[Sequence[int]]:
        """The bot indices of every table: each combination of four bots."""
        return list(itertools.combinations(range(len(self.bots)), 4))

    def __repr__(self) -> str:
        mode = "duplicate" if self.duplicate else "independent hands"
        preset = f", preset {self.preset}" if self.preset else ""
        return (f"League({self.ruleset}{preset}: {len(self.bots)} bots ({', '.join(b.label for b in self.bots)}), "
                f"{len(self.tables())} tables of {self.hands} hands, {mode}, seed {self.seed})")


@dataclass(repr=False)
class Standing:
    """A bot's league score: the mean of its per-table mean points per hand, with the interval."""

    bot: str
    score: Estimate
    tables: int
    hands: int

    def __repr__(self) -> str:
        return (f"Standing({self.bot}: {self.score.mean:+.2f} {self.score.interval_text()} points/hand, "
                f"{self.tables} tables, {self.hands} hands)")


@dataclass(repr=False)
class Standings:
    """The ranking (best first) and every table's `SimulationResult`; `str`/`repr` show `table()`."""

    standings: List[Standing]
    results: List[SimulationResult] = field(default_factory=list)

    _HEADER = ("rank", "bot", "tables", "hands", "mean", "95% interval")

    def _rows(self) -> List[Tuple[str, ...]]:
        return [(str(i + 1), s.bot, str(s.tables), str(s.hands), f"{s.score.mean:+.2f}", s.score.interval_text())
                for i, s in enumerate(self.standings)]

    def headline(self) -> str:
        if not self.results:
            return f"league: {len(self.standings)} bots"
        first = self.results[0]
        mode = "duplicate" if first.duplicate else "independent hands"
        return (f"{first.ruleset} league: {len(self.standings)} bots, {len(self.results)} tables of {first.hands} "
                f"hands ({mode})")

    def __str__(self) -> str:
        return f"{self.headline()}\n{self.table()}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        """The ranking as an HTML table (notebooks)."""
        from mahjong_core._display import html_table

        return html_table(self._HEADER, self._rows(), caption=self.headline(), right=(0, 2, 3, 4, 5))

    def to_dict(self) -> Dict[str, Any]:
        return {"standings": [{"rank": i + 1, "bot": s.bot, "tables": s.tables, "hands": s.hands,
                               **s.score.to_dict()} for i, s in enumerate(self.standings)],
                "tables": [r.to_dict() for r in self.results]}

    def table(self) -> str:
        """The ranking as text: rank, bot, tables, hands, mean points per hand and its 95% interval."""
        widths = (-5, -28, 7, 9, 9, 22)
        lines = [text_line(self._HEADER, widths)]
        lines.extend(text_line((row[0], row[1][:27]) + row[2:], widths) for row in self._rows())
        return "\n".join(lines)


def _read(path: str) -> Dict[str, Any]:
    if path.endswith(".json"):
        with open(path, "r", encoding="utf-8") as fh:
            return json.load(fh)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - older Pythons
        tomllib = require("tomli", "reading a TOML league file on Python < 3.11", install="pip install tomli",
                          otherwise="or write the league as JSON, same structure, with a .json name")
    with open(path, "rb") as fh:
        try:
            return tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidArgumentError(f"{path}: not valid TOML ({exc})") from None


def load_league(path: str) -> League:
    """Read a league file (see the module docstring)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidTypeError(f"path is a league file's path (TOML or JSON), got {type(path).__name__}")
    if not os.path.exists(path):
        raise InvalidArgumentError(f"league file {path!r} does not exist")
    try:
        data = _read(path)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(f"{path}: not valid JSON ({exc})") from None
    settings = data.get("league", {})
    entries = data.get("bot", data.get("bots"))
    if not isinstance(settings, dict) or not isinstance(entries, list):
        raise InvalidArgumentError(f"{path}: expected an optional [league] table and a list of [[bot]] entries")
    unknown = set(settings) - {"ruleset", "hands", "seed", "duplicate", "preset"}
    if unknown:
        raise InvalidArgumentError(f"{path}: unknown [league] keys {sorted(unknown)}; known: ruleset, hands, seed, "
                                   f"duplicate, preset")
    bots = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "spec" not in entry:
            raise InvalidArgumentError(f"{path}: bot {i + 1} needs a spec (e.g. spec = \"greedy\")")
        bots.append(bot_spec({"bot": entry["spec"], "args": entry.get("args") or {},
                              "name": entry.get("name") or str(entry["spec"])}))
    labels = [b.label for b in bots]
    if len(set(labels)) != len(labels):
        raise InvalidArgumentError(f"{path}: bot names must differ, got {labels}")
    if len(bots) < 4:
        raise InvalidArgumentError(f"{path}: a league needs at least 4 bots, got {len(bots)}")
    return League(bots, **settings)


def play_league(league: League, *, hands: Optional[int] = None, duplicate: Optional[bool] = None,
                seed: Optional[int] = None, ruleset: Optional[str] = None, out_dir: Optional[str] = None,
                on_table: Optional[Callable[[int, int, SimulationResult], None]] = None,
                **options: Any) -> Standings:
    """Play every table of `league` and rank the bots; `options` go to `simulate` (workers, backend ...).
    `out_dir`: each table's per-hand results as `table-<t>.jsonl` there (resumable)."""
    if not isinstance(league, League):
        raise InvalidTypeError(f"play_league takes a League (League(...) or load_league(path)), got "
                               f"{type(league).__name__}")
    hands = league.hands if hands is None else hands
    duplicate = league.duplicate if duplicate is None else duplicate
    seed = league.seed if seed is None else seed
    ruleset = league.ruleset if ruleset is None else ruleset
    if options.get("rules") is None:
        options["rules"] = league.preset
    tables = league.tables()
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    per_bot: Dict[int, List[Estimate]] = {i: [] for i in range(len(league.bots))}
    results = []
    for t, members in enumerate(tables):
        out = os.path.join(out_dir, f"table-{t}.jsonl") if out_dir is not None else None
        result = simulate(ruleset, hands, seed=seed + t, bots=[league.bots[i] for i in members],
                          duplicate=duplicate, out=out, **options)
        results.append(result)
        for player, i in enumerate(members):
            per_bot[i].append(result.estimate(player))
        if on_table is not None:
            on_table(t, len(tables), result)
    standings = [Standing(league.bots[i].label, combine(parts), len(parts), sum(p.units for p in parts)
                          * (4 if duplicate else 1)) for i, parts in per_bot.items()]
    standings.sort(key=lambda s: -s.score.mean)
    return Standings(standings, results)
