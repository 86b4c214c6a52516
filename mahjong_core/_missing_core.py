"""Why the compiled core (`mahjong_core._core`) did not import, in words that say what to do.

Imported by `mahjong_core/__init__.py` only when that import failed. Three cases, told apart by the
`_core.*` files beside the package:

- one built for this Python that will not load: a wheel of another machine (architecture, C library);
- only cores built for other Pythons: a wheel of another CPython — the usual Botzone upload mistake,
  where the bot's `botlib/` holds the wheel of the builder's Python, not the judge's;
- none: the source checkout shadowing the installed package (or a checkout never built).
"""

from __future__ import annotations

import importlib.machinery
import os
import platform
import sys

__all__ = ["explain"]

#: the oldest CPython mahjong_core supports (pyproject.toml's requires-python; a test keeps them equal)
MINIMUM_PYTHON = (3, 11)

_BOTZONE = "on Botzone, examples/botzone_probe.py reports the machine's Python and C library (docs/BOTZONE.md §5)"


def explain(package_dir: str, error: BaseException) -> str:
    """The message for an ImportError of `_core` in `package_dir` (the package folder)."""
    folder = os.path.abspath(package_dir)
    try:
        cores = sorted(name for name in os.listdir(folder) if name.startswith("_core.") and name.endswith((".so", ".pyd")))
    except OSError:
        cores = []
    here = f"CPython {sys.version_info[0]}.{sys.version_info[1]} on {platform.machine() or 'this machine'}"
    loadable_names = {"_core" + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES}
    own = [name for name in cores if name in loadable_names]
    if own:
        return (f"mahjong_core's compiled core {own[0]} in {folder} does not load on {here} ({error}). It was built "
                f"for another machine (another CPU architecture, or a newer C library than this one has): build the "
                f"wheel on a machine like this one, or with cibuildwheel; {_BOTZONE}.")
    if cores and tuple(sys.version_info[:2]) < MINIMUM_PYTHON:
        oldest = "{}.{}".format(*MINIMUM_PYTHON)
        return (f"mahjong_core in {folder} holds a compiled core for another Python ({', '.join(cores)}), and this is "
                f"{here}: mahjong_core needs CPython {oldest} or newer, so no wheel can be built for this one. Run it "
                f"with a newer Python (on Botzone, choose the newest Python the bot's language list offers; "
                f"{_BOTZONE}).")
    if cores:
        python = f"python{sys.version_info[0]}.{sys.version_info[1]}"
        return (f"mahjong_core in {folder} holds a compiled core for another Python ({', '.join(cores)}), and this is "
                f"{here}: build the wheel with this Python (`PYTHON={python} bash .ci/wheel` in a mahjong_core "
                f"checkout) and use that one; {_BOTZONE}.")
    return (f"mahjong_core was imported from {folder}, which has no compiled extension (mahjong_core._core). This "
            "happens when Python runs inside the source checkout after a regular `pip install .`: the source folder "
            "shadows the installed package. Run from another directory, use the `mahjong-core` command, or build in "
            "place with `pip install -e . --no-build-isolation`.")
