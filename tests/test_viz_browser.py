"""The replay viewer in a real browser (headless Chromium): no console errors, the DOM at every
step against the engine, the controls, screenshots. Skips only when chromium is not installed."""

from __future__ import annotations

import pytest
from browser import (assert_not_blank, boxes, shared_driver, console_errors, open_page, page_fits,
                     screenshot, viewport)
from mahjong_core.viz import hand_svg, replay_html, table_svg, timeline
from viz_support import botzone_record, checkpoints, played, with_win

#: the tiles each seat shows at every step, in one round trip. The page is hidden while it steps: the counts
#: are of the DOM, and a laid-out page cost ~12 ms a step (the layout is tested by the screen tests below)
_COUNTS = """
const out = [];
document.body.style.display = 'none';
for (let i = 0; i < window.mjcReplay.frames; i++) {
  window.mjcReplay.go(i);
  const row = [];
  for (let s = 0; s < 4; s++) {
    const hand = document.querySelector('#parts .hand[data-seat="' + s + '"]');
    const river = '#parts .river[data-seat="' + s + '"] .tile';
    row.push([hand.querySelectorAll('.concealed .tile').length, hand.querySelectorAll('.melds .tile').length,
              document.querySelectorAll(river + ':not(.taken)').length, document.querySelectorAll(river).length]);
  }
  out.push(row);
}
document.body.style.display = '';
return out;
"""


@pytest.fixture(scope="module")
def driver(request):
    return shared_driver(request)


def _page(driver, tmp_path, log, name="replay.html", seat=None):
    path = tmp_path / name
    path.write_text(replay_html(log, seat), encoding="utf-8")
    errors = open_page(driver, path)
    assert errors == []
    return path


def _index(driver) -> int:
    return driver.execute_script("return window.mjcReplay.index()")


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("mcr", {"flowers": True}), ("changbai", None)])
def test_every_step_shows_the_engine_table(driver, tmp_path, ruleset, rules):
    game = with_win(ruleset, rules)
    log = game.log
    _page(driver, tmp_path, log)
    assert len(driver.find_elements("css selector", "#parts .hand")) == 4
    assert len(driver.find_elements("css selector", "#parts .river")) == 4
    assert len(driver.find_elements("css selector", "#parts .label")) == 4
    counts = driver.execute_script(_COUNTS)
    tl = timeline(log)
    assert len(counts) == len(log["events"]) == len(tl.frames)
    assert counts == [f["counts"] for f in tl.frames]
    compared = 0
    for n_events, engine in checkpoints(log):
        if n_events == 0:
            continue
        for s in range(4):
            hand, meld_tiles, river, _ = counts[n_events - 1][s]
            assert hand == engine["hands"][s], (n_events, s)
            assert meld_tiles == sum(len(m) for m in engine["melds"][s])
            assert river == len(engine["rivers"][s])
        compared += 1
    assert compared > 20
    assert console_errors(driver) == []


