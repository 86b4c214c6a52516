"""`Game._river_counts`: the rivers kept again as counts for the observation encoder. They must equal
the rivers' own counts after every discard, claim and win, in clones and pickles, and an encoder
reading them must see what walking the rivers sees — and fall back to walking when a river was
changed behind the engine's back."""

import pickle
import random

import pytest

from mahjong_core.game import new_game
from mahjong_core.game.bots import GreedyBot, RandomBot

RULESETS = ("sichuan", "changbai", "mcr")


def counted(rivers):
    """The slow reference: seat s's kinds at [34 s, 34 s + 34)."""
    out = [0] * 136
    for s, river in enumerate(rivers):
        for t in river:
            out[34 * s + t] += 1
    return out


def played(ruleset, seed):
    """The game after every answer of a greedy/random hand (the same object, moved on)."""
    game = new_game(ruleset, seed=seed)
    bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    rng = random.Random(seed)
    for b in bots:
        b.new_hand(rng)
    while not game.finished:
        pending = game.pending()
        seat = min(pending)
        game.act(seat, bots[seat].choose(game, seat, pending[seat]))
        yield game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_counts_follow_every_discard_claim_and_win(ruleset):
    claims = wins = 0
    for seed in range(12):
        for game in played(ruleset, seed):
            assert list(game._river_counts) == counted(game.rivers)
        claims += sum(len(ms) for ms in game.melds)
        wins += len(game.winners)
    assert claims > 10 and wins > 0  # (claims and wins took tiles out of rivers)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clones_and_pickles_carry_their_own_counts(ruleset):
    for k, game in enumerate(played(ruleset, 5)):
        if k % 7:
            continue
        for copy in (game.clone(), pickle.loads(pickle.dumps(game))):
            assert copy._river_counts == game._river_counts
            assert copy._river_counts is not game._river_counts
            if not copy.finished:
                seat = min(copy.pending())
                copy.act(seat, copy.legal_actions(seat)[0])
                assert list(copy._river_counts) == counted(copy.rivers)
                assert list(game._river_counts) == counted(game.rivers)


def test_a_pickle_from_before_the_counts_rebuilds_them():
    game = None
    for game in played("mcr", 3):
        if sum(len(r) for r in game.rivers) > 20:
            break
    state = game.__getstate__()
    del state["_river_counts"]  # what a pickle of an earlier version holds
    old = type(game).__new__(type(game))
    old.__setstate__(state)
    assert list(old._river_counts) == counted(game.rivers) == list(game._river_counts)


def test_the_state_leaves_the_derived_counts_out():
    game = new_game("sichuan", seed=1)
    assert "_river_counts" not in game.state()


def test_the_encoder_walks_a_river_changed_behind_the_engine():
    """A river the engine did not write (its counts no longer add up, or its last tiles are not in
    them) is walked tile by tile, as any other source's: the observation is the river's."""
    pytest.importorskip("numpy")
    from mahjong_core.env import encode

    game = None
    for game in played("sichuan", 4):
        if all(len(r) >= 4 for r in game.rivers):
            break
    base = encode(game, 0)
    # (1) a river one tile longer: its counts no longer add up
    longer = game.clone()
    longer.rivers[2].append(longer.rivers[2][0])
    fresh = longer.clone()
    fresh._river_counts = bytearray(counted(fresh.rivers))
    assert not (encode(longer, 0) == base).all()
    assert (encode(longer, 0) == encode(fresh, 0)).all()
    # (2) the same length, its last tile swapped for one the counts do not hold
    swapped = game.clone()
    river = swapped.rivers[1]
    absent = next(t for t in range(34) if not swapped._river_counts[34 + t])
    river[-1] = absent
    fresh = swapped.clone()
    fresh._river_counts = bytearray(counted(fresh.rivers))
    assert (encode(swapped, 0) == encode(fresh, 0)).all()
