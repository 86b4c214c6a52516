"""The release artifacts, checked as a user meets them.

`bash .ci/wheel` makes dist/mahjong_core-<v>.tar.gz and a repaired manylinux wheel. `.ci/run` then
installs that wheel into a fresh venv (no compiler allowed) and runs this suite from outside the
checkout with `-m release` added, and with

    MAHJONG_CORE_WHEEL=<the repaired wheel>
    MAHJONG_CORE_SDIST_WHEEL=<a wheel built from the sdist in another fresh venv>

The `release` tests need those files; a plain `pytest` deselects them (pyproject's addopts). The
other tests here run every time: what the installed distribution holds, and how .ci/wheel refuses a
broken or foreign wheel in its output folder.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WHEEL_SCRIPT = REPO / ".ci" / "wheel"
BOTZONE_DOC = REPO / "docs" / "BOTZONE.md"

# Every compiled module the build declares (setup.py): the core, the encoder, the engine's hot modules,
# the native self-play loop, the engine's C entries and the rulesets' compiled scoring and settlement.
EXTENSIONS = [
    "mahjong_core/_core", "mahjong_core/env/_encode",
    "mahjong_core/game/engine", "mahjong_core/game/bots", "mahjong_core/game/simulate",
    "mahjong_core/game/wall", "mahjong_core/rules/sichuan/flow", "mahjong_core/rules/changbai/flow",
    "mahjong_core/rules/mcr/flow", "mahjong_core/game/_selfplay", "mahjong_core/game/_capi",
    "mahjong_core/rules/sichuan/scoring", "mahjong_core/rules/sichuan/hand", "mahjong_core/rules/sichuan/settlement",
    "mahjong_core/rules/ledger", "mahjong_core/rules/records", "mahjong_core/rules/changbai/ready", "mahjong_core/rules/changbai/scoring",
    "mahjong_core/rules/changbai/patterns", "mahjong_core/rules/changbai/settlement",
]
STUBS = ["mahjong_core/_core.pyi", "mahjong_core/env/_encode.pyi", "mahjong_core/py.typed"]
# What must never ship: sources of the build, generated code, objects, tests, build folders.
FORBIDDEN = re.compile(r"(\.(cpp|c|h|pyx|pxd|pxi|o|inc)$)|(^|/)(tests?|build|cpp|benches)/|\.egg-info/")


def _wheel_env(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run `bash .ci/wheel` and point {name} at the wheel (.ci/run does)")
    path = Path(value)
    assert path.is_file(), f"{name}={value} is not a file"
    return path


def check_package_files(names: list[str], *, compiled_game: bool = True) -> None:
    """The files of one installed or packed distribution: everything a user needs, nothing else."""
    package = [n for n in names if n.startswith("mahjong_core/")]
    assert package, "no mahjong_core/ files at all"
    for ext in EXTENSIONS if compiled_game else EXTENSIONS[:2]:
        found = [n for n in package if re.fullmatch(re.escape(ext) + r"\.[^/]*(\.so|\.pyd)", n)]
        assert len(found) == 1, f"extension {ext}: {found or 'missing'}"
    for stub in STUBS:
        assert stub in package, f"{stub} is missing"
    # Every hand-written module ships as source too (the compiled ones import the .py's siblings).
    assert "mahjong_core/game/engine.py" in package and "mahjong_core/rules/mcr/scoring.py" in package
    assert "mahjong_core/server/table.html" in package
    licences = [n for n in names if ".dist-info/licenses/" in n and not n.endswith("/")]
    assert [Path(n).name for n in licences] == ["LICENSE"], licences
    leaked = [n for n in names if FORBIDDEN.search(n)]
    assert not leaked, f"build inputs or tests in the distribution: {leaked[:10]}"


def _installed() -> importlib.metadata.Distribution:
    """The distribution beside the imported package (never a build's egg-info in the checkout)."""
    import mahjong_core

    site = Path(mahjong_core.__file__).resolve().parent.parent
    if (site / "pyproject.toml").is_file():
        # an editable install: the package is the checkout's, where a build may have left a stale
        # mahjong_core.egg-info; the distribution pip installed is on sys.path (conftest strips the checkout)
        return importlib.metadata.distribution("mahjong_core")
    found = list(importlib.metadata.distributions(name="mahjong_core", path=[str(site)]))
    return found[0] if found else importlib.metadata.distribution("mahjong_core")


def _installed_is_editable() -> bool:
    direct = _installed().read_text("direct_url.json")
    return bool(direct and json.loads(direct).get("dir_info", {}).get("editable"))


def test_the_installed_distribution_holds_what_a_user_needs():
    if _installed_is_editable():
        pytest.skip("an editable install maps the checkout; its files are the source tree")
    files = _installed().files or []
    import mahjong_core.game.engine as engine

    check_package_files([str(f) for f in files], compiled_game=not engine.__file__.endswith(".py"))


# --- .ci/wheel refuses what it would otherwise install from -----------------------------------------

def _run_wheel_script(dist: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, MAHJONG_CORE_DIST=str(dist))
    return subprocess.run(["bash", str(WHEEL_SCRIPT)], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("kind", ["truncated", "not a zip", "foreign"])
def test_wheel_script_names_a_broken_or_foreign_wheel_and_leaves_dist_alone(tmp_path, kind):
    dist = tmp_path / "dist"
    dist.mkdir()
    good = tmp_path / "good.whl"
    with zipfile.ZipFile(good, "w") as z:
        z.writestr("mahjong_core/__init__.py", "x = 1\n" * 200)
        z.writestr("mahjong_core-0.0.1.dist-info/METADATA", "Name: mahjong_core\n")
    if kind == "truncated":
        bad = dist / "mahjong_core-0.0.1-cp311-cp311-linux_x86_64.whl"
        bad.write_bytes(good.read_bytes()[:-40])
    elif kind == "not a zip":
        bad = dist / "mahjong_core-0.0.1-py3-none-any.whl"
        bad.write_text("<html>a download error page</html>")
    else:
        bad = dist / "requests-2.0-py3-none-any.whl"
        with zipfile.ZipFile(bad, "w") as z:
            z.writestr("requests/__init__.py", "")
            z.writestr("requests-2.0.dist-info/METADATA", "Name: requests\n")
    before = {p.name: p.read_bytes() for p in dist.iterdir()}
    result = _run_wheel_script(dist)
    assert result.returncode != 0
    assert bad.name in result.stderr and "error: .ci/wheel" in result.stderr, result.stderr
    assert ("foreign" in result.stderr) == (kind == "foreign")
    assert {p.name: p.read_bytes() for p in dist.iterdir()} == before, "dist/ changed"


# --- the built artifacts (.ci/run, after .ci/wheel) ---------------------------------------------------

@pytest.mark.release
def test_the_wheel_holds_what_a_user_needs_and_nothing_else():
    wheel = _wheel_env("MAHJONG_CORE_WHEEL")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert z.testzip() is None
        info = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        tags = [line.split(":", 1)[1].strip() for line in z.read(info).decode().splitlines() if line.startswith("Tag:")]
    check_package_files(names)
    # The tag auditwheel chose is the file's and the metadata's, and it is a manylinux one.
    file_tag = "-".join(wheel.stem.split("-")[2:])
    assert tags and all("manylinux" in t for t in tags), tags
    assert set(file_tag.split("-")[2].split(".")) == {t.split("-")[2] for t in tags}
    size = wheel.stat().st_size
    print(f"\n{wheel.name}: {size / 1024:.0f} KiB, {len(names)} files")
    assert size < 8 * 1024 * 1024, f"{size} bytes: debug info or a stray build folder in the wheel?"


@pytest.mark.release
def test_the_installed_package_is_that_wheel():
    wheel = _wheel_env("MAHJONG_CORE_WHEEL")
    dist = _installed()
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in z.namelist() if n.endswith(".dist-info/WHEEL"))
        assert dist.read_text("WHEEL") == z.read(info).decode()
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        packed = {line.split(",")[0]: line.split(",")[1] for line in z.read(record).decode().splitlines() if line}
    installed = {str(f): f"sha256={f.hash.value}" for f in dist.files or [] if f.hash}
    for name in (n for n in packed if n.endswith(".so")):
        assert installed[name] == packed[name], f"{name} differs from the wheel's"


def _unpack(wheel: Path, into: Path) -> Path:
    with zipfile.ZipFile(wheel) as z:
        z.extractall(into)
    return into


# Plays seeded hands of the three rulesets with mixed bots and prints every log and ledger.
PLAY = """
import json, sys
import mahjong_core
from mahjong_core.game.simulate import simulated_hand, simulate
out = {"from": mahjong_core.__file__}
for ruleset in ("sichuan", "changbai", "mcr"):
    hands = [simulated_hand(ruleset, i, seed=11, bots=["greedy", "random", "greedy", "random"]) for i in range(4)]
    out[ruleset] = [[h.log, h.ledger.totals()] for h in hands]
    out[ruleset + " simulate"] = simulate(ruleset, 24, seed=3, bots=["greedy", "random", "random", "random"]).to_dict()["seats"]
print(json.dumps(out, sort_keys=True, default=str))
"""


def _play_from(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(folder)
    # -s: no user site; the unpacked folder comes first on the path, so it shadows any installed copy.
    out = subprocess.run([sys.executable, "-s", "-c", PLAY], capture_output=True, text=True, env=env,
                         cwd=folder, timeout=300, check=True).stdout
    result = json.loads(out)
    assert Path(result.pop("from")).resolve().is_relative_to(folder.resolve())
    return result


@pytest.mark.release
def test_a_wheel_built_from_the_sdist_plays_the_same_games_as_the_repaired_wheel(tmp_path):
    repaired = _unpack(_wheel_env("MAHJONG_CORE_WHEEL"), tmp_path / "repaired")
    from_sdist = _unpack(_wheel_env("MAHJONG_CORE_SDIST_WHEEL"), tmp_path / "sdist")
    assert not list(from_sdist.glob("mahjong_core.libs")) and not list(repaired.glob("mahjong_core.libs")), \
        "auditwheel grafted a library: the core should link only the system's libc/libstdc++"
    games = _play_from(repaired)
    assert games == _play_from(from_sdist)
    assert all(len(games[r]) == 4 for r in ("sichuan", "changbai", "mcr"))
    assert any(totals != [0, 0, 0, 0] for r in ("sichuan", "changbai", "mcr") for _, totals in games[r])


def _section_5() -> str:
    text = BOTZONE_DOC.read_text(encoding="utf-8")
    return text.split("## 5. Upload to Botzone", 1)[1].split("\n## ", 1)[0]


@pytest.mark.release
def test_the_botzone_upload_path_works_as_written(tmp_path):
    """docs/BOTZONE.md §5 verbatim: unpack the wheel, a bot that finds it on sys.path, 20 local games."""
    wheel = _wheel_env("MAHJONG_CORE_WHEEL")
    section = _section_5()
    # The blocks as a reader copies them: indented under their list item in the Markdown.
    blocks = {lang: [textwrap.dedent(b) for b in re.findall(rf"```{lang}\n(.*?)```", section, re.S)]
              for lang in ("sh", "python")}
    shell = [b for b in blocks["sh"] if "zipfile -e" in b]
    bots = [b for b in blocks["python"] if "sys.path.insert" in b]
    assert len(shell) == 1 and len(bots) == 1, "§5 should have one unpack command and one bot file"
    # A clean environment of the same Python: mahjong_core is NOT installed there.
    clean = tmp_path / "clean-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(clean)], check=True, timeout=120)
    clean_python = clean / "bin" / "python"
    probe = subprocess.run([str(clean_python), "-c", "import mahjong_core"], capture_output=True, text=True)
    assert probe.returncode != 0 and "No module named 'mahjong_core'" in probe.stderr
    # The folder the user works in: the wheel in dist/ as .ci/wheel leaves it, the commands as written.
    work = tmp_path / "work"
    (work / "dist").mkdir(parents=True)
    (work / "dist" / wheel.name).write_bytes(wheel.read_bytes())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{clean / 'bin'}{os.pathsep}{env['PATH']}"   # `python` is the clean environment's
    subprocess.run(["bash", "-euo", "pipefail", "-c", shell[0]], cwd=work, env=env, check=True, timeout=120)
    assert (work / "botlib" / "mahjong_core" / "__init__.py").is_file()
    (work / "my_bot.py").write_text(bots[0], encoding="utf-8")
    # The local judge runs from the installed package (this environment); every seat is the bot.
    command = f"{clean_python} my_bot.py"
    judge = subprocess.run(
        [sys.executable, "-m", "mahjong_core", "botzone", "match", command, command, command, command,
         "--games", "20", "--seed", "5", "--keep-running", "--time-limit", "10", "--json"],
        cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert judge.returncode == 0, judge.stderr
    result = json.loads(judge.stdout)
    assert result["games"] == 20
    assert set(result["outcomes"]) <= {"HU", "HUANG"}, result["outcomes"]   # no RE / TLE / WA / WH
    assert result["outcomes"].get("HU", 0) >= 5, result["outcomes"]          # the bot really plays to win
    assert all(not seat["penalties"] for seat in result["seats"])
    assert sum(seat["score"] for seat in result["seats"]) == 0