def test_controls_keys_slider_and_the_fan_table(driver, tmp_path):
    from selenium.webdriver.common.keys import Keys

    game = with_win("mcr")
    log = game.log
    _page(driver, tmp_path, log)
    body = driver.find_element("tag name", "body")
    n = driver.execute_script("return window.mjcReplay.frames")
    assert _index(driver) == 0
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert _index(driver) == 2
    body.send_keys(Keys.ARROW_LEFT)
    assert _index(driver) == 1
    body.send_keys(Keys.END)
    assert _index(driver) == n - 1
    body.send_keys(Keys.HOME)
    assert _index(driver) == 0
    assert driver.find_element("id", "step").text == f"1 / {n}"
    assert "No win yet" in driver.find_element("id", "wins").text
    body.send_keys("w")
    win_at = next(i for i, e in enumerate(log["events"]) if e["type"] == "win")
    assert _index(driver) == win_at
    rows = driver.find_elements("css selector", "#wins .win.latest table.fans tr.fan")
    assert len(rows) == len(log["events"][win_at]["score"]["fans"])
    first_name = rows[0].find_element("css selector", "td.zh").get_attribute("textContent")  # shown only with a CJK font
    assert first_name == log["events"][win_at]["score"]["fans"][0][0]
    assert driver.find_elements("css selector", "#wins .win.latest .win-hand use.tile")
    transfers = driver.find_elements("css selector", "#ledger-rows tr.transfer")
    assert len(transfers) == len(game.ledger)
    totals = driver.find_element("id", "ledger-totals").text
    assert all(f"seat {s} {v:+d}".replace("+0", "0") in totals for s, v in enumerate(game.ledger.totals()))
    driver.execute_script("const s = document.getElementById('slider'); s.value = '5';"
                          "s.dispatchEvent(new Event('input'));")
    assert _index(driver) == 5
    driver.find_element("id", "next").click()
    assert _index(driver) == 6
    driver.find_element("id", "prev").click()
    driver.find_element("id", "prev").click()
    assert _index(driver) == 4
    driver.find_elements("css selector", "#event-list li")[9].click()
    assert _index(driver) == 9
    assert driver.find_element("css selector", "#event-list li.current").text == \
        driver.find_element("id", "caption").text
    driver.find_element("id", "last").click()
    assert "Hand over" in driver.find_element("id", "caption").text
    assert console_errors(driver) == []


