"""Tables of result objects (simulations, leagues, matches, ledgers): text rows for their `str` and
`table()`, HTML for their `_repr_html_`; and `short_repr`, a value as an error message quotes it.

Notebooks show `_repr_html_` instead of the repr; each result object builds its rows once (the
same cells for its text table and its HTML table) and hands them here. Every HTML cell is escaped.
"""

from __future__ import annotations

import unicodedata
from html import escape
from typing import Any, Sequence

__all__ = ["html_table", "text_line", "display_width", "pad_display", "short_repr"]


def display_width(text: str) -> int:
    """Terminal columns `text` takes: two for a wide character (the Chinese fan names), else one."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad_display(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns (`display_width`)."""
    return text + " " * max(0, width - display_width(text))


def text_line(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Cells padded to `widths` (a negative width: left-aligned), for fixed-width text tables."""
    return "".join(f"{c:<{-w}}" if w < 0 else f"{c:>{w}}" for c, w in zip(cells, widths))


def html_table(header: Sequence[str], rows: Sequence[Sequence[Any]], *, caption: str = "",
               notes: Sequence[str] = (), right: Sequence[int] = ()) -> str:
    """A small HTML table: `header` cells, `rows` of cells (any value, shown with str), a `caption`
    above and `notes` (one paragraph each) below; the columns whose index is in `right` are
    right-aligned (numbers)."""
    aligned = set(right)

    def cells(tag: str, values: Sequence[Any]) -> str:
        out = []
        for i, value in enumerate(values):
            style = f' style="text-align:{"right" if i in aligned else "left"}; padding:0 0.6em"'
            out.append(f"<{tag}{style}>{escape(str(value))}</{tag}>")
        return "".join(out)

    parts = ["<div>", "<table>"]
    if caption:
        parts.append(f'<caption style="text-align:left; white-space:nowrap">{escape(str(caption))}</caption>')
    parts.append(f"<thead><tr>{cells('th', header)}</tr></thead>")
    parts.append("<tbody>" + "".join(f"<tr>{cells('td', row)}</tr>" for row in rows) + "</tbody>")
    parts.append("</table>")
    parts.extend(f"<p>{escape(note)}</p>" for note in notes)
    parts.append("</div>")
    return "".join(parts)


def short_repr(value: Any) -> str:
    """`value` as an error message quotes it: its repr, cut to 80 characters; a value nested too deeply
    to print (JSON allows any depth: a log read from a file) by its type."""
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    return text if len(text) <= 80 else text[:77] + "..."
