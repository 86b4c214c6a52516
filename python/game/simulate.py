"""Self-play: `play_hand` and `simulate` (many seeded hands, duplicate seating, intervals, backends).

    from mahjong_core.game.simulate import simulate
    result = simulate("sichuan", bots=["mypkg.bots:MyBot", "greedy", "greedy", "greedy"],
                      hands=100_000, duplicate=True, backend="ray")
    print(result.table())                      # per bot: mean points/hand with its 95% interval
    result.compare("mypkg.bots:MyBot", "greedy")  # difference, interval, p-value (paired over walls)

The `mahjong-core simulate <ruleset>` command is `mahjong_core.game.cli`.

Bots: any bot spec (`botspec`): built-in names, "package.module:Class(args)" import paths, classes,
instances. A bot needs only `choose(game, seat, actions)`; `new_hand(rng)` and `release()` are
optional hooks. Reproducibility: hand i of a run with seed S is `new_game(ruleset, seed=S, hand_no=i)`
(dealer: seat i % 4, or drawn from the seed where the rules say the dealer is random), and its bots
draw from `random.Random(S * 2**32 + i)`. In duplicate mode (`duplicate=True`) each wall i is
played four times, rotation r = 0..3 seating bot ``(s - r) % 4`` in seat s, with the bots drawing from
`random.Random((S * 2**32 + i) * 4 + r)`; the wall and its dealer do not change between rotations,
so the luck of the deal cancels when a bot's four results on a wall are added. Every statistic is
an integer sum (`tally.Tally`), so the result does not depend on the backend, the number of workers
or on resuming — provided a bot's choices depend only on the game and the `rng` it is given by
`new_hand(rng)` (not on state kept from earlier hands; a bot without that hook must draw no
randomness of its own, or seed it from the game, to be reproducible).

Intervals (`stats`) are t intervals over independent units: hands, or walls in duplicate mode.
"""

from __future__ import annotations

import os
import pickle
import time
import traceback
from array import array
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from mahjong_core._display import text_line
from mahjong_core._extras import require
from mahjong_core.errors import BotError, IllegalActionError, InvalidArgumentError, InvalidTypeError, MahjongError

from .backends import Job, TaskResult, run_job
from .bots import Bot, hand_stream, start_hand
from .botspec import BotSpec, bot_specs, build_bot, local_bot
from .engine import Game
from .native import loop as native_loop
from .native import seats_for as native_seats_for
from .progress import ProgressBar
from .registry import check_ruleset, game_class, table_class
from .results_file import ResultsFile
from .stats import Comparison, Estimate, estimate, paired_p_value
from .tally import HandRecord, Tally


# (a module global: the tests set it to None to play through the Python driver)
_native_advance = native_loop()[0]

# (`run_units` and `play_task`, what the backends' workers run, are importable but not public)
__all__ = ["play_hand", "simulate", "compare", "simulated_hand", "save_logs", "SimulationResult", "SeatStats",
           "ProgressBar"]

#: the faults of Botzone program bots a result keeps (`SimulationResult.faults`: the latest)
FAULTS_KEPT = 100


