"""mahjong_core.botzone: tiles, protocol, the judge's table (BotzoneGame / Table), the kit, run, match.

The table's agreement with the real judge is checked on recorded judge games in
tests/test_botzone_fixtures.py (and live, when the judge is built, in tests/test_botzone_judge.py).
"""

import contextlib
import io
import json
import random
import sys

import pytest

from mahjong_core import MahjongError
from mahjong_core.botzone import BotzoneProtocolError, BotzoneState, Table, new_game, parse_request
from mahjong_core.botzone import tiles as bt
from mahjong_core.botzone.protocol import format_response
from mahjong_core.botzone.run import KEEP_RUNNING, run
from mahjong_core.botzone.table import parse_walltiles, walltiles_from_seed
from mahjong_core.errors import IllegalActionError, ParseError
from mahjong_core.game import new_game as engine_new_game
from mahjong_core.game.actions import CHOW, DISCARD, KONG, PASS, PUNG, WIN, ActionKind
from mahjong_core.game.wall import tile_name
from mahjong_core.rules import mcr


# -- tiles and protocol ----------------------------------------------------------------------------

def test_tile_codes_round_trip_and_order():
    assert [bt.tile_index(bt.code(t)) for t in range(42)] == list(range(42))
    assert bt.code(0) == "W1" and bt.code(9) == "B1" and bt.code(18) == "T1"
    assert bt.code(27) == "F1" and bt.code(31) == "J1" and bt.code(33) == "J3" and bt.code(41) == "H8"
    assert bt.codes_to_tiles("W1 J2") == [0, 32] and bt.tiles_to_codes([0, 32]) == "W1 J2"
    with pytest.raises(ParseError, match="'W0' is not a Botzone tile code"):
        bt.tile_index("W0")
    with pytest.raises(ParseError):
        bt.code(42)


def test_parse_requests():
    assert parse_request("0 2 1") == parse_request("0 2 1") and parse_request("0 2 1").seat == 2
    deal = parse_request("1 0 1 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2 H3")
    assert deal.flower_counts == (0, 1, 0, 0) and deal.hand[0] == 0 and deal.flowers == (36,)
    assert parse_request("2 J3").tile == 33
    chi = parse_request("3 1 CHI T5 W9")
    assert (chi.kind, chi.seat, chi.middle, chi.tile) == ("chi", 1, 22, 8)
    assert parse_request("3 0 GANG").kind == "gang" and parse_request("3 3 BUGANG F4").tile == 30


@pytest.mark.parametrize("line,where", [
    ("", "is empty"), ("4 1 2", "field 1"), ("0 5 1", "field 2 (myID)"), ("2 X9", "field 2 (drawn tile)"),
    ("3 1 PLAY", "field 4 (tile) is missing"), ("3 1 FOO W1", "field 3"), ("3 1 CHI W1 W2", "middle of a chow"),
    ("1 0 0 0 1 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2", "expected 19 fields"),
    ("3 1 BUHUA W1", "not a flower"),
])
def test_malformed_requests_name_line_and_field(line, where):
    with pytest.raises(BotzoneProtocolError, match="request line 7") as info:
        parse_request(line, 7)
    assert where in str(info.value)
    assert isinstance(info.value, MahjongError)


def test_format_response():
    assert format_response(DISCARD[0]) == "PLAY W1" and format_response(PASS) == "PASS" and format_response(WIN) == "HU"
    assert format_response(KONG) == "GANG"
    assert format_response(PUNG, DISCARD[33]) == "PENG J3"
    assert format_response(CHOW[1], 5, claimed=3) == "CHI W5 W6"  # W4 is the lowest of W4 W5 W6
    with pytest.raises(BotzoneProtocolError, match="needs the discard"):
        format_response(PUNG)


# -- walls ----------------------------------------------------------------------------------------

def test_walltiles():
    wt = walltiles_from_seed(5)
    assert wt == walltiles_from_seed(5) != walltiles_from_seed(6)
    assert len(parse_walltiles(wt)) == 136 and len(parse_walltiles(walltiles_from_seed(5, flowers=True))) == 144
    with pytest.raises(BotzoneProtocolError, match="tile 3 is 'Q1'"):
        parse_walltiles("W1 W2 Q1")
    with pytest.raises(BotzoneProtocolError, match="not a full set"):
        parse_walltiles(" ".join(["W1"] * 136))
    assert Table(seed=5).walltiles == wt == Table(walltiles=wt).walltiles


