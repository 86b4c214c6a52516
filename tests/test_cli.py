"""The `mahjong-core` program as a user meets it: its name, --version, help without arguments, typed
--set values, and a quiet exit when its output pipe closes early."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import mahjong_core

EXE = shutil.which("mahjong-core")


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    # Run outside the checkout, through the installed entry point when there is one.
    command = [EXE] if EXE else [sys.executable, "-m", "mahjong_core"]
    kwargs.setdefault("timeout", 120)
    return subprocess.run(command + list(args), capture_output=True, text=True, encoding="utf-8",
                          cwd=tempfile.gettempdir(), **kwargs)


def test_version():
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"mahjong-core {mahjong_core.__version__}"


@pytest.mark.parametrize("command", [["simulate"], ["score", "mcr"], ["score", "sichuan"], ["score", "changbai"]])
def test_help_works_without_the_other_arguments(command):
    result = cli(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: mahjong-core {' '.join(command)}")


def test_the_main_help_shows_every_command_and_its_examples_run():
    """`mahjong-core --help` gives an example line for each command; the ones that need no files run
    as shown (the score example is a hand that wins under the default rules)."""
    import re
    import shlex

    from mahjong_core.cli import COMMANDS

    result = cli("--help")
    assert result.returncode == 0, result.stderr
    # an example, then (after two spaces or more) what it does
    examples = [shlex.split(re.split(r"\s{2,}", line.strip())[0])[1:] for line in result.stdout.splitlines()
                if line.startswith("  mahjong-core ")]
    assert {example[0] for example in examples} == {"analyse", "score"} | set(COMMANDS)
    assert "Every command takes --json" in result.stdout
    for command in [["analyse"], ["score", "mcr"], ["score", "sichuan"], ["score", "changbai"],
                    *([c] for c in COMMANDS if c != "botzone"), ["botzone", "match"]]:
        shown = cli(*command, "--help")
        assert shown.returncode == 0 and "--json" in shown.stdout, (command, shown.stdout, shown.stderr)
    for example in examples:
        if example[0] in ("analyse", "score"):
            ran = cli(*example, "--json")
            assert ran.returncode == 0, (example, ran.stdout, ran.stderr)
            if example[0] == "score":
                assert json.loads(ran.stdout)["total"] >= 8, ran.stdout


@pytest.mark.parametrize("command, status, phrase", [
    (["simulate", "mcr", "--games", "4", "--no-progress", "--out", "/nonexistent-folder/r.jsonl"], 2,
     "cannot write the results file /nonexistent-folder/r.jsonl"),
    (["replay", "LOG", "-o", "/nonexistent-folder/x.html"], 2, "cannot write /nonexistent-folder/x.html"),
    (["simulate", "mcr", "--games", "4", "--no-progress", "--plot", "/nonexistent-folder/p.png"], 2,
     "--plot '/nonexistent-folder/p.png': the folder /nonexistent-folder does not exist"),
    (["simulate", "mcr", "--games", "4", "--no-progress", "--plot", "p.xyz"], 2,
     "--plot 'p.xyz': matplotlib cannot write a .xyz file; end the name with one of"),
])
def test_a_file_the_system_refuses_is_an_error_line_not_a_traceback(tmp_path, command, status, phrase):
    """An output path in a folder that does not exist: one line on stderr that names it, no traceback."""
    if "LOG" in command:
        log = tmp_path / "hand.json"
        from mahjong_core.game import new_game

        log.write_text(json.dumps(new_game("sichuan", seed=1).log), encoding="utf-8")
        command = [str(log) if word == "LOG" else word for word in command]
    if "--plot" in command:
        pytest.importorskip("matplotlib", reason='plots need matplotlib: pip install "mahjong_core[plot]"')
    result = cli(*command)
    assert result.returncode == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and phrase in result.stderr, result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr


def test_a_bad_plot_file_is_refused_before_any_hand_is_played(tmp_path):
    """The check comes first: a 20,000-hand run with a bad --plot ends at once, not after the run."""
    pytest.importorskip("matplotlib", reason='plots need matplotlib: pip install "mahjong_core[plot]"')
    result = cli("simulate", "mcr", "--hands", "20000", "--no-progress", "--plot", str(tmp_path / "p.xyz"), timeout=20)
    assert result.returncode == 2 and "cannot write a .xyz file" in result.stderr and result.stdout == ""


def test_a_missing_optional_library_is_one_error_line(tmp_path):
    """`--plot` without matplotlib: the pip line, status 1, no traceback (matplotlib blocked by a
    sitecustomize that makes its import fail)."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['matplotlib'] = None\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = subprocess.run([sys.executable, "-m", "mahjong_core", "simulate", "mcr", "--hands", "4", "--no-progress",
                             "--plot", str(tmp_path / "p.png")], capture_output=True, text=True, env=env,
                            cwd=tempfile.gettempdir(), timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr == 'error: --plot needs matplotlib: pip install "mahjong_core[plot]"\n'


