"""The Botzone kit and judge against hostile input: answers and requests built to crash a parser
(deep JSON, non-ASCII or endless digits, impossible request sequences, JSON of the wrong shape,
megabyte lines) end in BotzoneProtocolError (or the bot's WA), with a message of bounded size; and
`BotzoneGame.penalize` writes a schema-valid, append-only event stream."""

import io
import json
import pathlib
import sys

import pytest

from mahjong_core.botzone import BotzoneProtocolError, BotzoneState, parse_request
from mahjong_core.botzone.judge import match
from mahjong_core.botzone.protocol import parse_response_text
from mahjong_core.botzone.run import run
from mahjong_core.botzone.state import parse_response
from mahjong_core.errors import ReplayError
from mahjong_core.game import new_game, replay

DEAL = "1 0 0 0 0 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 F1"
DEEP = "[" * 100_000 + "]" * 100_000
MEGABYTE = 1_000_000


def _first_legal(state):
    return state.legal[0]


def _run(text, keep_running=False, mode="auto"):
    out = io.StringIO()
    run(_first_legal, stdin=io.StringIO(text), stdout=out, keep_running=keep_running, mode=mode)
    return out.getvalue()


# -- 1. the judge reads a deeply nested answer as a wrong answer ---------------------------------------

def test_judge_takes_a_deeply_nested_json_answer_for_a_wrong_answer(tmp_path):
    bot = tmp_path / "deep_bot.py"
    bot.write_text("import sys\nsys.stdin.readline()\n"
                   "print('{\"response\": ' + '[' * 100000 + ']' * 100000 + '}', flush=True)\n")
    result = match([f"{sys.executable} {bot}", "random", "random", "random"], games=1, seed=1, time_limit=10.0)
    assert result.seats[0].penalties == {"WA": 1} and result.seats[0].score == -30
    assert result.outcomes == {"WA": 1}


# -- 2. request parsing: digits Python's str.isdigit accepts but int refuses; impossible sequences ---------

@pytest.mark.parametrize("line", ["0 0 ²", "0 ٣ 0", "0 0 " + "1" * 5000, "3 ¹ DRAW",
                                  "1 ¹ 0 0 0 " + " ".join(["W1"] * 13)])
def test_request_numbers_are_ascii_digits_of_bounded_length(line):
    with pytest.raises(BotzoneProtocolError, match=r"field 2|field 3") as info:
        parse_request(line)
    assert "not 0.." in str(info.value)


def test_request_numbers_with_leading_zeros_still_read():
    assert parse_request("0 02 03").seat == 2 and parse_request("0 02 03").quan == 3


@pytest.mark.parametrize("first", ["1" * 5000, "²", "٣", "0", "-1"])
def test_run_refuses_a_turn_number_that_is_not_a_small_ascii_number(first):
    with pytest.raises(BotzoneProtocolError, match="the first line is the turn number"):
        _run(f"{first}\n0 0 0\n")


def test_a_second_deal_is_refused_before_it_changes_the_hand():
    state = BotzoneState.from_requests(["0 0 0", DEAL], ["PASS"])
    hand = bytes(state.hand)
    with pytest.raises(BotzoneProtocolError, match=r"request line 3 \(deal\): the hand was dealt already"):
        state.feed(DEAL, "PASS")
    assert bytes(state.hand) == hand and max(state.hand) <= 4


def test_a_discard_of_the_added_kong_tile_before_the_kong_draw_is_a_protocol_error():
    requests = ["0 0 0", DEAL, "3 3 PLAY W1", "3 0 PENG F1", "3 1 DRAW", "3 1 PLAY B1", "3 2 DRAW", "3 2 PLAY B2",
                "3 3 DRAW", "3 3 PLAY B3", "2 W1", "3 0 BUGANG W1", "3 0 PLAY W1", "2 B4"]
    with pytest.raises(BotzoneProtocolError, match=r"request line 14 \(draw\): this seat's added kong of W1 needs"):
        BotzoneState.from_requests(requests, ["PASS"] * (len(requests) - 1))


