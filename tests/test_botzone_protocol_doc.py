"""docs/BOTZONE.md's "The protocol in full": every example parses with the package's protocol parser,
the interaction transcripts are what `botzone.run` reads and writes, the answers shown are legal in
the states they answer, and the C++ starting point plays legal games (issue 25, item 9)."""

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mahjong_core.botzone import BotzoneProtocolError, BotzoneState, Table, parse_request
from mahjong_core.botzone import protocol as P
from mahjong_core.botzone.protocol import RESPONSE_FORMS, parse_response_text
from mahjong_core.botzone.run import KEEP_RUNNING, run
from mahjong_core.botzone.state import parse_response

DOC = Path(__file__).resolve().parent.parent / "docs" / "BOTZONE.md"
TITLE = "## The protocol in full, for bots in any language"


def section():
    text = DOC.read_text(encoding="utf-8")
    assert TITLE in text
    body = text.split(TITLE, 1)[1]
    return re.split(r"^## ", body, maxsplit=1, flags=re.M)[0]


def subsection(name):
    parts = re.split(r"^### ", section(), flags=re.M)
    found = [p for p in parts if p.startswith(name)]
    assert len(found) == 1, f"no subsection {name!r}"
    return found[0]


def table_rows(text):
    """The rows of the Markdown table(s) of `text` (header and rule lines dropped), as lists of cells."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def spans(cell):
    return re.findall(r"`([^`]+)`", cell)


def blocks(text, info):
    return re.findall(r"^```" + re.escape(info) + r"\n(.*?)^```$", text, re.S | re.M)


# -- requests and responses ------------------------------------------------------------------------------

#: the kind `parse_request` gives each request form of the table
REQUEST_KINDS = {"0": P.INIT, "1": P.DEAL, "2": P.DRAW, "DRAW": P.OTHER_DRAW, "BUHUA": P.BUHUA, "PLAY": P.PLAY,
                 "PENG": P.PENG, "CHI": P.CHI, "GANG": P.GANG, "BUGANG": P.BUGANG}


def test_every_request_form_has_an_example_that_parses_to_it():
    rows = table_rows(subsection("Requests"))
    forms = [spans(r[0])[0] for r in rows]
    assert len(forms) == len(REQUEST_KINDS)  # every request of the protocol, once
    for row in rows:
        form, examples = spans(row[0])[0], spans(row[-1])
        words = form.split()
        key = words[0] if words[0] != "3" else words[2]
        assert examples, f"{form}: no example"
        for example in examples:
            request = parse_request(example)
            assert request.kind == REQUEST_KINDS[key], (form, example)
            if words[0] in ("2", "3"):
                assert len(example.split()) == len(words), (form, example)


def test_every_response_form_has_an_example_that_parses_to_it():
    rows = table_rows(subsection("Responses"))
    forms = [spans(r[0])[0] for r in rows]
    assert sorted(forms) == sorted(RESPONSE_FORMS)
    for row in rows:
        form, [example] = spans(row[0])[0], spans(row[-1])
        response = parse_response_text(example)
        assert example.split(" ")[0] == form.split()[0] == response.op
        assert len(example.split(" ")) == len(form.split())
        assert (response.tile >= 0) == (len(form.split()) > 1) and (response.middle >= 0) == (response.op == "CHI")


def test_the_answers_listed_per_request_are_response_forms():
    rows = table_rows(subsection("Requests"))
    requests = {spans(r[0])[0] for r in rows}
    for row in rows:
        answers = spans(row[2])
        assert answers and all(a in RESPONSE_FORMS or a in requests for a in answers), answers


@pytest.mark.parametrize("text,where", [
    ("PLAY  W1", "exactly one space"), ("play W1", "field 1 is 'play'"), ("PLAY W1 ", "exactly one space"),
    ("PLAY H1", "field 2 (your discard) is 'H1'"), ("CHI W1 B2", "cannot be the middle of a chow"),
    ("PENG", "PENG takes 1 tile(s), got 0"), ("GANG W1 W1", "GANG takes 0 or 1 tile(s)"), ("", "field 1 is ''"),
    ("HU W1", "HU takes 0 tile(s)"),
])
def test_malformed_responses_say_what_is_wrong(text, where):
    with pytest.raises(BotzoneProtocolError, match=re.escape(where)):
        parse_response_text(text)


def test_response_parser_accepts_what_the_judge_accepts():
    """Every answer the table accepts at every round of a few games has a form the parser takes."""
    import random

    rng = random.Random(5)
    seen = set()
    for seed in range(6):
        table = Table(seed=seed, flowers=seed % 2 == 1)
        while not table.finished:
            answers = {}
            for s in range(4):
                legal = sorted(table.legal_responses(s))
                for text in legal:
                    response = parse_response_text(text)
                    seen.add(response.op)
                    assert text.split(" ")[0] == response.op
                answers[s] = rng.choice([t for t in legal if t != "HU"] or ["PASS"])
            table.respond(answers)
    assert {"PASS", "HU", "PLAY", "PENG", "CHI"} <= seen


# -- the walk-through and the interaction transcripts --------------------------------------------------

def _check_answers(requests, answers):
    """Feed (request, answer) pairs one by one: every answer must be legal in the state it answers."""
    state = BotzoneState()
    previous = None
    for request, answer in zip(requests, answers):
        state.feed(request, previous)
        parse_response(answer, state)  # raises BotzoneProtocolError when the answer is not legal there
        previous = answer


def _walk_through():
    rows = table_rows(subsection("A game as one seat sees it"))
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    return [spans(r[1])[0] for r in rows], [spans(r[2])[0] for r in rows]


def _replay_game():
    """The walk-through's game on the table it names: {seat: [request 1, response 1, ...]} of every seat.
    The walk-through's seat answers as shown; the others discard W1 when they can (as seat 0 did), else
    their first discard, and pass on others' discards."""
    requests, answers = _walk_through()
    seat = parse_request(requests[0]).seat
    seed = int(re.search(r"Table\(seed=(\d+)\)", subsection("A game as one seat sees it")).group(1))
    table = Table(seed=seed)
    history = {s: [] for s in range(4)}
    for request, answer in zip(requests, answers):
        assert table.requests()[seat] == request
        assert answer in table.legal_responses(seat)
        chosen = {}
        for s in range(4):
            legal = sorted(table.legal_responses(s))
            plays = [t for t in legal if t.startswith("PLAY")]
            chosen[s] = answer if s == seat else ("PLAY W1" if "PLAY W1" in plays else (plays or ["PASS"])[0])
            history[s] += [table.requests()[s], chosen[s]]
        table.respond(chosen)
    return history


