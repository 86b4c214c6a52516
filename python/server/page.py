"""The browser table: one self-contained HTML page (inline CSS, JS and SVG; no network but its own server).

The page (`table.html`, next to this module) speaks the protocol of docs/SERVER.md on `/ws` of the
server that served it, keeps its seat token in localStorage (a reload resumes the seat), shows the
seat's own view only, and offers exactly the legal actions the server lists.

Its tiles are the SVG symbols of `mahjong_core.viz.tiles` (the replay viewer's), put into the page
once where `table.html` says `<!--mjc:tiles-->`: one picture language for the table and the viewer.
Its Chinese labels follow the same font check as the viewer's (`mahjong_core.viz.glyphs`, put in
where the script says `/*mjc:glyph-check*/`).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["page_html", "replay_viewer", "TILES_MARK", "GLYPH_CHECK_MARK"]

#: where table.html takes the tile symbols
TILES_MARK = "<!--mjc:tiles-->"
#: where table.html's script takes the font check it shares with the replay viewer (`viz.glyphs`)
GLYPH_CHECK_MARK = "/*mjc:glyph-check*/"


def _tile_sprite() -> str:
    """A hidden `<svg>` holding every tile symbol (`#mjc-t5m`, ..., `#mjc-tback`); inline SVG in HTML
    needs no xmlns (and the page names no URL: nothing from the network)."""
    from mahjong_core.viz.tiles import BACK, NAMES, defs

    return ('<svg id="mjc-tiles" width="0" height="0" aria-hidden="true" '
            'style="position:absolute;width:0;height:0;overflow:hidden">' + defs([*NAMES, BACK]) + "</svg>")


@lru_cache(maxsize=1)
def page_html() -> str:
    page = resources.files(__package__).joinpath("table.html").read_text(encoding="utf-8")
    from mahjong_core.viz.glyphs import GLYPH_CHECK_JS

    return page.replace(TILES_MARK, _tile_sprite(), 1).replace(GLYPH_CHECK_MARK, GLYPH_CHECK_JS, 1)


def replay_viewer() -> Any:
    """`mahjong_core.viz.replay_html(log) -> str` when the viz module is installed, else None."""
    try:
        module = importlib.import_module("mahjong_core.viz")
    except ImportError:
        return None
    return getattr(module, "replay_html", None)