# -- 3. run's JSON interaction: valid JSON of the wrong shape ---------------------------------------------

@pytest.mark.parametrize("data, what", [
    ({"requests": ["0 0 0", DEAL], "responses": 5}, "'responses' is a number, not an array"),
    ({"requests": ["0 0 0", DEAL], "responses": None}, "'responses' is null, not an array"),
    ({"requests": "0 0 0", "responses": []}, "'requests' is a string, not an array"),
    ({"requests": ["0 0 0", {"a": 1}], "responses": ["PASS"]}, r"requests\[1\] is an object, not a string"),
    ({"responses": []}, "'requests' is missing"),
    ([1, 2], "the input is an array"),
])
def test_run_json_of_the_wrong_shape_says_what_is_wrong(data, what):
    with pytest.raises(BotzoneProtocolError, match=what):
        _run(json.dumps(data) + "\n", mode="json")


def test_run_json_nested_too_deeply_is_a_protocol_error():
    with pytest.raises(BotzoneProtocolError, match="nests too deeply"):
        _run('{"requests": ' + DEEP + "}\n")


def test_keep_running_needs_a_response_per_new_request_but_the_last():
    first = json.dumps({"requests": ["0 0 0", DEAL], "responses": ["PASS"]})
    later = json.dumps({"requests": ["2 W5", "3 0 PLAY W5"], "responses": []})
    with pytest.raises(BotzoneProtocolError, match=r"2 new request\(s\) need 1 response\(s\).*got 0"):
        _run(first + "\n" + later + "\n", keep_running=True)


def test_run_still_reads_well_formed_json():
    out = _run(json.dumps({"requests": ["0 0 0", DEAL], "responses": ["PASS"]}) + "\n")
    assert json.loads(out) == {"response": "PASS"}


# -- 4. error messages quote at most the start of a long input --------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: parse_request("0 0 " + "1" * MEGABYTE),
    lambda: parse_request("3 0 " + "X" * MEGABYTE),
    lambda: parse_request("Z" * MEGABYTE),
    lambda: parse_response_text("PLAY " + "W" * MEGABYTE),
    lambda: parse_response_text("X" * MEGABYTE),
    lambda: parse_response("PLAY " + "W" * MEGABYTE, BotzoneState.from_requests(["0 0 0", DEAL], ["PASS"])),
    lambda: _run("{" + "x" * MEGABYTE + "\n"),
])
def test_long_inputs_are_quoted_short(call):
    with pytest.raises(BotzoneProtocolError) as info:
        call()
    message = str(info.value)
    assert len(message) < 400, message[:400]
    assert " characters)" in message


def test_short_inputs_are_quoted_whole():
    with pytest.raises(BotzoneProtocolError, match=r"request '0 0 9': field 3 \(quan\) is '9', not 0..3$"):
        parse_request("0 0 9")


# -- 5. BotzoneGame.penalize: a schema-valid, append-only, reproducible record ------------------------------

def _play_out(seed):
    game = new_game("mcr", rules="botzone", seed=seed)
    while not game.finished:
        for seat in game.pending():
            game.act(seat, game.default_action(seat), step=game.step)
    return game


def _penalized_log():
    game = new_game("mcr", rules="botzone", seed=5)
    for _ in range(10):
        for seat in game.pending():
            game.act(seat, game.default_action(seat), step=game.step)
    game.penalize(2, "WA")
    return json.loads(json.dumps(game.log))


def test_the_penalty_event_matches_the_event_schema():
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    schema_dir = pathlib.Path(__file__).resolve().parent.parent / "docs" / "schema"
    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in schema_dir.glob("*.schema.json")]
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas)
    by_title = {s["$id"].rsplit("/", 1)[-1]: s for s in schemas}
    log = _penalized_log()
    assert log["events"][-2] == {"type": "penalty", "seat": 2, "code": "WA"}
    validator = jsonschema.Draft202012Validator(by_title["log.schema.json"], registry=registry)
    assert [e.message for e in validator.iter_errors(log)] == []
    event = jsonschema.Draft202012Validator(by_title["event.schema.json"], registry=registry)
    assert not event.is_valid({"type": "penalty", "seat": 2})
    assert not event.is_valid({"type": "penalty", "seat": 2, "code": 5})


