"""What the environments' `render()` returns: the table as text ("ansi") or as a picture ("rgb_array").

Both draw the whole table (every hand: `render()` is for the person watching, never part of an
observation) from the same `TableState` the viz package's SVG is drawn from, so text and picture
agree.

    print(table_text(game))      # Sichuan · hand 0 · wall 55 · to act: seat 0 (East) ...
    pixels = table_rgb(game)     # (800, 800, 3) uint8

`table_text`: one block per seat — hand in notation and as Unicode glyphs, melds, river in discard
order (a claimed tile shows who took it: "5p→2"; the 报听 discard is marked "!"), flowers, won tiles,
void suit (定缺), 飘, ready (报听) and the ledger total (every payment so far, kong payments
included) — under a header with the ruleset, the hand number, the live wall and whose answer the
engine waits for (">" marks those seats).

`table_rgb`: the viz package's `table_svg` rasterised to an `(H, W, 3)` uint8 array. It needs
CairoSVG (which needs the Cairo library) and Pillow: `pip install cairosvg pillow`; without them it
raises ImportError naming that line.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any, List, Optional, Tuple

from mahjong_core._extras import require

from mahjong_core.notation import format_tiles
from mahjong_core.tiles import FLOWER_GLYPHS, Tile

__all__ = ["render_table", "table_text", "table_rgb", "RASTER_HINT", "RENDER_MODES", "available_render_modes"]

#: the environments' render modes (`render_mode=`); `available_render_modes()`: those this
#: installation can draw, which the environments' `metadata["render_modes"]` lists
RENDER_MODES = ("ansi", "rgb_array")
RASTER_HINT = "pip install cairosvg pillow"


def available_render_modes() -> Tuple[str, ...]:
    """"ansi" always; "rgb_array" when CairoSVG and Pillow are installed (looked up, not imported).
    An environment lists these in `metadata["render_modes"]`: Gymnasium's `check_env` draws every
    mode listed, so one that needs a missing rasteriser would fail an `[rl]`-only install's check."""
    return tuple(mode for mode in RENDER_MODES if mode != "rgb_array" or (_installed("cairosvg") and _installed("PIL")))


def _installed(name: str) -> bool:
    if name in sys.modules:
        return sys.modules[name] is not None  # (None: its import is blocked)
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False

WINDS = ("East", "South", "West", "North")
BACK_GLYPH = "\U0001F02B"
_RULESETS = {"sichuan": "Sichuan", "mcr": "MCR", "changbai": "Changbai"}


def _state(game: Any) -> Any:
    from mahjong_core.viz.svg import table_state

    return table_state(game)


def _name(tile: Optional[int]) -> str:
    if tile is None or tile < 0:
        return "?"
    return str(Tile(tile)) if tile < 34 else "abcdefgh"[tile - 34]


def _glyph(tile: Optional[int]) -> str:
    if tile is None or tile < 0:
        return BACK_GLYPH
    return Tile(tile).glyph if tile < 34 else FLOWER_GLYPHS[tile - 34]


def _tiles(tiles: List[Any]) -> str:
    """Notation of concealed tiles (sorted, grouped by suit); face-down ones as "?"."""
    known = [t for t in tiles if t is not None and 0 <= t < 34]
    return format_tiles(known) + "?" * (len(tiles) - len(known))


def _meld(meld: Any) -> str:
    body = "".join(_name(t) if t is None or t >= 27 else str(t % 9 + 1) for t in meld.tiles)
    suit = next((t for t in meld.tiles if t is not None), None)
    if suit is not None and suit < 27:
        body += "mps"[suit // 9]
    mark = " concealed" if meld.kind == "concealed_kong" else ""
    source = f"←{meld.source}" if meld.source is not None else ""
    return f"[{body}{source}{mark}]"


def _river(river: List[Any]) -> str:
    out = []
    for r in river:
        text = _name(r.tile)
        if r.taken_by is not None:
            text += f"→{r.taken_by}"
        if r.declare:
            text += "!"
        out.append(text)
    return " ".join(out) if out else "-"


def _waiting(game: Any) -> List[int]:
    pending = getattr(game, "pending", None)
    return sorted(pending()) if callable(pending) else []


def table_text(game: Any) -> str:
    """The whole table of `game` as text (see the module docstring)."""
    state = _state(game)
    waiting = _waiting(game)
    ledger = getattr(game, "ledger", None)
    totals = ledger.totals() if ledger is not None else [seat.total for seat in state.seats]
    head = [_RULESETS.get(state.ruleset, state.ruleset)]
    if state.hand_no is not None:
        head.append(f"hand {state.hand_no}")
    if state.prevalent_wind is not None:
        head.append(f"prevalent wind {WINDS[state.prevalent_wind]}")
    if state.wall is not None:
        head.append(f"wall {state.wall}")
    if state.finished or getattr(game, "finished", False):
        head.append("hand over")
    elif waiting:
        head.append("to act: " + ", ".join(f"seat {s} ({WINDS[(s - state.dealer) % 4]})" for s in waiting))
    lines = [" · ".join(head)]
    for s, seat in enumerate(state.seats):
        tags = []
        if s == state.dealer:
            tags.append("dealer")
        if seat.void is not None:
            tags.append(f"void {seat.void}")
        if seat.piao is not None:
            tags.append(f"piao {seat.piao}")
        if seat.declared:
            tags.append("ready")
        if seat.won:
            tags.append("won")
        hand = _tiles(seat.hand)
        glyphs = "".join(_glyph(t) for t in seat.hand)
        if seat.drawn is not None:
            hand += f" +{_name(seat.drawn)}"
            glyphs += " " + _glyph(seat.drawn)
        marker = ">" if s in waiting else " "
        wind = WINDS[(s - state.dealer) % 4]
        lines.append(f"{marker} seat {s} {wind}" + (f" ({', '.join(tags)})" if tags else "")
                     + f"  total {totals[s]:+d}")
        lines.append(f"    hand   {hand or '-'}   {glyphs}")
        if seat.melds:
            lines.append("    melds  " + " ".join(_meld(m) for m in seat.melds))
        lines.append(f"    river  {_river(seat.river)}")
        if seat.flowers:
            lines.append("    flowers " + " ".join(_glyph(t) for t in seat.flowers))
        if seat.won_tiles:
            lines.append("    won on " + " ".join(_name(t) for t in seat.won_tiles))
    return "\n".join(lines)


def table_rgb(game: Any) -> Any:
    """The whole table of `game` as an `(H, W, 3)` uint8 NumPy array (see the module docstring)."""
    # optional and untyped: imported by name, only here
    feature, also = 'render_mode="rgb_array" (it rasterises the table SVG)', 'or use render_mode="ansi" for text'
    cairosvg = require("cairosvg", feature, install=RASTER_HINT, library="CairoSVG and Pillow", otherwise=also)
    image_module = require("PIL.Image", feature, install=RASTER_HINT, library="CairoSVG and Pillow", otherwise=also)
    import io

    from mahjong_core.viz.svg import table_svg

    from ._deps import numpy

    png = cairosvg.svg2png(bytestring=table_svg(_state(game)).encode("utf-8"))
    with image_module.open(io.BytesIO(png)) as image:
        return numpy().asarray(image.convert("RGB"), dtype=numpy().uint8)


def render_table(game: Any, mode: Optional[str]) -> Any:
    """What an environment's `render()` returns for `mode`: "ansi" text, an "rgb_array" picture, or
    None without a mode or before the first `reset()` (no game yet)."""
    if mode is None or game is None:
        return None
    return table_text(game) if mode == "ansi" else table_rgb(game)
