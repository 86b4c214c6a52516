"""Build the API reference from the docstrings with pdoc: `python docs/build_reference.py [OUT]`.

Every public module of the installed package is documented (modules whose name starts with `_` are
private and left out). Any warning while importing or rendering — a docstring pdoc cannot read, a
module that fails to import — is an error, so CI fails on a broken docstring. Output: `OUT`
(default `docs/reference/`, not committed).
"""

from __future__ import annotations

import os
import pkgutil
import sys
import warnings
from pathlib import Path


def _packages(package: str) -> list:
    """The package, plus subpackages an editable install maps to other folders (setuptools' finder)."""
    found = [package]
    for finder in sys.meta_path:
        mapping = getattr(sys.modules.get(getattr(finder, "__module__", "")), "MAPPING", None)
        if isinstance(mapping, dict):
            found += [name for name in mapping if name.startswith(package + ".")]
    return found


def public_modules(package: str = "mahjong_core") -> list:
    import importlib

    names = []
    for name in _packages(package):
        module = importlib.import_module(name)
        names.append(name)
        for info in pkgutil.walk_packages(module.__path__, name + "."):
            names.append(info.name)
    return sorted({n for n in names if not any(part.startswith("_") for part in n.split("."))})


def main(argv: list) -> int:
    import pdoc

    out = Path(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "reference"))
    modules = public_modules()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # pdoc walks the submodules of each package it is given; listing them too is intended here (a
        # package with __all__ would otherwise hide its modules), so that one notice is not an error.
        warnings.filterwarnings("ignore", message="The module specification .* adds a module named")
        # The engine's hot modules are compiled (Cython): pdoc cannot read source lines for their
        # dataclass fields, which says nothing about the docstrings.
        warnings.filterwarnings("ignore", message="Cannot determine where .* is taken from")
        pdoc.pdoc(*modules, output_directory=out)
    print(f"{len(modules)} modules documented in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
