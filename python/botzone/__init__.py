"""Botzone (botzone.org.cn) Chinese-Standard-Mahjong: the judge's table and a kit for bots.

    from mahjong_core import botzone
    botzone.run(lambda state: state.legal[0])       # a bot: ~10 lines (docs/BOTZONE.md)

- `new_game(walltiles=..., quan=0)` — the judge's table as an engine game (`BotzoneGame`);
- `Table` — the same table round by round as the judge sees it (requests, responses, log);
- `BotzoneState` — a bot's view rebuilt from the requests, with the legal answers as engine actions;
- `run(decide)` — the bot main loop (simple, JSON and keep-running interaction);
- `tiles` (W1..H8 codes), `protocol` (requests, responses, `BotzoneProtocolError`);
- `mahjong-core botzone match ...` — a local judge (`judge` module);
- `ProgramBot(command, keep_running=..., timeout=...)` — a protocol program as a `simulate` / `Match`
  bot on the Botzone table (bot spec `"botzone:COMMAND"`; `program` module).

Imports are lazy so that a bot process starts fast (Botzone runs a new process every turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mahjong_core._lazy import lazy_exports

from .protocol import BotzoneProtocolError, format_response, parse_request
from .tiles import code, codes_to_tiles, tile_index, tiles_to_codes

__all__ = [
    "BotzoneProtocolError", "parse_request", "format_response", "code", "tile_index", "codes_to_tiles",
    "tiles_to_codes", "new_game", "Table", "BotzoneGame", "BotzoneState", "run", "walltiles_from_seed",
    "ProgramBot", "ProgramError",
]

_LAZY = {
    "new_game": ".table", "Table": ".table", "walltiles_from_seed": ".table", "parse_walltiles": ".table",
    "BotzoneGame": ".game", "BotzoneState": ".state", "run": ".run", "parse_response": ".state",
    "ProgramBot": ".program", "ProgramError": ".program",
}


__getattr__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # what type checkers and editors see; at run time each name loads on first use
    from .game import BotzoneGame
    from .program import ProgramBot, ProgramError
    from .run import run
    from .state import BotzoneState
    from .state import parse_response as parse_response  # (public, not in __all__)
    from .table import Table, new_game, walltiles_from_seed
    from .table import parse_walltiles as parse_walltiles  # (public, not in __all__)
