"""examples/botzone_probe.py, the dependency-free bot that tells a bot author what Botzone's machine
is (docs/BOTZONE.md §5): it plays legal games, and its first answer reports the facts a wheel must
match and where the bot runs."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

PROBE = Path(__file__).resolve().parent.parent / "examples" / "botzone_probe.py"


def _run(stdin: str, cwd: Path) -> subprocess.CompletedProcess:
    # -I: no site-packages, no user path: the probe must need nothing but the standard library
    return subprocess.run([sys.executable, "-I", str(PROBE)], input=stdin, capture_output=True, text=True, cwd=cwd,
                          timeout=60)


def test_the_first_json_answer_reports_the_machine_and_the_place(tmp_path):
    (tmp_path / "botlib").mkdir()
    (tmp_path / "notes.txt").write_text("x")
    result = _run(json.dumps({"requests": ["0 1 0"], "responses": []}) + "\n", tmp_path)
    reply = json.loads(result.stdout)
    assert reply["response"] == "PASS" and result.returncode == 0, result.stderr
    facts = reply["debug"]
    assert f"machine={platform.machine()} python={sys.version_info[0]}.{sys.version_info[1]}" in facts
    assert f"cwd={tmp_path} cwd_has=[botlib/,notes.txt]" in facts, facts
    assert f"script_dir={PROBE.parent} " in facts and "botzone_probe.py" in facts and " tmp=/" in facts, facts
    later = _run(json.dumps({"requests": ["0 1 0", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2", "2 J3"],
                             "responses": ["PASS", "PASS"]}) + "\n", tmp_path)
    assert json.loads(later.stdout) == {"response": "PLAY J3"}  # the facts on the first turn only


def test_simple_interaction_keeps_the_facts_off_the_answer(tmp_path):
    result = _run("1\n0 1 0\n", tmp_path)
    assert result.stdout == "PASS\n" and "machine=" in result.stderr and f"cwd={tmp_path}" in result.stderr


def test_the_probe_plays_a_local_match_without_a_penalty(tmp_path):
    from mahjong_core.botzone.judge import match

    # (-S: no site import either, a third of the start-up: the probe is started for every request;
    # seed 30: a short game, ~90 rounds)
    result = match([f"{sys.executable} -I -S {PROBE}", "greedy", "greedy", "greedy"], games=1, seed=30, time_limit=30)
    assert result.seats[0].penalties == {} and sum(s.score for s in result.seats) == 0
