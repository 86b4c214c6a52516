"""Plain turns left unbuilt (`Game._lazy_turn`): the engine leaves such a turn's question unbuilt
(`_asked` None) for the native self-play loop and the vector environment's step kernel, which read
it as a bit mask; every other reader (`_pending`, `pending()`, `legal_actions`, `act`, `clone`,
pickle, `state()`) gets the question built on first read, exactly as the engine would have asked
it. `Game._answer_seen` is the kernel's answer: applied directly only to the question it was read
from, through `act` (every check) otherwise."""

import pickle
import random

import pytest

from mahjong_core.env.table import next_seat
from mahjong_core.errors import IllegalActionError
from mahjong_core.game import new_game
from mahjong_core.game.actions import DISCARD

RULESETS = ("sichuan", "changbai", "mcr")
MASK34 = (1 << 34) - 1


def twins(ruleset, hand):
    eager = new_game(ruleset, seed=hand)
    lazy = new_game(ruleset, seed=hand)
    lazy._lazy_turn = True
    return eager, lazy


def assert_same(lazy, eager):
    assert lazy._events == eager._events and lazy._actions == eager._actions
    assert lazy.step == eager.step and lazy.finished == eager.finished
    assert lazy.ledger.to_json() == eager.ledger.to_json()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_unbuilt_turns_read_and_play_as_built_ones(ruleset):
    rng = random.Random(7)
    unbuilt = read = 0
    for hand in range(30):
        eager, lazy = twins(ruleset, hand)
        while not eager.finished:
            if lazy._asked is None:
                unbuilt += 1
                assert eager._asked is not None and lazy.turn == eager.turn
                how = rng.randrange(7)
                if how == 0:
                    assert lazy.pending() == eager.pending()
                elif how == 1:
                    assert lazy.legal_actions(lazy.turn) == eager.legal_actions(eager.turn)
                elif how == 2:
                    copy = lazy.clone()  # (the turn stays unbuilt in both; each builds its own)
                    assert copy._asked is None and lazy._asked is None
                    assert copy.state() == eager.state() and lazy._asked is None
                elif how == 3:
                    assert pickle.dumps(lazy) == pickle.dumps(eager)
                elif how == 4:
                    assert lazy.state() == eager.state()
                elif how == 5:
                    assert lazy._pending == eager._pending
                read += how < 6  # (6: left unbuilt, for act to build)
            seat = next_seat(eager)
            actions = eager._pending[seat]
            action = actions[rng.randrange(len(actions))]
            eager.act(seat, action)
            lazy.act(seat, action)
            assert_same(lazy, eager)
        assert lazy.state() == eager.state()
    assert unbuilt > 500 and read > 400  # most turns were left unbuilt, most of them read


@pytest.mark.parametrize("ruleset", RULESETS)
def test_answer_seen_plays_as_act_does(ruleset):
    """Drive one game only through `_answer_seen` (discards of an unbuilt turn from its mask) and
    its twin through `act`: the same hands, and the returned masks are the built questions."""
    rng = random.Random(11)
    unbuilt = 0
    for hand in range(25):
        eager, lazy = twins(ruleset, hand)
        r = -1
        while not eager.finished:
            if r >= 0:
                seat, bits, step = r & 3, (r >> 2) & MASK34, r >> 36
                unbuilt += 1
                assert lazy._asked is None and seat == lazy.turn == next_seat(eager) and step == lazy.step
                assert [DISCARD[t] for t in range(34) if bits >> t & 1] == eager._pending[seat]
                action = DISCARD[rng.choice([t for t in range(34) if bits >> t & 1])]
                r = lazy._answer_seen(seat, action, action.uid, None, step)
            else:
                table = lazy._pending
                assert table == eager._pending
                seat = next_seat(lazy)
                action = table[seat][rng.randrange(len(table[seat]))]
                r = lazy._answer_seen(seat, action, action.uid, table, -1)
            eager.act(seat, action)
            assert_same(lazy, eager)
        assert r == -1
    assert unbuilt > 400


def _first_unbuilt_turn(game, rng):
    r = -1
    while r < 0:
        table = game._pending
        seat = next_seat(game)
        action = table[seat][rng.randrange(len(table[seat]))]
        r = game._answer_seen(seat, action, action.uid, table, -1)
    return r & 3, (r >> 2) & MASK34, r >> 36


