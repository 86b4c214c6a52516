"""Lazy public names of the packages whose import must stay light (`env`, `botzone`, `viz`).

    __getattr__ = lazy_exports(__name__, {"VectorEnv": ".vector", "determinize": ".determinize"})

makes the package's module `__getattr__` (PEP 562): a public name is imported from its submodule on
first use and kept as a plain attribute afterwards, so `import mahjong_core.env` imports neither the
submodules nor their dependencies (NumPy, Gymnasium, PettingZoo).

A public name that is also the name of the submodule it comes from (`mahjong_core.env.determinize`,
the function of `determinize.py`; `mahjong_core.botzone.run`, the function of `run.py`) stays the
function. The import system binds a submodule to the same-named attribute of its package once the
submodule is first imported — by the package's own code, by a test, by `from
mahjong_core.env.determinize import unseen_counts` — so without this `from mahjong_core.env import
determinize` would give the module or the function depending on what happened to be imported before.
The submodule itself stays where the import system keeps it (`sys.modules`), and `from
mahjong_core.env.determinize import unseen_counts` reads it as before.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any, Callable, FrozenSet, Mapping

__all__ = ["lazy_exports"]


class _KeepsItsExports(types.ModuleType):
    """A package module that does not let a submodule replace the same-named public object."""

    def __setattr__(self, name: str, value: Any) -> None:
        kept: FrozenSet[str] = self.__dict__.get("__kept_exports__", frozenset())
        if name in kept and isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{name}":
            return  # the import system binding the submodule: the public name keeps its object
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package` (already in `sys.modules`, i.e. called from its
    `__init__`) for `exports`: public name -> the relative name of the submodule that defines it."""
    module = sys.modules[package]
    kept = frozenset(name for name, source in exports.items() if source == "." + name)
    if kept:
        module.__dict__["__kept_exports__"] = kept
        module.__class__ = _KeepsItsExports

    def __getattr__(name: str) -> Any:
        source = exports.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, package), name)
        module.__dict__[name] = value  # later lookups are plain module attributes
        return value

    return __getattr__