@pytest.mark.parametrize("ruleset, winning, not_winning, extra", [
    ("mcr", "[555p,1]123p789p88pEEE", "[555p,1]123p789p88pESE", []),
    ("sichuan", "[2222p,1]33p456p789p11p1p", "123m456p789s1122s3s", ["--void", "s"]),
    ("changbai", "[123m,1][123m,3]456p789s5s5s", "123m456p789s1122sE", []),
])
def test_score_json_says_winning_alike_and_takes_win_tile(ruleset, winning, not_winning, extra):
    """Every ruleset's `score --json` has "hand" and a boolean "winning" (Changbai said "win"), and
    every ruleset's `score` takes --win-tile (MCR's was --win, still accepted)."""
    won = cli("score", ruleset, winning, "--json", *extra)
    assert won.returncode == 0 and json.loads(won.stdout)["winning"] is True, won.stderr
    lost = cli("score", ruleset, not_winning, "--json", *(e for e in extra if e not in ("--void", "s")))
    assert lost.returncode == 1 and json.loads(lost.stdout)["winning"] is False, lost.stdout + lost.stderr
    assert "hand" in json.loads(won.stdout) and "hand" in json.loads(lost.stdout)
    last = winning[-2:] if winning[-1] in "mps" else winning[-1]
    tagged = cli("score", ruleset, winning, "--json", "--win-tile", last, *extra)
    assert tagged.returncode == 0 and json.loads(tagged.stdout)["winning"] is True, tagged.stderr


def test_score_and_analyse_text_reads_in_columns():
    """Chinese names take two columns each: the English names after them line up (Sichuan's were
    TAB-separated and drifted); a wait reads as a line, not a repr; analyse's labels line up."""
    from mahjong_core._display import display_width

    out = cli("score", "sichuan", "[2222p,1]33p456p789s11s1s", "--void", "m", "--kong-replacement").stdout
    rows = [line for line in out.splitlines() if line.endswith(" 番") and not line.startswith("  total")]
    assert len(rows) == 2 and "\t" not in out
    starts = {display_width(row[:row.index(english)]) for row, english in zip(rows, ("Basic win", "Win on a kong"))}
    assert len(starts) == 1, out
    waits = cli("score", "sichuan", "[2222p,1]33p456p789s11s", "--void", "m").stdout
    assert "  wait 3p: 平胡 1 = 1 番, x1, 6 points" in waits.splitlines() and "SichuanScore(" not in waits
    analysed = cli("analyse", "--plain", "[555p,1]123m67s88sEEE").stdout.splitlines()
    assert analysed[2] == "shanten   0 (ready, tenpai)"
    assert {line.index(line.split()[1]) for line in analysed} == {10}, analysed  # every value at column 10


def test_simulate_help_lists_the_rulesets():
    out = cli("simulate", "--help").stdout
    assert "{mcr,sichuan,changbai}" in out and "--set" in out


def test_the_program_calls_itself_mahjong_core():
    result = cli("score")
    assert result.returncode == 2 and "usage: mahjong-core score" in result.stderr


@pytest.mark.parametrize("key,text,value", [("min_fan", "1", 1), ("false_win_penalty", "0", 0),
                                            ("strict_context", "false", False)])
def test_set_values_are_read_by_the_key_type(key, text, value):
    result = cli("score", "mcr", "[123m,1][345m,1]567m34sCC5s|EE1000", "--set", f"{key}={text}", "--json")
    assert result.returncode == 0, result.stderr
    rules = json.loads(result.stdout)["rules"]
    assert rules[key] == value and type(rules[key]) is type(value)


def test_a_bad_set_value_is_an_error_not_a_traceback():
    result = cli("score", "mcr", "[123m,1][345m,1]567m34sCC5s|EE1000", "--set", "min_fan=lots")
    assert result.returncode == 2
    assert "min_fan takes an integer" in result.stderr and "Traceback" not in result.stderr


