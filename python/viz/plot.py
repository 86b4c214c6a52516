"""Plots of a simulation (`SimulationResult.plot()`, `simulate --plot`): matplotlib, the `[plot]` extra.

Three panels: each seat's distribution of hand results (histogram), its win rate with a 95% Wilson
interval, and its mean result per hand with the 95% interval of `SimulationResult.table()` (a t
interval over hands, or over walls in duplicate mode). In duplicate
mode every bot played every seat, so the bars and curves are labelled by bot (its name, with its
slot number where two bots share a name), not by seat.
"""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

from mahjong_core._extras import require

from mahjong_core.errors import InvalidTypeError

__all__ = ["plot_simulation", "wilson_interval", "mean_interval", "slot_labels"]

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(mean: float, sd: float, n: int, z: float = 1.959964) -> Tuple[float, float]:
    half = z * sd / math.sqrt(n) if n > 0 else float("inf")
    return (mean - half, mean + half)


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "plotting", extra="plot")
    if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg", "ps", "cairo") and not _has_display():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _has_display() -> bool:
    import os

    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.name == "nt")


def _per_seat(result: Any) -> List[List[int]]:
    flat: Sequence[int] = result.extra.get("hand_totals") or ()
    return [list(flat[s::4]) for s in range(4)]


def _mean_interval(st: Any) -> Tuple[float, float]:
    """The bot's 95% interval of `SimulationResult.table()` (over walls in duplicate mode), else the
    normal interval over hands."""
    ci = st.interval
    if ci.low is not None and ci.high is not None:
        return (ci.low, ci.high)
    return mean_interval(st.mean, st.sd, st.hands)


def slot_labels(result: Any) -> List[str]:
    """The label of each of the run's four bots: "seat k" and the bot's name in a normal run; in
    duplicate mode (every bot played every seat) the name alone, or "name #k" when names repeat."""
    names = [st.bot for st in result.seats]
    if not result.duplicate:
        return [f"seat {s}\n{name}" for s, name in enumerate(names)]
    return [name if names.count(name) == 1 else f"{name} #{p}" for p, name in enumerate(names)]


def plot_simulation(result: Any, path: Optional[str] = None) -> Any:
    """A matplotlib Figure of `result` (a `SimulationResult`); saved to `path` when given."""
    if not hasattr(result, "seats") or not hasattr(result, "ruleset"):
        raise InvalidTypeError(f"plot_simulation takes what simulate() returns, got {type(result).__name__}")
    plt = _pyplot()
    seats = result.seats
    labels = slot_labels(result)
    fig, (ax_dist, ax_win, ax_mean) = plt.subplots(1, 3, figsize=(13, 4.2), gridspec_kw={"width_ratios": [1.6, 1, 1]})
    title = f"{result.ruleset}: {result.games} hands, seed {result.seed}, preset {result.preset or 'custom'}"
    if result.duplicate:
        title += f" (duplicate: {result.units} walls, each bot in every seat)"
    fig.suptitle(title, fontsize=12)

    per_seat = _per_seat(result)
    values = [v for seat in per_seat for v in seat]
    if values:
        lo, hi = min(values), max(values)
        bins = min(60, max(10, hi - lo + 1))
        for s, data in enumerate(per_seat):
            ax_dist.hist(data, bins=bins, range=(lo, hi + 1), histtype="step", linewidth=1.6, color=_COLOURS[s],
                         label=labels[s].replace("\n", " "), log=True)
        ax_dist.legend(fontsize=8)
    ax_dist.set_title("result per hand (points)", fontsize=10)
    ax_dist.set_xlabel("points")
    ax_dist.set_ylabel("hands (log scale)")

    rates, lows, highs = [], [], []
    for st in seats:
        n = st.hands
        rate = st.wins / n if n else 0.0
        low, high = wilson_interval(st.wins, n)
        rates.append(rate)
        lows.append(rate - low)
        highs.append(high - rate)
    x = list(range(4))
    ax_win.bar(x, rates, color=_COLOURS, alpha=0.8, yerr=[lows, highs], capsize=5)
    ax_win.set_xticks(x, labels, fontsize=8)
    ax_win.set_title("win rate (95% Wilson interval)", fontsize=10)
    ax_win.set_ylim(0, max(0.05, max(h + r for h, r in zip(highs, rates)) * 1.15))

    means = [st.mean for st in seats]
    err = [_mean_interval(st) for st in seats]
    ax_mean.bar(x, means, color=_COLOURS, alpha=0.8,
                yerr=[[m - e[0] for m, e in zip(means, err)], [e[1] - m for m, e in zip(means, err)]], capsize=5)
    ax_mean.axhline(0, color="#444", linewidth=0.8)
    ax_mean.set_xticks(x, labels, fontsize=8)
    ax_mean.set_title("mean points per hand (95% interval)", fontsize=10)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
