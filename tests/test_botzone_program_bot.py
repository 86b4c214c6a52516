"""Botzone-protocol programs as simulate / Match bots (`mahjong_core.botzone.program.ProgramBot`).

A real program — `examples/botzone_bot.py` run as a subprocess, and a small C++ bot compiled here —
plays whole hands on the Botzone table next to in-process bots, and its results equal those of the
same strategy written as an engine `Bot` (an independent, in-process implementation) for the same
seeds: normal and duplicate mode, one process or two workers (Ray workers: test_game_ray.py).
Misbehaving programs (garbage, a crash, a hang) are penalised as Botzone's judge does, and no
program process outlives a run.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import time

import pytest

from mahjong_core.errors import MahjongError
from mahjong_core.game.match import Match
from mahjong_core.game.actions import DISCARD, PASS
from mahjong_core.game.bots import Bot
from mahjong_core.game.botspec import bot_spec, split_bot_list
from mahjong_core.game.simulate import simulate
from program_bots import (EXAMPLE, PY, ROOT, ExampleBot, assert_same_play, example_spec, needs_proc,
                          new_marker, running_programs)

CPP_BOT = os.path.join(ROOT, "tests", "data", "botzone_programs", "drawn_out.cpp")
#: the test's own programs use the standard library only: `-S` (no site) starts them in a quarter of
#: the time, which counts for programs started afresh every round
BARE_PY = f"{PY} -S"


class DrawnOutBot(Bot):
    """drawn_out.cpp's strategy as an engine bot: discard the drawn tile, pass everything else."""

    def choose(self, game, seat, actions):
        if game.turn == seat and game.drawn >= 0 and DISCARD[game.drawn] in actions:
            return DISCARD[game.drawn]
        return PASS


pytestmark = needs_proc


# -- the spec ---------------------------------------------------------------------------------

def test_the_spec_string_is_plain_data_with_its_options():
    spec = bot_spec(f"botzone(keep_running=True, timeout=2.5):{PY} {EXAMPLE}")
    assert spec.label == f"botzone(keep_running=True, timeout=2.5):{PY} {EXAMPLE}"
    assert pickle.loads(pickle.dumps(spec)) == spec
    bot = spec.build()
    assert (bot.command, bot.keep_running, bot.timeout) == (f"{PY} {EXAMPLE}", True, 2.5)
    assert bot._seats == {}  # nothing started before a question
    plain = bot_spec(f"botzone:{PY} {EXAMPLE}").build()
    assert (plain.keep_running, plain.timeout) == (False, 1.0)
    mapping = bot_spec({"bot": f"botzone:{PY} {EXAMPLE}", "args": {"keep_running": True}, "name": "ex"})
    assert mapping.label == "ex" and mapping.build().keep_running
    copy = pickle.loads(pickle.dumps(bot))  # an instance travels as its command and options
    assert (copy.command, copy.keep_running, copy.timeout) == (bot.command, True, 2.5)
    assert split_bot_list(f"botzone(keep_running=True, timeout=2):{PY} x.py,greedy") == [
        f"botzone(keep_running=True, timeout=2):{PY} x.py", "greedy"]


@pytest.mark.parametrize("text, message", [
    ("botzone:", "command is missing"),
    ("botzone:/no/such/bot", "not found"),
    ("botzone(speed=3):./bot", "options are"),
    ("botzone(keep_running=True:./bot", "botzone(keep_running=True"),
    ("botzone(timeout=0):" + PY, "timeout must be a positive"),
    ("botzone(interaction='xml'):" + PY, "'simple' or 'json'"),
    ("botzone(interaction='json', keep_running=True):" + PY, "JSON interaction is supported for programs started"),
])
def test_bad_program_specs_say_what_is_wrong(text, message):
    with pytest.raises(MahjongError, match=message.replace("(", r"\(")):
        bot_spec(text)


def test_other_rulesets_and_presets_are_refused_clearly():
    marker = new_marker()
    for ruleset, rules in (("sichuan", None), ("mcr", None)):
        with pytest.raises(MahjongError, match="Botzone table only"):
            simulate(ruleset, 1, rules=rules, bots=[example_spec(marker), "greedy", "greedy", "greedy"])
    assert running_programs(marker) == 0


# -- real programs ----------------------------------------------------------------------------

def test_the_example_program_plays_as_its_in_process_counterpart():
    marker = new_marker()
    program = simulate("mcr", 12, seed=3, rules="botzone", bots=[example_spec(marker), "greedy", "greedy", "greedy"])
    local = simulate("mcr", 12, seed=3, rules="botzone", bots=[ExampleBot, "greedy", "greedy", "greedy"])
    assert_same_play(program, local)
    assert program.seats[0].wins + sum(s.wins for s in program.seats[1:]) > 0  # hands were won, not only drawn
    assert running_programs(marker) == 0


