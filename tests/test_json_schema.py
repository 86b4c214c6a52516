"""The JSON forms of tiles, actions, views, events and logs match docs/schema/*.schema.json, on real
games of every ruleset (jsonschema is a test-only dependency)."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from mahjong_core.game import new_game
from mahjong_core.game.actions import ALL_ACTIONS
from mahjong_core.game.wall import tile_name

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

SCHEMA_DIR = pathlib.Path(__file__).resolve().parent.parent / "docs" / "schema"
SCHEMAS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMA_DIR.glob("*.schema.json")}
REGISTRY = referencing.Registry().with_resources(
    (s["$id"], referencing.Resource.from_contents(s)) for s in SCHEMAS.values())


def _validator(name):
    schema = SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=REGISTRY)


VALIDATORS = {name: _validator(name) for name in ("tile.schema.json", "action.schema.json", "event.schema.json",
                                                  "view.schema.json", "log.schema.json")}


#: (schema, repr(value)) of every value found valid: a game repeats most of its events in each seat's
#: stream, and validating one takes jsonschema ~0.5 ms (repr keeps a tuple apart from a list, 1 from 1.0)
_FOUND_VALID = set()


def _valid(name, value):
    key = (name, repr(value))
    if key in _FOUND_VALID:
        return
    errors = sorted(VALIDATORS[name].iter_errors(value), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].path)}"
    _FOUND_VALID.add(key)


def test_every_tile_and_action_matches():
    for t in range(42):
        _valid("tile.schema.json", tile_name(t))
    for action in ALL_ACTIONS:
        _valid("action.schema.json", action.to_json())
    assert not VALIDATORS["tile.schema.json"].is_valid("0m")
    assert not VALIDATORS["action.schema.json"].is_valid({"type": "discard", "tile": "a"})
    assert not VALIDATORS["action.schema.json"].is_valid({"type": "pass", "tile": "1m"})


CONFIGS = [("sichuan", None), ("changbai", None), ("mcr", None), ("mcr", {"flowers": True}),
           ("changbai", {"ready_required": False})]


@pytest.mark.parametrize("ruleset, rules", CONFIGS)
def test_real_games_match_the_schemas(ruleset, rules):
    kinds = set()
    for seed in range(2):
        game = new_game(ruleset, seed=seed, rules=rules)
        rng = random.Random(seed)
        while True:
            for seat in sorted(game.pending()) if game.step % 4 else range(4):  # (jsonschema is slow)
                view = json.loads(json.dumps(game.view(seat)))
                _valid("view.schema.json", view)
            if game.finished:
                break
            for seat, actions in sorted(game.pending().items()):
                game.act(seat, rng.choice(actions))
        for seat in (None, seed % 4, seed % 4 + 2):
            for event in game.events(seat):
                _valid("event.schema.json", event)
                kinds.add(event["type"])
        _valid("log.schema.json", json.loads(json.dumps(game.log)))
    assert {"deal", "draw", "discard", "end"} <= kinds


def test_schemas_reject_what_the_engine_never_writes():
    game = new_game("sichuan", seed=1)
    view = game.view(0)
    view["hand"] = [0, 1]  # tile indices are not the JSON form
    assert not VALIDATORS["view.schema.json"].is_valid(view)
    log = game.log
    log["actions"] = [[0, "pass"]]
    assert not VALIDATORS["log.schema.json"].is_valid(log)
    assert not VALIDATORS["event.schema.json"].is_valid({"type": "draw", "seat": 5, "tile": "1m"})


def test_a_game_with_a_leave_matches_the_schemas():
    game = new_game("sichuan", seed=3)
    rng = random.Random(3)
    while game.step < 15:
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions))
    game.leave(2)
    while not game.finished:
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions))
    events = game.events(None)
    assert any(e["type"] == "leave" for e in events)
    for event in events + game.events(1):
        _valid("event.schema.json", event)
    _valid("log.schema.json", json.loads(json.dumps(game.log)))
    _valid("view.schema.json", json.loads(json.dumps(game.view(0))))
