"""Invariants of the game engine over thousands of seeded games per ruleset (at full depth, tests/depth.py),
random and greedy bots.

- every tile is accounted for after every answer (wall + hands + melds + rivers + flowers + won
  tiles = the full set), hand sizes fit the melds, the cached wait masks are current;
- every ledger sums to zero; every log is JSON, replays to the identical state and ledger;
- the same seed gives the same game; illegal, stale and out-of-turn actions raise
  IllegalActionError and change nothing; `legal_mask` matches `pending`; `view` hides what it must.

MCR: with the real scorer when `mahjong_core.rules.mcr` is installed, else with the flow-only test
double of test_game_mcr (engine mechanics only).
"""

from __future__ import annotations

import importlib.util
import json
import random

import pytest

from depth import scaled

from mahjong_core import IllegalActionError
from mahjong_core.game import SPACES, new_game, replay, shuffled_wall, tile_set
from mahjong_core.game.actions import ALL_ACTIONS, CHOW, DISCARD, PASS, PIAO, PUNG, VOID, WIN, ActionKind
from mahjong_core.game.bots import GreedyBot, RandomBot
from mahjong_core.game.engine import CHOOSE, MELD_CONCEALED_KONG
from mahjong_core.rules.mcr.flow import backend_override
from mahjong_core.game.simulate import play_hand
from mahjong_core.game.testing import check_game
from mahjong_core.game.wall import tile_name

HAVE_MCR = importlib.util.find_spec("mahjong_core.rules.mcr") is not None


@pytest.fixture(params=["sichuan", "changbai", "mcr"])
def ruleset(request):
    if request.param == "mcr" and not HAVE_MCR:
        from test_game_mcr import FlowOnlyMCRDouble

        with backend_override(FlowOnlyMCRDouble(lambda call: 8 + 2 * call["self_drawn"])):
            yield "mcr"
    else:
        yield request.param


def _bots(kind: str, rng: random.Random):
    bots = [RandomBot() if kind == "random" else GreedyBot() for _ in range(4)]
    for b in bots:
        b.new_hand(rng)
    return bots


def _play_checked(game, bots, rng, probe_every=0):
    """Play to the end, checking the state after every answer and probing illegal actions."""
    step = 0
    while not game.finished:
        pending = game.pending()
        seat, actions = next(iter(pending.items()))
        _check_mask(game, pending)
        if probe_every and step % probe_every == 0:
            _probe_illegal(game, pending, rng)
            _check_view(game, seat)
        game.act(seat, bots[seat].choose(game, seat, actions))
        check_game(game)
        step += 1
    return game


def _check_mask(game, pending):
    space = game.space
    for seat in range(4):
        mask = game.legal_mask(seat)
        assert len(mask) == space.size
        legal = pending.get(seat, [])
        assert [space.action(c) for c in range(space.size) if mask[c]] == sorted(legal, key=space.code)
        assert len(set(legal)) == len(legal)


def _probe_illegal(game, pending, rng):
    before = game.state()
    space = game.space
    seat, actions = next(iter(pending.items()))
    illegal = [a for a in space.actions if a not in actions]
    probes = [(seat, rng.choice(illegal))] if illegal else []
    probes += [(s, actions[0]) for s in range(4) if s not in pending]        # out of turn
    probes += [(seat, space.size), (seat, -1), (seat, "discard"), (seat, None), (4, actions[0])]
    other = [a for a in ALL_ACTIONS if space.code_of_uid[a.uid] < 0]
    if other:
        probes.append((seat, other[0]))                                      # another ruleset's action
    for s, action in probes:
        with pytest.raises(IllegalActionError):
            game.act(s, action)
        assert game.state() == before


def _check_view(game, seat):
    for viewer in range(4):
        view = game.view(viewer)
        json.dumps(view)
        assert view["hand"] == [tile_name(t) for t in range(34) for _ in range(game.hands[viewer][t])]
        text = json.dumps({k: v for k, v in view.items() if k != "hand"})
        assert "hands" not in view and "wall" not in view
        for s in range(4):
            for meld, (kind, tile, _, _) in zip(view["melds"][s], game.melds[s]):
                if kind == MELD_CONCEALED_KONG and s != viewer:
                    assert meld["tile"] is None
        if game.phase == CHOOSE:
            choice = "void" if game.ruleset == "sichuan" else "piao" if game.ruleset == "changbai" else None
            if choice:
                shown = view[choice]
                assert all(v is None for s, v in enumerate(shown) if s != viewer)
        assert isinstance(text, str)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_step_consistent_and_illegal_actions_change_nothing(ruleset, bot):
    rng = random.Random(f"{ruleset}-{bot}")
    games = scaled(150 if bot == "random" else 80, minimum=30)
    for i in range(games):
        game = new_game(ruleset, seed=1000 + i, dealer=i % 4)
        check_game(game)
        _play_checked(game, _bots(bot, rng), rng, probe_every=9 if i < 10 else 0)
        assert sum(game.ledger.totals()) == 0


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_thousands_of_games_replay_and_are_deterministic(ruleset, bot):
    n = scaled(1000, minimum=200)
    outcomes = []
    for i in range(n):
        rng = random.Random(i)
        game = play_hand(new_game(ruleset, seed=7, hand_no=i, dealer=i % 4), _bots(bot, rng))
        assert game.finished and sum(game.ledger.totals()) == 0
        outcomes.append((tuple(game.winners), tuple(game.ledger.totals()), game.exhausted))
        if i % 10 == 0:
            log = json.loads(json.dumps(game.log))
            again = replay(log)
            assert again.state() == game.state()
            assert again.ledger == game.ledger and again.finished
            # the same seed gives the same game
            twin = play_hand(new_game(ruleset, seed=7, hand_no=i, dealer=i % 4), _bots(bot, random.Random(i)))
            assert twin.log == game.log
    assert len(set(outcomes)) > 1
    if bot == "greedy":
        assert sum(1 for w, _, _ in outcomes if w) > n // 10     # greedy bots do win


