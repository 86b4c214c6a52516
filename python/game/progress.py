"""Progress reporting for simulations: anything with `update(n)` (n more hands done) will do.

`ProgressBar` is the built-in one-line bar (stderr, no dependency). `make_progress(kind, total)`
gives a bar by name — "plain" (the built-in), "tqdm", "rich", "none" — importing tqdm / rich only
when asked for. A tqdm bar works as is: `simulate(..., progress=tqdm(total=n))`.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Optional, TextIO

from mahjong_core._extras import require

__all__ = ["ProgressBar", "make_progress", "PROGRESS_KINDS"]

PROGRESS_KINDS = ("plain", "tqdm", "rich", "none")


class ProgressBar:
    """A one-line progress bar: `[#####     ] 52% 5200/10000  812 hands/s  ETA 6s`.

    `update(n)` adds n done hands (the tqdm convention); `close()` draws the final state and ends the line.
    """

    def __init__(self, total: int, stream: Optional[TextIO] = None, width: int = 30, label: str = "") -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.label = label
        self.started = time.perf_counter()
        self._last = 0.0
        self.done = 0

    @property
    def n(self) -> int:
        return self.done

    def update(self, n: int = 1) -> None:
        self.done += n
        self._draw(force=False)

    def _draw(self, force: bool) -> None:
        done = self.done
        now = time.perf_counter()
        if not force and done < self.total and now - self._last < 0.1:
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
        self._draw(force=True)
        self.stream.write("\n")
        self.stream.flush()


class _RichProgress:
    """A rich progress bar behind the `update(n)` / `close()` interface."""

    def __init__(self, total: int, label: str) -> None:
        rich = require("rich.progress", "--progress rich", install="pip install rich",
                       otherwise="or use --progress plain")
        self._progress = rich.Progress("[progress.description]{task.description}", rich.BarColumn(),
                                       rich.MofNCompleteColumn(), rich.TimeRemainingColumn(), transient=False)
        self._progress.start()
        self._task = self._progress.add_task(label or "hands", total=total)

    def update(self, n: int = 1) -> None:
        self._progress.update(self._task, advance=n)

    def close(self) -> None:
        self._progress.stop()


def make_progress(kind: Optional[str], total: int, label: str = "") -> Any:
    """A progress bar by name ("plain", "tqdm", "rich"), or None for "none" / None."""
    if kind is None or kind == "none":
        return None
    if kind == "plain":
        return ProgressBar(total, label=label)
    if kind == "tqdm":
        tqdm = require("tqdm", "--progress tqdm", install="pip install tqdm", otherwise="or use --progress plain").tqdm
        return tqdm(total=total, desc=label.strip() or None, unit="hand", smoothing=0.1)
    if kind == "rich":
        return _RichProgress(total, label.strip())
    from mahjong_core.errors import InvalidArgumentError

    raise InvalidArgumentError(f"progress must be one of {', '.join(PROGRESS_KINDS)}; got {kind!r}")