def test_changbai_help_example_hand_scores():
    help_text = cli("score", "changbai", "--help").stdout
    example = help_text.split('e.g. "')[1].split('"')[0]
    assert cli("score", "changbai", example).returncode == 0
    second = help_text.split('or "')[1].split('"')[0]
    assert cli("score", "changbai", second).returncode == 0


def test_a_closed_output_pipe_ends_quietly():
    command = [EXE] if EXE else [sys.executable, "-m", "mahjong_core"]
    proc = subprocess.Popen(command + ["simulate", "sichuan", "--games", "3", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    proc.stdout.close()  # the reader is gone before anything is written (like `| head` exiting)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_a_rule_the_hand_needs_is_named_as_the_command_line_sets_it():
    """An MCR hand with flowers under rules without them: the message gives the CLI's way too."""
    result = cli("score", "mcr", "[123m,1][345m,3]567m34sCC5s|EE1000|abcdefgh")
    assert result.returncode == 2 and "--set flowers=true on the command line" in result.stderr, result.stderr
    assert cli("score", "mcr", "[123m,1][345m,3]567m34sCC5s|EE1000|abcdefgh", "--set", "flowers=true").returncode == 0


def test_api_md_lists_the_top_level_keys_of_each_json_output():
    """docs/API.md's "What --json prints" table against what the commands print (keys outside the
    parentheses of each row; the order is free)."""
    import re

    api = (Path(__file__).resolve().parent.parent / "docs" / "API.md")
    if not api.exists():
        pytest.skip("needs the source checkout's docs/API.md")
    rows = {}
    for line in api.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `([^`]+)`( \(([^)]*)\))? \| (.*) \|$", line)
        if match and match.group(1).split()[0] in ("analyse", "score", "simulate"):
            top = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "", match.group(4))
            rows[(match.group(1), match.group(3))] = set(re.findall(r"`(\w+)`", top))
    commands = {
        ("analyse", "13 − 3·melds tiles"): ["analyse", "[555p,1]123m67s88sEEE"],
        ("analyse", "14 − 3·melds tiles"): ["analyse", "[555p,1]123m678s88sEEE"],
        ("score mcr", None): ["score", "mcr", "[555p,1]123p789p88pEEE"],
        ("score sichuan", "a win"): ["score", "sichuan", "[2222p,1]33p456p789p11p1p", "--void", "s"],
        ("score sichuan", "a waiting hand"): ["score", "sichuan", "[2222p,1]33p456p789p11p", "--void", "s"],
        ("score changbai", None): ["score", "changbai", "[123m,1][123m,3]456p789s5s5s"],
        ("simulate", None): ["simulate", "mcr", "--hands", "4", "--no-progress"],
    }
    assert set(rows) == set(commands)
    for key, args in commands.items():
        printed = json.loads(cli(*args, "--json").stdout)
        assert rows[key] == set(printed), (key, rows[key] ^ set(printed))


@pytest.mark.parametrize("args, says", [
    (["score", "sichuan", "[2222p,1]33p456p789s11s", "--void", "m", "--kong-replacement"],
     "error: --kong-replacement: a waiting hand (13 tiles) is valued per wait"),
    (["simulate", "mcr", "--hands", "4", "--no-progress", "--fresh"], "error: --fresh starts a results file over"),
    (["analyse", "[555p,1]123m678s88sEEE", "--top", "-1"], "--top: must be a whole number of at least 1, got '-1'"),
])
def test_an_option_that_would_do_nothing_is_refused(args, says):
    """Options that were silently ignored: a flag on a waiting hand, --fresh without a file, --top < 1."""
    result = cli(*args)
    assert result.returncode == 2 and says in result.stderr and result.stdout == "", result.stderr


def test_analyse_json_names_the_forms_as_the_option_does(capsys):
    """`--json`'s "forms" is the `--forms` value (what the text shows), so it can be passed back."""
    from mahjong_core.cli import main

    for forms in ("mcr", "sichuan", "standard"):
        assert main(["analyse", "123m456p789s11sEEE", "--forms", forms, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["forms"] == forms


def test_every_score_command_takes_plain(capsys):
    """`--plain` drops the tile glyphs in every ruleset's `score`, as in `analyse`."""
    from mahjong_core.cli import main

    for args in (["sichuan", "[2222p,1]33p456p789p11p1p"], ["changbai", "[123m,1][123m,3]456p789s5s5s"]):
        main(["score", *args])
        assert any("\U0001F000" <= ch <= "\U0001F02B" for ch in capsys.readouterr().out)
        main(["score", *args, "--plain"])
        assert not any("\U0001F000" <= ch <= "\U0001F02B" for ch in capsys.readouterr().out)