def test_duplicate_mode_and_two_workers_give_the_same_results():
    marker = new_marker()
    bots = [example_spec(marker), "greedy", "greedy", "greedy"]
    local = simulate("mcr", 8, seed=5, rules="botzone", duplicate=True, bots=[ExampleBot, "greedy", "greedy", "greedy"])
    one = simulate("mcr", 8, seed=5, rules="botzone", duplicate=True, bots=bots)
    two = simulate("mcr", 8, seed=5, rules="botzone", duplicate=True, bots=bots, workers=2, task_hands=4,
                   start_method="spawn")
    assert_same_play(one, local)
    assert_same_play(two, local)
    assert two.timing["backend"] == "processes" and two.timing["tasks"] == 2
    assert running_programs(marker) == 0  # the workers stopped their programs at the end of each task


DRAWN_OUT_PY = """
import sys
n = int(sys.stdin.readline())
lines = [sys.stdin.readline().rstrip("\\n") for _ in range(2 * n - 1)]
fields = lines[-1].split()
print("PLAY " + fields[1] if fields[0] == "2" else "PASS")
"""


PRETTY_JSON_PY = DRAWN_OUT_PY.replace(
    'print("PLAY " + fields[1] if fields[0] == "2" else "PASS")',
    'import json\nprint(json.dumps({"response": "PLAY " + fields[1] if fields[0] == "2" else "PASS"}, indent=4))')


def test_a_json_answer_over_several_lines_is_read_whole(tmp_path):
    # JSON interaction's {"response": ...}, printed indented as jsoncpp's `cout << value` does
    marker = new_marker()
    script = _script(tmp_path, "pretty.py", PRETTY_JSON_PY)
    assert "indent=4" in PRETTY_JSON_PY
    program = simulate("mcr", 1, seed=4, rules="botzone", bots=["greedy", f"botzone(timeout=10):{BARE_PY} {script} {marker}",
                                                                "greedy", "greedy"])
    local = simulate("mcr", 1, seed=4, rules="botzone", bots=["greedy", DrawnOutBot, "greedy", "greedy"])
    assert_same_play(program, local)
    assert running_programs(marker) == 0


def test_a_program_restarted_every_round_plays_the_same(tmp_path):
    # without keep-running a program is started afresh every round with the whole history, as on Botzone
    marker = new_marker()
    script = _script(tmp_path, "drawn_out.py", DRAWN_OUT_PY)
    program = simulate("mcr", 1, seed=2, rules="botzone", bots=[f"botzone(timeout=10):{BARE_PY} {script} {marker}",
                                                                "greedy", "greedy", "greedy"])
    local = simulate("mcr", 1, seed=2, rules="botzone", bots=[DrawnOutBot, "greedy", "greedy", "greedy"])
    assert_same_play(program, local)
    assert running_programs(marker) == 0


def test_a_program_instance_plays_in_a_match():
    from mahjong_core.botzone.program import ProgramBot

    marker = new_marker()
    bot = ProgramBot([PY, EXAMPLE, marker], keep_running=True, timeout=10)
    match = Match("mcr", seed=4, rules="botzone").play([bot, "greedy", "greedy", "greedy"], hands=3)
    local = Match("mcr", seed=4, rules="botzone").play([ExampleBot(), "greedy", "greedy", "greedy"], hands=3)
    assert match.history == local.history
    assert [h["prevalent_wind"] for h in match.history] == [0, 1, 2]  # the judge's quan = game % 4
    assert running_programs(marker) == 0


def test_one_program_instance_can_play_every_seat():
    from mahjong_core.botzone.program import ProgramBot

    marker = new_marker()
    bot = ProgramBot([PY, EXAMPLE, marker], keep_running=True, timeout=10)
    program = simulate("mcr", 2, seed=8, rules="botzone", bots=bot)  # one instance, four seats: four programs
    assert_same_play(program, simulate("mcr", 2, seed=8, rules="botzone", bots=ExampleBot))
    assert sorted(bot._seats) == [0, 1, 2, 3]
    assert running_programs(marker) == 0


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory):
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed: the C++ bot cannot be built")
    exe = str(tmp_path_factory.mktemp("cppbot") / "drawn_out")
    subprocess.run([compiler, "-O1", "-o", exe, CPP_BOT], check=True)
    return exe


