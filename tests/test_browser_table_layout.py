"""The browser table as a person sees it, in headless Chromium at 1366x768 and 1920x1080: the whole
table fits the window, drawn with the viz package's SVG tiles (honours as drawn tiles, not letters);
the wall count and whose turn it is in the centre; the discard in play highlighted; the log in
words; Sichuan's 缺 badge naming each seat's void; Chinese labels only where a CJK font can draw
them. Checked by element boxes and pixels of screenshots (kept in tmp_path to look at).
"""

from __future__ import annotations

import io
import re

import pytest

pytest.importorskip("websockets", reason='needs the [server] extra: pip install "mahjong_core[server]"')
pytest.importorskip("selenium.webdriver", reason="needs selenium (the [test] extra)")

from browser import (CJK_FONT, assert_not_blank, boxes, shared_driver,  # noqa: E402
                     console_errors, page_fits, screenshot, viewport)
from selenium.webdriver.common.by import By  # noqa: E402
from table_page import play, served, start_against_bots, waiter  # noqa: E402

CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff]")
SUIT_WORDS = {"m": ("characters", "万"), "p": ("dots", "筒"), "s": ("bamboo", "条")}
#: the ink of each honour's drawn face (mahjong_core.viz.tiles)
HONOUR_INK = {"E": (31, 42, 68), "S": (31, 42, 68), "W": (31, 42, 68), "N": (31, 42, 68), "C": (192, 57, 43),
              "F": (30, 132, 73), "P": (46, 92, 138)}
GOLD = (241, 196, 15)


@pytest.fixture(scope="module")
def driver(request):
    return shared_driver(request)


