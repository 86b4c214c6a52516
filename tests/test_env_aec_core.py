"""The AEC environment's C path (`_encode.AECCore`: `last`, `observe`, `step`, `agent_iter`) against a
slow, obviously-correct reference built from the public pieces — `Table`, `next_seat`, `encode`,
`game.pending()` and the ledger's totals — on the same seeds, and its observation arrays, which it
reuses only once nobody else refers to them."""

import gc
import pickle
import random

import pytest

np = pytest.importorskip("numpy")
pettingzoo = pytest.importorskip("pettingzoo")

from mahjong_core.env import aec_env, encode  # noqa: E402
from mahjong_core.env._encode import _array_peek  # noqa: E402
from mahjong_core.env.table import AGENTS, Table, next_seat  # noqa: E402
from mahjong_core.errors import IllegalActionError, InvalidArgumentError  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")


def reference_mask(game, seat):
    mask = np.zeros(game.space.size, np.int8)
    if seat not in game._answers:
        for a in game.pending().get(seat, ()):
            mask[game.space.code_of_uid[a.uid]] = 1
    return mask


def reference_view(game, seat):
    """What the seat sees now, read off a copy (reading the game itself would build a plain turn the
    engine left unbuilt, and the C path would then never meet one)."""
    copy = game.clone()
    return encode(copy, seat), reference_mask(copy, seat)


