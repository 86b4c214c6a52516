"""Self-play: `play_hand` and `simulate` (many independent hands, optionally on several processes).

The `mahjong-core simulate <ruleset>` command is `mahjong_core.game.cli`.

Reproducibility: hand i of a run with seed S is `new_game(ruleset, seed=S, hand_no=i)` (dealer:
seat i % 4, or drawn from the seed where the rules say the dealer is random), and its bots draw from
`random.Random(S * 2**32 + i)`. Every statistic is an integer sum over hands, so the result is
identical whatever the number of worker processes.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

from mahjong_core.errors import InvalidArgumentError

from .bots import Bot, make_bot
from .engine import Game
from .registry import check_ruleset, game_class
from .start import new_game

__all__ = ["play_hand", "simulate", "SimulationResult", "SeatStats", "ProgressBar"]


def play_hand(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` answer every question of `game` until the hand is over; returns the game."""
    # Hot path of every simulation: reads the engine's pending table directly instead of copying it
    # through pending() (bots get the engine's own list and must not modify it), with `act` and each
    # bot's `choose` bound once per hand. A one-seat table never holds a stored answer (`act` resolves
    # it at once), so that common case needs no look at the answers.
    act = game.act
    choose = [bot.choose for bot in bots]
    while not game.finished:
        pending = game._pending
        if len(pending) == 1:
            for seat, actions in pending.items():
                act(seat, choose[seat](game, seat, actions))
            continue
        answered = game._answers
        for seat in list(pending):
            if seat in answered:
                continue
            act(seat, choose[seat](game, seat, pending[seat]))
            if game._pending is not pending:
                break
    return game


# ---------------------------------------------------------------------------------------------
# Statistics

@dataclass
class SeatStats:
    """One seat's results over a run (integer sums; mean and SD derived)."""

    bot: str
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    points: int = 0
    points_sq: int = 0

    @property
    def mean(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def sd(self) -> float:
        if self.hands < 2:
            return 0.0
        var = (self.points_sq - self.points * self.points / self.hands) / (self.hands - 1)
        return math.sqrt(max(var, 0.0))

    def to_dict(self) -> Dict[str, Any]:
        return {"bot": self.bot, "hands": self.hands, "wins": self.wins, "self_draws": self.self_draws,
                "deal_ins": self.deal_ins, "points": self.points, "mean": self.mean, "sd": self.sd,
                "win_rate": self.wins / self.hands if self.hands else 0.0,
                "deal_in_rate": self.deal_ins / self.hands if self.hands else 0.0}


@dataclass
class SimulationResult:
    ruleset: str
    games: int
    seed: int
    bots: Tuple[str, ...]
    rules: Dict[str, Any]
    preset: Optional[str]
    workers: int
    seats: List[SeatStats]
    exhausted: int = 0
    elapsed: float = 0.0
    checksum: int = 0
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    def to_dict(self) -> Dict[str, Any]:
        return {"ruleset": self.ruleset, "games": self.games, "seed": self.seed, "bots": list(self.bots),
                "preset": self.preset, "rules": self.rules, "workers": self.workers,
                "exhausted": self.exhausted, "elapsed_seconds": self.elapsed,
                "hands_per_second": self.hands_per_second, "checksum": self.checksum,
                "seats": [s.to_dict() for s in self.seats]}


# A hand's outcome as plain ints (cheap to send between processes):
# (index, totals, winners, deal-in seat per discard win, self-drawing winners, exhausted)
HandRecord = Tuple[int, Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], bool]


def _record(index: int, game: Game) -> HandRecord:
    deal_ins: List[int] = []
    self_draws: List[int] = []
    for event in game._events:
        if event[0] == "win":
            if event[3] < 0:
                self_draws.append(event[1])
            else:
                deal_ins.append(event[3])
    return (index, tuple(game.ledger.totals()), tuple(game.winners), tuple(deal_ins), tuple(self_draws),
            game.exhausted)


def _dealer_for(ruleset: str, rules: Any, index: int) -> Optional[int]:
    if game_class(ruleset).random_dealer(rules):
        return None  # drawn from the seed
    return index % 4