def test_the_deal_follows_the_judge():
    wt = walltiles_from_seed(11, flowers=True).split(" ")
    table = Table(walltiles=" ".join(wt))
    assert table.requests() == {i: f"0 {i} 0" for i in range(4)}
    table.respond({i: "PASS" for i in range(4)})
    deal = table.requests()
    for seat in range(4):
        part = wt[36 * seat: 36 * seat + 36]
        taken = [c for c in reversed(part)]
        tiles = [c for c in taken if not c.startswith("H")][:13]
        assert deal[seat].split(" ")[5:18] == tiles  # drawn from the END of the own part
    assert table.game.turn == 0 and table.game.dealer == 0


def test_new_game_and_engine_new_game_are_the_same_table():
    for seed in (1, 2, 3):
        wt = walltiles_from_seed(seed, flowers=seed == 3)
        a = new_game(walltiles=wt, quan=2)
        b = engine_new_game("mcr", rules="botzone", wall=[tile_name(t) for t in parse_walltiles(wt)], prevalent_wind=2)
        assert type(a) is type(b) and a.rules == b.rules and b.rules.flowers == (seed == 3)
        rng = random.Random(seed)
        while not a.finished:
            for seat, actions in sorted(a.pending().items()):
                choice = rng.choice(actions)
                a.act(seat, choice)
                b.act(seat, choice)
        assert b.finished and a.log["events"] == b.log["events"] and a.state() == b.state()


def test_official_presets_keep_the_standard_table():
    assert type(engine_new_game("mcr", seed=1)).__name__ == "MCRGame"
    assert mcr.Rules.presets["official"].table == "standard"
    with pytest.raises(MahjongError, match="no dealer"):
        engine_new_game("mcr", rules="botzone", seed=1, dealer=2)


# -- the table's rules ------------------------------------------------------------------------------

def _to_first_draw(seed=3):
    table = Table(seed=seed)
    table.respond({i: "PASS" for i in range(4)})
    table.respond({i: "PASS" for i in range(4)})
    while table.round_kind == "buhua":  # pragma: no cover - 136-tile walls have no flowers
        table.respond({i: "PASS" for i in range(4)})
    assert table.round_kind == "draw" and table.requests()[0].startswith("2 ")
    return table


def _discard_of(table, seat=0):
    return next(t for t in sorted(table.legal_responses(seat)) if t.startswith("PLAY"))


def test_wrong_answer_is_wa():
    table = _to_first_draw()
    table.respond({0: "PLAY W0", 1: "PASS", 2: "PASS", 3: "PASS"})
    assert table.finished and table.scores == [-30, 10, 10, 10]
    assert table.display["action"] == "WA" and table.display["player"] == 0
    assert table.log["log"][-1]["output"] == {"command": "finish", "content": {"0": -30, "1": 10, "2": 10, "3": 10},
                                              "display": table.display}
    with pytest.raises(BotzoneProtocolError, match="game is over"):
        table.respond({})


def test_the_judge_checks_seats_in_order():
    table = _to_first_draw()
    # seat 1 must PASS while seat 0 draws: its HU is a WA, checked before seat 0's fine answer? No:
    # the draw round checks seats 0..3 in order, so seat 0's legal discard passes and seat 1 is WA.
    table.respond({0: _discard_of(table), 1: "HU", 2: "PLAY W1", 3: "PASS"})
    assert table.display["action"] == "WA" and table.display["player"] == 1


def test_false_win_is_wh_and_legal_marks_win_only_where_it_wins():
    table = _to_first_draw()
    assert "HU" not in table.legal_responses(0) and WIN not in table.game.legal_actions(0)
    table.respond({0: "HU", 1: "PASS", 2: "PASS", 3: "PASS"})
    assert table.display["action"] == "WH" and table.scores == [-30, 10, 10, 10]
    assert table.game.penalty == (0, "WH") and table.game.ledger.totals() == [-30, 10, 10, 10]


def test_verdicts_are_punished_by_name():
    table = _to_first_draw()
    table.respond({0: "", 1: "PASS", 2: "PASS", 3: "PASS"}, {0: "TLE"})
    assert table.display["action"] == "TLE" and table.scores == [-30, 10, 10, 10]


def test_game_rejects_bad_actions_and_penalties_without_change():
    game = new_game(walltiles=walltiles_from_seed(4))
    before = game.state()
    with pytest.raises(IllegalActionError):
        game.act(1, DISCARD[0])
    with pytest.raises(IllegalActionError):
        game.act(0, PUNG)
    assert game.state() == before
    game.penalize(2, "WA")
    assert game.finished and game.ledger.totals() == [10, 10, -30, 10]
    with pytest.raises(IllegalActionError, match="hand is over"):
        game.penalize(1)
    assert game.log["events"][-2] == {"type": "penalty", "seat": 2, "code": "WA"}