def test_the_walk_through_is_a_real_game():
    requests, answers = _walk_through()
    _check_answers(requests, answers)
    history = _replay_game()  # and the table it names sends exactly these requests, accepting these answers
    seat = parse_request(requests[0]).seat
    assert history[seat][0::2] == requests and history[seat][1::2] == answers


def _transcript(name):
    """(stdin, stdout) of a subsection's examples: its ```text stdin / ```text stdout blocks, in order."""
    text = subsection(name)
    ins, outs = blocks(text, "text stdin"), blocks(text, "text stdout")
    assert ins and len(ins) == len(outs), name
    return ins, outs


def test_simple_interaction_example():
    ins, outs = _transcript("Simple interaction")
    out = io.StringIO()
    answer = outs[0].strip()
    seen = []

    def decide(state):
        parse_response(answer, state)
        seen.append(state.lines)
        return answer

    run(decide, stdin=io.StringIO(ins[0]), stdout=out)
    assert out.getvalue() == outs[0]
    lines = ins[0].splitlines()
    n = int(lines[0])
    assert len(lines) == 2 * n and seen == [n]
    # the history is that of a seat in the walk-through's game
    seat = parse_request(lines[1]).seat
    assert _replay_game()[seat][:2 * n] == lines[1:] + [answer]


def test_json_interaction_example():
    import json

    ins, outs = _transcript("JSON interaction")
    data = json.loads(ins[0])
    assert len(data["requests"]) == len(data["responses"]) + 1
    answer = json.loads(outs[0])["response"]
    out = io.StringIO()

    def decide(state):
        parse_response(answer, state)
        return answer

    run(decide, stdin=io.StringIO(ins[0]), stdout=out)
    assert json.loads(out.getvalue()) == json.loads(outs[0])
    # the history is that of a seat in the walk-through's game
    seat = parse_request(data["requests"][0]).seat
    history = _replay_game()[seat]
    n = len(data["requests"])
    assert history[0:2 * n:2] == data["requests"] and history[1:2 * n:2] == data["responses"] + [answer]


def test_keep_running_example():
    ins, outs = _transcript("Keep-running mode")
    answers = []
    for out in outs:
        lines = out.splitlines()
        assert len(lines) == 2 and lines[1] == KEEP_RUNNING
        answers.append(lines[0])
    for text in ins:
        assert text.splitlines()[0] == "1" and len(text.splitlines()) == 2
    by_turn = dict(enumerate(answers, 1))
    called = []

    def decide(state):  # one process: the state has seen exactly `state.lines` requests
        text = by_turn[state.lines]
        parse_response(text, state)
        called.append(state.lines)
        return text

    out = io.StringIO()
    run(decide, keep_running=True, stdin=io.StringIO("".join(ins)), stdout=out)
    assert out.getvalue() == "".join(outs)
    assert called == [k for k, a in by_turn.items() if a != "PASS"]
    requests = [text.splitlines()[1] for text in ins]
    history = _replay_game()[parse_request(requests[0]).seat]
    assert history[0:2 * len(ins):2] == requests and history[1:2 * len(ins):2] == answers


# -- the C++ starting point ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed: the C++ example of docs/BOTZONE.md is not compiled")
    [source] = blocks(section(), "cpp")
    folder = tmp_path_factory.mktemp("doc_cpp")
    (folder / "drawn_tile_bot.cpp").write_text(source)
    exe = folder / "drawn_tile_bot"
    subprocess.run(["g++", "-O2", "-std=c++17", "-Wall", "-Werror", "-o", str(exe), str(folder / "drawn_tile_bot.cpp")],
                   check=True, capture_output=True, timeout=300)
    return str(exe)


@pytest.mark.parametrize("keep_running", [True, False])
def test_the_cpp_example_plays_legal_games(cpp_bot, keep_running):
    from mahjong_core.botzone.judge import match

    result = match([cpp_bot, "greedy", "greedy", "greedy"], games=2, seed=3, keep_running=keep_running,
                   time_limit=10)
    assert result.seats[0].penalties == {} and all(f.seat != 0 for f in result.faults)
    assert sum(result.outcomes.values()) == 2


def test_the_cpp_example_answers_the_transcript_requests(cpp_bot):
    ins, outs = _transcript("Simple interaction")
    done = subprocess.run([cpp_bot], input=ins[0], capture_output=True, text=True, timeout=30)
    drawn = ins[0].strip().splitlines()[-1].split()[1]  # "2 T"
    assert done.stdout.splitlines() == [f"PLAY {drawn}", KEEP_RUNNING]
