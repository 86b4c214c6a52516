"""The native self-play loop (python/game/_selfplay.pyx): `play_hand` answers the built-in random
bots' questions natively where the engine is compiled. It must change nothing but the speed: the
same answers, events, state and ledger as the Python driver, every other bot still asked through
`choose`, and a failure inside it leaves a game that `act` can go on with."""

import contextlib
import importlib.machinery
import json
import os
import pickle
import random

import pytest

from mahjong_core.game import new_game
from mahjong_core.game import simulate as simulate_module
from mahjong_core.game.actions import DISCARD, ActionKind
from mahjong_core.game.bots import RandomBot, make_bot
from mahjong_core.game.constants import AFTER_CLAIM, TURN
from mahjong_core.game.engine import Game
from mahjong_core.game.simulate import play_hand

RULESETS = ("sichuan", "changbai", "mcr")
COMPILED = simulate_module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_native_loop_is_there_exactly_where_the_engine_is_compiled():
    engine_compiled = not Game.__flags__ & (1 << 9)  # not a heap type: the compiled extension type
    assert (simulate_module._native_advance is not None) == engine_compiled
    if not os.environ.get("MAHJONG_CORE_PURE_GAME"):
        assert COMPILED and engine_compiled


class ScriptedRandom(RandomBot):
    """A RandomBot subclass: not the built-in type, so the native loop leaves its seat to `choose`
    (and this records every question it was asked)."""

    def __init__(self):
        super().__init__()
        self.asked = 0

    def choose(self, game, seat, actions):
        self.asked += 1
        return super().choose(game, seat, actions)


@contextlib.contextmanager
def driver(native):
    """play_hand with the native loop (where the build has it) or, native=False, the Python driver."""
    saved = simulate_module._native_advance
    if not native:
        simulate_module._native_advance = None
    try:
        yield
    finally:
        simulate_module._native_advance = saved


def _played(ruleset, hand, bots, native):
    rng = random.Random(7 * 2**32 + hand)
    for bot in bots:
        bot.new_hand(rng)
    game = new_game(ruleset, seed=7, hand_no=hand, dealer=hand % 4)
    with driver(native):
        play_hand(game, bots)
    return json.dumps([game.log, game.state(), game.ledger.to_json()], sort_keys=True, default=str)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seating", ["random", "mixed", "subclass"])
def test_native_and_python_drivers_play_the_same_hands(ruleset, seating):
    def bots():
        if seating == "random":
            return [make_bot("random") for _ in range(4)]
        if seating == "mixed":
            return [make_bot("greedy"), make_bot("random"), ScriptedRandom(), make_bot("random")]
        return [ScriptedRandom() for _ in range(4)]  # nothing for the native loop to answer

    for hand in range(40):
        assert _played(ruleset, hand, bots(), True) == _played(ruleset, hand, bots(), False), hand


@pytest.mark.skipif(not COMPILED, reason="the native loop exists only in compiled builds")
def test_seats_of_other_bots_are_still_asked_through_choose():
    watched = ScriptedRandom()
    seating = [make_bot("random"), watched, make_bot("random"), make_bot("random")]
    asked_by_python = ScriptedRandom()
    python_seating = [make_bot("random"), asked_by_python, make_bot("random"), make_bot("random")]
    for hand in range(10):
        _played("sichuan", hand, seating, True)
        _played("sichuan", hand, python_seating, False)
    assert watched.asked == asked_by_python.asked > 0


class FailingStream(random.Random):
    """A random stream that raises on its n-th draw (a broken bot in the middle of a hand)."""

    def __init__(self, fail_at):
        super().__init__(11)
        self.fail_at = fail_at
        self.draws = 0

    def random(self):
        self.draws += 1
        if self.draws == self.fail_at:
            raise RuntimeError("stream broke")
        return super().random()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("fail_at", [1, 9, 30, 50])