def test_every_discard_asks_the_three_others():
    game = new_game(walltiles=walltiles_from_seed(8))
    seat = game.turn
    discard = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.DISCARD)
    game.act(seat, discard)
    assert sorted(game.pending()) == [s for s in range(4) if s != seat]
    assert all(acts[-1] is PASS for acts in game.pending().values())


# -- the kit ------------------------------------------------------------------------------------------

def _history(seed, rounds):
    """Play `rounds` rounds of a table with first-legal answers; returns (table, per-seat requests, responses)."""
    table = Table(seed=seed)
    reqs, resps = [[] for _ in range(4)], [[] for _ in range(4)]
    for _ in range(rounds):
        if table.finished:
            break
        lines = table.requests()
        answers = {}
        for s in range(4):
            reqs[s].append(lines[s])
            legal = sorted(table.legal_responses(s))
            answers[s] = next((x for x in legal if not x.startswith("HU")), legal[0])
            resps[s].append(answers[s])
        table.respond(answers)
    return table, reqs, resps


def test_state_from_requests_is_the_engine_view():
    table, reqs, resps = _history(21, 40)
    game = table.game
    for s in range(4):
        lines = reqs[s] + [table.requests()[s]]
        state = BotzoneState.from_requests(lines, resps[s])
        if s in game.pending():
            assert state.view() == game.view(s)
            assert state.mask() == game.legal_mask(s)
        assert list(state.hand) == list(game.hands[s])


