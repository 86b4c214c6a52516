"""Test-session setup: import the INSTALLED mahjong_core, never the source folder by accident.

The trap (STYLE.md, "A trap in our layout"): `mahjong_core/` sits at the repository root, so
`python -m pytest` run from the root puts the root on `sys.path`, and `import mahjong_core` would
then load the source folder — which, after a plain `pip install .`, has no compiled `_core` (or,
worse, a stale one from an old in-place build). This conftest therefore

1. removes the repository root from `sys.path` before anything imports the package, so the import
   system finds the installed distribution (site-packages, or the editable finder of
   `pip install -e .`, whose mapping points at this checkout on purpose);
2. checks that the imported package is the one the installed distribution provides, and that the
   compiled `mahjong_core._core` imports — otherwise the session stops with a message saying how
   to build and install the package;
3. puts `tests/` on `sys.path` so test modules can import the shared helpers (`reference`,
   `reference_hands`): with `--import-mode=importlib` pytest does not do that itself.

4. restores sys.path after every test (`_sys_path_back`), so no test's additions reach the next one.

5. runs the tests marked `slow` first (`pytest_collection_modifyitems`), so none is left at the tail.

The sampled tests' depth (`MAHJONG_CORE_DIFF_SCALE`) is `depth.py`'s: checked once here (`pytest_configure`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
DISTRIBUTION = "mahjong_core"

INSTALL_HINT = (
    "Build and install the package first:\n"
    "    pip install -e . --no-build-isolation   # development (extension built in place)\n"
    "    pip install .                           # or a regular install\n"
    "then run the tests with `pytest` from the repository root."
)


def _same_path(entry: str, target: Path) -> bool:
    try:
        return Path(entry or os.getcwd()).resolve() == target
    except OSError:  # pragma: no cover - unreadable path entries
        return False


def _strip_repo_root_from_sys_path() -> None:
    """Drop '', '.' and the repository root from sys.path: they would shadow the installed package."""
    sys.path[:] = [p for p in sys.path if not _same_path(p, REPO_ROOT)]


def _expected_package_dir() -> Path:
    """Where the installed distribution says `mahjong_core` lives."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.exit(f"mahjong_core is not installed in this Python ({sys.executable}).\n{INSTALL_HINT}", returncode=4)
    direct_url = dist.read_text("direct_url.json")
    info = json.loads(direct_url) if direct_url else {}
    if info.get("dir_info", {}).get("editable"):
        # An editable install maps the package to <project>/mahjong_core (pyproject package-dir).
        project = Path(unquote(urlparse(info["url"]).path))
        return (project / "mahjong_core").resolve()
    return Path(str(dist.locate_file("mahjong_core/__init__.py"))).resolve().parent


def _import_installed_package() -> None:
    # Strip first: the checkout may hold a `mahjong_core.egg-info` (left by a build) that would
    # otherwise be taken for the installed distribution's metadata.
    if sys.modules.get("mahjong_core") is None:
        _strip_repo_root_from_sys_path()
    expected = _expected_package_dir()
    try:
        package = importlib.import_module("mahjong_core")
    except ImportError as exc:
        pytest.exit(f"cannot import mahjong_core: {exc}\n{INSTALL_HINT}", returncode=4)
    actual = Path(package.__file__).resolve().parent
    if actual != expected:
        pytest.exit(
            f"the tests imported mahjong_core from {actual}, but the installed distribution is at "
            f"{expected}: a source folder is shadowing the installed package (run `pytest`, not "
            f"`python -m pytest`, from the repository root, or reinstall).\n{INSTALL_HINT}",
            returncode=4,
        )
    try:
        importlib.import_module("mahjong_core._core")
    except ImportError as exc:
        pytest.exit(
            f"the compiled extension mahjong_core._core does not import ({exc}); the installed package at "
            f"{actual} was not built.\n{INSTALL_HINT}",
            returncode=4,
        )


_import_installed_package()
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import depth  # noqa: E402 - tests/ is on sys.path from here


def pytest_configure(config):  # noqa: D103 - pytest hook
    try:
        depth.diff_scale()
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_collection_modifyitems(session, config, items):  # noqa: D103 - pytest hook
    # The `slow` tests (C++ builds, the 2,000-hand differential runs) run first: pytest-xdist hands the
    # tests out in this order, and one of them started last would leave the other worker idle at the end.
    # (A stable sort: the order is the same on every worker, as xdist requires.)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_report_header(config):  # noqa: D103 - pytest hook
    import mahjong_core

    return [
        f"mahjong_core {mahjong_core.__version__} from {Path(mahjong_core.__file__).parent}",
        f"test depth {depth.ENV_VAR}={depth.diff_scale():g}"
        + (" (quick; 1 is the full depth CI runs)" if depth.diff_scale() < 1 else ""),
    ]


@pytest.fixture(scope="session")
def core():
    """The installed, compiled core module (asserts it is importable with a helpful message)."""
    try:
        return importlib.import_module("mahjong_core._core")
    except ImportError as exc:  # pragma: no cover - the session already stopped above
        pytest.fail(f"mahjong_core._core is not importable: {exc}\n{INSTALL_HINT}")


@pytest.fixture(autouse=True)
def _sys_path_back():
    """Each test leaves sys.path as it found it. The simulate/league commands, run in-process, put the
    working directory first on sys.path as `python -m` does; inside the checkout that is the source
    folder, and a later test's spawned workers (which copy sys.path) would import it instead of the
    installed package — an order-dependent failure that depended on pytest-xdist's scheduling."""
    saved = list(sys.path)
    yield
    sys.path[:] = saved
