"""Declares the C++/Cython extension; all metadata lives in pyproject.toml.

Build toggles (environment variables):
  MAHJONG_CORE_DEBUG=1     -O0 -g, assertions on
  MAHJONG_CORE_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer (GCC/Clang)
  MAHJONG_CORE_NATIVE=1    -march=native (never the default: wheels must run anywhere)
  MAHJONG_CORE_PURE_GAME=1 leave the game engine's modules uncompiled (see GAME_HOT_MODULES)
  MAHJONG_CORE_JOBS=N      compile N extensions at once (default: every CPU; `build_ext -j N` wins)
"""
import glob
import os
import subprocess
import sys

import Cython
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


# MAHJONG_CORE_SANITIZE=1: ASan + UBSan in every compiled module, the game's too (the native
# self-play loop and the engine write the hands' buffers in place).
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]


def compile_args():
    if sys.platform == "win32":
        return ["/std:c++17", "/O2", "/EHsc", "/utf-8"], []  # the MCR fan table has UTF-8 literals
    args, link = ["-std=c++17"], []
    if os.environ.get("MAHJONG_CORE_DEBUG"):
        args += ["-O0", "-g", "-UNDEBUG"]
    else:
        args += ["-O3", "-g0"]  # release: no debug info (Python's own CFLAGS carry -g; it would triple the size)
    if os.environ.get("MAHJONG_CORE_SANITIZE"):
        args += SANITIZER_FLAGS + ["-g"]
        link += SANITIZER_FLAGS
    if os.environ.get("MAHJONG_CORE_NATIVE"):
        args += ["-march=native"]
    return args, link


cflags, lflags = compile_args()
# What the extensions include besides their sources: setuptools rebuilds an extension when one of
# these is newer than the built module (see "Incremental rebuilds" below).
CPP_HEADERS = sorted(glob.glob("cpp/include/mahjong_core/*.h") + glob.glob("cpp/src/*.inc"))
CYTHON_DECLARATIONS = sorted(glob.glob("mahjong_core/*.pxd") + glob.glob("mahjong_core/*.pxi")
                             + glob.glob("python/pxd/**/*.pxd", recursive=True) + glob.glob("python/**/*.pxi", recursive=True))
core = Extension(
    "mahjong_core._core",
    sources=["mahjong_core/_core.pyx"] + sorted(glob.glob("cpp/src/*.cpp")),
    include_dirs=["cpp/include", "mahjong_core"],
    language="c++",
    define_macros=[("MAHJONG_CORE_BAKED_TABLES", "1")],
    depends=CPP_HEADERS + CYTHON_DECLARATIONS,
    extra_compile_args=cflags,
    extra_link_args=lflags,
)
# The learning environments' observation encoder (mahjong_core.env; NumPy only at run time, lazily).
env_encoder = Extension("mahjong_core.env._encode", sources=["python/env/_encode.pyx"], extra_compile_args=cflags,
                        extra_link_args=lflags, depends=CYTHON_DECLARATIONS)

# The lookup tables are baked into the extension (cpp/include/mahjong_core/tables.h): before the
# extension is compiled, the repo's own generator (cpp/tools/gen_tables.cpp + cpp/src/tables.cpp)
# is compiled for this machine and run once; it writes the tables as constant arrays into the build
# tree, and that file joins the extension's sources. Nothing generated is committed or shipped in
# the sdist, and the installed package never builds or reads tables at run time.
GENERATOR_SOURCES = ["cpp/tools/gen_tables.cpp", "cpp/src/tables.cpp"]
GENERATOR_INPUTS = GENERATOR_SOURCES + ["cpp/include/mahjong_core/tables.h"]


