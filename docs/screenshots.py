"""Regenerate the pictures of docs/VIZ.md: `python docs/screenshots.py` (needs chromium,
chromium-driver, selenium, pillow, matplotlib; fonts-wqy-microhei for the Chinese fan names).

The replay viewer is shown at the first win of MCR hand 1 played by four greedy bots (seed 1).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))


def main() -> None:
    from browser import chromium_or_skip, close_driver, open_page, screenshot
    from mahjong_core.game import new_game
    from mahjong_core.game.bots import make_bot
    from mahjong_core.game.simulate import play_hand, simulate
    from mahjong_core.rules import mcr
    from mahjong_core.viz import replay_html
    from PIL import Image

    from mahjong_core import parse

    (HERE / "hand.svg").write_text(parse("[123m,1][555p,2]456s7sEE7s")._repr_svg_(), encoding="utf-8")
    (HERE / "score.svg").write_text(mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000")._repr_svg_(), encoding="utf-8")
    simulate("sichuan", 2000, bots=("greedy", "greedy", "random", "random")).plot().savefig(
        HERE / "simulation_plot.png", dpi=60)

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
        driver = chromium_or_skip(1280, 1010)
        try:
            assert open_page(driver, page) == []
            driver.execute_script(f"window.mjcReplay.go({win})")
            shot = Path(tmp) / "shot.png"
            screenshot(driver, shot)
        finally:
            close_driver()
        image = Image.open(shot)
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4), Image.LANCZOS)
        image.save(HERE / "replay_viewer.png", optimize=True)


if __name__ == "__main__":
    main()