def _image(png: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(pixel, colour, tolerance=60) -> bool:
    return sum((a - b) ** 2 for a, b in zip(pixel, colour)) <= tolerance ** 2


def _pixels(image, box, pad=0.0):
    """The pixels of `box` grown by `pad` (x, y, (r, g, b))."""
    left, top = max(0, int(box["left"] - pad)), max(0, int(box["top"] - pad))
    right, bottom = min(image.width, int(box["right"] + pad)), min(image.height, int(box["bottom"] + pad))
    data = image.crop((left, top, right, bottom)).tobytes()
    w = right - left
    for i in range(0, len(data), 3):
        k = i // 3
        yield left + k % w, top + k // w, (data[i], data[i + 1], data[i + 2])


def _share(image, box, colour, tolerance=60) -> float:
    """The share of the pixels of `box` that are near `colour`."""
    pixels = [p for _, _, p in _pixels(image, box)]
    return sum(_near(p, colour, tolerance) for p in pixels) / max(1, len(pixels))


def _ring(image, box, colour, width=6, tolerance=45) -> float:
    """The share of the pixels in the frame `width` px wide around `box` (outside it) near `colour`."""
    out = [p for x, y, p in _pixels(image, box, width)
           if not (box["left"] - 1 <= x < box["right"] + 1 and box["top"] - 1 <= y < box["bottom"] + 1)]
    return sum(_near(p, colour, tolerance) for p in out) / max(1, len(out))


def _overlap(a, b) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


def _log_lines(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#events li')).map(li => [li.dataset.type, li.textContent,"
        " Array.from(li.querySelectorAll('.tile')).map(t => t.dataset.tile || 'back')])")


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_table_fits_and_reads_as_a_table(driver, tmp_path, size):
    width, height = size
    with served("mcr", seed=4) as server, viewport(driver, width, height):
        table = start_against_bots(driver, server)
        game = table.game
        play(driver, table, until=lambda: table.step >= 40 and bool(driver.find_elements(By.CSS_SELECTOR,
                                                                                         ".hand .tile.legal")))
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        driver.find_element(By.TAG_NAME, "header").click()   # no tile raised by the mouse
        view = game.view(0)
        png = screenshot(driver, tmp_path / f"table-{width}x{height}.png")
        assert_not_blank(png)
        image = _image(png)
        assert image.size == size

        # the page fits the window: nothing to scroll, every part and every tile of the board in view
        fits = page_fits(driver)
        assert fits["scroll_width"] <= width and fits["scroll_height"] <= height, fits
        parts = {f"panel {p}": boxes(driver, f'.seat[data-pos="{p}"] > .panel')[0] for p in range(4)}
        parts.update({f"river {p}": boxes(driver, f'.seat[data-pos="{p}"] > .river')[0] for p in range(4)})
        parts["centre"] = boxes(driver, "#center")[0]
        parts["actions"] = boxes(driver, "#actions")[0]
        parts["log"] = boxes(driver, "#log")[0]
        for name, box in parts.items():
            assert box["width"] > 0 and box["height"] > 0, name
            assert box["left"] >= 0 and box["top"] >= 0 and box["right"] <= width and box["bottom"] <= height, (name, box)
        names = sorted(parts)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert not _overlap(parts[a], parts[b]), (a, b, parts[a], parts[b])
        tiles = boxes(driver, "#board .tile")
        assert len(tiles) >= 4 * 13
        for box in tiles:
            assert box["left"] >= 0 and box["top"] >= 0 and box["right"] <= width and box["bottom"] <= height, box
        # seat 0 is at the bottom, with the biggest tiles
        assert parts["panel 0"]["top"] >= max(parts[f"panel {p}"]["bottom"] for p in (1, 2, 3)) - 1
        mine = boxes(driver, '.seat[data-pos="0"] .hand .tile')
        others = boxes(driver, '.seat[data-pos="2"] .hand .tile')
        river = boxes(driver, ".river .tile")
        assert len(mine) == len(view["hand"])
        assert min(b["width"] for b in mine) >= 1.5 * max(b["height"] for b in others)
        assert min(b["width"] for b in mine) >= 1.5 * max(b["width"] for b in river)

        # every tile is one of the viz symbols, drawn, never text
        assert driver.execute_script(
            "return Array.from(document.querySelectorAll('.tile')).every(t => t.textContent.trim() === '' &&"
            " t.querySelector('use') && document.getElementById(t.querySelector('use').getAttribute('href').slice(1))"
            " && (t.dataset.tile ? t.querySelector('use').getAttribute('href') === '#mjc-t' + t.dataset.tile"
            " : t.querySelector('use').getAttribute('href') === '#mjc-tback'))")
        shown = driver.execute_script(   # [name, rect] of each face-up tile, in one round trip
            "return Array.from(document.querySelectorAll('#board .tile[data-tile]')).map(e => {"
            " const r = e.getBoundingClientRect(); return [e.getAttribute('data-tile'),"
            " {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}]; })")
        honours = {}
        for name, rect in shown:
            if name in HONOUR_INK and name not in honours:
                honours[name] = rect
        assert honours, "no honour on the table to look at"
        for name, rect in honours.items():
            box = {"left": rect["x"], "top": rect["y"], "right": rect["x"] + rect["width"],
                   "bottom": rect["y"] + rect["height"]}
            assert _share(image, box, HONOUR_INK[name]) > 0.03, f"the {name} tile shows no drawn {name} face"

        # the centre: the wall count, whose turn it is, each seat's wind toward it
        assert driver.find_element(By.ID, "wall").text == str(view["wall_remaining"])
        assert driver.find_element(By.ID, "turn").text.endswith("your turn")
        assert view["turn"] == 0
        on = driver.find_elements(By.CSS_SELECTOR, ".compass.on")
        assert [int(e.get_attribute("data-seat")) for e in on] == [view["turn"]]
        winds = [driver.find_element(By.CSS_SELECTOR, f'.compass[data-seat="{s}"] .tile').get_attribute("data-tile")
                 for s in range(4)]
        assert winds == ["ESWN"[(s - view["dealer"]) % 4] for s in range(4)]
        centre = parts["centre"]
        for el in driver.find_elements(By.CSS_SELECTOR, "#center > *"):
            r = el.rect
            assert r["x"] >= centre["left"] - 0.5 and r["x"] + r["width"] <= centre["right"] + 0.5, el.get_attribute("id")

        # the last discard: highlighted in its seat's river (a gold ring in the screenshot)
        last = view["last_discard"]
        assert last is not None
        lit = driver.find_elements(By.CSS_SELECTOR, ".river .tile.last")
        assert len(lit) == 1
        pos = (last["seat"] - 0) % 4
        assert lit[0].get_attribute("data-tile") == last["tile"]
        assert driver.find_elements(By.CSS_SELECTOR, f'.seat[data-pos="{pos}"] .river .tile:last-child.last')
        box = boxes(driver, ".river .tile.last")[0]
        ring = _ring(image, box, GOLD)
        plain = boxes(driver, ".river .tile:not(.last)")[0]
        assert ring > 0.3 and ring > 4 * _ring(image, plain, GOLD), ring

        # the log, in words, with the tiles drawn
        lines = _log_lines(driver)
        assert len(lines) >= 40
        for kind, text, _ in lines:
            assert text.strip() and not re.search(r"[={}]|undefined|null|NaN", text), (kind, text)
            assert text.rstrip().endswith("."), text
        discards = [line for line in lines if line[0] == "discard"]
        assert discards and all(len(t) == 1 and t[0] != "back" for _, _, t in discards)
        assert any(text.startswith("You discard") for _, text, _ in discards)
        others_draws = [text for kind, text, _ in lines if kind == "draw" and not text.startswith("You")]
        assert others_draws and all(text.endswith("draws a tile.") for text in others_draws)
        assert console_errors(driver) == []


def test_every_void_badge_names_the_engines_void(driver, tmp_path):
    """Sichuan (serve's default): after 定缺 each seat's badge names its suit — never 'undefined' — and,
    without a CJK font, in words the machine's fonts can draw."""
    with served("sichuan", seed=4) as server, viewport(driver, 1366, 768):
        table = start_against_bots(driver, server)
        game = table.game
        assert driver.execute_script("return window.mjcTable.cjk") is CJK_FONT
        # the font check tells drawn glyphs from missing ones: Latin is drawn, an unassigned code point is not
        assert driver.execute_script("return window.mjcTable.drawsGlyphs('Pung')") is True
        assert driver.execute_script("return window.mjcTable.drawsGlyphs('\\u{10FFFE}')") is False
        assert driver.execute_script("return window.mjcTable.drawsGlyphs('缺碰杠')") is CJK_FONT
        buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.action")
        assert sorted(b.get_attribute("data-name") for b in buttons) == ["Void(m)", "Void(p)", "Void(s)"]
        for b in buttons:
            suit = b.get_attribute("data-name")[5]
            assert SUIT_WORDS[suit][0] in b.text
            assert bool(CJK.search(b.text)) is CJK_FONT, b.text
        play(driver, table, until=lambda: game.view(0)["void"] is not None and None not in game.view(0)["void"]
             and len(game.view(0)["rivers"][0]) >= 2)
        view = game.view(0)
        for s in range(4):
            badge = driver.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{s}"] .badge.void')
            assert len(badge) == 1, s
            suit = "mps"[game.void[s]]
            assert badge[0].get_attribute("data-void") == suit == view["void"][s]
            assert badge[0].text == ("缺 " + SUIT_WORDS[suit][1] if CJK_FONT else "void: " + SUIT_WORDS[suit][0])
        text = driver.find_element(By.TAG_NAME, "body").text
        assert "undefined" not in text
        if not CJK_FONT:   # nothing would be drawn as an empty box
            assert not CJK.findall(text), CJK.findall(text)
        screenshot(driver, tmp_path / "sichuan.png")
        assert console_errors(driver) == []


@pytest.mark.parametrize("labels", ["zh", "en"])
def test_labels_can_be_chosen(driver, labels):
    """`?labels=zh` / `?labels=en` override the font check: Chinese beside the English, or English only."""
    with served("sichuan", seed=4) as server, viewport(driver, 1366, 768):
        driver.get("about:blank")
        driver.get_log("browser")
        driver.get(server.url + "?labels=" + labels)
        driver.find_element(By.ID, "play-bots").click()
        waiter(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#actions button.action"))
        assert driver.execute_script("return document.documentElement.dataset.labels") == labels
        texts = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#actions button.action")]
        assert all(("定缺" in t) is (labels == "zh") for t in texts), texts
        assert all(any(w in t for w in ("characters", "dots", "bamboo")) for t in texts), texts
        assert console_errors(driver) == []