def build_jobs():
    """How many extensions to compile side by side: MAHJONG_CORE_JOBS, else the CPUs this process may use."""
    if os.environ.get("MAHJONG_CORE_JOBS"):
        return max(1, int(os.environ["MAHJONG_CORE_JOBS"]))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _read_text(path):
    """The file's text, or None when it cannot be read (missing)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


class BuildExtWithTables(build_ext):
    def finalize_options(self):
        super().finalize_options()
        # The nine extensions are independent translation units: `pip install .` compiles them in
        # parallel (setuptools' build_ext -j) instead of one after another.
        if not self.parallel:
            self.parallel = build_jobs()

    def build_extensions(self):
        # setuptools skips an extension whose built module is newer than its sources and depends;
        # a build with other flags (MAHJONG_CORE_DEBUG, _SANITIZE, _NATIVE, another Python) must not
        # reuse it: the flags of the last complete build are kept in the build tree, and a change
        # rebuilds all. The stamp is written only after every extension built, so a build that
        # fails half way is forced again next time.
        stamp = os.path.join(self.build_temp, "mahjong_core_build_flags.txt")
        flags = repr((cflags, lflags, sys.version, sys.platform, os.environ.get("MAHJONG_CORE_PURE_GAME", "")))
        flags_changed = _read_text(stamp) != flags
        if flags_changed:
            self.force = True
        baked = self._baked_tables()
        for ext in self.extensions:
            if ext.name == "mahjong_core._core" and baked not in ext.sources:
                ext.sources.append(baked)
        super().build_extensions()
        if flags_changed:
            os.makedirs(self.build_temp, exist_ok=True)
            with open(stamp, "w", encoding="utf-8") as f:
                f.write(flags)

    def _baked_tables(self):
        out_dir = os.path.join(self.build_temp, "mahjong_core_generated")
        target = os.path.join(out_dir, "tables_baked.cpp")
        newest_input = max(os.path.getmtime(p) for p in GENERATOR_INPUTS)
        if os.path.exists(target) and os.path.getmtime(target) >= newest_input:
            return target
        os.makedirs(out_dir, exist_ok=True)
        cc = self.compiler
        if cc.compiler_type == "msvc":
            args = ["/std:c++17", "/O2", "/EHsc"]
        else:
            args = ["-std=c++17", "-O2", "-g0"]  # the generator's own speed barely matters (~0.6 s)
        objects = cc.compile(GENERATOR_SOURCES, output_dir=out_dir, include_dirs=["cpp/include"],
                             extra_postargs=args)
        exe_name = "gen_tables"
        cc.link_executable(objects, exe_name, output_dir=out_dir, target_lang="c++")
        exe = os.path.join(out_dir, cc.executable_filename(exe_name))
        partial = target + ".part"
        subprocess.run([exe, partial], check=True)
        os.replace(partial, target)  # never leave a half-written file that looks up to date
        return target

# The game engine is plain Python (python/game/ and each ruleset's python/rules/<name>/flow.py). Its
# hot modules — one call per draw, discard and answer — are also compiled by Cython from the same .py
# files, which makes self-play ~20% faster with identical behaviour (tests/test_game_compiled.py plays
# seeded games both ways and compares the logs). The .py files still ship; an importer prefers the
# compiled module when it is present.
GAME_HOT_MODULES = {
    "mahjong_core.game.engine": "python/game/engine.py",
    "mahjong_core.game.bots": "python/game/bots.py",
    "mahjong_core.game.simulate": "python/game/simulate.py",
    "mahjong_core.game.wall": "python/game/wall.py",
    "mahjong_core.rules.sichuan.flow": "python/rules/sichuan/flow.py",
    "mahjong_core.rules.changbai.flow": "python/rules/changbai/flow.py",
    "mahjong_core.rules.mcr.flow": "python/rules/mcr/flow.py",
    "mahjong_core.rules.sichuan.scoring": "python/rules/sichuan/scoring.py",
    "mahjong_core.rules.sichuan.hand": "python/rules/sichuan/hand.py",
    "mahjong_core.rules.sichuan.settlement": "python/rules/sichuan/settlement.py",
    "mahjong_core.rules.ledger": "python/rules/ledger.py",
    "mahjong_core.rules.records": "python/rules/records.py",
    "mahjong_core.rules.changbai.ready": "python/rules/changbai/ready.py",
    "mahjong_core.rules.changbai.scoring": "python/rules/changbai/scoring.py",
    "mahjong_core.rules.changbai.patterns": "python/rules/changbai/patterns.py",
    "mahjong_core.rules.changbai.settlement": "python/rules/changbai/settlement.py",
}
game_flags = [] if sys.platform == "win32" or os.environ.get("MAHJONG_CORE_DEBUG") else ["-g0"]
game_link_flags = []
if os.environ.get("MAHJONG_CORE_SANITIZE") and sys.platform != "win32":
    game_flags = SANITIZER_FLAGS + ["-g"]
    game_link_flags = SANITIZER_FLAGS
# The native self-play loop over the compiled engine (it cimports Game's extension type, so it is
# built only with the modules above; simulate.play_hand uses it where it is importable).
GAME_NATIVE_MODULES = {"mahjong_core.game._selfplay": "python/game/_selfplay.pyx",
                       "mahjong_core.game._capi": "python/game/_capi.pyx"}  # (the engine's C entries)
game = [] if os.environ.get("MAHJONG_CORE_PURE_GAME") else [
    Extension(name, [path], extra_compile_args=game_flags, extra_link_args=game_link_flags)
    for name, path in {**GAME_HOT_MODULES, **GAME_NATIVE_MODULES}.items()
]


# -- Incremental rebuilds ----------------------------------------------------------------------
# pip builds in a fresh isolated environment every time, and Cython's own dependency check counts
# the .pxd files of that environment's Cython (just installed, so newer than anything): every
# `pip install .` regenerated _core.cpp and recompiled the whole core, ~20 s on two cores, also for
# the README's second command right after its first had built everything. A generated file is
# reused instead when it is newer than its source, every declaration file of the repository and
# this file (which holds the directives), and was written by the same Cython version; setuptools
# then skips the extension unless a source or one of its `depends` changed (or the flags did,
# BuildExtWithTables.build_extensions).
def _generated(source, ext):
    return os.path.splitext(source)[0] + (".cpp" if ext.language == "c++" else ".c")


def _is_current(source, generated):
    if not os.path.exists(generated):
        return False
    with open(generated, encoding="utf-8", errors="replace") as f:
        if f.readline().strip() != f"/* Generated by Cython {Cython.__version__} */":
            return False
    inputs = [source, __file__] + CYTHON_DECLARATIONS
    return os.path.getmtime(generated) >= max(os.path.getmtime(p) for p in inputs)


def cythonize_stale(extensions, **options):
    """cythonize() the extensions whose generated C/C++ is missing or stale; the others build from
    the file generated earlier."""
    stale, current = [], []
    for ext in extensions:
        sources = [s for s in ext.sources if s.endswith((".pyx", ".py"))]
        if sources and all(_is_current(s, _generated(s, ext)) for s in sources):
            ext.sources = [_generated(s, ext) if s in sources else s for s in ext.sources]
            current.append(ext)
        else:
            stale.append(ext)
    # force: these are stale by the test above. Cython's own dependency check would skip a module
    # whose augmenting .pxd cimports a changed one (rules/changbai/flow.pxd -> game/engine.pxd),
    # and the module compiled from its old C would expect the old Game struct.
    return (cythonize(stale, force=True, **options) if stale else []) + current


setup(
    cmdclass={"build_ext": BuildExtWithTables},
    ext_modules=cythonize_stale(
        [core, env_encoder],
        language_level=3,
        compiler_directives={"embedsignature": True},
        nthreads=build_jobs(),
    )
    # annotation_typing=False: annotations stay hints, so the compiled modules accept and reject
    # exactly what the .py files do (with it on, `seed: int` would silently take 1.5 or True).
    # python/pxd holds the augmenting declarations of compiled modules under their package names
    # (python/pxd/mahjong_core/game/engine.pxd: Game as an extension type, see that file).
    + cythonize_stale(game, language_level=3, include_path=["python/pxd", "."], nthreads=build_jobs(),
                      compiler_directives={"annotation_typing": False, "auto_pickle": False}),
)
