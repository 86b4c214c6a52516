"""`Game._shown`: what each seat shows (its river, melds and won tiles) kept again as counts for the
observation encoder, from its first observer on. It must equal a count of the lists after every
discard, claim, kong and win, in clones, pickles and determinized games, and an encoder reading it
must see what reading the lists sees (tests/test_env_encode.py compares every observation of many
hands both ways)."""

import pickle
import random

import pytest
from seeded_play import bot_hand

from mahjong_core.game import engine, new_game
from mahjong_core.game.constants import MELD_ADDED_KONG, MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG

RULESETS = ("sichuan", "changbai", "mcr")
L = engine.SHOWN_LAYOUT
KONGS = {MELD_KONG, MELD_ADDED_KONG, MELD_CONCEALED_KONG}


def reference(game):
    """The slow reference: `_shown` counted off the game's lists."""
    out = [0] * (4 * L["STRIDE"])
    for s in range(4):
        b = s * L["STRIDE"]
        river = game.rivers[s]
        for t in river:
            out[b + L["RIVER"] + t] += 1
        out[b + L["RIVER_LEN"]] = len(river)
        for k in range(3):
            out[b + L["LAST"] + k] = 255
        for i in range(max(0, len(river) - 3), len(river)):
            out[b + L["LAST"] + i % 3] = river[i]
        for kind, t, _, _ in game.melds[s]:
            if kind == MELD_CHOW:
                for k in range(3):
                    out[b + L["CHOW"] + t + k] += 1
            elif kind == MELD_PUNG:
                out[b + L["PUNG"] + t] = 1
            elif kind == MELD_CONCEALED_KONG:
                out[b + L["HIDDEN_KONG"] + t] = 1
                out[b + L["HIDDEN_KONGS"]] += 1
            else:
                out[b + L["KONG"] + t] = 1
        for t in game.won_tiles[s]:
            out[b + L["WON"] + t] += 1
    return out


def played(ruleset, seed, observed_from=0):
    """The game after every answer of a mixed-bot hand (the same object, moved on), its record
    asked for (as an observer does) once `observed_from` answers are given."""
    game = None
    for k, (game, _) in enumerate(bot_hand(ruleset, seed)):
        if k == observed_from:
            game._shown_record()
        if k:
            yield game  # (after answer k - 1)
    yield game


def test_nobody_observing_keeps_no_record():
    """A game nobody observes (self-play, simulations) keeps no record (None); the first observer
    builds it."""
    game = new_game("sichuan", seed=2)
    assert game._shown is None
    while not game.finished:
        seat = min(game.pending())
        game.act(seat, game.legal_actions(seat)[-1])
        assert game._shown is None
    assert game.clone()._shown is None
    assert list(game._shown_record()) == reference(game)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_record_follows_every_discard_claim_kong_and_win(ruleset):
    kinds = set()
    wins = 0
    for seed in range(16):
        for game in played(ruleset, seed, observed_from=seed % 3 * 7):
            if game._shown is not None:
                assert list(game._shown) == reference(game)
        kinds |= {m[0] for ms in game.melds for m in ms}
        wins += len(game.winners)
    assert {MELD_CHOW if ruleset != "sichuan" else MELD_PUNG, MELD_PUNG} <= kinds and wins > 0


def test_every_kind_of_kong_is_recorded():
    """Kongs are rare in random play: hands are played until melded, concealed and added kongs have
    all been seen, each checked against the reference."""
    seen = set()
    for seed in range(400):
        for game in played("sichuan", seed):
            assert list(game._shown) == reference(game)
        seen |= {m[0] for ms in game.melds for m in ms}
        if KONGS <= seen:
            break
    assert KONGS <= seen, seen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clones_and_pickles_carry_their_own_record(ruleset):
    for k, game in enumerate(played(ruleset, 5)):
        if k % 7:
            continue
        for copy in (game.clone(), pickle.loads(pickle.dumps(game))):
            assert copy._shown == game._shown
            assert copy._shown is not game._shown
            if not copy.finished:
                seat = min(copy.pending())
                copy.act(seat, copy.legal_actions(seat)[0])
                assert list(copy._shown) == reference(copy)
                assert list(game._shown) == reference(game)


def test_a_pickle_from_before_the_record_rebuilds_it():
    game = None
    for game in played("mcr", 3):
        if sum(len(r) for r in game.rivers) > 20 and any(game.melds):
            break
    state = game.__getstate__()
    del state["_shown"]  # what a pickle of an earlier version holds
    old = type(game).__new__(type(game))
    old.__setstate__(state)
    assert old._shown is None  # (built when it is first observed)
    assert list(old._shown_record()) == reference(game) == list(game._shown)


def test_the_state_leaves_the_derived_record_out():
    game = new_game("sichuan", seed=1)
    assert "_shown" not in game.state()


def test_a_determinized_game_shows_its_own_concealed_kongs():
    """`determinize` deals the others' hidden tiles again, their concealed kongs' tiles among them:
    the copy's record follows its lists, the observer's view of it does not change."""
    np = pytest.importorskip("numpy")
    from mahjong_core.env import encode
    from mahjong_core.env.determinize import determinize

    found = 0
    for seed in range(400):
        for game in played("sichuan", seed):
            hidden = [s for s in range(4) if any(m[0] == MELD_CONCEALED_KONG for m in game.melds[s])]
            if not hidden or game.finished:
                continue
            viewer = next(s for s in range(4) if s not in hidden)
            copy = determinize(game, viewer, random.Random(seed))
            assert list(copy._shown) == reference(copy)
            assert np.array_equal(encode(copy, viewer), encode(game, viewer))
            found += 1
            break
        if found >= 3:
            break
    assert found >= 3


# The engine keeps `_shown` in both builds: the checks above again, in a child process that imports
# every hot module from its .py file (tests/source_first.py).
_FROM_SOURCE = r"""
import sys
sys.path.insert(0, sys.argv[1])
import source_first
source_first.install()
import test_shown
from mahjong_core.game import engine
assert engine.__file__.endswith(".py"), engine.__file__
for ruleset in test_shown.RULESETS:
    test_shown.test_the_record_follows_every_discard_claim_kong_and_win(ruleset)
    test_shown.test_clones_and_pickles_carry_their_own_record(ruleset)
    test_shown.test_a_record_replaced_from_outside_is_rebuilt_before_it_is_written(ruleset)
test_shown.test_every_kind_of_kong_is_recorded()
test_shown.test_a_pickle_from_before_the_record_rebuilds_it()
print("ok")
"""


def test_the_engine_from_its_source_keeps_the_same_record():
    import os
    import subprocess
    import sys
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run([sys.executable, "-c", _FROM_SOURCE, here], capture_output=True, text=True,
                            cwd=tempfile.gettempdir(), check=False)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_record_replaced_from_outside_is_rebuilt_before_it_is_written(ruleset):
    """Something outside the engine replacing the record with one of another size: the engine's next
    write rebuilds it from the lists first (a meld, kong or win then counted once, not twice)."""
    checked = 0
    for seed in range(12):
        for k, game in enumerate(played(ruleset, seed)):
            if len(game._shown) == len(engine._NOTHING_SHOWN):
                assert list(game._shown) == reference(game)
                checked += 1
            if k % 3 == 1:
                game._shown = bytearray(5)
        assert list(game._shown_record()) == reference(game)
    assert checked > 300
