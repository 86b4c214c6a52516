"""Regenerate the pictures of docs/VIZ.md and docs/SERVER.md: `python docs/screenshots.py [NAME ...]`
(NAME: hand, score, plot, replay, table; default all). Needs chromium, chromium-driver, selenium,
pillow, matplotlib (plot), websockets (table); fonts-noto-cjk for the Chinese fan names.

- replay_viewer.png: the replay viewer at 1366 x 768, at the first win of MCR hand 1 played by
  four greedy bots (seed 1).
- browser_table.png: the browser table at 1366 x 768, a real Sichuan game (`serve`'s default
  ruleset, table seed 4) played by clicking the page until step 30.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

SIZE = (1366, 768)


def hand() -> None:
    from mahjong_core import parse

    (HERE / "hand.svg").write_text(parse("[123m,1][555p,2]456s7sEE7s")._repr_svg_(), encoding="utf-8")


def score() -> None:
    from mahjong_core.rules import mcr

    (HERE / "score.svg").write_text(mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000")._repr_svg_(), encoding="utf-8")


def plot() -> None:
    from mahjong_core.game.simulate import simulate

    simulate("sichuan", 2000, bots=("greedy", "greedy", "random", "random")).plot().savefig(
        HERE / "simulation_plot.png", dpi=60)


def replay(driver) -> None:
    from browser import open_page, screenshot, viewport
    from mahjong_core.game import new_game
    from mahjong_core.game.bots import make_bot
    from mahjong_core.game.simulate import play_hand
    from mahjong_core.viz import replay_html

    game = new_game("mcr", seed=1)
    bots = [make_bot("greedy") for _ in range(4)]
    rng = random.Random(1)
    for bot in bots:
        bot.new_hand(rng)
    play_hand(game, bots)
    win = next(i for i, e in enumerate(game.log["events"]) if e["type"] == "win")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "replay.html"
        page.write_text(replay_html(game.log), encoding="utf-8")
        with viewport(driver, *SIZE):
            assert open_page(driver, page) == []
            driver.execute_script(f"window.mjcReplay.go({win})")
            screenshot(driver, HERE / "replay_viewer.png")


def table(driver) -> None:
    from browser import console_errors, screenshot, viewport
    from selenium.webdriver.common.by import By
    from table_page import play, served, start_against_bots

    with served("sichuan", seed=4) as server, viewport(driver, *SIZE):
        game_table = start_against_bots(driver, server)
        play(driver, game_table, until=lambda: game_table.step >= 30 and bool(
            driver.find_elements(By.CSS_SELECTOR, ".hand .tile.legal")))
        driver.find_element(By.TAG_NAME, "header").click()   # the mouse off the hand (no raised tile)
        screenshot(driver, HERE / "browser_table.png")
        assert console_errors(driver) == []
        driver.get("about:blank")


def main(names) -> None:
    from browser import chromium_or_skip, close_driver

    plain = {"hand": hand, "score": score, "plot": plot}
    browser = {"replay": replay, "table": table}
    unknown = set(names) - set(plain) - set(browser)
    if unknown:
        raise SystemExit(f"unknown picture(s) {sorted(unknown)}; choose from {sorted(plain) + sorted(browser)}")
    for name in names:
        if name in plain:
            plain[name]()
    wanted = [browser[n] for n in names if n in browser]
    if wanted:
        driver = chromium_or_skip()
        try:
            for make in wanted:
                make(driver)
        finally:
            close_driver()


if __name__ == "__main__":
    main(sys.argv[1:] or ["hand", "score", "plot", "replay", "table"])
