"""The browser table: one self-contained HTML page (inline CSS and JS, no network but its own server).

The page (`table.html`, next to this module) speaks the protocol of docs/SERVER.md on `/ws` of the
server that served it, keeps its seat token in localStorage (a reload resumes the seat), shows the
seat's own view only, and offers exactly the legal actions the server lists.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["page_html", "replay_viewer"]


@lru_cache(maxsize=1)
def page_html() -> str:
    return resources.files(__package__).joinpath("table.html").read_text(encoding="utf-8")


def replay_viewer() -> Any:
    """`mahjong_core.viz.replay_html(log) -> str` when the viz module is installed, else None."""
    try:
        module = importlib.import_module("mahjong_core.viz")
    except ImportError:
        return None
    return getattr(module, "replay_html", None)
