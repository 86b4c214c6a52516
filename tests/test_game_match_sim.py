"""Matches (dealer rotation, cumulative scores), the simulation runner and the `simulate` command."""

from __future__ import annotations

import io
import json
import random

import pytest

from mahjong_core import IllegalActionError
from mahjong_core.cli import main
from mahjong_core.game.bots import GreedyBot, RandomBot, make_bot
from mahjong_core.game.match import Match
from mahjong_core.rules.mcr.flow import backend_override
from mahjong_core.game.wall import seeded_dealer
from mahjong_core.game.simulate import ProgressBar, simulate


def _bots():
    return [GreedyBot(), GreedyBot(), RandomBot(), GreedyBot()]


def _check_totals(match):
    assert sum(match.totals) == 0
    running = [0, 0, 0, 0]
    for h in match.history:
        running = [a + b for a, b in zip(running, h["totals"])]
        assert h["cumulative"] == running
    assert running == match.totals


def test_changbai_dealer_keeps_the_deal_on_a_dealer_win_or_draw_and_passes_it_otherwise():
    match = Match("changbai", seed=11).play(_bots(), hands=30)
    assert match.hand_no == 30 and len(match.history) == 30
    for h in match.history:
        if h["exhausted"] or h["winners"][:1] == [h["dealer"]] and len(h["winners"]) == 1:
            assert h["next_dealer"] == h["dealer"]
        elif len(h["winners"]) == 1:
            assert h["next_dealer"] == (h["dealer"] + 1) % 4
    kinds = {("keep" if h["next_dealer"] == h["dealer"] else "pass") for h in match.history}
    assert kinds == {"keep", "pass"}
    for a, b in zip(match.history, match.history[1:]):
        assert b["dealer"] == a["next_dealer"]
    _check_totals(match)


def test_sichuan_dealer_is_drawn_from_the_seed_or_follows_the_discarder():
    match = Match("sichuan", seed=5).play(_bots(), hands=12)
    assert [h["dealer"] for h in match.history] == [seeded_dealer(5, k) for k in range(12)]
    _check_totals(match)
    match = Match("sichuan", seed=5, rules={"dealer_rule": "discarder"}).play(_bots(), hands=12)
    for h, game_dealer in zip(match.history, [0] + [h["next_dealer"] for h in match.history]):
        assert h["dealer"] == game_dealer
        if not h["winners"]:
            assert h["next_dealer"] == h["dealer"]
    _check_totals(match)


def test_mcr_winner_deals_and_the_prevalent_wind_moves_on():
    from test_game_mcr import FlowOnlyMCRDouble

    with backend_override(FlowOnlyMCRDouble(lambda call: 8 + 4 * call["self_drawn"])):
        match = Match("mcr", seed=2).play(_bots(), hands=40)
    for h in match.history:
        if not h["winners"] or h["dealer"] in h["winners"]:
            assert h["next_dealer"] == h["dealer"]
        else:
            assert h["next_dealer"] == h["winners"][0]
    changes = 0
    for h in match.history:
        assert h["prevalent_wind"] == (changes // 4) % 4
        changes += h["next_dealer"] != h["dealer"]
    _check_totals(match)


def test_match_refuses_a_new_hand_while_one_is_running():
    match = Match("sichuan", seed=1)
    match.new_hand()
    with pytest.raises(IllegalActionError):
        match.new_hand()
    with pytest.raises(IllegalActionError):
        match.finish_hand()


def test_simulation_results_do_not_depend_on_the_number_of_workers():
    one = simulate("sichuan", 40, seed=3, bots=("greedy", "random", "random", "random"), workers=1)
    two = simulate("sichuan", 40, seed=3, bots=("greedy", "random", "random", "random"), workers=2)
    a, b = one.to_dict(), two.to_dict()
    assert a.pop("timing")["workers"] == 1 and b.pop("timing")["workers"] == 2
    assert a == b
    assert sum(s.points for s in one.seats) == 0
    assert one.seats[0].wins > max(s.wins for s in one.seats[1:])     # greedy beats random


def test_simulation_rejects_bad_arguments():
    with pytest.raises(ValueError):
        simulate("sichuan", 0)
    with pytest.raises(ValueError):
        simulate("sichuan", 10, bots=("greedy", "random"))
    with pytest.raises(ValueError):
        simulate("sichuan", 10, bots=("clever",))
    with pytest.raises(ValueError):
        simulate("sichuan", 10, workers=0)
    with pytest.raises(ValueError):
        make_bot("nope")


def test_simulate_command_json_and_text(capsys):
    code = main(["simulate", "changbai", "--games", "12", "--seed", "4", "--bots", "greedy,random,random,random",
                 "--json", "--no-progress"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 12 and result["ruleset"] == "changbai" and len(result["seats"]) == 4
    assert {"wins", "deal_ins", "points", "mean", "sd"} <= set(result["seats"][0])
    assert sum(s["points"] for s in result["seats"]) == 0
    code = main(["simulate", "sichuan", "--games", "8", "--bots", "greedy", "--rule", "max_fan=4", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "95% interval" in out and "greedy" in out and "hands/s" in out
    assert main(["simulate", "sichuan", "--games", "5", "--rule", "no_such_key=1", "--no-progress"]) == 2


def test_progress_bar_draws_to_its_stream():
    stream = io.StringIO()
    bar = ProgressBar(10, stream=stream, width=10)
    bar.update(5)      # update(n): n more hands done (the tqdm convention)
    bar.update(5)
    bar.close()
    text = stream.getvalue()
    assert "[#####     ]  50% 5/10" in text
    assert "[##########] 100% 10/10" in text and text.endswith("\n")


def test_random_bot_plays_every_legal_action_kind_eventually():
    rng = random.Random(0)
    from mahjong_core.game import new_game

    kinds = set()
    for i in range(200):
        game = new_game("changbai", seed=1, hand_no=i)
        bots = [RandomBot() for _ in range(4)]
        for b in bots:
            b.new_hand(rng)
        while not game.finished:
            seat, actions = next(iter(game.pending().items()))
            action = bots[seat].choose(game, seat, actions)
            kinds.add(action.kind.name)
            game.act(seat, action)
    assert {"DISCARD", "PASS", "PUNG", "CHOW", "PIAO", "DECLARE", "WIN"} <= kinds


def test_mcr_rotate_dealer_rule_passes_the_deal_every_hand():
    from test_game_mcr import FlowOnlyMCRDouble

    with backend_override(FlowOnlyMCRDouble()):
        match = Match("mcr", seed=4, rules={"dealer_rule": "rotate"}).play(_bots(), hands=6)
    assert [h["dealer"] for h in match.history] == [0, 1, 2, 3, 0, 1]