def test_an_error_inside_the_loop_leaves_a_game_act_can_continue(ruleset, fail_at):
    """The bots' stream raises mid-hand: play_hand raises that error, and the game is exactly the
    game the Python driver leaves at the same point — its question built (never left unbuilt for
    the native loop), so `act` and `pending()` go on as usual."""
    results = []
    for native in (True, False):
        bots = [make_bot("random") for _ in range(4)]
        stream = FailingStream(fail_at)
        for bot in bots:
            bot.new_hand(stream)
        game = new_game(ruleset, seed=5, hand_no=fail_at, dealer=1)
        with driver(native), pytest.raises(RuntimeError, match="stream broke"):
            play_hand(game, bots)
        assert game._lazy_turn is False
        pending = game.pending()
        assert pending, "the failing question is still open"
        results.append((json.dumps(game.state(), sort_keys=True, default=str), pending))
        seat, actions = next(iter(pending.items()))
        game.act(seat, actions[0])  # the game goes on
        play_hand(game, [make_bot("random") for _ in range(4)])
        assert game.finished
    assert results[0] == results[1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_discard_mask_is_the_turns_legal_discards(ruleset):
    """`_discard_mask` (what the native loop reads) has exactly the DISCARD actions a turn offers
    as its set bits, honours (bits 27..33) and Sichuan's void-suit rule included."""
    checked = honours = 0
    for hand in range(30):
        game = new_game(ruleset, seed=9, hand_no=hand)
        rng = random.Random(hand)
        while not game.finished:
            seat, actions = next((s, a) for s, a in game.pending().items())
            if game.phase in (TURN, AFTER_CLAIM):
                offered = {a.arg for a in actions if a.kind is ActionKind.DISCARD}
                if game.declared[seat]:
                    offered = None  # a declared seat's turn: only the drawn tile (not the hook's rule)
                if offered is not None:
                    mask = game._discard_mask(seat)
                    assert {t for t in range(34) if mask >> t & 1} == offered
                    assert game._discard_options(seat) == [DISCARD[t] for t in sorted(offered)]
                    checked += 1
                    honours += any(t >= 27 for t in offered)
            game.act(seat, actions[int(rng.random() * len(actions))])
    assert checked > 500
    if ruleset != "sichuan":
        assert honours > 100


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_pickled_without_the_per_game_switches_plays_on(ruleset):
    """A game pickled by a version without `_lazy_turn` / `_forms` / `_has_chow` /
    `_ask_every_discard` (its state dict lacks them) is restored with them and plays on exactly as
    the original."""
    game = new_game(ruleset, seed=21, hand_no=3)
    rng = random.Random(4)
    for _ in range(25):
        seat, actions = next(iter(game.pending().items()))
        game.act(seat, actions[int(rng.random() * len(actions))])
    state = pickle.loads(pickle.dumps(game)).__getstate__()  # an independent copy of the state
    for name in ("_lazy_turn", "_forms", "_has_chow", "_ask_every_discard"):
        del state[name]
    old = type(game).__new__(type(game))
    old.__setstate__(state)
    assert (old._forms, old._has_chow, old._ask_every_discard) == (game._forms, game._has_chow,
                                                                    game._ask_every_discard)
    for g in (game, old):
        play_hand(g, [make_bot("random") for _ in range(4)])
    assert old.log == game.log and old.state() == game.state()


def test_greedy_preference_order_is_the_documented_one():
    """GreedyBot's tie order (`_ORDER`): honours, terminals, 2/8, middle tiles, each group in tile
    order. The decisions that read it off masks group by group are compared with a plain statement
    of the rules in tests/test_greedy_bot_paths.py."""
    from mahjong_core.game import bots

    groups = [range(27, 34)] + [[t for t in range(27) if t % 9 in ranks] for ranks in ((0, 8), (1, 7), (2, 3, 4, 5, 6))]
    assert list(bots._ORDER) == [t for group in groups for t in group]
    assert sorted(bots._ORDER) == list(range(34))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("bad_at", [1, 4, 9])
def test_an_illegal_answer_in_a_window_raises_and_changes_nothing(ruleset, bad_at, monkeypatch):
    """GreedyBot's `choose` answers its `bad_at`-th claim question with an action that is not legal
    there: the native loop (which applies legal window answers without `act`) must raise what `act`
    raises and leave the game exactly as the Python driver does, one the hand can go on from."""
    from mahjong_core.errors import IllegalActionError
    from mahjong_core.game.actions import PASS
    from mahjong_core.game.bots import GreedyBot

    original = GreedyBot.choose
    windows = [0]  # claim questions asked so far in this run

    def choose(self, game, seat, actions):
        if PASS in actions:  # a claim or rob window
            windows[0] += 1
            if windows[0] == bad_at:
                return DISCARD[0]  # never legal in a window
        return original(self, game, seat, actions)

    monkeypatch.setattr(GreedyBot, "choose", choose)
    results = []
    for native in (True, False):
        raised = False
        windows[0] = 0
        for hand in range(30):  # the first hand where some greedy seat meets `bad_at` windows
            bots = [make_bot("greedy") for _ in range(4)]
            rng = random.Random(hand)
            for bot in bots:
                bot.new_hand(rng)
            game = new_game(ruleset, seed=3, hand_no=hand, dealer=0)
            with driver(native):
                try:
                    play_hand(game, bots)
                except IllegalActionError as exc:
                    raised = True
                    message = str(exc)
                    break
        assert raised
        results.append((hand, message, json.dumps([game.state(), game.events()], sort_keys=True, default=str)))
        monkeypatch.setattr(GreedyBot, "choose", original)
        play_hand(game, [make_bot("random") for _ in range(4)])
        assert game.finished
        monkeypatch.setattr(GreedyBot, "choose", choose)
    assert results[0] == results[1]