@pytest.mark.parametrize("ruleset", RULESETS)
def test_answer_seen_for_a_closed_question_goes_through_act(ruleset):
    rng = random.Random(3)
    game = new_game(ruleset, seed=2)
    game._lazy_turn = True
    # the turn was answered meanwhile (through act): the stale answer raises and changes nothing
    seat, bits, step = _first_unbuilt_turn(game, rng)
    discards = [t for t in range(34) if bits >> t & 1]
    game.act(seat, DISCARD[discards[0]])
    before, events = game.state(), list(game._events)
    with pytest.raises(IllegalActionError):
        game._answer_seen(seat, DISCARD[discards[-1]], discards[-1], None, step)
    assert game.state() == before and game._events == events
    # a table answered meanwhile by its seat: the same
    while game._asked is None:  # (the turns after it, to the next built question)
        game.act(game.turn, game._pending[game.turn][0])
    table = game._pending
    seat = next_seat(game)
    game.act(seat, table[seat][0])
    before = game.state()
    with pytest.raises(IllegalActionError):
        game._answer_seen(seat, table[seat][-1], table[seat][-1].uid, table, -1)
    assert game.state() == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_answer_seen_after_the_turn_was_built_by_a_reader(ruleset):
    """A reader built the unbuilt turn (`pending()`) before the answer came: it goes through `act`,
    which finds it legal in the built question — the same hand as the twin's."""
    rng = random.Random(5)
    eager, lazy = twins(ruleset, 4)
    for _ in range(6):
        history = len(lazy._actions)
        seat, bits, step = _first_unbuilt_turn(lazy, rng)
        for entry in lazy._actions[history:]:
            eager.act(entry >> 8, eager.space.actions[eager.space.code_of_uid[entry & 255]])
        assert lazy.pending() == eager.pending()  # builds it
        t = max(t for t in range(34) if bits >> t & 1)
        lazy._answer_seen(seat, DISCARD[t], t, None, step)
        eager.act(seat, DISCARD[t])
        assert_same(lazy, eager)
        if lazy.finished:
            break


@pytest.mark.parametrize("opponents", [None, "random", ["greedy", "random", "greedy"]])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_env_turns_left_unbuilt_and_read_between_steps(ruleset, opponents):
    """The step kernel leaves the learner's plain turns unbuilt (in self-play every seat is the
    learner; against bots the native loop leaves the learner's turn unbuilt for it); a user reading
    a sub-env's game between steps (which builds its turn) changes nothing of the play."""
    np = pytest.importorskip("numpy")
    from mahjong_core.env import VectorEnv

    plain, reading = VectorEnv(ruleset, 4, opponents, seat=2), VectorEnv(ruleset, 4, opponents, seat=2)
    a, _ = plain.reset(seed=9)
    b, _ = reading.reset(seed=9)
    rng = np.random.default_rng(2)
    unbuilt = 0
    for step in range(150):
        unbuilt += sum(t.game._asked is None for t in plain.tables)
        if step % 3 == 0:  # a user looks at every table: the turns are built
            for t, seat in zip(reading.tables, reading._seat_arr):
                assert t.game.legal_actions(int(seat))
        assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])
        actions = plain.sample_actions(rng)
        a, ra, ta, _, ia = plain.step(actions)
        b, rb, tb, _, ib = reading.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ia["seat"], ib["seat"])
    assert unbuilt > (200 if opponents is None else 60)


def test_vector_env_illegal_action_on_an_unbuilt_turn():
    np = pytest.importorskip("numpy")
    from mahjong_core.env import VectorEnv

    env = VectorEnv("sichuan", 2)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(1)
    while env.tables[1].game._asked is not None:
        obs, *_ = env.step(env.sample_actions(rng))
    game = env.tables[1].game
    seat = int(env._seat_arr[1])
    legal = [int(c) for c in np.flatnonzero(obs["action_mask"][1])]
    assert legal == [game.space.code_of_uid[t] for t in range(34) if game._discard_mask(seat) >> t & 1]
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    states = [t.game._events[:] for t in env.tables]
    with pytest.raises(IllegalActionError, match=r"sub-env 1: .* is not legal for seat \d; legal: \[Discard"):
        env.step(np.array([int(np.flatnonzero(obs["action_mask"][0])[0]), illegal]))
    assert [t.game._events for t in env.tables] == states and game._asked is None  # nothing moved, still unbuilt
    env.step(np.array([int(np.flatnonzero(obs["action_mask"][0])[0]), legal[-1]]))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_answer_seen_checks_what_it_applies_directly(ruleset):
    """`_answer_seen` applies directly only an action in the seat's list of the question it names,
    or a legal DISCARD[uid] of its unbuilt turn for the turn's own seat; anything else goes through
    `act`: an illegal answer raises and changes nothing, a legal one under a wrong uid is applied as
    `act` applies it."""
    rng = random.Random(8)
    game = new_game(ruleset, seed=6)
    game._lazy_turn = True
    seat, bits, step = _first_unbuilt_turn(game, rng)
    legal = [t for t in range(34) if bits >> t & 1]
    illegal = next(t for t in range(34) if not bits >> t & 1)
    twin = game.clone()  # (builds the turn, on the copy only)
    assert game._asked is None
    before, events = twin.state(), list(game._events)
    for bad_seat, t, uid in ((seat ^ 1, legal[0], legal[0]),  # not the turn's seat
                             (seat, illegal, illegal),          # a discard outside the mask
                             (seat, illegal, legal[0])):        # ... claimed under a legal uid
        with pytest.raises(IllegalActionError):
            game._answer_seen(bad_seat, DISCARD[t], uid, None, step)
        assert game._events == events and game.state() == before
        game._asked = None  # (state() built the turn: unbuilt again, as before)
    with pytest.raises(IllegalActionError):  # a table: an action outside the seat's list
        game._answer_seen(seat, DISCARD[illegal], illegal, game._pending, -1)
    assert game.state() == before and game._events == events
    game._asked = None
    game._answer_seen(seat, DISCARD[legal[-1]], 34, None, step)  # a legal discard, a wrong uid
    twin.act(seat, DISCARD[legal[-1]])
    assert_same(game, twin) and game.state() == twin.state()