def test_screenshots_are_not_blank(driver, tmp_path):
    game = with_win("sichuan")
    path = _page(driver, tmp_path, game.log)
    n = driver.execute_script("return window.mjcReplay.frames")
    for step in (0, n // 2, n - 1):
        driver.execute_script(f"window.mjcReplay.go({step})")
        assert_not_blank(screenshot(driver, tmp_path / f"step{step}.png"))
    for name, svg in (("hand.svg", hand_svg("[123m,1]456p789s11sEEE")), ("table.svg", table_svg(game))):
        (tmp_path / name).write_text(svg, encoding="utf-8")
        assert open_page(driver, tmp_path / name) == []
        assert_not_blank(driver.find_element("css selector", "svg").screenshot_as_png)
    assert path.exists()


def test_a_seat_sees_only_its_own_hand(driver, tmp_path):
    game = with_win("changbai")
    _page(driver, tmp_path, game.log, seat=2)
    first_win = next(i for i, e in enumerate(game.log["events"]) if e["type"] == "win")
    for step in (3, first_win // 2, first_win - 1):
        driver.execute_script(f"window.mjcReplay.go({step})")
        faces = driver.execute_script(
            "return [0,1,2,3].map(s => Array.from(document.querySelectorAll("
            "'#parts .hand[data-seat=\"' + s + '\"] .concealed .tile')).map(u => u.dataset.tile))")
        for s in range(4):
            if s == 2:
                assert "back" not in faces[s]
            else:
                assert set(faces[s]) <= {"back"}, (step, s)
    assert "showing what seat 2 saw" in driver.find_element("tag name", "header").text


def test_a_botzone_record_opens(driver, tmp_path):
    for seed in range(1, 40):
        game = played("mcr", seed)
        if game.winners and not any(e["type"] == "flower" for e in game.log["events"]):
            break
    _page(driver, tmp_path, botzone_record(game), "botzone.html")
    driver.execute_script("window.mjcReplay.nextWin()")
    assert driver.find_elements("css selector", "#wins .win.latest tr.fan")
    driver.execute_script("window.mjcReplay.go(window.mjcReplay.frames - 1)")
    text = driver.find_element("id", "ledger-totals").text
    assert all(f"seat {s} {v:+d}".replace("+0", "0") in text for s, v in enumerate(game.ledger.totals()))
    assert console_errors(driver) == []


def test_a_botzone_table_record_opens(driver, tmp_path):
    import json
    from pathlib import Path

    path = Path(__file__).parent / "data" / "botzone" / "hu-robbed-1200.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _page(driver, tmp_path, record, "robbed.html")
    driver.execute_script("window.mjcReplay.nextWin()")
    fans = record["log"][-1]["output"]["display"]["fan"]
    assert len(driver.find_elements("css selector", "#wins .win.latest tr.fan")) == len(fans)
    assert "robbed" in driver.find_elements("css selector", "#event-list li")[_index(driver) - 1].text
    counts = driver.execute_script(_COUNTS)
    expected = record["expected"]
    assert [row[0] for row in counts[-1]] == [sum(h) for h in expected["hands"]]
    assert [row[2] for row in counts[-1]] == [len(r) for r in expected["rivers"]]
    assert console_errors(driver) == []


def _inside(box, fits, what):
    assert box["width"] > 0 and box["height"] > 0, what
    assert box["left"] >= 0 and box["top"] >= 0, (what, box)
    assert box["right"] <= fits["width"] + 0.5 and box["bottom"] <= fits["height"] + 0.5, (what, box, fits)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_viewer_fits_the_screen_without_scrolling(driver, tmp_path, size):
    """With --seat 0 the file is about seat 0's hand, drawn at the bottom: it must be in view, and so
    must the controls, the caption and the event list, without scrolling the page."""
    game = with_win("sichuan")
    _page(driver, tmp_path, game.log, seat=0)
    n = driver.execute_script("return window.mjcReplay.frames")
    with viewport(driver, *size):
        for step in (0, n // 2, n - 1):
            driver.execute_script(f"window.mjcReplay.go({step})")
            fits = page_fits(driver)
            assert (fits["width"], fits["height"]) == size
            assert fits["scroll_width"] <= size[0] and fits["scroll_height"] <= size[1], (step, fits)
            hands = {s: boxes(driver, f'#parts .hand[data-seat="{s}"] use.tile') for s in range(4)}
            assert hands[0], step
            for s, tiles in hands.items():
                for box in tiles:
                    _inside(box, fits, f"step {step}: a tile of seat {s}'s hand")
            bottom = max(b["bottom"] for b in hands[0])
            assert all(bottom >= max(b["bottom"] for b in hands[s]) for s in (1, 2, 3))  # seat 0 at the bottom
            for selector in ("#table", "#controls", "#caption", "#event-list", "#ledger"):
                _inside(boxes(driver, selector)[0], fits, selector)
            assert boxes(driver, "#table")[0]["height"] >= 0.85 * (size[1] - 40)  # the board uses the height
    assert console_errors(driver) == []


def test_step_numbers_agree_between_the_address_and_the_counter(driver, tmp_path):
    game = with_win("mcr")
    path = _page(driver, tmp_path, game.log)
    n = driver.execute_script("return window.mjcReplay.frames")
    driver.get(path.resolve().as_uri() + "#step=40")   # same document: the viewer hears a hashchange
    _wait_for_counter(driver, f"40 / {n}")
    assert _index(driver) == 39
    current = driver.find_element("css selector", "#event-list li.current")
    assert driver.execute_script("return Array.from(arguments[0].parentNode.children).indexOf(arguments[0]) + 1",
                                 current) == 40   # the event list's number 40
    driver.find_element("id", "next").click()
    assert driver.find_element("id", "step").text == f"41 / {n}"
    _wait_for_address(driver, "#step=41")   # the address follows (written within 120 ms)
    driver.execute_script("location.hash = '#step=7'")
    _wait_for_counter(driver, f"7 / {n}")
    driver.get(path.resolve().as_uri() + f"#step={n + 50}")   # beyond the end: the last step
    _wait_for_counter(driver, f"{n} / {n}")
    assert console_errors(driver) == []


def test_an_address_set_while_the_viewer_writes_its_own_wins(driver, tmp_path):
    """The viewer writes the address (#step=N) up to 120 ms after a step; an address set in that
    window used to be overwritten before the viewer read it (the step stayed where it was: "1 /
    153" once in CI). Here the race is forced: the hash becomes #step=40, then the viewer's own
    write of #step=1 lands before the hashchange is handled."""
    _page(driver, tmp_path, with_win("mcr").log)
    n = driver.execute_script("return window.mjcReplay.frames")
    driver.execute_script("location.hash = '#step=40'; history.replaceState(null, '', '#step=1');")
    _wait_for_counter(driver, f"40 / {n}")
    _wait_for_address(driver, "#step=40")   # and the address follows the step again
    assert console_errors(driver) == []


def _wait_for_counter(driver, expected: str) -> None:
    """Wait until the step counter reads `expected`: a new address of the same page reaches the
    viewer through `hashchange`, which the browser fires after the navigation call returns (reading
    the counter at once raced with it: once in CI it still read "1 / 153")."""
    from table_page import waiter

    waiter(driver, 10).until(
        lambda d: d.find_element("id", "step").text == expected,
        f"the step counter never read {expected} (it read {driver.find_element('id', 'step').text} when the wait began)")


def _wait_for_address(driver, expected: str) -> None:
    from table_page import waiter

    waiter(driver, 10).until(
        lambda d: d.execute_script("return location.hash") == expected,
        f"the address never became {expected} (it is {driver.execute_script('return location.hash')})")


def test_the_address_keeps_up_with_hundreds_of_quick_steps(driver, tmp_path):
    """Dragging the slider or holding an arrow key steps hundreds of times; Chromium drops history
    updates beyond ~200 in 10 s, which left the address behind for good. It must end on the step shown."""
    _page(driver, tmp_path, with_win("mcr").log)
    n = driver.execute_script("return window.mjcReplay.frames")
    # 2n + 60 steps in quick succession (more than Chromium's ~200 history updates per 10 s)
    last = driver.execute_script(
        "const r = window.mjcReplay, n = r.frames;"
        "for (let k = 0; k < n; k++) r.go(k); for (let k = n - 1; k >= 0; k--) r.go(k);"
        "for (let k = 0; k < 60; k++) r.go(k); r.go(Math.floor(n / 3)); return r.index();")
    assert driver.find_element("id", "step").text == f"{last + 1} / {n}"
    _wait_for_address(driver, f"#step={last + 1}")
    driver.execute_script("window.mjcReplay.go(5)")
    _wait_for_address(driver, "#step=6")
    assert not [e for e in console_errors(driver) if "Throttling" in e]


def test_a_botzone_record_ends_with_its_final_scores(driver, tmp_path):
    import json
    from pathlib import Path

    path = Path(__file__).parent / "data" / "botzone" / "hu-robbed-1200.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _page(driver, tmp_path, record, "final.html")
    driver.execute_script("window.mjcReplay.go(window.mjcReplay.frames - 1)")
    ledger = driver.find_element("id", "ledger").text
    assert "No payment" not in ledger
    assert "Final scores of the Botzone judge" in ledger
    content = record["log"][-1]["output"]["content"]
    totals = driver.find_element("id", "ledger-totals").text
    for s in range(4):
        v = int(content[str(s)])
        assert f"seat {s} {v:+d}".replace("+0", "0") in totals
    driver.execute_script("window.mjcReplay.go(3)")
    assert "No payment yet" in driver.find_element("id", "ledger").text   # before the end: nothing settled


def test_the_viewer_centre_says_whose_turn_it_is(driver, tmp_path):
    """As the browser table does: the seat to play, by wind, with an arrow toward it (seat 0 at the bottom)."""
    game = with_win("mcr")
    _page(driver, tmp_path, game.log)
    tl = timeline(game.log)
    from mahjong_core.viz.table import TableTracker

    tracker = TableTracker(tl.log)
    # every step's turn texts in one round trip (the text as drawn: '' unless it has a box on the page)
    turns = driver.execute_script(
        "const out = []; for (let i = 0; i < arguments[0]; i++) { window.mjcReplay.go(i);"
        " out.push(Array.from(document.querySelectorAll('#parts .centre text.turn')).map(e =>"
        " e.getClientRects().length ? e.textContent.trim().replace(/\\s+/g, ' ') : '')); } return out;",
        min(40, len(tl.log["events"])))
    checked = 0
    for i, event in enumerate(tl.log["events"][:40]):
        tracker.apply(event)
        state = tracker.state()
        shown = turns[i]
        if state.turn is None or state.finished:
            assert not shown
            continue
        wind = ("East", "South", "West", "North")[(state.turn - state.dealer) % 4]
        assert shown[0] == f"{'↓→↑←'[state.turn % 4]} {wind} to play"
        checked += 1
    assert checked > 20
