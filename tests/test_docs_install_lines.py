"""Every `pip install` line of README.md and docs/*.md works from what the reader has: a checkout
(`pip install .`, `pip install ".[rl]"`), the wheel of `bash .ci/wheel` (`pip install
dist/mahjong_core-*.whl`), or an installed mahjong_core gaining an extra (`pip install
"mahjong_core[rl]"`, which only works with mahjong_core installed already — such a line says so).
mahjong_core is not on PyPI, so a bare `pip install mahjong_core` claims what is not there."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])

PIP = re.compile(r"\bpip3?\s+install\s+([^`#\n]*)")
#: where a command ends on a line: a shell operator, a comment, a code span's end
_END = re.compile(r"\s(?:&&|\|\||;|\|)\s")
_PROJECT = re.compile(r"^mahjong[-_.]core(\[([^\]]*)\])?(?:[<>=!~].*)?$", re.I)
_LOCAL = re.compile(r"^\.(\[([^\]]*)\])?$")
_WHEEL = re.compile(r"^dist/mahjong_core-[^/\s]*\.whl$")


def requirements(command):
    """The requirement arguments of the text after `pip install` (options and their values dropped)."""
    command = _END.split(command)[0].strip().rstrip(").,;")
    try:
        words = shlex.split(command)
    except ValueError:  # a quote closed on the next line of prose
        words = command.replace('"', " ").replace("'", " ").split()
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-r", "-c", "--target", "--prefix", "-i", "--index-url"):
            skip = True
        elif not word.startswith("-"):
            out.append(word)
    return out


def check_line(line):
    """What is wrong with the `pip install` commands on one line of a document ([] if nothing)."""
    bad = []
    for m in PIP.finditer(line):
        for req in requirements(m.group(1)):
            project, local = _PROJECT.match(req), _LOCAL.match(req)
            extras = (project or local).group(2) if (project or local) else None
            for extra in (extras or "").split(","):
                if extra.strip() and extra.strip() not in EXTRAS:
                    bad.append(f"{req}: no extra {extra.strip()!r} in pyproject.toml (extras: {', '.join(sorted(EXTRAS))})")
            if project and "installed" not in line:
                bad.append(f"{req}: mahjong_core is not on PyPI; write `pip install .` / `pip install \".[x]\"` "
                           f"(a checkout), `pip install dist/mahjong_core-*.whl` (the wheel), or say on this line "
                           f"that the form only adds an extra to an installed mahjong_core")
            if req.startswith("dist/") and not _WHEEL.match(req):
                bad.append(f"{req}: `bash .ci/wheel` writes dist/mahjong_core-<version>-<tags>.whl")
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_install_lines_work_from_what_the_reader_has(doc):
    found = []
    for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        found += [f"{doc.name}:{n}: {problem}" for problem in check_line(line)]
    assert found == []


def test_the_docs_show_every_way_in():
    text = "\n".join(d.read_text(encoding="utf-8") for d in DOCS)
    assert 'pip install ".[rl' in text and "pip install dist/mahjong_core-*" in text
    assert (ROOT / ".ci" / "wheel").is_file()


@pytest.mark.parametrize("line", [
    "pip install mahjong_core",
    'pip install "mahjong_core[rl]"',
    "pip install mahjong-core==0.2.0   # from PyPI",
    "Install: `pip install 'Mahjong_Core[server]'` and go.",
    "pip install torch mahjong_core",
    'pip install ".[nosuchextra]"',
    "pip install dist/mahjong_core.tar.gz",
])
def test_the_check_catches_a_line_that_claims_pypi(line):
    assert check_line(line)


@pytest.mark.parametrize("line", [
    "pip install . && mahjong-core analyse x",
    'pip install ".[rl,server]"   # a checkout',
    "pip install -e \".[test]\" --no-build-isolation",
    "pip install dist/mahjong_core-*-manylinux*.whl",
    'pip install "mahjong_core[plot]"   # adds the extra to the installed mahjong_core',
    "pip install cairosvg pillow",
])
def test_the_check_accepts_the_forms_that_work(line):
    assert check_line(line) == []
