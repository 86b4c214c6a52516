"""See the game: SVG hands, scores and tables, a self-contained HTML replay viewer, and plots.

    from mahjong_core import viz
    viz.hand_svg("123m456p789s11sEEE")             # an SVG string (notebooks show a Hand itself)
    viz.table_svg(game, seat=0)                    # what seat 0 sees
    open("game.html", "w").write(viz.replay_html(game.log))

Standard library only (plots need the `[plot]` extra, imported when asked for). Modules: `tiles`
(the tile symbols), `table` (the table rebuilt from events), `svg` (pictures), `view` (`View`),
`replay` (the viewer), `botzone` (Botzone records), `plot`, `cli` (`mahjong-core replay`). Names
are loaded on first use, so that the hooks of the lower layers (`Hand._repr_svg_`, ...) import only
`svg`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mahjong_core._lazy import lazy_exports

__all__ = ["hand_svg", "score_svg", "table_svg", "replay_html", "timeline", "View", "TableState", "TableTracker",
           "from_botzone", "is_botzone_record", "plot_simulation"]

_LAZY = {
    "hand_svg": ".svg", "score_svg": ".svg", "table_svg": ".svg", "replay_html": ".replay", "timeline": ".replay",
    "View": ".view", "TableState": ".table", "TableTracker": ".table", "from_botzone": ".botzone",
    "is_botzone_record": ".botzone", "plot_simulation": ".plot",
}


__getattr__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # what type checkers and editors see; at run time each name loads on first use
    from .botzone import from_botzone, is_botzone_record
    from .plot import plot_simulation
    from .replay import replay_html, timeline
    from .svg import hand_svg, score_svg, table_svg
    from .table import TableState, TableTracker
    from .view import View


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