def test_a_cpp_program_plays_as_its_in_process_counterpart(cpp_bot):
    marker = new_marker()
    spec = f"botzone(timeout=5):{cpp_bot} {marker}"
    program = simulate("mcr", 8, seed=7, rules="botzone", duplicate=True, bots=[spec, "greedy", spec, "greedy"])
    local = simulate("mcr", 8, seed=7, rules="botzone", duplicate=True,
                     bots=[DrawnOutBot, "greedy", DrawnOutBot, "greedy"])
    assert_same_play(program, local)
    assert running_programs(marker) == 0


# -- misbehaving programs ---------------------------------------------------------------------

def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return str(path)


KEEP_RUNNING_GARBAGE = """
import sys
while True:
    n = int(sys.stdin.readline())
    for _ in range(2 * n - 1):
        sys.stdin.readline()
    print("PLAY W1")
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""


@pytest.mark.parametrize("body, keep_running", [
    ("print('FOO')\n", False),                                   # garbage in the first round: WA
    ("import sys\nsys.stdin.read()\nprint('PASS')\n", False),    # PASS where it must play: WA
    (KEEP_RUNNING_GARBAGE, True),                                # a wrong answer, kept running
])
def test_a_wrong_answer_is_wa(tmp_path, body, keep_running):
    marker = new_marker()
    bot = f"botzone(keep_running={keep_running}, timeout=5):{BARE_PY} {_script(tmp_path, 'bad.py', body)} {marker}"
    result = simulate("mcr", 3, seed=1, rules="botzone", bots=[bot, "greedy", "greedy", "greedy"], keep_totals=True)
    totals = list(result.extra["hand_totals"])
    assert totals == [-30, 10, 10, 10] * 3  # -30 for the program's seat, +10 for each other: every hand
    assert result.seats[0].wins == 0
    assert running_programs(marker) == 0


@pytest.mark.parametrize("body, code, timeout", [
    ("import sys\nsys.exit(3)\n", "RE", 5.0),                    # dies without answering
    ("import time\ntime.sleep(60)\n", "TLE", 0.3),               # hangs
    ("import sys\nsys.stdin.read()\nprint('PLAY W1 W2')\n", "WA", 5.0),   # not an answer
    ("import sys\nsys.stdin.read()\n", "WA", 5.0),               # exits cleanly, says nothing
])
def test_a_crash_is_re_a_hang_tle_and_garbage_wa(tmp_path, body, code, timeout):
    from mahjong_core.botzone.program import ProgramBot
    from mahjong_core.game import new_game
    from mahjong_core.game.simulate import play_hand
    from mahjong_core.game.bots import GreedyBot

    marker = new_marker()
    bot = ProgramBot([PY, "-S", _script(tmp_path, "bad.py", body), marker], timeout=timeout)
    game = new_game("mcr", rules="botzone", seed=9)
    bots = [GreedyBot(), bot, GreedyBot(), GreedyBot()]
    for b in bots:
        b.new_hand(random.Random(0))
    started = time.monotonic()
    play_hand(game, bots)
    assert time.monotonic() - started < 10
    assert game.finished and game.penalty == (1, code)
    assert game.ledger.totals() == [10, -30, 10, 10]
    assert running_programs(marker) == 0  # a penalised program is stopped at once


def test_a_dropped_bot_takes_its_program_with_it(tmp_path):
    from mahjong_core.botzone.program import ProgramBot
    from mahjong_core.game import new_game

    marker = new_marker()
    bot = ProgramBot([PY, EXAMPLE, marker], keep_running=True, timeout=10)
    game = new_game("mcr", rules="botzone", seed=1)
    seat, actions = next(iter(game.pending().items()))
    assert seat == 0 and bot.choose(game, 0, actions) in actions
    assert running_programs(marker) == 1  # alive between rounds
    del bot
    import gc

    gc.collect()
    deadline = time.monotonic() + 5
    while running_programs(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running_programs(marker) == 0


# -- the command line -------------------------------------------------------------------------

def test_simulate_and_league_commands_take_a_program(tmp_path, capsys):
    import json

    from mahjong_core.cli import main

    marker = new_marker()
    program = example_spec(marker)
    assert main(["simulate", "mcr", "--preset", "botzone", "--hands", "4", "--seed", "3", "--no-progress", "--json",
                 "--bots", f"{program},greedy,greedy,greedy"]) == 0
    out = json.loads(capsys.readouterr().out)
    local = simulate("mcr", 4, seed=3, rules="botzone", bots=[ExampleBot, "greedy", "greedy", "greedy"])
    assert out["bots"][0] == program and out["checksum"] == local.checksum
    league = tmp_path / "bots.toml"
    league.write_text(f'''
[league]
ruleset = "mcr"
preset = "botzone"
hands = 4

[[bot]]
name = "program"
spec = "botzone:{PY} {EXAMPLE} {marker}"
args = {{ keep_running = true, timeout = 10.0 }}

[[bot]]
name = "g1"
spec = "greedy"

[[bot]]
name = "g2"
spec = "greedy"

[[bot]]
name = "g3"
spec = "greedy"
''')
    assert main(["league", str(league), "--json", "--no-progress"]) == 0
    standings = json.loads(capsys.readouterr().out)
    table = standings["tables"][0]
    assert table["bots"] == ["program", "g1", "g2", "g3"] and table["preset"] == "botzone"
    duplicate = simulate("mcr", 4, seed=1, rules="botzone", duplicate=True,
                         bots=[ExampleBot, "greedy", "greedy", "greedy"])
    assert table["checksum"] == duplicate.checksum
    assert running_programs(marker) == 0


# -- what the program is told -----------------------------------------------------------------

@pytest.mark.parametrize("flowers", [False, True])
def test_the_program_is_told_its_seats_view_exactly(flowers):
    """At every question, the seat's BotzoneState rebuilt from the request lines the program got
    (and its answers) equals the engine's view of that seat: the lines carry that seat's
    information, all of it (with flowers: the 补花 rounds too)."""
    from mahjong_core import botzone
    from mahjong_core.botzone import BotzoneState
    from mahjong_core.botzone.program import ProgramBot
    from mahjong_core.game.bots import GreedyBot
    from mahjong_core.game.simulate import play_hand
    from mahjong_core.game.wall import tile_name

    checked = []

    class Checking(ProgramBot):
        def choose(self, game, seat, actions):
            asked = len(self.history(seat)) if seat in self._seats and self._seats[seat].game is game else 0
            action = super().choose(game, seat, actions)
            history = self.history(seat)
            if len(history) > asked and not game.finished:
                state = BotzoneState.from_requests(history[0::2], history[1::2][:-1])
                assert state.view() == game.view(seat)
                checked.append(seat)
            return action

    marker = new_marker()
    for seed in (1, 2, 3):
        game = botzone.new_game(seed=seed, flowers=flowers, quan=seed % 4)
        deal = botzone.Table.of_game(game).take_rounds()[1]
        for s in range(4):  # the deal event shows each seat the hand its deal request names
            dealt = [t for t in game.events(s)[0]["hands"][s] if t not in "abcdefgh"]
            assert dealt == [tile_name(botzone.tile_index(c)) for c in deal.requests[s].split()[5:18]]
        bots = [GreedyBot(), Checking([PY, EXAMPLE, marker], keep_running=True, timeout=10),
                GreedyBot(), Checking([PY, EXAMPLE, marker], keep_running=True, timeout=10)]
        for b in bots:
            b.new_hand(random.Random(seed))
        play_hand(game, bots)
        assert game.finished and game.penalty is None
        if flowers:
            assert any(e[0] == "flower" for e in game._events)
        for b in bots:
            if isinstance(b, ProgramBot):
                b.close()
    assert set(checked) == {1, 3} and len(checked) > 50
    assert running_programs(marker) == 0


def test_botzones_own_sample_bot_plays_whole_hands(tmp_path):
    """Botzone's sample C++ bot (JSON interaction, its answer printed over several lines) — from the
    competition's repository, not shipped here: BOTZONE_SAMPLE_BOT=/path/to/sample.cpp (needs g++
    and libjsoncpp-dev). It plays a random tile of its hand, so only the protocol is checked: whole
    hands, never a penalty."""
    source = os.environ.get("BOTZONE_SAMPLE_BOT")
    if not source:
        pytest.skip("set BOTZONE_SAMPLE_BOT to Botzone's sample-bot-Botzone/sample.cpp")
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed: the sample bot cannot be built")
    from mahjong_core.botzone.program import ProgramBot
    from mahjong_core.game import new_game
    from mahjong_core.game.bots import GreedyBot
    from mahjong_core.game.simulate import play_hand

    exe = str(tmp_path / "sample")
    subprocess.run([compiler, "-O1", "-I/usr/include/jsoncpp", "-o", exe, source, "-ljsoncpp"], check=True)
    marker = new_marker()
    for seed in range(4):
        game = new_game("mcr", rules="botzone", seed=seed)
        bots = [GreedyBot(), ProgramBot([exe, marker], interaction="json", timeout=5), GreedyBot(), GreedyBot()]
        for b in bots:
            b.new_hand(random.Random(seed))
        play_hand(game, bots)
        assert game.finished and game.penalty is None
        bots[1].close()
    assert running_programs(marker) == 0
