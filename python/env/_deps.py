"""Lazy imports of the `[rl]` extra: `import mahjong_core` (and `mahjong_core.env`) never imports them."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from mahjong_core.errors import InvalidArgumentError

__all__ = ["numpy", "gymnasium", "pettingzoo", "require"]

_HINT = 'pip install "mahjong_core[rl]"'


def require(name: str) -> Any:
    """Import `name` (a module of the [rl] extra) or raise an ImportError naming the install line."""
    module = sys.modules.get(name)  # (hot path: `VectorEnv.sample_actions` asks at every step; the
    if module is not None:          # import machinery took ~0.6 µs to say it was imported)
        return module
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ImportError(f"mahjong_core.env needs {name.split('.')[0]}: {_HINT}") from exc


def numpy() -> Any:
    return require("numpy")


def numpy_generator(rng: Any, who: str, also: str = "") -> Any:
    """`rng` as a NumPy Generator: itself, or a new one from a seed or None (fresh entropy);
    InvalidArgumentError naming `who` otherwise (`also`: what else the caller takes)."""
    np = numpy()
    if isinstance(rng, np.random.Generator):
        return rng
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{who}: rng is a NumPy Generator{also}, a seed (a non-negative integer) or None, "
                                   f"got {rng!r}") from None


def gymnasium() -> Any:
    return require("gymnasium")


def pettingzoo() -> Any:
    return require("pettingzoo")
