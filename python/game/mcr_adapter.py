"""The one place the game engine talks to the MCR ruleset module (`mahjong_core.rules.mcr`, issue #3).

The engine uses exactly the API.md contract:

- `mcr.Rules` (keys of RULES.md §1; `presets`), `mcr.score(hand, *, win_tile, self_drawn, last_copy,
  wall_last, kong, seat_wind, prevalent_wind, flowers, rules) -> MCRScore | None` with `.total`
  (flowers included) and `.fans`, and `mcr.settle(score, winner, discarder=None, rules=None) -> Ledger`.
- If `mcr.score` also accepts `declared_ready=` (the 听牌 fan of `declared_ready_fan=True`), the
  engine passes it; otherwise a declared player's 听牌 fan is not counted.

`backend_override(obj)` substitutes another object with the same three attributes (a test double for
flow-mechanics tests only); `mcr_module()` returns the active backend.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import sys
from typing import Any, Iterator, Optional

__all__ = ["mcr_module", "backend_override", "score_accepts_declared_ready", "fans_without_flowers"]

_override: Optional[Any] = None
_MCR_MODULE = "mahjong_core.rules.mcr"


def mcr_module() -> Any:
    """The MCR ruleset backend: the override if one is active, else `mahjong_core.rules.mcr`."""
    if _override is not None:
        return _override
    loaded = sys.modules.get(_MCR_MODULE)  # once per hand: skip the import machinery once loaded
    if loaded is not None:
        return loaded
    try:
        return importlib.import_module(_MCR_MODULE)
    except ImportError as exc:
        raise ImportError(
            "MCR games need mahjong_core.rules.mcr (the MCR scorer), which is not installed in this "
            f"checkout: {exc}") from exc


@contextlib.contextmanager
def backend_override(backend: Any) -> Iterator[Any]:
    """Use `backend` (with `Rules`, `score`, `settle`) instead of the MCR module inside the block."""
    global _override
    saved = _override
    _override = backend
    try:
        yield backend
    finally:
        _override = saved


def score_accepts_declared_ready(module: Any) -> bool:
    try:
        return "declared_ready" in inspect.signature(module.score).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return False


def fans_without_flowers(score: Any, flowers: int) -> int:
    """The fan total that counts toward `min_fan`: flowers (1 fan each, 花牌) do not. Uses the
    score's own `base_total` when it has one."""
    base = getattr(score, "base_total", None)
    return score.total - flowers if base is None else base
