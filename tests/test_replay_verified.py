"""Verified replay (issue 11, R10/R13): `replay(log)` checks the log against the game its actions
replay into and raises ReplayError naming the first difference or the malformed field."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depth import examples

from mahjong_core.errors import MahjongError, ReplayError
from mahjong_core.game import new_game, replay
from mahjong_core.game.wall import tile_name

RULESETS = ["sichuan", "changbai", "mcr"]


def _finished_log(ruleset, seed):
    game = new_game(ruleset, seed=seed)
    rng = random.Random(seed)
    while not game.finished:
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions))
    return json.loads(json.dumps(game.log))


LOGS = {r: _finished_log(r, 7) for r in RULESETS}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_true_log_replays_to_itself(ruleset):
    log = LOGS[ruleset]
    assert json.loads(json.dumps(replay(log).log)) == log


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unfinished_log_replays_to_the_same_unfinished_game(ruleset):
    game = new_game(ruleset, seed=3)
    rng = random.Random(1)
    for _ in range(15):
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions))
    again = replay(json.loads(json.dumps(game.log)))
    assert again.state() == game.state() and not again.finished


def _expect(log, match):
    with pytest.raises(ReplayError, match=match):
        replay(log)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tampered_logs_name_the_first_difference(ruleset):
    log = LOGS[ruleset]
    half = copy.deepcopy(log)
    half["actions"] = half["actions"][: len(half["actions"]) // 2]
    _expect(half, r"events")  # the recorded events go on where the actions stop

    edited = copy.deepcopy(log)
    k = next(i for i, e in enumerate(edited["events"]) if e["type"] == "discard")
    edited["events"][k]["tile"] = "1m" if edited["events"][k]["tile"] != "1m" else "2m"
    _expect(edited, rf"events\[{k}\]")

    if log["ledger"]:
        edited = copy.deepcopy(log)
        edited["ledger"][0]["amount"] += 1
        _expect(edited, r"ledger\[0\]")
    edited = copy.deepcopy(log)
    edited["totals"][0] += 1
    _expect(edited, r"totals")
    edited = copy.deepcopy(log)
    edited["finished"] = not edited["finished"]
    _expect(edited, r"finished")
    edited = copy.deepcopy(log)
    edited["winners"] = [0, 1, 2] if edited["winners"] != [0, 1, 2] else [3]
    _expect(edited, r"winners|events")

    swapped = copy.deepcopy(log)  # a wall the seed does not produce
    w = swapped["wall"]
    j = next(i for i in range(60, len(w)) if w[i] != w[59])
    w[59], w[j] = w[j], w[59]
    _expect(swapped, r"wall.*does not produce")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_edited_action_code_is_caught(ruleset):
    log = LOGS[ruleset]
    caught = 0
    for i in range(0, len(log["actions"]), 3):
        edited = copy.deepcopy(log)
        edited["actions"][i][1] += 1
        try:
            replay(edited)
        except ReplayError as exc:
            assert "actions[" in str(exc) or "events" in str(exc) or "ledger" in str(exc) or "finished" in str(exc) \
                or "winners" in str(exc) or "totals" in str(exc), exc
            caught += 1
    assert caught == len(range(0, len(log["actions"]), 3))


@pytest.mark.parametrize("field, value, match", [
    ("format", "x", "format"), ("ruleset", "go", "ruleset"), ("ruleset", 3, "ruleset"),
    ("rules", {"no_such_key": 1}, "rules"), ("rules", [], "rules"), ("seed", "7", "seed"), ("seed", -1, "seed"),
    ("hand_no", "0", "hand_no"), ("hand_no", -1, "hand_no"), ("shuffled", 1, "shuffled"), ("dealer", 4, "dealer"),
    ("dealer", True, "dealer"), ("options", [], "options"), ("options", {"bogus": 1}, "options"),
    ("wall", ["1m"] * 3, "wall"), ("wall", "1m2m", "wall"), ("wall", [None], "wall"),
    ("actions", [[0]], r"actions\[0\]"), ("actions", [["0", 1]], r"actions\[0\]"), ("actions", {}, "actions"),
    ("actions", [[0, 1.0]], r"actions\[0\]"), ("actions", [[9, 1]], r"actions\[0\]"),
    ("actions", [[0, 10 ** 30]], r"actions\[0\]"), ("events", None, "events"), ("events", [1], r"events\[0\]"),
    ("finished", "yes", "finished"), ("winners", {}, "winners"), ("ledger", 0, "ledger"), ("totals", "0", "totals"),
])
def test_malformed_fields_are_named(field, value, match):
    log = copy.deepcopy(LOGS["sichuan"])
    log[field] = value
    _expect(log, match)
    del log[field]
    _expect(log, field)


def test_not_a_log():
    for bad in (None, [], "log", 3):
        with pytest.raises(ReplayError):
            replay(bad)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
    | st.sampled_from(["1m", "E", "a", "pass", "discard", "draw"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            yield from _paths(v, prefix + (i,))
        if len(value) > 6:
            yield from _paths(value[-1], prefix + (len(value) - 1,))


PATHS = {r: [p for p in _paths(LOGS[r]) if p] for r in RULESETS}


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), data=st.data())
def test_fuzzed_logs_raise_only_replay_errors(ruleset, data):
    log = copy.deepcopy(LOGS[ruleset])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(PATHS[ruleset]))
        parent = log
        try:
            for key in path[:-1]:
                parent = parent[key]
            mode = data.draw(st.sampled_from(["replace", "delete", "truncate"]))
            if mode == "replace":
                parent[path[-1]] = data.draw(_json)
            elif mode == "delete":
                del parent[path[-1]]
            elif isinstance(parent[path[-1]], list):
                parent[path[-1]] = parent[path[-1]][: data.draw(st.integers(0, 5))]
        except (KeyError, IndexError, TypeError):
            continue  # the path went away with an earlier change
    try:
        game = replay(log)
    except ReplayError as exc:
        assert str(exc)
        return
    # accepted: then the log is exactly the replayed game's record (for every recorded field)
    replayed = json.loads(json.dumps(game.log))
    assert {k: json.loads(json.dumps(log[k])) for k in replayed} == replayed


def test_replay_error_is_a_mahjong_error():
    assert issubclass(ReplayError, MahjongError) and issubclass(ReplayError, ValueError)
    assert tile_name(0) == "1m"
