"""The compiled module's `.pyi` stubs match the runtime (mypy.stubtest) and the typed public API
type-checks as a user would use it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mahjong_core

PACKAGE_DIR = Path(mahjong_core.__file__).resolve().parent


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for this module's runs (the second run reuses the standard library's)."""
    return tmp_path_factory.mktemp("mypy_cache")


def _package_tree(root: Path) -> Path:
    """The package laid out as an installed copy, of links: an editable install is an import hook
    (setuptools' finder maps the subpackages to python/), which mypy cannot follow."""
    tree = root / "package_tree"
    if not tree.exists():
        mapped = {}
        for finder in sys.meta_path:
            mapping = getattr(sys.modules.get(getattr(finder, "__module__", "")), "MAPPING", None)
            if isinstance(mapping, dict):
                mapped.update({k: v for k, v in mapping.items() if k.startswith("mahjong_core.")})
        package = tree / "mahjong_core"
        package.mkdir(parents=True)
        for entry in PACKAGE_DIR.iterdir():
            (package / entry.name).symlink_to(entry)
        for name, folder in sorted(mapped.items()):
            link = tree.joinpath(*name.split("."))
            if not link.exists():
                link.symlink_to(folder)
    return tree


def _run_mypy_tool(args, tmp_path: Path, cache: Path, whole_package: bool = False) -> subprocess.CompletedProcess:
    """`python -m <args>` in `tmp_path`. For an editable install mypy is pointed at the package
    (MYPYPATH; a regular install in site-packages is found as usual, and mypy refuses it there):
    the core's folder, or with `whole_package` a tree that has the subpackages too — then give
    mypy `--follow-imports=silent`, which keeps the package's own modules quiet as an installed
    package's are."""
    env = dict(os.environ, MYPY_CACHE_DIR=str(cache))
    if "site-packages" not in PACKAGE_DIR.parts:
        env["MYPYPATH"] = str(_package_tree(cache) if whole_package else PACKAGE_DIR.parent)
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )


def test_stub_and_marker_files_are_installed():
    assert (PACKAGE_DIR / "_core.pyi").is_file(), "mahjong_core/_core.pyi (stubs of the compiled module) is missing"
    assert (PACKAGE_DIR / "py.typed").is_file(), "mahjong_core/py.typed is missing"


def test_stubtest_core(tmp_path, mypy_cache):
    result = _run_mypy_tool(["mypy.stubtest", "mahjong_core._core"], tmp_path, mypy_cache)
    assert result.returncode == 0, result.stdout + result.stderr


USER_CODE = textwrap.dedent(
    """
    from typing import Dict, List, Mapping, Tuple
    import numpy as np
    import mahjong_core as mc
    from mahjong_core import Forms, Tile

    hand: mc.Hand = mc.parse("[555p,1]123m67s88sEEE")
    s: int = mc.shanten(hand, Forms.MCR)
    s2: int = mc.shanten(hand.counts_bytes(), melds=1, exclude_exhausted=True)
    w: Tuple[Tile, ...] = mc.waits("1112345678999m", Forms.SICHUAN)
    e: Mapping[Tile, int] = mc.effective_tiles("1112345678999m", visible=[0] * 34)
    d: List[mc.DiscardOption] = mc.discard_options("11123456789995m")
    ds: Tuple[mc.Decomposition, ...] = mc.decompositions("11123456789995m")
    ok: bool = mc.is_winning(hand.with_tile(Tile.EAST))
    meld: mc.Meld = mc.Meld.pung(Tile.P5, 1)
    h2: mc.Hand = mc.Hand.from_counts([0] * 34, [meld])
    rows = np.zeros((4, 34), dtype=np.uint8)
    out = mc.batch.shanten(rows, 0, Forms.STANDARD)
    text: str = mc.format_hand(hand) + mc.format_tiles([Tile.M1])
    first: str = str(mc.parse_tiles("123m")[0])
    """
)


LAYER_CODE = textwrap.dedent(
    """
    import random
    from mahjong_core import botzone, viz
    from mahjong_core.env import VectorEnv, determinize
    from mahjong_core.game import new_game

    world = determinize(new_game("mcr", seed=1), 0, random.Random(1))
    reveal_type(VectorEnv)
    reveal_type(botzone.run)
    reveal_type(viz.replay_html)
    """
)


@pytest.fixture(scope="module")
def user_code_checked(tmp_path_factory, mypy_cache) -> str:
    """mypy's report on USER_CODE (user_code.py) and LAYER_CODE (layer_code.py), checked in one run
    (each mypy start costs seconds): the whole package is followed, quietly, as an installed one is."""
    folder = tmp_path_factory.mktemp("user_code")
    (folder / "user_code.py").write_text(USER_CODE)
    (folder / "layer_code.py").write_text(LAYER_CODE)
    result = _run_mypy_tool(["mypy", "--no-error-summary", "--hide-error-context", "--follow-imports=silent",
                             "user_code.py", "layer_code.py"], folder, mypy_cache, whole_package=True)
    assert result.returncode in (0, 1) and not result.stderr.strip(), result.stdout + result.stderr
    return result.stdout


def _lines_of(report: str, file_name: str) -> list:
    return [line for line in report.splitlines() if line.startswith(file_name + ":")]


def test_public_api_type_checks(user_code_checked):
    assert _lines_of(user_code_checked, "user_code.py") == [], user_code_checked


def test_the_lazily_loaded_layers_type_check_with_their_own_signatures(user_code_checked):
    """`mahjong_core.env`, `.botzone` and `.viz` load their names on first use (mahjong_core/_lazy.py);
    a type checker sees the objects themselves, not Any — and `determinize` as the function, not the
    submodule of the same name."""
    lines = _lines_of(user_code_checked, "layer_code.py")
    revealed = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed type" in line]
    assert not [line for line in lines if ": error:" in line] and len(revealed) == 3, user_code_checked
    assert revealed[0].startswith('"def (ruleset: str, num_envs: int') and "-> mahjong_core.env.vector.VectorEnv" in revealed[0]
    assert revealed[1].startswith('"def (decide: ')
    assert revealed[2].startswith('"def (log: ') and revealed[2].endswith('str"')