def play_hand(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` answer every question of `game` until the hand is over; returns the game."""
    # Hot path of every simulation: reads the engine's pending table directly instead of copying it
    # through pending() (bots get the engine's own list and must not modify it), with `act` and each
    # bot's `choose` bound once per hand. A one-seat table never holds a stored answer (`act` resolves
    # it at once), so that common case needs no look at the answers. A bot may end the hand inside
    # `choose` (a Botzone program's wrong answer is penalised there: `botzone.program`); its answer
    # is then dropped — the engine replaces its table (`_pending`) whenever the questions change.
    # Compiled, `g` is typed as the engine's extension type (python/pxd/.../simulate.pxd), so
    # `g.finished` / `g._asked` / `g._answers` are struct reads instead of attribute lookups (three
    # per decision); hence the type check, which a non-Game would otherwise fail deep in the loop.
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"play_hand plays a Game (e.g. new_game(...)), got {type(game).__name__}")
    g = game
    # The seats of the built-in random and greedy bots are answered by the native loop
    # (game/_selfplay.pyx) where the engine is compiled and the game is a registered ruleset's own
    # class: the same choices from the same random streams, without the Python driver per decision.
    native = native_seats_for(game, bots) if _native_advance is not None else None
    # `act` and the bots' `choose`, bound at the first question the native loop leaves (most hands: none)
    act: Any = None
    choose: Any = None
    seat = -1
    while not g.finished:
        if native is not None:
            _native_advance(g, native)
            if g.finished:
                break
        if choose is None:
            act = g.act
            choose = [bot.choose for bot in bots]
        pending = g._asked  # (the table `_pending` reads)
        if pending is None:  # another bot's plain turn, which the native loop left unbuilt
            pending = g._asked_table()
        try:
            if len(pending) == 1:
                for seat, actions in pending.items():
                    action = choose[seat](game, seat, actions)
                    if g._asked is pending:
                        act(seat, action)
                continue
            answered = g._answers
            for seat in list(pending):
                if seat in answered:
                    continue
                action = choose[seat](game, seat, pending[seat])
                if g._asked is not pending:
                    break
                act(seat, action)
                if g._asked is not pending:
                    break
        except MahjongError:  # an illegal answer (act says whose, and what was legal), a ProgramError
            raise
        except Exception as exc:  # the bot's own failure inside choose
            raise _bot_failed(bots, seat, exc) from exc
    return game


def _bot_failed(bots: Sequence[Bot], seat: int, exc: BaseException) -> BotError:
    """The BotError of seat `seat`'s bot raising `exc` in its `choose` (its traceback kept as text)."""
    bot = bots[seat]
    name = getattr(bot, "name", None) or type(bot).__name__
    return BotError(f"seat {seat}'s bot {name!r} raised {type(exc).__name__}: {exc}",
                    "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))


def release_bots(bots: Sequence[Any]) -> None:
    """Call `release()` on the bots that have one — at the end of every task and `Match.play`: a bot
    lets go of what it holds between hands (a Botzone program stops its process) and must still
    play afterwards (a worker keeps its bots for the next task)."""
    for bot in bots:
        release = getattr(bot, "release", None)
        if callable(release):
            release()


class SeededTable:
    """What a run of seeded hands of one (ruleset, rules) resolves once — the `Game` class that plays
    those rules and how each hand's dealer is chosen — so that a hand costs no registry lookups
    (`new_game` makes them on every call). `simulate`'s runs and the learning environments' tables
    deal through it: `game(seed, k, dealer(k), **options)` is `new_game(ruleset, seed=seed,
    hand_no=k, rules=rules, dealer=dealer(k), **options)`, with arguments the caller has checked.
    (Here, not in start.py: this module is compiled, and `game` is called once per hand.)"""

    __slots__ = ("cls", "rules", "fixed", "random_dealer")

    def __init__(self, ruleset: str, rules: Any) -> None:
        self.cls = table_class(ruleset, rules)
        self.rules = rules
        #: the seat that deals every hand on this table (the Botzone table: seat 0), else None
        self.fixed: Optional[int] = getattr(self.cls, "FIXED_DEALER", None)
        self.random_dealer = game_class(ruleset).random_dealer(rules)

    def dealer(self, unit: int) -> Optional[int]:
        """The dealer of hand (wall) `unit`: the table's fixed dealer, None where the ruleset draws
        it from the seed, otherwise unit % 4."""
        if self.fixed is not None:
            return self.fixed
        return None if self.random_dealer else unit % 4

    def game(self, seed: int, unit: int, dealer: Optional[int], **options: Any) -> Game:
        """Hand `unit` of `seed`, dealt by `dealer` (None: the rules' own)."""
        return self.cls._from_seed(self.rules, seed, unit, dealer, **options)


def _record(unit: int, rotation: int, game: Game) -> HandRecord:
    deal_ins: List[int] = []
    self_draws: List[int] = []
    # (every "win" event has its seat in `winners`: a hand without winners skips the event scan)
    for event in game._events if game.winners else ():
        if event[0] == "win":
            if event[3] < 0:
                self_draws.append(event[1])
            else:
                deal_ins.append(event[3])
    return (unit, rotation, game.dealer, tuple(game.ledger.totals()), tuple(game.winners), tuple(deal_ins),
            tuple(self_draws), game.exhausted)


def run_units(ruleset: str, rules: Any, seed: int, bots: Sequence[Bot], duplicate: bool, start: int, stop: int
              ) -> List[HandRecord]:
    """Play units [start, stop) with `bots` (one per player); the records in unit, rotation order."""
    out = []
    table = SeededTable(ruleset, rules)
    rotations: Tuple[int, ...] = tuple(range(4 if duplicate else 1))
    seatings = [[bots[(s - r) % 4] for s in range(4)] for r in rotations]
    try:
        for i in range(start, stop):
            dealer = table.dealer(i)
            for r in rotations:
                game = _play_one(table, seed, bots, seatings[r], duplicate, i, r, dealer)
                out.append(_record(i, r, game))
    finally:
        release_bots(bots)
    return out


def _play_one(table: SeededTable, seed: int, bots: Sequence[Bot], seating: Sequence[Bot], duplicate: bool,
              unit: int, rotation: int, dealer: Optional[int]) -> Game:
    """One hand of a run: wall (seed, unit), the bots' random stream (seed, unit[, rotation]), played out."""
    rng = hand_stream((seed * 2**32 + unit) * 4 + rotation if duplicate else seed * 2**32 + unit)
    start_hand(bots, rng)
    try:
        return play_hand(table.game(seed, unit, dealer), seating)
    except (BotError, IllegalActionError) as exc:  # the same error (its class kept), told which hand it was
        index = unit * 4 + rotation if duplicate else unit
        exc.args = (f"hand {index} of the run with seed {seed}: {exc} (play it again with "
                    f"simulated_hand({table.cls.ruleset!r}, {index}, seed={seed}, bots=..."
                    f"{', duplicate=True' if duplicate else ''}))",) + exc.args[1:]
        raise


def simulated_hand(ruleset: str, index: int, *, seed: int = 1, bots: Any = ("random",) * 4, rules: Any = None,
                   duplicate: bool = False) -> Game:
    """Hand `index` of `simulate(ruleset, ..., seed=seed, bots=bots, rules=rules, duplicate=duplicate)`
    played again — the same wall, dealer and bot choices — so its `log` is that hand's (`simulate
    --save-logs`). In duplicate mode hand `index` is wall index // 4 in rotation index % 4."""
    rules = game_class(check_ruleset(ruleset)).rules_class().resolve(rules)
    _non_negative("index", index, " (a hand's number in the simulation)")
    _non_negative("seed", seed)
    players = [spec.build() for spec in bot_specs(bots)]
    unit, rotation = (index // 4, index % 4) if duplicate else (index, 0)
    table = SeededTable(ruleset, rules)
    seating = [players[(s - rotation) % 4] for s in range(4)]
    try:
        return _play_one(table, seed, players, seating, duplicate, unit, rotation, table.dealer(unit))
    finally:
        release_bots(players)


def save_logs(directory: str, ruleset: str, hands: int, *, seed: int = 1, bots: Any = ("random",) * 4,
              rules: Any = None, duplicate: bool = False) -> int:
    """Write the log of hand i of that simulation, for every i < hands, as `directory`/hand-NNNNNN.json
    (each hand played again by `simulated_hand`); returns the number written."""
    import json

    if not isinstance(directory, (str, os.PathLike)):
        raise InvalidTypeError(f"directory is the path of a folder for the logs, got {type(directory).__name__}")
    _non_negative("hands", hands)
    check_ruleset(ruleset)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot create the log directory {directory}: {exc.strerror}") from None
    for index in range(hands):
        game = simulated_hand(ruleset, index, seed=seed, bots=bots, rules=rules, duplicate=duplicate)
        with open(os.path.join(directory, f"hand-{index:06d}.json"), "w", encoding="utf-8") as f:
            json.dump(game.log, f, ensure_ascii=False)
    return hands


_WORKER_BOTS: Dict[bytes, List[Any]] = {}


def play_task(job: Job, start: int, stop: int, keep_records: bool, local: bool = False) -> TaskResult:
    """One task of a run (what every backend runs): units [start, stop) of `job`, as
    ``(start, stop, Tally, records or None)``; `local`: this process, bot instances used as given."""
    from mahjong_core import ensure_init

    ensure_init()
    if local:
        bots = [local_bot(spec) for spec in job.specs]
    else:
        # a worker keeps the bots of its latest run, so a bot that is costly to build (a model to
        # load) is built once per worker, not once per task (bots start every hand with new_hand)
        key = pickle.dumps(job.specs)
        cached = _WORKER_BOTS.get(key)
        if cached is None:
            _WORKER_BOTS.clear()
            cached = _WORKER_BOTS[key] = [spec.build() for spec in job.specs]
        bots = cached
    counted = _fault_counts(bots)
    records = run_units(job.ruleset, job.rules, job.seed, bots, job.duplicate, start, stop)
    return (start, stop, Tally.of_units(records, job.hands_per_unit), records if keep_records else None,
            _new_faults(bots, job.specs, counted))


def _fault_counts(bots: Sequence[Any]) -> Dict[int, int]:
    """`fault_count` of each bot that keeps one (a Botzone `ProgramBot`), by identity (one bot may
    play several seats)."""
    return {id(bot): bot.fault_count for bot in bots if type(getattr(bot, "fault_count", None)) is int}


def _new_faults(bots: Sequence[Any], specs: Sequence[BotSpec], before: Dict[int, int]) -> List[Tuple[str, str]]:
    """(label, message) of the faults the bots had since `before` (of those still kept in `faults`)."""
    out: List[Tuple[str, str]] = []
    for bot, spec in zip(bots, specs):
        counted = before.pop(id(bot), None)
        if counted is not None and bot.fault_count > counted:
            new = bot.fault_count - counted
            out.extend((spec.label, str(fault)) for fault in list(bot.faults)[-new:])
    return out


def _run_range(ruleset: str, rules: Any, seed: int, bot_names: Sequence[str], start: int, stop: int
               ) -> List[HandRecord]:
    """Hands [start, stop) of a normal run with built-in bots by name (benches, profiling)."""
    return run_units(ruleset, rules, seed, [build_bot(name) for name in bot_names], False, start, stop)


# ---------------------------------------------------------------------------------------------
# Results

@dataclass(repr=False)
class SeatStats:
    """One bot's results over a run (a seat's in a normal run; integer sums, mean / SD / interval derived)."""

    bot: str
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    points: int = 0
    points_sq: int = 0
    #: independent units (hands; walls in duplicate mode) and the sum of squared unit points
    units: int = 0
    units_sq: int = 0

    @property
    def mean(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def sd(self) -> float:
        """Standard deviation of one hand's points."""
        if self.hands < 2:
            return 0.0
        var = (self.points_sq - self.points * self.points / self.hands) / (self.hands - 1)
        return max(var, 0.0) ** 0.5

    @property
    def interval(self) -> Estimate:
        """Mean points per hand with its 95% interval, over units (walls in duplicate mode)."""
        per_unit = self.hands // self.units if self.units else 1
        return estimate(self.units, self.points, self.units_sq, scale=1 / per_unit)

    def __repr__(self) -> str:
        d = self.to_dict()
        return (f"SeatStats({self.bot}: {self.hands} hands, win {d['win_rate']:.1%}, deal-in {d['deal_in_rate']:.1%}, "
                f"mean {self.mean:+.2f} {self.interval.interval_text()})")

    def to_dict(self) -> Dict[str, Any]:
        ci = self.interval
        return {"bot": self.bot, "hands": self.hands, "wins": self.wins, "self_draws": self.self_draws,
                "deal_ins": self.deal_ins, "points": self.points, "mean": self.mean,
                "sd": self.sd if self.hands >= 2 else None,  # (no spread to measure in one hand)
                "ci_low": ci.low, "ci_high": ci.high,
                "win_rate": self.wins / self.hands if self.hands else 0.0,
                "deal_in_rate": self.deal_ins / self.hands if self.hands else 0.0}


BotRef = Union[str, int, Sequence[int]]


@dataclass(repr=False)
class SimulationResult:
    """A run's results. `seats[p]`: bot p of the run (in duplicate mode it played every seat)."""

    ruleset: str
    hands: int
    seed: int
    bots: Tuple[str, ...]
    rules: Dict[str, Any]
    preset: Optional[str]
    seats: List[SeatStats]
    duplicate: bool = False
    exhausted: int = 0
    checksum: int = 0
    #: cross[e][f]: sum over units of bot e's unit points times bot f's
    cross: List[List[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(4)])
    units: int = 0
    #: how it ran and how fast (backend, workers, tasks, elapsed ...): the only part that varies
    timing: Dict[str, Any] = field(default_factory=dict)
    #: not part of `to_dict`: "hand_totals", every hand's points per bot (a flat array, 4 a hand, in
    #: no particular order) when the run kept them (`keep_totals`), for the distribution plot
    extra: Dict[str, Any] = field(default_factory=dict)
    #: not part of `to_dict` (a fault's message names its process): the latest `FAULTS_KEPT` faults of
    #: Botzone program bots in the hands this run played, as {"bot": label, "message": text} — a WA,
    #: TLE or RE, each a penalty that ended its hand — and how many there were in all
    faults: List[Dict[str, str]] = field(default_factory=list)
    fault_count: int = 0

    def plot(self, path: Optional[str] = None) -> Any:
        """Per-bot score distribution, win rate and mean with 95% intervals as a matplotlib Figure
        (saved to `path` when given). Needs `pip install "mahjong_core[plot]"`."""
        from mahjong_core.viz.plot import plot_simulation

        return plot_simulation(self, path)

    @property
    def games(self) -> int:  # the name before `hands`
        return self.hands

    @property
    def elapsed(self) -> float:
        return float(self.timing.get("elapsed_seconds", 0.0))

    @property
    def workers(self) -> int:
        return int(self.timing.get("workers", 1))

    @property
    def hands_per_second(self) -> float:
        return float(self.timing.get("hands_per_second", 0.0))

    # -- estimates -----------------------------------------------------------------------------

    def _weights(self, ref: BotRef) -> Dict[int, Fraction]:
        if isinstance(ref, bool):
            raise InvalidArgumentError(f"not a bot of this run: {ref!r}")
        if isinstance(ref, int):
            players = [ref]
        elif isinstance(ref, str):
            players = [p for p, label in enumerate(self.bots) if label == ref]
            if not players:
                raise InvalidArgumentError(f"no bot {ref!r} in this run; its bots: {', '.join(self.bots)}")
        else:
            players = list(ref)
        if not players or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < 4 for p in players):
            raise InvalidArgumentError(f"bot players are indices 0..3 into the run's bots, got {ref!r}")
        return {p: Fraction(1, len(players)) for p in players}

    def _linear(self, weights: Dict[int, Fraction]) -> Estimate:
        total = sum(w * self.seats[p].points for p, w in weights.items())
        total_sq = sum(we * wf * self.cross[e][f] for e, we in weights.items() for f, wf in weights.items())
        per_unit = self.hands // self.units if self.units else 1
        return estimate(self.units, float(total), float(total_sq), scale=1 / per_unit)

    def estimate(self, bot: BotRef) -> Estimate:
        """Mean points per hand of a bot (a label: all the run's bots with it, averaged; or a player index)."""
        return self._linear(self._weights(bot))

    def compare(self, a: BotRef, b: BotRef) -> Comparison:
        """`a` minus `b` in points per hand: the difference, its 95% interval and the two-sided p-value,
        paired over walls in duplicate mode (over hands otherwise)."""
        wa, wb = self._weights(a), self._weights(b)
        if set(wa) & set(wb):
            raise InvalidArgumentError(f"{a!r} and {b!r} share a bot; compare bots by player index (0..3)")
        weights = dict(wa)
        for p, w in wb.items():
            weights[p] = -w
        diff = self._linear(weights)
        return Comparison(self._name(a), self._name(b), diff, paired_p_value(diff),
                          "walls" if self.duplicate else "hands")

    def _name(self, ref: BotRef) -> str:
        if isinstance(ref, str):
            return ref
        if isinstance(ref, int):
            return f"{self.bots[ref]} (#{ref})"
        labels = {self.bots[p] for p in ref}
        return labels.pop() if len(labels) == 1 else "+".join(f"#{p}" for p in ref)

    def by_bot(self) -> Dict[str, Estimate]:
        """Every distinct bot label -> its mean points per hand with the interval."""
        return {label: self.estimate(label) for label in dict.fromkeys(self.bots)}

    def comparison(self) -> Optional[Comparison]:
        """The comparison of the two bots when the run has exactly two distinct ones, else None."""
        labels = list(dict.fromkeys(self.bots))
        return self.compare(labels[0], labels[1]) if len(labels) == 2 else None

    # -- output --------------------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """JSON-serialisable; everything that depends on how and how fast it ran is under "timing"."""
        comparison = self.comparison()
        return {"ruleset": self.ruleset, "hands": self.hands, "games": self.hands, "seed": self.seed,
                "duplicate": self.duplicate, "units": self.units, "bots": list(self.bots), "preset": self.preset,
                "rules": self.rules, "exhausted": self.exhausted, "checksum": self.checksum,
                "seats": [dict(s.to_dict(), player=p) for p, s in enumerate(self.seats)],
                "by_bot": {label: e.to_dict() for label, e in self.by_bot().items()},
                "comparison": comparison.to_dict() if comparison is not None else None,
                "timing": dict(self.timing)}

    def to_pandas(self) -> Any:
        """The per-bot table as a pandas DataFrame (needs pandas; imported only here)."""
        pandas = require("pandas", "to_pandas()", install='pip install "mahjong_core[numpy]" pandas')
        rows = [dict(s.to_dict(), player=p) for p, s in enumerate(self.seats)]
        return pandas.DataFrame(rows).set_index("player")

    def headline(self) -> str:
        """One line: ruleset, hands, mode, seed and preset (what `str` puts above the table)."""
        mode = f"duplicate, {self.units} walls x 4 seatings" if self.duplicate else "independent hands"
        return f"{self.ruleset}: {self.hands} hands ({mode}), seed {self.seed}, preset {self.preset or 'custom'}"

    #: the table's columns: the seat (a bot's number in duplicate mode, where every bot sits everywhere),
    #: win and deal-in rates per hand, mean points per hand and its interval
    _HEADER = ("seat", "bot", "hands", "win%", "deal-in%", "pts/hand", "95% interval")

    def _header(self) -> Tuple[str, ...]:
        return ("bot#",) + self._HEADER[1:] if self.duplicate else self._HEADER

    def exhausted_line(self) -> str:
        """"hands that ran to the end of the wall: 254 (63.5%)"."""
        share = f" ({self.exhausted / self.hands:.1%})" if self.hands else ""
        return f"hands that ran to the end of the wall: {self.exhausted}{share}"

    def _rows(self) -> List[Tuple[str, ...]]:
        """The cells of `table()`: a row per bot, then a row per label that several bots share."""
        rows: List[Tuple[str, ...]] = []
        for p, st in enumerate(self.seats):
            d = st.to_dict()
            rows.append((str(p), st.bot, str(st.hands), f"{d['win_rate']:.1%}", f"{d['deal_in_rate']:.1%}",
                         f"{st.mean:+.2f}", st.interval.interval_text()))
        if 1 < len(set(self.bots)) < 4:  # group rows: a bot label in several seats
            for label, e in self.by_bot().items():
                rows.append(("all", label, "", "", "", f"{e.mean:+.2f}", e.interval_text()))
        return rows

    def table(self) -> str:
        """The per-bot results as text: hands, win / deal-in rates, mean points per hand and its 95% interval."""
        widths = (-5, -24, 8, 7, 10, 10, 22)
        lines = [text_line(self._header(), widths)]
        lines.extend(text_line((row[0], _cut(row[1], 23)) + row[2:], widths) for row in self._rows())
        comparison = self.comparison()
        if comparison is not None:
            lines.append(str(comparison))
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"{self.headline()}\n{self.exhausted_line()}\n{self.table()}"

    #: the REPL shows the summary too; the raw fields are in `to_dict()`
    __repr__ = __str__

    def _repr_html_(self) -> str:
        """The summary as an HTML table (notebooks)."""
        from mahjong_core._display import html_table

        comparison = self.comparison()
        return html_table(self._header(), self._rows(), caption=self.headline(), right=(2, 3, 4, 5, 6),
                          notes=[str(comparison)] if comparison is not None else [])


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


# ---------------------------------------------------------------------------------------------
# simulate

def _positive(name: str, value: Any) -> int:
    return _at_least(1, name, value)


def _non_negative(name: str, value: Any, meaning: str = "") -> int:
    return _at_least(0, name, value, meaning)


def _at_least(low: int, name: str, value: Any, meaning: str = "") -> int:
    """`value` when it is an int >= `low` (a bool is not); InvalidArgumentError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        kind = "a positive" if low == 1 else "a non-negative"
        raise InvalidArgumentError(f"{name} must be {kind} integer{meaning}, got {value!r}")
    return value


def _missing_ranges(done: Any, units: int) -> List[Tuple[int, int]]:
    ranges: List[Tuple[int, int]] = []
    start: Optional[int] = None
    for u in range(units):
        if u in done:
            if start is not None:
                ranges.append((start, u))
                start = None
        elif start is None:
            start = u
    if start is not None:
        ranges.append((start, units))
    return ranges


def simulate(ruleset: str, hands: Optional[int] = None, *, games: Optional[int] = None, seed: int = 1,
             bots: Any = ("random",) * 4, rules: Any = None, duplicate: bool = False, workers: int = 1,
             backend: str = "processes", address: Optional[str] = None, progress: Any = None,
             out: Optional[str] = None, resume: bool = True, start_method: Optional[str] = None,
             runtime_env: Optional[Dict[str, Any]] = None, retries: int = 3,
             task_hands: Optional[int] = None, keep_totals: Optional[bool] = None) -> SimulationResult:
    """Play `hands` seeded hands of `ruleset` with `bots` and return the results (module docstring).

    `hands` (alias `games`): hands to play; in duplicate mode a multiple of 4 (hands / 4 walls, each
    played in the four rotations). `bots`: one bot spec for all seats or four (`botspec`). `rules`:
    preset name, Rules, or overrides. `backend`: "processes" (`workers` processes; 1 = this process)
    or "ray" (`address`: None starts or joins the local instance, "auto" or "ray://host:10001" a
    cluster; `runtime_env` is passed to `ray.init`). `progress`: anything with `update(n)` (a tqdm
    bar, `ProgressBar`), or True for the built-in bar. `out`: stream per-hand results to this JSONL
    file; a partial file of the same run is resumed (`resume=False`: start it over). `retries`: how
    often a lost worker's tasks are replayed. `task_hands`: hands per task (default: sized per backend).
    `start_method`: how worker processes start (default: `backends.default_start_method()`, "fork" in a
    single-threaded process, else "forkserver").
    `keep_totals`: keep every hand's points per bot for `SimulationResult.plot()`'s distribution
    (default: for runs of up to 1,000,000 hands; 32 bytes a hand).
    """
    check_ruleset(ruleset)
    if hands is not None and games is not None and hands != games:
        raise InvalidArgumentError(f"give hands= or games= (its old name), not both ({hands} and {games})")
    hands = _positive("hands", hands if hands is not None else games if games is not None else 1000)
    _non_negative("seed", seed)
    if duplicate and hands % 4:
        below, above = hands - hands % 4, hands + 4 - hands % 4
        raise InvalidArgumentError(f"duplicate mode plays every wall in 4 rotations: hands must be a multiple of 4, "
                                   f"got {hands} (use {f'{below} or ' if below else ''}{above})")
    _positive("workers", workers)
    if task_hands is not None:
        _positive("task_hands", task_hands)
    _non_negative("retries", retries)
    specs = bot_specs(bots)
    rules = game_class(ruleset).rules_class().resolve(rules)
    job = Job(ruleset, rules, seed, specs, bool(duplicate))
    hpu = job.hands_per_unit
    units = hands // hpu
    if (progress is not None and progress is not True and progress is not False  # (identity: a bar's == may fail)
            and not callable(getattr(progress, "update", None))):
        raise InvalidTypeError(f"progress is True (the built-in bar), None or anything with update(n) (a tqdm bar), "
                               f"got {type(progress).__name__}")
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise InvalidTypeError(f"out is the path of a JSONL results file, got {type(out).__name__}")
    bar = ProgressBar(hands, label=f"{ruleset} ") if progress is True else progress or None

    started = time.perf_counter()
    tally = Tally()
    results_file: Optional[ResultsFile] = None
    done_units: Dict[int, List[HandRecord]] = {}
    if out is not None:
        header = {"ruleset": ruleset, "seed": seed, "duplicate": bool(duplicate), "bots": [s.label for s in specs],
                  "rules": rules.to_dict(), "hands": hands}
        results_file = ResultsFile(out, header, hpu)
        done_units = results_file.open(resume=resume)
        for unit in sorted(u for u in done_units if u < units):
            tally.add_unit(done_units[unit])
    resumed = tally.hands
    if bar is not None and resumed:
        bar.update(resumed)

    if keep_totals is None:
        keep_totals = hands <= 1_000_000
    hand_totals = array("q")

    faults: List[Dict[str, str]] = []
    fault_count = 0

    def on_result(result: TaskResult) -> None:
        nonlocal fault_count
        _, _, part, records, task_faults = result
        fault_count += len(task_faults)
        faults.extend({"bot": label, "message": message} for label, message in task_faults)
        del faults[:-FAULTS_KEPT]
        tally.merge(part)
        if results_file is not None and records:
            results_file.write(records)
        if keep_totals and records:
            for record in records:  # (unit, rotation, dealer, totals, ...): bot p sat at (p + rotation) % 4
                rotation, totals = record[1], record[3]
                hand_totals.extend(totals[(p + rotation) % 4] for p in range(4))
        if bar is not None:
            bar.update(part.hands)

    try:
        ran = run_job(play_task, job, _missing_ranges(done_units, units), backend=backend, workers=workers,
                      on_result=on_result, keep_records=results_file is not None or bool(keep_totals),
                      start_method=start_method,
                      address=address, runtime_env=runtime_env, retries=retries, task_hands=task_hands)
    finally:
        if results_file is not None:
            results_file.close()
        if progress is True and bar is not None:
            bar.close()
    elapsed = time.perf_counter() - started
    played = tally.hands - resumed
    timing = dict(ran, elapsed_seconds=elapsed, hands_per_second=played / elapsed if elapsed > 0 else 0.0,
                  resumed_hands=resumed)
    result = _result(job, hands, specs, rules, tally, timing)
    result.faults, result.fault_count = faults, fault_count
    if keep_totals:
        for unit in sorted(u for u in done_units if u < units):  # resumed hands count in the distribution too
            for record in done_units[unit]:
                hand_totals.extend(record[3][(p + record[1]) % 4] for p in range(4))
        result.extra["hand_totals"] = hand_totals
    return result


def _result(job: Job, hands: int, specs: Sequence[BotSpec], rules: Any, tally: Tally, timing: Dict[str, Any]
            ) -> SimulationResult:
    seats = [SeatStats(bot=specs[p].label) for p in range(4)]
    for p, st in enumerate(seats):
        st.hands = tally.hands  # every bot plays (one seat of) every hand
        st.wins, st.self_draws, st.deal_ins = tally.wins[p], tally.self_draws[p], tally.deal_ins[p]
        st.points, st.points_sq = tally.points[p], tally.points_sq[p]
        st.units, st.units_sq = tally.units, tally.cross[p][p]
    return SimulationResult(job.ruleset, hands, job.seed, tuple(s.label for s in specs), rules.to_dict(),
                            rules.preset_name, seats, job.duplicate, tally.exhausted, tally.checksum,
                            [list(row) for row in tally.cross], tally.units, timing)


def compare(bot_a: Any, bot_b: Any, ruleset: str = "sichuan", hands: int = 4000, **options: Any) -> Comparison:
    """Play `bot_a` against `bot_b` (two seats each, duplicate mode unless `duplicate=False`) and compare them.

    Returns the `Comparison` (a - b in points per hand, its 95% interval and p-value, paired over
    walls); `options` go to `simulate` (seed, rules, workers, backend, out ...).
    """
    options.setdefault("duplicate", True)
    result = simulate(ruleset, hands, bots=[bot_a, bot_b, bot_a, bot_b], **options)
    return result.compare([0, 2], [1, 3])
