"""Declares the C++/Cython extension; all metadata lives in pyproject.toml.

Build toggles (environment variables):
  MAHJONG_CORE_DEBUG=1     -O0 -g, assertions on
  MAHJONG_CORE_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer (GCC/Clang)
  MAHJONG_CORE_NATIVE=1    -march=native (never the default: wheels must run anywhere)
  MAHJONG_CORE_PURE_GAME=1 leave the game engine's modules uncompiled (see GAME_HOT_MODULES)
"""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup


def compile_args():
    if sys.platform == "win32":
        return ["/std:c++17", "/O2", "/EHsc", "/utf-8"], []  # the MCR fan table has UTF-8 literals
    args, link = ["-std=c++17"], []
    if os.environ.get("MAHJONG_CORE_DEBUG"):
        args += ["-O0", "-g", "-UNDEBUG"]
    else:
        args += ["-O3", "-g0"]  # release: no debug info (Python's own CFLAGS carry -g; it would triple the size)
    if os.environ.get("MAHJONG_CORE_SANITIZE"):
        flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        args += flags + ["-g"]
        link += flags
    if os.environ.get("MAHJONG_CORE_NATIVE"):
        args += ["-march=native"]
    return args, link


cflags, lflags = compile_args()
core = Extension(
    "mahjong_core._core",
    sources=["mahjong_core/_core.pyx"] + sorted(glob.glob("cpp/src/*.cpp")),
    include_dirs=["cpp/include", "mahjong_core"],
    language="c++",
    extra_compile_args=cflags,
    extra_link_args=lflags,
)
# The learning environments' observation encoder (mahjong_core.env; NumPy only at run time, lazily).
env_encoder = Extension("mahjong_core.env._encode", sources=["python/env/_encode.pyx"], extra_compile_args=cflags,
                        extra_link_args=lflags)

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
}
game_flags = [] if sys.platform == "win32" or os.environ.get("MAHJONG_CORE_DEBUG") else ["-g0"]
game = [] if os.environ.get("MAHJONG_CORE_PURE_GAME") else [
    Extension(name, [path], extra_compile_args=game_flags) for name, path in GAME_HOT_MODULES.items()
]

setup(
    ext_modules=cythonize(
        [core, env_encoder],
        language_level=3,
        compiler_directives={"embedsignature": True},
    )
    # annotation_typing=False: annotations stay hints, so the compiled modules accept and reject
    # exactly what the .py files do (with it on, `seed: int` would silently take 1.5 or True).
    + cythonize(game, language_level=3, compiler_directives={"annotation_typing": False}),
)
