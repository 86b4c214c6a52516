"""Builds and runs the C++ core's own test program (cpp/tests/core_tests.cpp) — no Python involved
in what it checks: table distances against brute force, wait bits against direct splitting,
known hands and error handling."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CPP = Path(__file__).resolve().parent.parent / "cpp"


@pytest.mark.slow   # a C++ build: started first (conftest)
@pytest.mark.skipif(not (CPP / "Makefile").exists(), reason="needs the source tree (cpp/)")
def test_core_program_scalar(tmp_path):
    """The portable fallback of the vectorised helpers (what non-x86 targets run), on tables built at
    run time. The vectorised build, on the tables baked at build time (as the extension has them), is
    test_tables.py's test_core_program_on_baked_tables: between them every kernel and both table
    sources run the whole program, in two builds instead of four."""
    if shutil.which(os.environ.get("CXX", "g++")) is None and shutil.which("c++") is None:
        pytest.fail("a C++ compiler is required to build the package and its core tests")
    # -O1: the program checks results, not speed, and compiles in two thirds of -O2's time
    flags = "-std=c++17 -O1 -DMAHJONG_CORE_NO_SIMD"
    result = subprocess.run(
        ["make", "-C", str(CPP), "test", f"BUILD={tmp_path}", f"CXXFLAGS={flags}"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " 0 failures" in result.stdout
