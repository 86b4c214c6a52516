"""See the game: SVG hands, scores and tables, a self-contained HTML replay viewer, and plots.

    from mahjong_core import viz
    viz.hand_svg(parse("123m456p789s11sEEE"))      # an SVG string (notebooks show Hand itself)
    viz.table_svg(game, seat=0)                    # what seat 0 sees
    open("game.html", "w").write(viz.replay_html(game.log))

Standard library only (plots need the `[plot]` extra, imported when asked for).
"""

from __future__ import annotations

from .botzone import from_botzone, is_botzone_record
from .replay import replay_html, timeline
from .svg import hand_svg, score_svg, table_svg
from .table import TableState, TableTracker
from .view import View

__all__ = ["hand_svg", "score_svg", "table_svg", "replay_html", "timeline", "View", "TableState", "TableTracker",
           "from_botzone", "is_botzone_record", "plot_simulation"]


def plot_simulation(result, path=None, **kwargs):
    """Per-seat score distribution and win rate with 95% intervals (needs `mahjong_core[plot]`)."""
    from .plot import plot_simulation as plot

    return plot(result, path, **kwargs)