def _run_range(ruleset: str, rules: Any, seed: int, bot_names: Sequence[str], start: int, stop: int
               ) -> List[HandRecord]:
    bots = [make_bot(name) for name in bot_names]
    out = []
    for i in range(start, stop):
        rng = random.Random(seed * 2**32 + i)
        for bot in bots:
            bot.new_hand(rng)
        game = new_game(ruleset, seed=seed, hand_no=i, rules=rules, dealer=_dealer_for(ruleset, rules, i))
        play_hand(game, bots)
        out.append(_record(i, game))
    return out


def _run_chunk(args: Tuple[str, Any, int, Tuple[str, ...], int, int]) -> List[HandRecord]:
    return _run_range(*args)


def simulate(ruleset: str, games: int, *, seed: int = 1, bots: Sequence[str] = ("random",) * 4,
             rules: Any = None, workers: int = 1, progress: Optional["ProgressBar"] = None) -> SimulationResult:
    """Play `games` independent hands with the named bots (one per seat); see the module docstring."""
    check_ruleset(ruleset)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgumentError(f"seed must be a non-negative integer, got {seed!r}")
    bot_names = tuple(bots)
    if len(bot_names) == 1:
        bot_names = bot_names * 4
    if len(bot_names) != 4:
        raise InvalidArgumentError(f"give one bot per seat (4) or one for all, got {len(bot_names)}")
    for name in bot_names:
        make_bot(name)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgumentError(f"workers must be a positive integer, got {workers!r}")
    rules = game_class(ruleset).rules_class().resolve(rules)
    from mahjong_core import ensure_init

    ensure_init()
    started = time.perf_counter()
    records: List[HandRecord] = []
    if workers == 1:
        step = max(1, min(200, games // 100 or 1))
        for start in range(0, games, step):
            records.extend(_run_range(ruleset, rules, seed, bot_names, start, min(games, start + step)))
            if progress is not None:
                progress.update(len(records))
    else:
        chunk = max(1, min(500, games // (workers * 8) or 1))
        tasks = [(ruleset, rules, seed, bot_names, start, min(games, start + chunk))
                 for start in range(0, games, chunk)]
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with context.Pool(workers) as pool:
            for part in pool.imap_unordered(_run_chunk, tasks):
                records.extend(part)
                if progress is not None:
                    progress.update(len(records))
    elapsed = time.perf_counter() - started
    if progress is not None:
        progress.close()
    records.sort()
    return _summarise(ruleset, games, seed, bot_names, rules, workers, records, elapsed)


def _summarise(ruleset: str, games: int, seed: int, bot_names: Tuple[str, ...], rules: Any, workers: int,
               records: List[HandRecord], elapsed: float) -> SimulationResult:
    seats = [SeatStats(bot=name) for name in bot_names]
    exhausted = 0
    checksum = 0
    for index, totals, winners, deal_ins, self_draws, was_exhausted in records:
        exhausted += was_exhausted
        for s in range(4):
            st = seats[s]
            st.hands += 1
            st.points += totals[s]
            st.points_sq += totals[s] * totals[s]
        for w in winners:
            seats[w].wins += 1
        for w in self_draws:
            seats[w].self_draws += 1
        for d in deal_ins:
            seats[d].deal_ins += 1
        checksum = (checksum * 1_000_003 + hash((index,) + totals + winners)) % (1 << 61)
    return SimulationResult(ruleset, games, seed, bot_names, rules.to_dict(), rules.preset_name, workers, seats,
                            exhausted, elapsed, checksum)


# ---------------------------------------------------------------------------------------------
# Progress bar (stderr; no dependency)

class ProgressBar:
    """A one-line progress bar: `[#####     ] 52% 5200/10000  812 hands/s  ETA 6s`."""

    def __init__(self, total: int, stream: Optional[TextIO] = None, width: int = 30, label: str = "") -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.label = label
        self.started = time.perf_counter()
        self._last = 0.0
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        now = time.perf_counter()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        frac = done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        eta = (self.total - done) / rate if rate > 0 else 0.0
        bar = "#" * filled + " " * (self.width - filled)
        self.stream.write(f"\r{self.label}[{bar}] {frac * 100:3.0f}% {done}/{self.total}  {rate:,.0f} hands/s  "
                          f"ETA {eta:,.0f}s ")
        self.stream.flush()

    def close(self) -> None:
        self.update(self.done)
        self.stream.write("\n")
        self.stream.flush()
