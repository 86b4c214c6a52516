"""mahjong_core — a fast, exact Chinese mahjong rules engine.

Core analysis (C++ behind Cython): `shanten`, `is_winning`, `waits`, `effective_tiles`,
`discard_options`, `decompositions`, and `mahjong_core.batch` for many hands at once.
Rulesets: `mahjong_core.rules.mcr`, `.sichuan`, `.changbai`. Game engine: `mahjong_core.game`.
"""

try:
    from . import _core  # noqa: F401  (the compiled extension)
except ImportError as _exc:  # a checkout without a build, or a wheel of another Python or machine
    import os as _os

    from ._missing_core import explain as _explain

    raise ImportError(_explain(_os.path.dirname(__file__), _exc)) from _exc

from ._core import (
    best_discards,
    waits_mask,
    decompositions,
    DiscardOption,
    discard_options,
    effective_tiles,
    ensure_init,
    is_winning,
    shanten,
    table_info,
    waits,
)
from .errors import (
    IllegalActionError, InvalidArgumentError, InvalidHandError, InvalidTypeError, MahjongError, ParseError,
    ReplayError, RulesError, StaleActionError, BotError,
)
from .hand import Hand
from .model import Block, BlockKind, Decomposition, MCRContext, Meld, MeldKind
from .notation import format_hand, format_tiles, parse, parse_tiles
from .tiles import Forms, Tile
from . import batch

from ._version import __version__

__all__ = [
    "Tile",
    "Forms",
    "Hand",
    "Meld",
    "MeldKind",
    "Block",
    "BlockKind",
    "Decomposition",
    "DiscardOption",
    "MCRContext",
    "parse",
    "parse_tiles",
    "format_hand",
    "format_tiles",
    "shanten",
    "is_winning",
    "waits",
    "waits_mask",
    "effective_tiles",
    "discard_options",
    "best_discards",
    "decompositions",
    "ensure_init",
    "table_info",
    "batch",
    "MahjongError",
    "ParseError",
    "InvalidHandError",
    "InvalidArgumentError",
    "InvalidTypeError",
    "IllegalActionError",
    "StaleActionError",
    "ReplayError",
    "RulesError",
    "BotError",
    "__version__",
]
