"""Lazy imports of the `[rl]` extra: `import mahjong_core` (and `mahjong_core.env`) never imports them."""

from __future__ import annotations

from typing import Any

from mahjong_core._extras import require as _require
from mahjong_core.errors import InvalidArgumentError

__all__ = ["numpy", "gymnasium", "pettingzoo", "require"]

def require(name: str) -> Any:
    """Import `name` (a module of the [rl] extra) or raise an ImportError naming the install line."""
    return _require(name, "mahjong_core.env", extra="rl")


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
