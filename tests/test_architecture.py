"""The installed package's import graph: no import cycle anywhere, and no library module that imports
argparse or a command-line module (docs/ARCHITECTURE.md, "Rules of the layout").

Every `import` statement of every module counts — at module level or inside a function (a lazy
import still ties the two modules together) — except those under `if TYPE_CHECKING:`. Importing
`a.b.c` also runs the packages `a` and `a.b`, so those are edges too (unless the importer lives in
them).
"""

from __future__ import annotations

import ast
import os
import sys
from typing import Dict, Iterator, List, Set

import mahjong_core
from mahjong_core.game.registry import REGISTRY

PACKAGE = "mahjong_core"


def _roots() -> Dict[str, str]:
    """package name -> folder: the installed package, plus the folders an editable install maps
    subpackages to (setuptools' editable finder keeps them in its MAPPING)."""
    roots = {PACKAGE: os.path.dirname(mahjong_core.__file__)}
    for finder in sys.meta_path:
        mapping = getattr(sys.modules.get(getattr(finder, "__module__", "")), "MAPPING", None)
        if isinstance(mapping, dict):
            roots.update({k: v for k, v in mapping.items() if k == PACKAGE or k.startswith(PACKAGE + ".")})
    return roots


def _modules() -> Dict[str, str]:
    """module name -> its .py source file, for the installed package (compiled modules ship their .py)."""
    out = {}
    for package, root in _roots().items():
        for folder, _, files in os.walk(root):
            rel = os.path.relpath(folder, root)
            parts = package.split(".") + ([] if rel == "." else rel.split(os.sep))
            if "__pycache__" in parts:
                continue
            for name in files:
                if name.endswith(".py"):
                    module = parts + ([] if name == "__init__.py" else [name[:-3]])
                    out[".".join(module)] = os.path.join(folder, name)
    return out


MODULES = _modules()


def _is_package(module: str) -> bool:
    return MODULES[module].endswith("__init__.py")


def _type_checking_nodes(tree: ast.AST) -> Set[int]:
    skip: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def _imports(module: str) -> Iterator[str]:
    """Every name `module` imports (absolute, resolved), whatever the depth of the statement."""
    tree = ast.parse(open(MODULES[module], encoding="utf-8").read())
    skip = _type_checking_nodes(tree)
    base = module.split(".") if _is_package(module) else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target
            for alias in node.names:  # `from pkg import submodule`
                if f"{target}.{alias.name}" in MODULES:
                    yield f"{target}.{alias.name}"


def _ancestors(module: str) -> List[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _graph() -> Dict[str, Set[str]]:
    graph: Dict[str, Set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        own = set(_ancestors(module))
        for target in _imports(module):
            if target not in MODULES:
                continue
            for dep in _ancestors(target) + [target]:
                if dep in MODULES and dep != module and dep not in own:
                    graph[module].add(dep)
    return graph


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out: List[List[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _is_cli(module: str) -> bool:
    return module.endswith(".cli") or module == f"{PACKAGE}.__main__"


def test_the_walk_sees_the_whole_package():
    # A guard on the test itself: the walk finds the layers and every registered ruleset's flow.
    assert {"mahjong_core.game.engine", "mahjong_core.rules.rule_keys", "mahjong_core.cli"} <= set(MODULES)
    for target in REGISTRY.values():
        assert target.split(":")[0] in MODULES
    assert len(MODULES) >= 40


def test_no_import_cycles():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_library_modules_import_no_cli():
    offenders = []
    for module in MODULES:
        if _is_cli(module):
            continue
        for target in _imports(module):
            if target == "argparse" or target.startswith("argparse.") or (target in MODULES and _is_cli(target)):
                offenders.append(f"{module} imports {target}")
    assert not offenders, "\n".join(offenders)


def test_every_ruleset_package_has_the_same_shape():
    for name in REGISTRY:
        package = f"{PACKAGE}.rules.{name}"
        for part in ("rules", "scoring", "settlement", "flow", "cli"):
            assert f"{package}.{part}" in MODULES, f"{package} has no {part}.py"
        init = ast.parse(open(MODULES[package], encoding="utf-8").read())
        exported = [n for n in ast.walk(init) if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)]
        assert exported, f"{package}/__init__.py has no explicit __all__"