def test_state_errors():
    with pytest.raises(BotzoneProtocolError, match="request line 1"):
        BotzoneState.from_requests(["1 0 0 0 0 W1"], [])
    with pytest.raises(BotzoneProtocolError, match="need 1 responses"):
        BotzoneState.from_requests(["0 0 0", "2 W1"], ["PASS", "PASS", "PASS"])
    with pytest.raises(BotzoneProtocolError, match="first request"):
        BotzoneState.from_requests(["2 W1"])
    state = BotzoneState.from_requests(["0 1 0", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2"], ["PASS"])
    with pytest.raises(BotzoneProtocolError, match="holds 0 J3"):
        state.feed("3 1 PLAY J3")


def test_kit_pung_is_two_decisions():
    lines = ["0 1 0", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2", "3 0 DRAW", "3 0 PLAY F1"]
    state = BotzoneState.from_requests(lines, ["PASS"] * 3)
    assert state.legal == [PUNG, KONG, PASS] if state.hand[27] == 3 else state.legal == [PUNG, PASS]
    assert state.hand_text() == "123m456p789sEECF"  # W = m, B = p, T = s; F1 = E, J1 = C, J2 = F
    assert repr(state) == "<BotzoneState seat=1 claim turn=0 hand=123m456p789sEECF walls=[20, 21, 21, 21] legal=[Pung, Pass]>"
    assert state.claim(PUNG).phase == "after_claim" and len(state.melds[1]) == 1
    assert state.respond(DISCARD[32]) == "PENG J2"
    assert state.phase == "claim" and state.melds[1] == [] and state.legal == [PUNG, PASS]


def test_run_simple_json_and_keep_running():
    lines = ["0 0 2", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2", "2 J3"]
    decide = lambda state: max(a for a in state.legal if a.kind is ActionKind.DISCARD) if False else \
        next(a for a in state.legal if a.kind is ActionKind.DISCARD)
    out = io.StringIO()
    run(decide, stdin=io.StringIO("3\n0 0 2\nPASS\n" + lines[1] + "\nPASS\n2 J3\n"), stdout=out)
    assert out.getvalue() == "PLAY W1\n"
    out = io.StringIO()
    run(decide, stdin=io.StringIO(json.dumps({"requests": lines, "responses": ["PASS", "PASS"]})), stdout=out)
    assert json.loads(out.getvalue()) == {"response": "PLAY W1"}
    out = io.StringIO()
    run(decide, keep_running=True, stdout=out,
        stdin=io.StringIO("1\n0 0 2\n1\n" + lines[1] + "\n1\n2 J3\n1\n3 0 PLAY W1\n"))
    assert out.getvalue().split("\n") == ["PASS", KEEP_RUNNING, "PASS", KEEP_RUNNING, "PLAY W1", KEEP_RUNNING,
                                          "PASS", KEEP_RUNNING, ""]


def test_run_falls_back_to_a_legal_answer(capsys):
    out = io.StringIO()
    run(lambda state: PUNG, stdin=io.StringIO("3\n0 0 2\nPASS\n1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2\nPASS\n2 J3\n"),
        stdout=out)
    assert out.getvalue() == "PLAY W1\n" and "answering" in capsys.readouterr().err


@pytest.mark.parametrize("text, sent", [
    ("PLAY W1", "PLAY W1"), (" PLAY W1\n", "PLAY W1"),  # a legal text goes out (tidied)
    ("PLAY W9", "PLAY W1"), ("PLAY W0", "PLAY W1"), ("play W1", "PLAY W1"), ("PENG J2", "PLAY W1"),
    ("debug: my hand", "PLAY W1"),  # an illegal or malformed one is replaced by the first legal answer
])
def test_run_checks_a_response_text_from_decide(text, sent, capsys):
    """A text from `decide` is checked as an Action is: an illegal one would be a WA on Botzone."""
    out = io.StringIO()
    run(lambda state: text,
        stdin=io.StringIO("3\n0 0 2\nPASS\n1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2\nPASS\n2 J3\n"), stdout=out)
    assert out.getvalue() == sent + "\n"
    assert ("answering" in capsys.readouterr().err) == (text.strip() != sent)


def test_what_decide_prints_goes_to_stderr_not_into_the_answer(capsys):
    def chatty(state):
        print("debug: my hand", list(state.hand))
        return next(a for a in state.legal if a.kind is ActionKind.DISCARD)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # (run's default output is the process's stdout)
        run(chatty, stdin=io.StringIO("3\n0 0 2\nPASS\n1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2\nPASS\n2 J3\n"))
    assert out.getvalue() == "PLAY W1\n" and "debug: my hand" in capsys.readouterr().err


def test_run_accepts_a_claim_and_its_discard_as_one_text(capsys):
    """Seat 1 holds F1 F1 and seat 0 discards F1: "PENG J2" (the pung, then J2 out) goes out as it
    is; a pung with a tile the hand does not hold after it is replaced by the first legal answer."""
    requests = ["0 1 0", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2", "3 0 DRAW", "3 0 PLAY F1"]
    game = json.dumps({"requests": requests, "responses": ["PASS"] * 3})
    for text, sent in (("PENG J2", "PENG J2"), ("PENG F1", "PENG W1")):
        out = io.StringIO()
        run(lambda state: text, stdin=io.StringIO(game), stdout=out)
        assert json.loads(out.getvalue())["response"] == sent
    assert "decide returned 'PENG F1'" in capsys.readouterr().err


# -- the local judge -------------------------------------------------------------------------------------

def test_match_with_builtin_bots_is_reproducible():
    from mahjong_core.botzone.judge import match

    a = match(["greedy", "random", "greedy", "random"], games=3, seed=2)
    b = match(["greedy", "random", "greedy", "random"], games=3, seed=2)
    assert a.to_dict() == b.to_dict() and [l["log"] for l in a.logs] == [l["log"] for l in b.logs]
    assert sum(s.score for s in a.seats) == 0 and sum(a.outcomes.values()) == 3
    for log in a.logs:
        assert log["log"][-1]["output"]["command"] == "finish" and "walltiles" in log["initdata"]


def test_match_runs_programs_and_punishes_them(tmp_path):
    from mahjong_core.botzone.judge import match

    silly = tmp_path / "silly.py"
    silly.write_text("import sys\nsys.stdin.read()\nprint('PLAY W0')\n")
    result = match([f"{sys.executable} {silly}", "random", "random", "random"], games=1, seed=1,
                   time_limit=30, logs_dir=str(tmp_path / "logs"))
    assert result.seats[0].penalties == {"WA": 1} and result.seats[0].score == -30
    saved = json.loads((tmp_path / "logs" / "game-00000.json").read_text())
    assert saved["log"][-1]["output"]["display"]["action"] == "WA"
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(5)\n")
    result = match([f"{sys.executable} {slow}", "random", "random", "random"], games=1, seed=1, time_limit=0.3)
    assert result.seats[0].penalties == {"TLE": 1}


def test_kit_bot_plays_a_keep_running_match():
    import os

    from mahjong_core.botzone.judge import match

    example = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "botzone_bot.py")
    result = match([f"{sys.executable} {example}", "greedy", "random", "greedy"], games=1, seed=4, keep_running=True,
                   time_limit=60)
    assert result.seats[0].penalties == {} and sum(result.outcomes.values()) == 1
