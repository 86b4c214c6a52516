"""Helpers of the browser-table tests (and docs/screenshots.py): a TableServer in a thread, and playing
seat 0 of a hand by clicking the page as a person would.

    with served("mcr", seed=4) as server:
        driver.get(server.url)
        table = start_against_bots(driver, server)
        play(driver, table, until=lambda: table.step >= 30)
"""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, List, Optional

WAIT = 20
#: seconds between two looks while waiting for the page (Selenium's default, 0.5 s, cost every click of a
#: played hand half a second: the page answers in milliseconds)
POLL = 0.02

__all__ = ["ServerThread", "served", "my_move", "click_first", "start_against_bots", "play", "synced", "waiter",
           "WAIT", "POLL", "press"]


def waiter(driver: Any, timeout: float = WAIT) -> Any:
    """A WebDriverWait on `driver` that looks every POLL seconds (`waiter(d).until(condition)`)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=POLL)


class ServerThread(threading.Thread):
    """A TableServer on 127.0.0.1 (a free port) in its own event loop (the browser talks to it over the network)."""

    def __init__(self, ruleset: str = "sichuan", **options: Any) -> None:
        super().__init__(daemon=True)
        self.ruleset = ruleset
        self.options = options
        self.ready = threading.Event()
        self.server: Any = None

    def run(self) -> None:
        from mahjong_core.server import TableServer

        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            self.stop = self.loop.create_future()
            self.server = TableServer(self.ruleset, port=0, **self.options)
            await self.server.start()
            self.ready.set()
            await self.stop
            await self.server.close()

        asyncio.run(main())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set_result, None)
        self.join(WAIT)


@contextmanager
def served(ruleset: str, seed: int = 4, **options: Any) -> Iterator[ServerThread]:
    """A server whose tables have three bots answering at once and no time limit."""
    settings = dict(bots=3, time_limit=None, bot_delay=0.0, seed=seed)
    settings.update(options)
    thread = ServerThread(ruleset, **settings)
    thread.start()
    assert thread.ready.wait(WAIT), "the server did not start"
    try:
        yield thread
    finally:
        thread.close()


def my_move(driver: Any) -> Any:
    """The clickable things when it is this seat's move (legal tiles, action buttons), or "result"."""
    from selenium.webdriver.common.by import By

    if driver.find_elements(By.CSS_SELECTOR, "#result:not(.hidden-el)"):
        return "result"
    found = driver.find_elements(By.CSS_SELECTOR, ".hand .tile.legal, #actions button.action")
    return found or None


#: tag, data-name and data-tile of each element in arguments[0]: one round trip to the browser, not three per
#: element (a hand of 14 tiles took ~40 WebDriver calls a click)
_DESCRIBE = ("return arguments[0].map(e => [e.tagName.toLowerCase(), e.getAttribute('data-name'),"
             " e.getAttribute('data-tile')]);")


def press(driver: Any, element: Any) -> None:
    """A person's click: the mouse moved to the element's centre, pressed and released (trusted events).
    WebDriver's element click does the same plus checks that cost ~60 ms a click against ~17 ms."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver, duration=0).move_to_element(element).click().perform()


def click_first(driver: Any, things: List[Any]) -> str:
    """Win when offered, else a legal discard, else the first button (定缺, claims, pass); returns the
    action's name ("Win", "Void(m)", ...) or "Discard(<tile>)"."""
    described = driver.execute_script(_DESCRIBE, things)
    win = [i for i, (tag, name, _) in enumerate(described) if tag == "button" and name == "Win"]
    tiles = [i for i, (tag, _, _) in enumerate(described) if tag != "button"]
    chosen = (win or tiles or [0])[0]
    _, name, tile = described[chosen]
    press(driver, things[chosen])
    return name or f"Discard({tile})"


def synced(driver: Any, table: Any) -> bool:
    """The page shows the server's current step."""
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "step").text == str(table.step)


def start_against_bots(driver: Any, server: ServerThread) -> Any:
    """Open the lobby, click "Play against 3 bots", wait for the first question; returns the Table."""
    from selenium.webdriver.common.by import By

    driver.get("about:blank")   # a page of an earlier test stops reconnecting to its closed server
    driver.get_log("browser")   # and what it logged is dropped
    driver.get(server.url)
    waiter(driver).until(lambda d: d.find_element(By.ID, "play-bots").is_displayed())
    driver.find_element(By.ID, "play-bots").click()
    waiter(driver).until(lambda d: my_move(d))
    return next(iter(server.server.tables.values()))


def play(driver: Any, table: Any, until: Callable[[], bool], *, limit: float = 120,
         chooser: Optional[Callable[[Any, List[Any]], str]] = None) -> List[str]:
    """Answer seat 0's questions by clicking until `until()` holds at a moment the page shows the
    table's current step with a question open (or the hand is over); returns what was clicked."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    chooser = chooser or click_first
    clicked: List[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        things = waiter(driver).until(lambda d: my_move(d))
        if things == "result":
            return clicked
        step = table.step
        if not synced(driver, table):
            time.sleep(0.05)   # the page is still drawing the new state
            continue
        if until():
            return clicked
        try:
            clicked.append(chooser(driver, things))
        except (StaleElementReferenceException, WebDriverException):
            continue
        waiter(driver).until(lambda d: table.step != step or table.finished or my_move(d) == "result")
    raise AssertionError(f"the hand did not get there within {limit} s of clicking")
