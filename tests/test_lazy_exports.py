"""The lazily loaded public names of `mahjong_core.env`, `.botzone` and `.viz` (mahjong_core/_lazy.py):
each is its submodule's object whatever was imported before — `env.determinize` and `botzone.run`
share their names with the submodules that define them, which the import system binds to the package
when they are first imported — and importing a package loads none of them. Each check runs in a
fresh interpreter: what is imported first is the point."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

PACKAGES = ("mahjong_core.env", "mahjong_core.botzone", "mahjong_core.viz")

_CHECK = textwrap.dedent("""
    import importlib, json, sys, types
    packages = json.loads(sys.argv[1])
    submodules_first = sys.argv[2] == "submodules first"
    report = {"loaded_by_import": [], "wrong": [], "names": 0}
    for name in packages:  # importing the packages loads no public name's submodule and no extra
        importlib.import_module(name)
        report["loaded_by_import"] += sorted(name + source for source in set(sys.modules[name]._LAZY.values())
                                             if name + source in sys.modules)
    report["extras"] = sorted(m for m in ("numpy", "gymnasium", "pettingzoo", "matplotlib") if m in sys.modules)
    for name in packages:
        package = sys.modules[name]
        lazy = package._LAZY
        if submodules_first:  # every submodule a public name comes from, imported as a user might
            for source in sorted(set(lazy.values())):
                exec(f"import {name}{source}")
        for public, source in sorted(lazy.items()):
            via_attribute = getattr(package, public)
            namespace = {}
            exec(f"from {name} import {public} as value", namespace)
            if not submodules_first:  # now the submodule, by the spelling that binds it to the package
                exec(f"import {name}{source}")
            expected = getattr(sys.modules[name + source], public)
            for how, value in (("attribute", via_attribute), ("from-import", namespace["value"]),
                               ("attribute after", getattr(package, public))):
                if value is not expected or isinstance(value, types.ModuleType):
                    report["wrong"].append(f"{name}.{public} ({how}): {value!r}")
            report["names"] += 1
    print(json.dumps(report))
""")


@pytest.mark.parametrize("order", ["submodules first", "names first"])
def test_a_public_name_is_its_object_whatever_was_imported_first(order):
    # (from /, not the checkout: there the source folder would shadow an installed package)
    result = subprocess.run([sys.executable, "-c", _CHECK, json.dumps(PACKAGES), order],
                            capture_output=True, text=True, timeout=120, cwd="/")
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert report["wrong"] == []
    # (env imports `registration` itself: it registers the Gymnasium ids without importing Gymnasium)
    assert report["loaded_by_import"] == ["mahjong_core.env.registration"], "a package loaded its lazy submodules"
    assert report["extras"] == []
    assert report["names"] >= 30


def test_an_unknown_name_is_an_attribute_error_and_the_package_still_takes_attributes():
    import mahjong_core.env as env

    with pytest.raises(AttributeError, match="module 'mahjong_core.env' has no attribute 'VectorEnvs'"):
        env.VectorEnvs  # noqa: B018
    env.some_user_attribute = 1  # a package module stays writable (monkeypatching, tests)
    assert env.some_user_attribute == 1
    del env.some_user_attribute
