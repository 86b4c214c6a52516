"""Chinese text only where a font can draw it: the check the browser table and the replay viewer share.

Without a CJK font a browser draws 番, 定缺, 碰 as empty boxes. A page cannot ask which fonts exist,
so it draws: a character whose pixels equal those of an unassigned code point (U+10FFFD, always the
"missing glyph") has no glyph in any font the page can use. `GLYPH_CHECK_JS` defines, in the
page's script scope,

- `mjcDrawsGlyphs(text)`: every character of `text` is drawn with a glyph of its own;
- `mjcLabels(needed)`: "zh" or "en" — the page's `?labels=zh|en` when given, else "zh" exactly
  when the fonts draw every character of `needed`.

A page sets `<html data-labels="...">` from it and shows Chinese beside its English words only in
"zh" (the browser table: `server/table.html`; the replay viewer: `replay.py`, whose `.zh` spans
`ZH_CSS` hides in "en").

An SVG picture cannot check, so the same two words are asked of its caller (`score_svg(...,
labels="en")`, checked by `check_labels`), with the English of `EN_WORDS` in Chinese words' place.
"""

from __future__ import annotations

import re
from typing import Iterable

__all__ = ["GLYPH_CHECK_JS", "ZH_CSS", "LABELS", "EN_WORDS", "check_labels", "cjk_characters", "in_english", "zh_span",
           "zh_or_en"]

GLYPH_CHECK_JS = r"""
function mjcDrawsGlyphs(text) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 40;
  const g = canvas.getContext("2d");
  const ink = (ch) => { g.clearRect(0, 0, 40, 40); g.font = "30px sans-serif"; g.fillText(ch, 2, 32);
    return g.getImageData(0, 0, 40, 40).data.join(","); };
  const missing = ink("\u{10FFFD}");
  return Array.from(text).every((ch) => ink(ch) !== missing);
}
function mjcLabels(needed) {
  const asked = new URLSearchParams(location.search).get("labels");
  if (asked === "zh" || asked === "en") return asked;
  return mjcDrawsGlyphs(needed) ? "zh" : "en";
}
"""

#: hides the Chinese (`zh_span`) where the page chose English only, and the English stand-ins of
#: `zh_or_en` where it did not
ZH_CSS = 'html[data-labels="en"] .zh{display:none}html:not([data-labels="en"]) .en-alt{display:none}'

#: what `labels=` of the pictures may say, as `?labels=` of the pages: "zh" shows the Chinese names
#: (beside their English ones), "en" the English alone
LABELS = ("zh", "en")

#: the Chinese words of value lines ("3 番") and the English that stands in for them
EN_WORDS = {"番": "fan"}


def check_labels(labels: str, where: str) -> str:
    """`labels` when it is one of `LABELS`, else an InvalidArgumentError naming `where` it was given."""
    if labels not in LABELS:
        from mahjong_core.errors import InvalidArgumentError

        raise InvalidArgumentError(f"{where}: labels is 'zh' (Chinese names beside English) or 'en' (English "
                                   f"only), got {labels!r}")
    return labels


def in_english(text: str) -> str:
    """`text` with the words of `EN_WORDS` in English."""
    for zh, en in EN_WORDS.items():
        text = text.replace(zh, en)
    return text


_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def cjk_characters(texts: Iterable[str]) -> str:
    """The distinct CJK characters of `texts`, sorted (what a page must be able to draw)."""
    return "".join(sorted({ch for text in texts for ch in _CJK.findall(text)}))


def zh_span(text: str) -> str:
    """Chinese HTML (already escaped) that is shown only where the fonts draw it."""
    return f'<span class="zh" lang="zh">{text}</span>'


def zh_or_en(zh: str, en: str) -> str:
    """Chinese HTML where the fonts draw it, else the English `en` in its place (both escaped)."""
    return f'{zh_span(zh)}<span class="en-alt">{en}</span>'