def test_claim_options_respect_declarations_and_priorities(ruleset):
    """Over random games: a declared seat is never offered chow/pung; WIN is always listed first;
    a chow is only offered to the seat after the discarder; PASS ends every claim list."""
    rng = random.Random(5)
    for i in range(150):
        game = new_game(ruleset, seed=99, hand_no=i)
        bots = _bots("random", rng)
        while not game.finished:
            pending = game.pending()
            if game.phase == 3:  # CLAIM
                for s, actions in pending.items():
                    assert actions[-1] is PASS or actions == [WIN]
                    if WIN in actions:
                        assert actions[0] is WIN
                    if game.declared[s]:
                        assert PUNG not in actions and not any(a.kind is ActionKind.CHOW for a in actions)
                    if any(a.kind is ActionKind.CHOW for a in actions):
                        assert s == (game.discarder + 1) % 4
                    if game.tail - game.head - game.reserve <= 0:   # nothing left to draw: only a win
                        assert set(actions) <= {WIN, PASS}
            seat, actions = next(iter(pending.items()))
            game.act(seat, bots[seat].choose(game, seat, actions))
        kinds = [e[0] for e in game._events]
        if "keep" in kinds:   # Changbai's last four: no discard and no kong once the first tile is kept
            rest = kinds[kinds.index("keep"):]
            assert not {"discard", "kong", "concealed_kong", "added_kong", "chow", "pung"} & set(rest)


def test_action_encoding_is_stable():
    mcr, changbai, sichuan = SPACES["mcr"], SPACES["changbai"], SPACES["sichuan"]
    assert (mcr.size, changbai.size, sichuan.size) == (143, 147, 88)
    assert [mcr.code(a) for a in (DISCARD[0], DISCARD[33], PASS, WIN, PUNG, CHOW[1], CHOW[3])] == [
        0, 33, 136, 137, 138, 140, 142]
    assert changbai.code(PIAO[0]) == 143 and changbai.code(PIAO[6]) == 146
    assert [sichuan.code(a) for a in (DISCARD[26], PASS, WIN, PUNG, VOID[0], VOID[2])] == [26, 81, 82, 83, 85, 87]
    for space in (mcr, changbai, sichuan):
        for code in range(space.size):
            assert space.code(space.action(code)) == code
        with pytest.raises(IllegalActionError):
            space.action(space.size)
    with pytest.raises(IllegalActionError):
        sichuan.code(DISCARD[27])          # no honours in Sichuan
    assert repr(DISCARD[4]) == "Discard(5m)" and repr(CHOW[2]) == "Chow(2)" and repr(VOID[1]) == "Void(p)"


def test_seeded_walls_are_fixed_forever():
    # The counter-based shuffle is part of the log format: these walls must never change.
    assert shuffled_wall(tile_set("mcr"), 1, 0)[:20] == [12, 21, 31, 2, 24, 15, 28, 0, 27, 1, 4, 27, 16, 31, 3, 21,
                                                         13, 3, 20, 24]
    wall = shuffled_wall(tile_set("sichuan"), 2**200 + 12345, 77)
    assert sorted(wall) == tile_set("sichuan")
    assert wall == shuffled_wall(tile_set("sichuan"), 2**200 + 12345, 77)
    assert wall != shuffled_wall(tile_set("sichuan"), 2**200 + 12345, 78)
    for bad in (-1, 2**256, 1.5, "7", True):
        with pytest.raises(ValueError):
            shuffled_wall(tile_set("sichuan"), bad, 0)


def test_shuffle_is_uniform_enough():
    # Position of one tile kind over many hands: chi-square against uniform (loose bound).
    counts = [0] * 108
    for hand in range(3000):
        wall = shuffled_wall(list(range(108)), 3, hand)
        counts[wall.index(0)] += 1
    expected = 3000 / 108
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 200   # 107 degrees of freedom: mean 107, this bound is ~6 SD out


def test_bad_game_arguments_are_rejected():
    with pytest.raises(ValueError):
        new_game("riichi")
    with pytest.raises(ValueError):
        new_game("sichuan", seed=-3)
    with pytest.raises(ValueError):
        new_game("sichuan", seed=1, dealer=4)
    with pytest.raises(ValueError):
        new_game("sichuan", wall=[0] * 108)
    with pytest.raises(TypeError):
        new_game("sichuan", seed=1, prevalent_wind=1)
    with pytest.raises(ValueError):
        new_game("changbai", seed=1, rules={"piao_choices": (0, 3)})
    with pytest.raises(ValueError):
        replay({"format": "something else"})


def test_log_records_ruleset_preset_rules_and_wall():
    game = new_game("sichuan", seed=5, rules={"max_fan": 4})
    log = json.loads(json.dumps(game.log))
    assert log["ruleset"] == "sichuan" and log["preset"] is None and log["rules"]["max_fan"] == 4
    assert len(log["wall"]) == 108 and log["seed"] == 5 and log["actions"] == []
    assert replay(log).rules == game.rules
    game = new_game("changbai", seed=5)
    log = game.log
    assert log["preset"] == "changbai" and log["rules"]["piao_choices"] == [0, 2, 4, 6]
    assert log["events"] == [] and len(log["wall"]) == 136
