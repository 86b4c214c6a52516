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

from typing import Any

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mahjong_core.botzone' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
