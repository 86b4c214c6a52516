"""What a question asked only because of hidden tiles leaves behind: nothing (docs/ENGINE.md,
"Private decision points").

The engine asks a rob window only when some seat waits on an added kong's tile, and a declared-ready
(报听) seat only when its drawn tile wins or makes a kong. The events those questions leave in every
stream and in the log must be the same whether they opened or not: an `adding_kong` for every added
kong, an `auto` before every discard of a declared seat's drawn tile.
"""

from __future__ import annotations

import json
import random

import pytest

from mahjong_core.errors import ReplayError
from mahjong_core.game import new_game, replay
from mahjong_core.game.bots import GreedyBot
from mahjong_core.game.actions import ADDED_KONG, DISCARD, PUNG, ActionKind
from mahjong_core.game.constants import PHASES
from mahjong_core.game.wall import build_wall
from mahjong_core.tiles import Tile

FIVE_M = int(Tile.parse("5m"))


def _added_kong_hand(seat2_hand: str):
    """MCR: seat 1 pungs seat 0's 5m and then adds the 5m it draws; seat 2 holds `seat2_hand`."""
    wall = build_wall("mcr", hands={0: "5m234567s89sEEENW", 1: "55m222p333pSSCCF", 2: seat2_hand, 3: "111m999m334466sN"},
                      draws="PPP5m", dealer=0)
    game = new_game("mcr", wall=wall, dealer=0)
    script = [(0, DISCARD[FIVE_M]), (1, PUNG), (1, DISCARD[int(Tile.parse("F"))]), (1, ADDED_KONG[FIVE_M])]
    while script:
        pending = game.pending()
        for seat in sorted(pending):
            if script and script[0][0] == seat and script[0][1] in pending[seat]:
                game.act(seat, script.pop(0)[1], step=game.step)
            else:
                game.act(seat, game.default_action(seat), step=game.step)   # pass, or discard the drawn tile
            break
    while PHASES[game.phase] == "rob":   # seat 2, asked, lets the kong stand
        seat = next(iter(game.pending()))
        game.act(seat, game.default_action(seat), step=game.step)
    return game


def test_an_added_kong_reads_the_same_whether_or_not_someone_could_rob_it():
    robbable = _added_kong_hand("123p456p789p11s46m")    # seat 2 waits on 5m: asked, passes
    safe = _added_kong_hand("123p456p789p11s47m")        # nobody waits on 5m
    assert robbable.answer_history() != safe.answer_history()   # the window did open in one world
    for seat in (0, 1, 3):    # every seat but the one whose hand differs
        assert robbable.events(seat) == safe.events(seat), seat
    kinds = [e["type"] for e in safe.events(None)]
    assert kinds[kinds.index("added_kong") - 1] == "adding_kong"


@pytest.mark.parametrize("ruleset, rules", [("mcr", {"declared_ready_fan": True}), ("changbai", None)])
def test_every_added_kong_is_announced_and_every_declared_discard_is_auto(ruleset, rules):
    """Greedy play, except that a declared seat asked on its draw (its tile wins or makes a kong) lets
    the tile go half the time: in the omniscient stream every `added_kong` directly follows its
    `adding_kong` (a rob window records no answer events), and every discard a declared seat makes
    after declaring directly follows its `auto`."""
    asked_then_discarded = added = 0
    greedy = GreedyBot()
    for seed in range(80):
        rng = random.Random(seed)
        greedy.new_hand(random.Random(seed))
        game = new_game(ruleset, seed=seed, rules=rules)
        while not game.finished:
            seat, options = sorted(game.pending().items())[0]
            if PHASES[game.phase] == "turn" and game.declared[seat] and rng.random() < 0.5:
                action = options[-1]   # the drawn tile's discard (listed last)
                assert action.kind is ActionKind.DISCARD
                asked_then_discarded += 1
            else:
                action = greedy.choose(game, seat, options)
            game.act(seat, action)
        events = game.events(None)
        declared = set()
        for i, e in enumerate(events):
            if e["type"] == "added_kong":
                added += 1
                assert events[i - 1] == {**e, "type": "adding_kong"}, (seed, i)
            if e["type"] == "discard":
                if e["seat"] in declared:
                    assert events[i - 1] == {"type": "auto", "seat": e["seat"]}, (seed, i)
                if e.get("declare"):
                    declared.add(e["seat"])
    assert added and asked_then_discarded, (added, asked_then_discarded)   # both cases were met


def test_a_log_written_before_the_announcements_still_replays():
    """Logs of earlier versions have no `adding_kong` for an added kong nobody could rob and no `auto`
    for a declared seat asked first: they replay, while any other difference still fails."""
    log = json.loads(json.dumps(_added_kong_hand("123p456p789p11s47m").log))
    old = dict(log, events=[e for e in log["events"] if e["type"] != "adding_kong"])
    assert len(old["events"]) == len(log["events"]) - 1
    assert replay(old).log == log           # the replayed game writes the announcement
    tampered = json.loads(json.dumps(old))
    discard = next(e for e in tampered["events"] if e["type"] == "discard")
    discard["tile"] = "9s" if discard["tile"] != "9s" else "1s"
    with pytest.raises(ReplayError, match="events"):
        replay(tampered)
    greedy = GreedyBot()
    for seed in range(40):    # a hand in which a declared seat's drawn tiles go out (`auto`)
        greedy.new_hand(random.Random(seed))
        game = new_game("changbai", seed=seed)
        while not game.finished:
            seat, options = sorted(game.pending().items())[0]
            game.act(seat, greedy.choose(game, seat, options))
        log = json.loads(json.dumps(game.log))
        old = dict(log, events=[e for e in log["events"] if e["type"] != "auto"])
        if len(old["events"]) < len(log["events"]):
            break
    assert len(old["events"]) < len(log["events"])
    assert replay(old).log == log
