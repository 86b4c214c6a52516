"""Declares the C++/Cython extension; all metadata lives in pyproject.toml.

Build toggles (environment variables):
  MAHJONG_CORE_DEBUG=1     -O0 -g, assertions on
  MAHJONG_CORE_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer (GCC/Clang)
  MAHJONG_CORE_NATIVE=1    -march=native (never the default: wheels must run anywhere)
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
        args += ["-O3"]
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

setup(
    ext_modules=cythonize(
        [core],
        language_level=3,
        compiler_directives={"embedsignature": True},
    )
)