def test_a_penalized_log_holds_what_replaying_it_needs():
    """The answers, then `penalize` with the penalty event's seat and code, give the same log."""
    log = _penalized_log()
    game = new_game("mcr", rules="botzone", seed=log["seed"])
    for seat, code in log["actions"]:
        game.act(seat, code)
    penalty = [e for e in log["events"] if e["type"] == "penalty"][-1]
    game.penalize(penalty["seat"], penalty["code"])
    assert json.loads(json.dumps(game.log)) == log


def test_replay_reproduces_a_penalized_log():
    log = _penalized_log()
    assert replay(log).log == log
    tampered = dict(log, events=log["events"][:-2] + [{"type": "penalty", "seat": 1, "code": "WA"}] + log["events"][-1:])
    with pytest.raises(ReplayError):
        replay(tampered)


def test_a_penalty_after_a_drawn_hand_appends_and_never_rewrites_published_events():
    game = _play_out(0)
    assert game.exhausted and not game.winners
    published = [game.events(s) for s in (None, 0, 1, 2, 3)]
    assert [e["type"] for e in published[0][-2:]] == ["exhausted", "end"]
    count = game.event_count()
    game.penalize(2, "WA")
    for seat, seen in zip((None, 0, 1, 2, 3), published):
        assert game.events(seat)[:count] == seen  # indices already sent keep their events
        assert seen + game.events(seat, since=count) == game.events(seat)
    assert game.events(None, since=count) == [{"type": "penalty", "seat": 2, "code": "WA"},
                                              {"type": "end", "winners": [], "totals": [10, 10, -30, 10]}]
    assert game.finished and not game.exhausted and game.penalty == (2, "WA")
    assert game.ledger.totals() == [10, 10, -30, 10]


def test_respond_takes_a_claim_and_its_discard_as_a_pair_too():
    """`decide` may return (claim, discard); `respond` takes that pair as well as two arguments."""
    from mahjong_core.game.actions import DISCARD, PUNG

    state = BotzoneState.from_requests(["0 0 0", DEAL, "3 3 PLAY W1"], ["PASS", "PASS"])
    assert PUNG in state.legal
    tile = next(t for t in range(34) if state.hand[t] and t != 0)
    text = state.respond(PUNG, DISCARD[tile])
    assert text.startswith("PENG ") and state.respond((PUNG, DISCARD[tile])) == text
    with pytest.raises(BotzoneProtocolError):
        state.respond((PUNG, DISCARD[tile], 1))


@pytest.mark.parametrize("bad", ["3 0 PLAY", "3 7 PLAY W1", "2 Q9", "1 0 0 0 0 W1", "0 0 0", "3 1 PENG " + "W" * 5000,
                                 "3 2 CHI W2 W1", "9"])
def test_a_refused_request_leaves_the_state_as_it_was(bad):
    """`feed` is all or nothing: a keep-running bot that logs a bad line and goes on keeps its state."""
    from mahjong_core.botzone.state import _copied

    requests = ["0 0 0", DEAL, "3 3 PLAY W1", "3 0 PENG F1", "3 1 DRAW", "3 1 PLAY B1"]
    state = BotzoneState.from_requests(requests, ["PASS"] * (len(requests) - 1))
    before = {name: _copied(value) for name, value in state.__dict__.items()}
    with pytest.raises(BotzoneProtocolError):
        state.feed(bad, "PASS")
    assert state.__dict__ == before
    state.feed("3 2 DRAW", "PASS")   # and it goes on as if the bad line had never come
    clean = BotzoneState.from_requests(requests + ["3 2 DRAW"], ["PASS"] * len(requests))
    assert state.__dict__ == clean.__dict__