@pytest.fixture(params=["array head", "buffer protocol"])
def spare_check(request):
    """Reused observation arrays checked both ways: by reading NumPy's array head (the default
    where it agrees with the buffer protocol, as on every NumPy this runs on) or through the
    buffer protocol."""
    was = _array_peek()
    _array_peek(request.param == "array head")
    if request.param == "array head":  # (the next allocation decides whether the head agrees)
        env = aec_env("mcr")
        env.reset(seed=0)
        env.last()
        assert _array_peek() is True, "NumPy's array head did not agree with its buffer protocol"
    yield request.param
    _array_peek(was is not False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_plays_as_the_reference_loop(ruleset, spare_check):
    """Every decision of 25 hands: the same seat asked, observation, mask, rewards (each seat's
    ledger change, scaled), terminations and cumulative rewards as a loop over a second `Table`
    dealt from the same seeds, acting through `Game.act`."""
    env = aec_env(ruleset, reward_scale=0.25)
    table = Table(ruleset, reward_scale=0.25)
    rng = random.Random(7)
    decisions = 0
    for hand in range(25):
        env.reset(seed=1000 + hand)
        game = table.reset(1000 + hand)
        cumulative = {a: 0.0 for a in AGENTS}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert reward == cumulative[agent] and info == {} and not trunc
            if term:
                assert game.finished and not obs["action_mask"].any()
                assert np.array_equal(obs["observation"], encode(game, AGENTS.index(agent)))
                env.step(None)
                continue
            seat = next_seat(game)
            assert agent == AGENTS[seat] == env.agent_selection
            expected_obs, expected_mask = reference_view(game, seat)
            assert np.array_equal(obs["observation"], expected_obs)
            assert np.array_equal(obs["action_mask"], expected_mask)
            assert obs["observation"].dtype == np.uint8 and obs["action_mask"].dtype == np.int8
            code = rng.choice(np.flatnonzero(expected_mask).tolist())
            env.step(code)
            game.act(seat, game.space.action(code))
            deltas = table.deltas() or [0, 0, 0, 0]
            assert [env.rewards[a] for a in AGENTS] == [d * 0.25 for d in deltas]
            cumulative[agent] = 0.0
            for s, a in enumerate(AGENTS):
                cumulative[a] += deltas[s] * 0.25
            assert env._cumulative_rewards == cumulative
            assert all(env.terminations[a] == game.finished for a in AGENTS)
            decisions += 1
        assert env.table.game.ledger.totals() == game.ledger.totals()
        assert env.table.game._events == game._events
    assert decisions > 25 * 30


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reads_between_decisions_change_nothing(ruleset):
    """Reading the game between `last()` and `step()` — `pending()`, `action_masks()`, another
    agent's `observe()` — builds a plain turn the engine left unbuilt: the C path notices (its kept
    question is no longer the one open) and plays on exactly as without the reads."""
    plain, reading = aec_env(ruleset), aec_env(ruleset)
    rng = random.Random(3)
    for hand in range(4):
        plain.reset(seed=hand)
        reading.reset(seed=hand)
        for agent in plain.agent_iter():
            obs, *_, term, trunc, _ = plain.last()
            if term:
                plain.step(None)
                reading.step(None)
                continue
            kind = rng.randrange(4)
            if kind == 0:
                reading.table.game.pending()
            elif kind == 1:
                assert np.array_equal(reading.action_masks(), obs["action_mask"].astype(bool))
            elif kind == 2:
                other = AGENTS[(AGENTS.index(agent) + 1) % 4]
                seen = reading.observe(other)
                assert np.array_equal(seen["action_mask"], reference_mask(reading.table.game, AGENTS.index(other)))
            mine = reading.last()[0]
            assert reading.agent_selection == agent
            assert np.array_equal(mine["observation"], obs["observation"])
            assert np.array_equal(mine["action_mask"], obs["action_mask"])
            code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            plain.step(code)
            reading.step(code)
            assert plain.rewards == reading.rewards
        assert plain.table.game._events == reading.table.game._events


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_answers_raise_and_change_nothing(ruleset):
    """At every kind of question (a plain turn left unbuilt, a built turn, a claim window), an
    illegal code, an out-of-range code and a non-code raise IllegalActionError; the game, the
    selection and the rewards are unchanged, and the next legal answer plays on."""
    env = aec_env(ruleset)
    rng = random.Random(11)
    checked = 0
    for hand in range(3):
        env.reset(seed=50 + hand)
        for agent in env.agent_iter():
            obs, *_, term, trunc, _ = env.last()
            if term:
                env.step(None)
                continue
            mask = obs["action_mask"]
            if rng.random() < 0.3:
                game = env.table.game
                before = (game.step, dict(game._answers), list(game._events), env.agent_selection,
                          dict(env.rewards), dict(env._cumulative_rewards))
                illegal = np.flatnonzero(mask == 0)
                for bad in (int(illegal[rng.randrange(len(illegal))]), -1, len(mask), 10**30, 2.0, "7", True):
                    with pytest.raises(IllegalActionError):
                        env.step(bad)
                assert before == (game.step, dict(game._answers), list(game._events), env.agent_selection,
                                  dict(env.rewards), dict(env._cumulative_rewards))
                assert np.array_equal(env.last()[0]["action_mask"], mask)
                checked += 1
            choice = rng.choice(np.flatnonzero(mask).tolist())
            env.step(np.int64(choice) if rng.random() < 0.5 else choice)  # NumPy integers are codes too
    assert checked > 20


def test_observations_kept_by_the_caller_are_never_written_again(spare_check):
    """The C path reuses an observation's arrays only when nothing else refers to them: every
    observation kept (whole, or only its mask, or only a view of its planes) still holds what it held."""
    env = aec_env("changbai")
    env.reset(seed=9)
    rng = random.Random(0)
    kept = []
    for n, agent in enumerate(env.agent_iter()):
        obs, *_, term, trunc, _ = env.last()
        if term:
            env.step(None)
            continue
        if n % 3 == 0:
            kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
        elif n % 3 == 1:
            kept.append(({"observation": obs["observation"][1:], "action_mask": obs["action_mask"]},
                         obs["observation"][1:].copy(), obs["action_mask"].copy()))
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        del obs
    assert len(kept) > 40
    for obs, planes, mask in kept:
        assert np.array_equal(obs["observation"], planes) and np.array_equal(obs["action_mask"], mask)


def _change_in_place(array, attribute: str, value) -> None:
    """`array.shape = value` or `array.dtype = value`, what a holder could do to a spare's array:
    deprecated by NumPy 2.5 (a warning, silenced here); where a later NumPy refuses it, the holder
    freezes the array instead."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            setattr(array, attribute, value)
        except (AttributeError, TypeError):
            array.flags.writeable = False


def test_spares_frozen_or_reshaped_by_their_last_holder_are_replaced(spare_check):
    """An observation whose arrays its holder froze, reshaped or retyped before dropping them: the
    next observations are new arrays, right, and writeable."""
    env = aec_env("mcr")
    env.reset(seed=2)
    for change in ("freeze", "reshape", "retype", "freeze", "reshape"):
        obs = env.last()[0]
        if change == "freeze":
            obs["observation"].flags.writeable = False
            obs["action_mask"].flags.writeable = False
        elif change == "reshape":
            _change_in_place(obs["observation"], "shape", (obs["observation"].size,))
            _change_in_place(obs["action_mask"], "shape", (1, obs["action_mask"].size))
        else:
            _change_in_place(obs["observation"], "dtype", np.int8)
            _change_in_place(obs["action_mask"], "dtype", np.uint8)
        del obs
        gc.collect()
        for _ in range(3):
            seat = AGENTS.index(env.agent_selection)
            obs = env.last()[0]
            expected_obs, expected_mask = reference_view(env.table.game, seat)
            assert obs["observation"].flags.writeable and obs["action_mask"].flags.writeable
            assert obs["observation"].shape == expected_obs.shape and obs["action_mask"].shape == expected_mask.shape
            assert obs["observation"].dtype == np.uint8 and obs["action_mask"].dtype == np.int8
            assert np.array_equal(obs["observation"], expected_obs) and np.array_equal(obs["action_mask"], expected_mask)
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            del obs


def test_a_dropped_observation_is_written_again_and_nothing_else_is(spare_check):
    """An observation nobody refers to any more is the one written next (its dict and arrays: no
    allocation a decision); one whose dict its holder changed before dropping it — a key added or
    removed, a value replaced, the two swapped — is not: the next observations are new and right,
    and the arrays the holder put in are never written."""
    env = aec_env("sichuan")
    env.reset(seed=3)
    seen, junk = set(), []
    for _ in range(20):
        obs = env.last()[0]
        seen.update((id(obs), id(obs["observation"]), id(obs["action_mask"])))
        del obs
        junk += [{}, np.empty(env.last()[0]["observation"].shape, np.uint8), np.empty(400, np.int8)]
    assert len(seen) <= 6  # two spares at most, though freed memory went to the junk in between

    planted = np.full(env.last()[0]["observation"].shape, 7, np.uint8)
    changes = {
        "key added": lambda d: d.__setitem__("extra", 1),
        "key removed": lambda d: d.pop("action_mask"),
        "value replaced": lambda d: d.__setitem__("observation", planted),
        "values swapped": lambda d: d.update(observation=d["action_mask"], action_mask=d["observation"]),
        "key reinserted": lambda d: d.__setitem__("observation", d.pop("observation")),
    }
    for name, change in changes.items():
        for _ in range(2):
            obs = env.last()[0]
            change(obs)
            del obs
        seat = AGENTS.index(env.agent_selection)
        obs = env.last()[0]
        expected_obs, expected_mask = reference_view(env.table.game, seat)
        assert list(obs) == ["observation", "action_mask"], name
        assert np.array_equal(obs["observation"], expected_obs), name
        assert np.array_equal(obs["action_mask"], expected_mask), name
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        del obs
    assert (planted == 7).all()


class _PettingZoosBookkeeping:
    """PettingZoo's own `_was_dead_step` and `_accumulate_rewards`, in Python (the C path does them
    itself only for a class that keeps PettingZoo's)."""

    def _was_dead_step(self, action):
        return pettingzoo.AECEnv._was_dead_step(self, action)

    def _accumulate_rewards(self):
        return pettingzoo.AECEnv._accumulate_rewards(self)


def _bookkeeping(env):
    return (env.agent_selection, list(env.agents), dict(env.rewards), dict(env._cumulative_rewards),
            dict(env.terminations), dict(env.truncations), dict(env.infos),
            getattr(env, "_skip_agent_selection", "unset"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_done_agents_and_rewards_are_kept_as_pettingzoo_keeps_them(ruleset):
    """The C path's dead steps and reward accumulation against PettingZoo's own, step by step:
    hands played to the end (every agent terminated) and hands a wrapper truncates midway (every
    agent truncated, then removed by `step(None)` in PettingZoo's order)."""
    c_path = aec_env(ruleset, reward_scale=0.5)
    python = type("PythonBookkeeping", (_PettingZoosBookkeeping, type(c_path)), {})(ruleset, reward_scale=0.5)
    rng = random.Random(11)
    dead_steps = 0
    for hand in range(8):
        truncate_at = 25 if hand % 2 else None
        for env in (c_path, python):
            env.reset(seed=300 + hand)
        for n, agent in enumerate(c_path.agent_iter()):
            assert python.agent_selection == agent
            if n == truncate_at:
                for env in (c_path, python):
                    for a in env.agents:
                        env.truncations[a] = True
            obs, reward, term, trunc, info = c_path.last()
            assert python.last()[1:] == (reward, term, trunc, info)
            if term or trunc:
                action = None
                dead_steps += 1
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            for env in (c_path, python):
                env.step(action)
            assert _bookkeeping(c_path) == _bookkeeping(python)
        assert c_path.agents == python.agents == []
    assert dead_steps == 8 * 4
    with pytest.raises(IllegalActionError, match="step"):
        c_path.reset(seed=1)
        for agent in c_path.agent_iter():
            if c_path.last()[2]:
                c_path.step(0)  # a done agent's step is None
            c_path.step(int(np.flatnonzero(c_path.last()[0]["action_mask"])[0]))


def test_the_c_path_keeps_pettingzoos_attributes():
    """`agent_selection`, `agents` and the reward dicts are PettingZoo's attributes, readable and
    writable from Python (wrappers and `_was_dead_step` write them); `agent_iter` stops as
    PettingZoo's does; errors before the first reset and for unknown agents are clear."""
    env = aec_env("sichuan")
    for call in (env.last, lambda: env.step(0), lambda: env.observe("player_0")):
        with pytest.raises(IllegalActionError, match="reset"):
            call()
    env.reset(seed=4)
    assert env.agents == list(AGENTS) and env.agent_selection in AGENTS
    assert [a for a in env.agent_iter(5)] == [env.agent_selection] * 5  # nothing stepped: the same agent
    assert list(env.agent_iter(0)) == []
    with pytest.raises(InvalidArgumentError, match="player_0"):
        env.observe("player_9")
    asked = env.agent_selection
    other = AGENTS[(AGENTS.index(asked) + 2) % 4]
    env.agent_selection = other  # a wrapper may point it elsewhere: that agent's view and mask
    obs = env.last()[0]
    expected_obs, expected_mask = reference_view(env.table.game, AGENTS.index(other))
    assert env.agent_selection == other
    assert np.array_equal(obs["observation"], expected_obs) and np.array_equal(obs["action_mask"], expected_mask)
    env.agent_selection = asked
    assert env.last()[0]["action_mask"].any()
    with pytest.raises(TypeError):
        env.rewards = [0, 0, 0, 0]
    env.reset(seed=4)
    hands_agents = []
    for agent in env.agent_iter():
        obs, *_, term, trunc, _ = env.last()
        if term:
            hands_agents.append(agent)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(hands_agents) == list(AGENTS) and env.agents == []
    for d in (env.rewards, env._cumulative_rewards, env.terminations, env.truncations, env.infos):
        assert d == {}


def test_a_game_class_that_overrides_act_is_asked_every_answer():
    """A table class may override `act`: the C path then answers through it (every decision), with
    the same play as the registered class."""
    calls = []
    plain, counting = aec_env("mcr"), aec_env("mcr")
    base = counting.table._hands.cls

    class Counted(base):
        def act(self, seat, action, step=None):
            calls.append(seat)
            return super().act(seat, action, step)

    counting.table._hands.cls = Counted
    rng = random.Random(5)
    decisions = 0
    for hand in range(2):
        plain.reset(seed=hand)
        counting.reset(seed=hand)
        for agent in plain.agent_iter():
            obs, *_, term, trunc, _ = plain.last()
            other = counting.last()[0]
            if term:
                plain.step(None)
                counting.step(None)
                continue
            assert np.array_equal(obs["observation"], other["observation"])
            assert np.array_equal(obs["action_mask"], other["action_mask"])
            code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            plain.step(code)
            counting.step(code)
            decisions += 1
    assert len(calls) == decisions and type(counting.table.game) is Counted


def test_a_pickled_game_of_the_env_replays_the_same():
    """The game the AEC env plays (its plain turns left unbuilt) pickles and clones as any game: the
    copy plays on to the same events."""
    env = aec_env("sichuan")
    env.reset(seed=21)
    rng = random.Random(2)
    for _ in range(30):
        obs = env.last()[0]
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    game = env.table.game
    copy = pickle.loads(pickle.dumps(game))
    twin = game.clone()
    while not game.finished:
        seat = next_seat(game)
        action = game.pending()[seat][0]
        for g in (game, copy, twin):
            g.act(seat, action)
    assert game._events == copy._events == twin._events


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_moved_behind_the_envs_back_is_observed_as_it_is(ruleset):
    """The C path keeps the question it read after each step; when the game was moved past it
    without the env (an answer given through `table.game.act`), `last()` and `observe()` show the
    game as it is now — the answered seat's mask empty or its next question — and stepping on
    (with `agent_selection` pointed at the seat asked) plays as the engine decides."""
    env = aec_env(ruleset)
    rng = random.Random(13)
    moved = 0
    for hand in range(6):
        env.reset(seed=300 + hand)
        game = env.table.game
        for agent in env.agent_iter():
            obs, *_, term, trunc, _ = env.last()
            if term:
                env.step(None)
                continue
            code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            if rng.random() < 0.25:
                seat = AGENTS.index(agent)
                game.act(seat, game.space.action(code))  # behind the env's back
                moved += 1
                expected_obs, expected_mask = reference_view(game, seat)
                now = env.last()[0]
                assert np.array_equal(now["observation"], expected_obs)
                assert np.array_equal(now["action_mask"], expected_mask)
                if game.finished:
                    break
                env.agent_selection = AGENTS[next_seat(game)]
                continue
            env.step(code)
    assert moved > 30


class _Fixed:
    """A stand-in random source: `random()` gives the values given, in turn."""

    def __init__(self, values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_sample_action_draws_every_legal_action_and_nothing_else(ruleset):
    """`sample_action(rng)`: position floor(u · n) of the n legal actions, so n evenly spaced u give
    every legal code once — at plain turns left unbuilt, built questions and claim windows alike —
    and u at the ends of [0, 1] stay in range; None for a done agent; seeded draws repeat."""
    env = aec_env(ruleset)
    rng = random.Random(4)
    kinds = set()
    for hand in range(3):
        env.reset(seed=70 + hand)
        for agent in env.agent_iter():
            obs, *_, term, trunc, _ = env.last()
            if term:
                assert env.sample_action() is None
                env.step(env.sample_action(rng))
                continue
            legal = sorted(np.flatnonzero(obs["action_mask"]).tolist())
            n = len(legal)
            game = env.table.game
            kinds.add("unbuilt" if game._asked is None else "built")
            drawn = [env.sample_action(_Fixed([(k + 0.5) / n])) for k in range(n)]
            assert sorted(drawn) == legal
            low = {env.sample_action(_Fixed([u])) for u in (0.0, -3.0, float("nan"), float("-inf"))}
            high = {env.sample_action(_Fixed([u])) for u in (1.0, 1e300, float("inf"))}
            assert len(low) == len(high) == 1 and low | high <= set(legal)  # clamped to the ends
            assert low == {env.sample_action(_Fixed([0.1 / n]))} and high == {env.sample_action(_Fixed([1 - 0.1 / n]))}
            assert env.sample_action(7) == env.sample_action(np.random.default_rng(7))
            env.step(env.sample_action(rng))
    assert kinds == {"unbuilt", "built"}


def test_sample_action_outside_a_decision():
    """Before a reset, for an agent that is not the table's, and for one with nothing to answer,
    `sample_action` says so; after the game was read (its turn built) it draws from the built turn."""
    env = aec_env("changbai")
    with pytest.raises(IllegalActionError, match="reset"):
        env.sample_action()
    env.reset(seed=1)
    while env.table.game._asked is not None:  # on to a plain turn (one seat asked, left unbuilt)
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    asked = env.agent_selection
    env.agent_selection = "nobody"
    with pytest.raises(InvalidArgumentError, match="player_0"):
        env.sample_action()
    others = [a for a in AGENTS if a != asked]
    env.agent_selection = others[0]
    with pytest.raises(IllegalActionError, match="nothing to answer"):
        env.sample_action()
    env.agent_selection = asked
    env.table.game.pending()
    assert env.table.game._asked is not None
    legal = np.flatnonzero(env.last()[0]["action_mask"]).tolist()
    assert all(env.sample_action(random.Random(s)) in legal for s in range(20))
