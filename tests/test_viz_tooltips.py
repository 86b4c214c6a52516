"""Tooltips (SVG <title>) lead with English: the operating system draws them, and where it has no
CJK font the page's own font check (viz.glyphs) cannot hide Chinese there, so a tooltip that began
with 报听 read as boxes. Chinese may follow in brackets."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from mahjong_core.viz import table_svg
from viz_support import played

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff]")
_SVG = "{http://www.w3.org/2000/svg}"


def _titles(svg: str) -> list:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{_SVG}title")] + [t.text or "" for t in root.iter("title")]


def test_every_tooltip_of_a_changbai_table_with_a_declaration_begins_in_english():
    # Changbai hands with the greedy bots until one seat's river holds its 报听 discard.
    for seed in range(1, 200):
        svg = table_svg(played("changbai", seed))
        if "declare" in svg:   # the river tile's class
            break
    else:
        raise AssertionError("no Changbai hand with a 报听 discard in 200 seeds")
    titles = _titles(svg)
    assert any("declared ready" in t for t in titles), titles
    for t in titles:
        assert t and not _CJK.match(t.strip()), f"a tooltip begins with Chinese: {t!r}"
