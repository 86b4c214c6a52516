"""Optional libraries, imported when a feature first needs one — or an ImportError naming the pip line.

`import mahjong_core` imports no optional library (tests/test_lazy_exports.py): NumPy, Gymnasium,
PettingZoo, websockets, matplotlib, Ray and the rest are the extras' (`[numpy]`, `[rl]`, `[server]`,
`[plot]`, `[ray]`) or a feature's own. Every layer imports them through `require`, so a missing one
always reads the same way: "<feature> needs <library>: pip install "mahjong_core[<extra>]"".
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["require", "install_line", "MissingExtraError"]


class MissingExtraError(ImportError):
    """An optional library a feature needs is not installed (the message names the pip line). The
    command line prints it as one `error:` line."""


def install_line(extra: str) -> str:
    """The pip line that adds `extra` ("rl", "server", ...) to mahjong_core."""
    return f'pip install "mahjong_core[{extra}]"'


def require(module: str, feature: str, *, extra: str = "", install: str = "", library: str = "",
            otherwise: str = "") -> ModuleType:
    """`module` imported, or an ImportError: "`feature` needs `library` (default: the module's
    top-level name): <the pip line>", the line being `install_line(extra)` or `install` as given,
    followed by "(`otherwise`)" when there is another way (a plain progress bar, a text render).

    Hot path: a module already imported comes from `sys.modules` (VectorEnv asks for NumPy at every
    step; the import machinery took ~0.6 µs to say it was there)."""
    found = sys.modules.get(module)
    if found is not None:
        return found
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        line = install or install_line(extra)
        more = f" ({otherwise})" if otherwise else ""
        raise MissingExtraError(f"{feature} needs {library or module.split('.')[0]}: {line}{more}") from exc
