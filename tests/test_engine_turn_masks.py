"""The engine's every-turn questions (`Game._discard_mask`, `Game._may_kong`, `Game._kong_options`)
and its shared hot-path records. Compiled, the questions are vector compares of the hand's 34
bytes (`mc_held_kinds34`, `mc_four_kinds34`: mahjong_core/_bits.pxd); they must answer exactly what the obvious Python reading of the hand answers, on any
counts, and fall back to that reading for a hand that is not 34 counts in bytes or a bytearray."""

import pickle
import random

import pytest

from mahjong_core.game import new_game
from mahjong_core.game.actions import ADDED_KONG, CONCEALED_KONG
from mahjong_core.game import engine as engine_module
from mahjong_core.game.engine import Game
from mahjong_core.game.simulate import play_hand
from mahjong_core.game.bots import make_bot


def held_mask(hand):
    return sum(1 << t for t in range(34) if hand[t])


def may_kong(game, seat):
    """A kind held four times, or a pung whose fourth tile is in hand, while the wall lasts."""
    hand = game.hands[seat]
    return bool((4 in hand or any(hand[t] for t in game.pungs[seat])) and game.tail > game.head)


def kong_options(game, seat):
    """The concealed kongs (each kind held exactly four times that the seat may claim), then the
    added kongs (a pung whose fourth tile is in hand), read off the hand one kind at a time."""
    hand = game.hands[seat]
    concealed = [CONCEALED_KONG[t] for t in range(34) if hand[t] == 4 and game._can_claim_tile(seat, t)]
    return concealed + [ADDED_KONG[t] for t in game.pungs[seat] if hand[t]]


@pytest.mark.parametrize("ruleset", ["sichuan", "changbai", "mcr"])
def test_masks_match_the_python_reading_on_random_counts(ruleset):
    rng = random.Random(24)
    game = new_game(ruleset, seed=5)
    for _ in range(3000):
        seat = rng.randrange(4)
        # every count 0..4 at every position, often several fours and long runs of zeros
        hand = bytearray(rng.choice((0, 0, 1, 2, 3, 4)) if rng.random() < 0.7 else rng.randrange(5)
                         for _ in range(34))
        game.hands[seat] = hand
        game.pungs[seat] = rng.sample(range(34), rng.randrange(3))
        assert Game._discard_mask(game, seat) == held_mask(hand)
        assert game._may_kong(seat) == may_kong(game, seat)
        assert game._kong_options(seat) == kong_options(game, seat)
        if not game._may_kong(seat):  # "no" is final: the turn offers no kong
            assert kong_options(game, seat) == [] or game.tail <= game.head
    for four_at in range(34):  # a single four at each position (the vector compare's two blocks)
        hand = bytearray(34)
        hand[four_at] = 4
        game.hands[0] = hand
        game.pungs[0] = []
        assert game._may_kong(0) and Game._discard_mask(game, 0) == 1 << four_at
        assert game._kong_options(0) == kong_options(game, 0)
        hand[four_at] = 5  # (no valid hand; the vector compare's "four or more" is not a kong)
        assert game._kong_options(0) == [] == kong_options(game, 0)
    hand = bytearray(34)
    hand[5] = 1
    game.hands[0] = hand
    for pungs, fourth_held in (([5], True), ([6], False), ([6, 7, 5], True), ([6, 7], False)):
        game.pungs[0] = pungs  # a pung offers an added kong only with its fourth tile in hand
        assert game._may_kong(0) is fourth_held
        assert bool(game._kong_options(0)) is fourth_held


def test_a_hand_that_is_not_34_counts_in_bytes_takes_the_python_reading():
    game = new_game("mcr", seed=3)
    counts = [0] * 34
    counts[33] = 4
    for hand in (bytes(counts), counts):  # bytes: the core's compare; a list: Python indexing
        game.hands[1] = hand
        assert Game._discard_mask(game, 1) == 1 << 33
        assert game._may_kong(1)
        assert game._kong_options(1) == kong_options(game, 1)
    game.hands[1] = bytearray(10)  # too short: an IndexError, never a read past the buffer
    with pytest.raises(IndexError):
        Game._discard_mask(game, 1)


@pytest.mark.parametrize("ruleset", ["sichuan", "changbai", "mcr"])
def test_shared_event_records_are_the_records_a_game_would_build(ruleset):
    """The engine appends pre-built ("discard", seat, tile, False) / ("draw", seat, tile) tuples and
    answer ids: equal to new ones, so logs, copies and pickles are unchanged."""
    assert engine_module._ANSWER_IDS[3 << 8 | 33] == 3 << 8 | 33
    rng = random.Random(1)
    bots = [make_bot("greedy"), make_bot("random"), make_bot("greedy"), make_bot("random")]
    for bot in bots:
        bot.new_hand(rng)
    game = play_hand(new_game(ruleset, seed=9, hand_no=4), bots)
    events = game._events
    kinds = {e[0] for e in events}
    assert {"discard", "draw"} <= kinds
    for e in events:
        if e[0] == "discard":
            assert len(e) == 4 and 0 <= e[1] < 4 and 0 <= e[2] < 34 and e[3] in (True, False)
        elif e[0] == "draw":
            assert len(e) == 3 and 0 <= e[1] < 4
    twin = pickle.loads(pickle.dumps(game))
    assert twin._events == events and twin._actions == game._actions
    assert twin.log == game.log


@pytest.mark.parametrize("ruleset", ["sichuan", "changbai", "mcr"])
def test_the_shared_answering_table_stays_empty_and_is_never_left_behind(ruleset):
    """While an answer is applied the engine's question table is one shared empty dict
    (`_ANSWERING`): every step must replace it, and nothing may write into it."""
    shared = engine_module._ANSWERING
    rng = random.Random(3)
    for hand in range(30):
        bots = [make_bot("greedy"), make_bot("random"), make_bot("random"), make_bot("greedy")]
        for bot in bots:
            bot.new_hand(rng)
        game = new_game(ruleset, seed=12, hand_no=hand)
        while not game.finished:  # the Python driver (act), then the native loop below
            seat, actions = next(iter(game.pending().items()))
            assert game._pending is not shared
            game.act(seat, actions[int(rng.random() * len(actions))])
            if len(game.rivers[seat]) > 4:
                break
        play_hand(game, bots)
        assert game.finished and game._pending is not shared
        assert shared == {} and engine_module._ANSWERING is shared
