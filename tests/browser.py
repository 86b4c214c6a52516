"""Headless Chromium for browser tests (Selenium + Debian's `chromium` and `chromium-driver`).

    from browser import chromium_or_skip, open_page
    driver = chromium_or_skip()            # a session-wide driver; skips only without chromium
    page = open_page(driver, path)         # load a file (or URL), returns console errors seen

Tests skip when chromium (or its driver) is not installed — `apt-get install chromium
chromium-driver` — and nowhere else: a page that fails to load or logs an error fails the test.
"""

from __future__ import annotations

import atexit
import io
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

import pytest

__all__ = ["chromium_paths", "chromium_or_skip", "open_page", "console_errors", "screenshot", "assert_not_blank",
           "close_driver", "shared_driver", "viewport", "page_fits", "boxes", "CJK_FONT"]

_DRIVER: Optional[Any] = None
_CLEANUP_FOR: Optional[Any] = None   # the pytest config whose cleanup quits _DRIVER


def chromium_paths() -> Optional[tuple]:
    """(browser, chromedriver) paths, or None when either is missing."""
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not browser or not driver:
        return None
    return browser, driver


def chromium_or_skip(width: int = 1320, height: int = 940) -> Any:
    """The shared headless Chromium driver (started on first use); skips the test when chromium is
    not installed."""
    global _DRIVER
    paths = chromium_paths()
    if paths is None:
        pytest.skip("chromium / chromium-driver not installed (apt-get install chromium chromium-driver)")
    if _DRIVER is not None:
        return _DRIVER
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # No speculative connections: Chromium's predictor opens a spare socket to a server it has seen and
    # never sends a request on it, so the test's TableServer.close() waited for websockets' open_timeout
    # (10 s) on every server a page had talked to.
    options.add_experimental_option("prefs", {"net.network_prediction_options": 2})
    _DRIVER = webdriver.Chrome(service=Service(paths[1]), options=options)
    _DRIVER.set_page_load_timeout(30)
    return _DRIVER


def close_driver() -> None:
    """Quit the shared driver (Chromium and chromedriver exit with it); a no-op when none runs."""
    global _DRIVER
    if _DRIVER is not None:
        driver, _DRIVER = _DRIVER, None
        driver.quit()


atexit.register(close_driver)   # a last resort: the session's cleanup (shared_driver) normally quits it first


def shared_driver(request: Any) -> Any:
    """The session's driver for a test module's `driver` fixture: started once per process (each
    pytest-xdist worker) and quit when the session ends, not per module (a start costs ~1 s); each
    module gets it on a blank page with no viewport override and no console messages left over."""
    global _CLEANUP_FOR
    driver = chromium_or_skip()
    if _CLEANUP_FOR is not request.config:
        request.config.add_cleanup(close_driver)
        _CLEANUP_FOR = request.config
    driver.get("about:blank")   # a page of an earlier module stops talking to its closed server
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    console_errors(driver)
    return driver


def console_errors(driver: Any) -> List[str]:
    """Console messages of level SEVERE since the last call (JS errors, failed loads)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def open_page(driver: Any, target: Union[str, Path]) -> List[str]:
    """Load a file path or URL and return the console errors logged while loading."""
    console_errors(driver)  # drop anything from before
    url = str(target)
    if not url.startswith(("http://", "https://", "file://")):
        url = Path(target).resolve().as_uri()
    driver.get(url)
    return console_errors(driver)


@contextmanager
def viewport(driver: Any, width: int, height: int) -> Iterator[None]:
    """The page's viewport is exactly width x height CSS pixels inside the block (Chromium's device
    metrics override: the window size of headless Chromium is not the viewport)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def page_fits(driver: Any) -> Dict[str, float]:
    """The document's scroll size against the viewport: {"width", "height", "scroll_width", "scroll_height"}."""
    return driver.execute_script(
        "const e = document.documentElement; return {width: innerWidth, height: innerHeight, "
        "scroll_width: Math.max(e.scrollWidth, document.body.scrollWidth), "
        "scroll_height: Math.max(e.scrollHeight, document.body.scrollHeight)};")


def boxes(driver: Any, selector: str) -> List[Dict[str, float]]:
    """The bounding boxes (left, top, right, bottom, width, height; CSS pixels of the viewport) of
    every element matching `selector`."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; });",
        selector)


def _cjk_font() -> bool:
    """A font with Chinese glyphs is installed (fontconfig's answer; False without fc-list)."""
    fc = shutil.which("fc-list")
    if not fc:
        return False
    out = subprocess.run([fc, ":lang=zh", "family"], capture_output=True, text=True, timeout=30).stdout
    return bool(out.strip())


#: whether this machine has a CJK font (what the pages' own font check must agree with)
CJK_FONT = _cjk_font()


def screenshot(driver: Any, path: Optional[Union[str, Path]] = None) -> bytes:
    """PNG bytes of the viewport (also written to `path` when given)."""
    png = driver.get_screenshot_as_png()
    if path is not None:
        Path(path).write_bytes(png)
    return png


def assert_not_blank(png: bytes, min_colours: int = 8) -> None:
    """The screenshot shows something: several colours, and no single colour covers it all."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((160, 120))
    colours = small.getcolors(160 * 120) or []
    assert len(colours) >= min_colours, f"the screenshot is blank ({len(colours)} colours)"
    top = max(n for n, _ in colours)
    assert top < 0.95 * 160 * 120, "one colour covers 95% of the screenshot"


