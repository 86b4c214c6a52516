"""When the compiled core does not import, the message says why and what to do (mahjong_core/_missing_core.py).

Each case imports a copy of the package's top folder whose `_core` was renamed to another Python's
tag (a wheel of another CPython unpacked into a Botzone bot's botlib/), replaced by bytes that are
not a library (a wheel of another machine), or removed (a source checkout never built)."""

import importlib.machinery
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mahjong_core

PACKAGE_DIR = Path(mahjong_core.__file__).resolve().parent
#: the checkout these tests belong to (the package may be installed elsewhere: a wheel's site-packages)
CHECKOUT = Path(__file__).resolve().parent.parent
OWN_CORE = next(PACKAGE_DIR / ("_core" + s) for s in importlib.machinery.EXTENSION_SUFFIXES
                if (PACKAGE_DIR / ("_core" + s)).exists())


def _import_copy(tmp_path: Path, change) -> str:
    """stderr of `import mahjong_core` from a copy of the package's top folder changed by `change`."""
    copy = tmp_path / "lib" / "mahjong_core"
    copy.mkdir(parents=True)
    for entry in PACKAGE_DIR.iterdir():
        if entry.is_file() and entry.suffix in (".py", ".so", ".pyd", ".typed"):
            shutil.copy2(entry, copy / entry.name)
    change(copy / OWN_CORE.name)
    # -S: no site-packages at all (nor an editable install's import hook, which would find the real core);
    # the copy is all the path has besides the standard library
    result = subprocess.run([sys.executable, "-S", "-c", "import mahjong_core"], capture_output=True, text=True,
                            cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "lib"), "PATH": "/usr/bin:/bin"},
                            timeout=60)
    assert result.returncode != 0, "the copy imported"
    return result.stderr


def test_a_core_of_another_python_names_both_and_the_build_line(tmp_path):
    other = "_core.cpython-39-x86_64-linux-gnu.so"
    err = _import_copy(tmp_path, lambda core: core.rename(core.with_name(other)))
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert f"holds a compiled core for another Python ({other}), and this is CPython {python}" in err, err
    assert f"PYTHON=python{python} bash .ci/wheel" in err and "botzone_probe.py" in err, err


def test_a_core_that_will_not_load_says_it_is_another_machines(tmp_path):
    err = _import_copy(tmp_path, lambda core: core.write_bytes(b"not a shared library"))
    assert f"compiled core {OWN_CORE.name}" in err and "does not load on CPython" in err, err
    assert "built for another machine" in err and "botzone_probe.py" in err, err


def test_no_core_at_all_is_the_unbuilt_checkout(tmp_path):
    err = _import_copy(tmp_path, lambda core: core.unlink())
    assert "has no compiled extension (mahjong_core._core)" in err and "source folder shadows" in err, err


@pytest.mark.parametrize("name", ["_core.cpython-39-x86_64-linux-gnu.so", "_core.txt"])
def test_only_core_libraries_count(tmp_path, name):
    from mahjong_core._missing_core import explain

    (tmp_path / name).write_bytes(b"")
    message = explain(str(tmp_path), ImportError("x"))
    assert ("another Python" in message) == name.endswith(".so"), message


def test_a_python_older_than_the_package_supports_is_told_so(tmp_path, monkeypatch):
    """A Botzone bot run by Python 3.8 must not be told to build a wheel for 3.8: none can be."""
    from mahjong_core import _missing_core

    built_for = "312" if sys.version_info[:2] != (3, 12) else "313"  # (a Python the running one is not)
    (tmp_path / f"_core.cpython-{built_for}-x86_64-linux-gnu.so").write_bytes(b"")
    monkeypatch.setattr(sys, "version_info", (3, 8, 10, "final", 0))
    message = _missing_core.explain(str(tmp_path), ImportError("x"))
    assert "needs CPython 3.11 or newer, so no wheel can be built for this one" in message, message
    assert "bash .ci/wheel" not in message and "botzone_probe.py" in message


def test_the_minimum_python_is_pyprojects():
    import re

    from mahjong_core._missing_core import MINIMUM_PYTHON

    pyproject = CHECKOUT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("needs the source checkout's pyproject.toml (an installed package has none)")
    declared = re.search(r'requires-python = ">=(\d+)\.(\d+)"', pyproject.read_text())
    assert declared and tuple(map(int, declared.groups())) == MINIMUM_PYTHON


def test_the_wheel_script_refuses_a_python_too_old(tmp_path):
    script = CHECKOUT / ".ci" / "wheel"
    if not script.exists():
        pytest.skip("needs the source checkout's .ci/wheel")
    old = tmp_path / "python3.9"
    old.write_text('#!/bin/sh\ncase "$2" in *"<"*) exit 1 ;; *) echo 3.9 ;; esac\n')  # its version check, its version
    old.chmod(0o755)
    result = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=60,
                            env={"PYTHON": str(old), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1 and "is 3.9; mahjong_core needs Python 3.11 or newer" in result.stderr, result.stderr
