"""The browser table in a real headless Chromium (Selenium + chromium-driver): no console errors, the
DOM shows four seats with the right tile counts, a reload resumes the seat, and a whole hand is played
by clicking until the result and the log link show.

Needs Debian's `chromium` and `chromium-driver` (installed by .ci/run) and the `[server]` extra."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from browser import chromium_paths, shared_driver, viewport

pytest.importorskip("websockets", reason='needs the [server] extra: pip install "mahjong_core[server]"')
pytest.importorskip("selenium.webdriver", reason="needs selenium (the [test] extra)")
if chromium_paths() is None:
    pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from table_page import WAIT, ServerThread, click_first, my_move, waiter  # noqa: E402

SUIT_WORDS = {"m": ("万", "characters"), "p": ("筒", "dots"), "s": ("条", "bamboo")}


@pytest.fixture(params=["sichuan"])
def server(request):
    thread = ServerThread(request.param, bots=3, time_limit=None, bot_delay=0.0, seed=4)
    thread.start()
    assert thread.ready.wait(WAIT)
    yield thread.server
    thread.close()


@pytest.fixture
def browser(request):
    """The session's shared Chromium, its viewport 1000 x 760 for the test."""
    driver = shared_driver(request)
    with viewport(driver, 1000, 760):
        yield driver
    driver.get("about:blank")   # the page stops reconnecting to the test's closed server


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


#: what check_dom reads of the page, in one round trip (element by element it was ~60 WebDriver calls)
_SEATS = """
const text = e => e.innerText;
return {
  seats: Array.from(document.querySelectorAll('.seat[data-seat]')).map(box => ({
    seat: box.getAttribute('data-seat'),
    hand: Array.from(box.querySelectorAll('.hand .tile:not(.last)')).map(t => t.getAttribute('data-tile')),
    river: box.querySelectorAll('.river .tile').length,
    badges: Array.from(box.querySelectorAll('.badge.void')).map(b => [b.getAttribute('data-void'), text(b)]),
  })),
  body: text(document.body),
  legal: Array.from(document.querySelectorAll('.hand .tile.legal')).map(t => t.getAttribute('data-tile')),
  buttons: Array.from(document.querySelectorAll('#actions button')).map(b => b.getAttribute('data-code')),
};
"""


def check_dom(driver, table) -> None:
    """Four seats; each seat shows as many tiles in hand and river as the server's game has."""
    game = table.game
    page = driver.execute_script(_SEATS)
    seats = page["seats"]
    assert sorted(int(s["seat"]) for s in seats) == [0, 1, 2, 3]
    view = game.view(0)
    for box in seats:
        s = int(box["seat"])
        hand = box["hand"]
        assert len(hand) == view["hand_sizes"][s], (s, len(hand), view["hand_sizes"])
        assert box["river"] == len(view["rivers"][s])
        if s == 0:
            assert sorted(hand) == sorted(view["hand"])
        else:  # nothing of another seat's hand is in the page
            assert not [t for t in hand if t]
    # Sichuan's 定缺: each seat's badge names the suit the engine holds for it (once the view shows it)
    voids = view.get("void") or [None] * 4
    for box in seats:
        s = int(box["seat"])
        badges = box["badges"]
        if voids[s] is None:
            assert not badges, (s, badges)
            continue
        assert len(badges) == 1 and badges[0][0] == "mps"[game.void[s]] == voids[s]
        assert any(word in badges[0][1] for word in SUIT_WORDS[voids[s]]), (s, badges[0][1])
    assert "undefined" not in page["body"]
    # the legal choices only: clickable tiles = legal discards, buttons = the other legal actions
    legal = game.legal_actions(0)
    discards = {str(a.tile) for a in legal if a.kind.name == "DISCARD"}
    assert set(page["legal"]) == discards
    buttons = sorted(int(code) for code in page["buttons"])
    assert buttons == sorted(game.space.code(a) for a in legal if a.kind.name != "DISCARD")


@pytest.mark.parametrize("server", ["sichuan", "changbai"], indirect=True)   # 定缺 / 飘 and 报听 buttons
def test_play_a_hand_by_clicking(server, browser, tmp_path):
    base = f"http://127.0.0.1:{server.port}/"
    browser.get(base)
    waiter(browser).until(lambda d: d.find_element(By.ID, "play-bots").is_displayed())
    browser.find_element(By.ID, "play-bots").click()
    waiter(browser).until(lambda d: my_move(d))
    table = next(iter(server.tables.values()))
    assert table.started and [s.kind for s in table.seats] == ["remote", "bot", "bot", "bot"]
    token = browser.execute_script("return localStorage.getItem('mahjong_core.token')")
    assert token == table.seats[0].token
    clicks, checked, reloaded, shot, labels = 0, 0, False, None, []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        things = waiter(browser).until(lambda d: my_move(d))
        if things == "result":
            break
        step = table.step
        if browser.find_element(By.ID, "step").text != str(step):
            time.sleep(0.05)   # the page is still drawing the new state
            continue
        if checked < 5:
            check_dom(browser, table)
            checked += 1
        if clicks == 4 and not reloaded:   # a reload resumes the seat from its token
            browser.refresh()
            waiter(browser).until(lambda d: my_move(d) and d.find_element(By.ID, "step").text == str(step))
            assert not browser.find_element(By.ID, "lobby").is_displayed()
            check_dom(browser, table)
            reloaded = True
            continue
        if clicks == 6 and shot is None:
            shot = browser.get_screenshot_as_png()
        try:
            labels.append(click_first(browser, things))
        except (StaleElementReferenceException, WebDriverException):
            continue
        clicks += 1
        waiter(browser).until(lambda d: table.step != step or table.finished or my_move(d) == "result")
    else:
        raise AssertionError("the hand did not end within 120 s of clicking")
    assert table.finished and clicks >= 3 and reloaded
    assert any(t.startswith({"sichuan": "Void(", "changbai": "Piao("}[server.ruleset]) for t in labels), labels
    text = browser.find_element(By.ID, "result-text").text
    assert "Hand over" in text and "Totals" in text
    log_link = browser.find_element(By.ID, "log-link").get_attribute("href")
    with urllib.request.urlopen(log_link, timeout=WAIT) as r:
        log = json.loads(r.read())
    assert log["finished"] and log["ledger"] == table.game.ledger.to_json()
    assert console_errors(browser) == []
    assert shot is not None and len(shot) > 20000   # a drawn table, not a blank page


def test_page_resumes_nothing_with_a_forged_token(server, browser):
    browser.get(f"http://127.0.0.1:{server.port}/")
    browser.execute_script("localStorage.setItem('mahjong_core.token', 'forged')")
    browser.refresh()
    waiter(browser).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert browser.execute_script("return localStorage.getItem('mahjong_core.token')") is None
    assert console_errors(browser) == []
