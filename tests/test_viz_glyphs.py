"""The replay viewer shows Chinese only where a font draws it, as the browser table does: both
pages run one font check (`mahjong_core.viz.glyphs`, drawing on a canvas); without a CJK font the
fan names, 番 and the captions' Chinese give way to English, and `?labels=zh|en` decides instead."""

from __future__ import annotations

import re

import pytest

from mahjong_core.viz import replay_html
from mahjong_core.viz.glyphs import GLYPH_CHECK_JS, cjk_characters
from viz_support import with_win

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def test_the_page_knows_which_characters_it_must_draw():
    log = with_win("sichuan").log
    html = replay_html(log)
    assert GLYPH_CHECK_JS in html
    names = [zh for e in log["events"] if e["type"] == "win" for zh, _ in e["score"]["items"]]
    needed = cjk_characters(names + ["番"])
    assert needed and all(ch in html.split('"cjk":"')[1].split('"')[0] for ch in needed)
    assert cjk_characters(["平胡 1 番", "abc", "平"]) == "平番胡"


def test_the_browser_table_runs_the_same_check():
    pytest.importorskip("websockets")
    from mahjong_core.server.page import GLYPH_CHECK_MARK, page_html

    page = page_html()
    assert GLYPH_CHECK_JS in page and GLYPH_CHECK_MARK not in page


# --- in Chromium ----------------------------------------------------------------------------

_VISIBLE = "return document.getElementById(arguments[0]).innerText"


@pytest.fixture(scope="module")
def driver(request):
    from browser import shared_driver

    return shared_driver(request)


def _open(driver, tmp_path, log, query=""):
    from browser import open_page

    path = tmp_path / "replay.html"
    path.write_text(replay_html(log), encoding="utf-8")
    assert open_page(driver, path.as_uri() + query) == []
    driver.execute_script("window.mjcReplay.go(window.mjcReplay.frames - 1)")  # every win on show


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr", "changbai"])
def test_without_a_cjk_font_the_viewer_speaks_english(driver, tmp_path, ruleset):
    from browser import CJK_FONT

    log = with_win(ruleset).log
    _open(driver, tmp_path, log)
    labels = driver.execute_script("return document.documentElement.dataset.labels")
    assert labels == ("zh" if CJK_FONT else "en")
    assert driver.execute_script("return mjcDrawsGlyphs('番定缺')") is CJK_FONT
    wins = driver.execute_script(_VISIBLE, "wins")
    events = driver.execute_script(_VISIBLE, "event-list")
    if not CJK_FONT:  # nothing drawn as an empty box
        assert not CJK.findall(wins + events), CJK.findall(wins + events)
    english = driver.execute_script(
        "return [...document.querySelectorAll('#wins tr.fan td.en')].map(td => td.innerText)")
    assert english and all(name.strip() and not CJK.search(name) for name in english), english
    if ruleset == "sichuan" and not CJK_FONT:
        assert " fan" in wins


@pytest.mark.parametrize("labels", ["zh", "en"])
def test_labels_can_be_chosen(driver, tmp_path, labels):
    log = with_win("sichuan").log
    _open(driver, tmp_path, log, "?labels=" + labels)
    assert driver.execute_script("return document.documentElement.dataset.labels") == labels
    wins = driver.execute_script(_VISIBLE, "wins")
    first = next(e for e in log["events"] if e["type"] == "win")["score"]["items"][0][0]
    assert (first in wins) is (labels == "zh")
    assert ("番" in wins) is (labels == "zh") and (" fan" in wins) is (labels == "en")
