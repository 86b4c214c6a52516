"""The PettingZoo environments pickle and deep-copy (SuperSuit's vector wrappers copy an environment
so; search bots copy one to look ahead): a copy taken mid-hand plays on exactly as the original
does — observations, masks, rewards, done flags, `agent_selection` — and shares nothing with it."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from mahjong_core.env import aec_env, parallel_env  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")
COPIERS = {"deepcopy": copy.deepcopy, "pickle": lambda env: pickle.loads(pickle.dumps(env))}


def _aec_record(env):
    """Everything an AEC loop reads now."""
    obs, reward, term, trunc, info = env.last()
    return (env.agent_selection, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc,
            dict(env._cumulative_rewards), dict(env.rewards), list(env.agents), repr(info))


def _aec_play(env, choices, steps):
    """`steps` AEC steps (or to the end) choosing with `choices`, a list of floats in [0, 1)."""
    records = []
    for k in range(steps):
        if not env.agents:
            break
        records.append(_aec_record(env))
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[int(choices[k] * len(legal))]))
    return records


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_aec_copy_plays_on_as_the_original(ruleset, how):
    rng = random.Random(ruleset)
    compared = 0
    for hand in range(3):
        env = aec_env(ruleset)
        env.reset(seed=40 + hand)
        _aec_play(env, [rng.random() for _ in range(400)], rng.randrange(5, 60))
        before = repr(env.table.game.state())
        twin = COPIERS[how](env)
        assert twin is not env and twin.table is not env.table and twin.table.game is not env.table.game
        assert type(twin) is type(env) and repr(twin) == repr(env)
        choices = [rng.random() for _ in range(400)]
        ours = _aec_play(twin, choices, 400)
        assert repr(env.table.game.state()) == before, "playing the copy moved the original"
        theirs = _aec_play(env, choices, 400)
        assert ours == theirs
        assert twin.table.game.ledger.totals() == env.table.game.ledger.totals()
        assert twin.table.game.finished and env.table.game.finished
        compared += len(ours)
    assert compared > 100


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_a_parallel_copy_plays_on_as_the_original(how):
    rng = random.Random(7)
    env = parallel_env("mcr")
    env.reset(seed=3)

    def play(e, choices):
        out = []
        obs = {a: e._observe(s) for s, a in enumerate(e.possible_agents)}
        k = 0
        while e.agents:
            actions = {}
            for agent in e.agents:
                legal = np.flatnonzero(obs[agent]["action_mask"])
                if len(legal):
                    actions[agent] = int(legal[int(choices[k % len(choices)] * len(legal))])
                    k += 1
            obs, rewards, terms, truncs, _ = e.step(actions)
            out.append((sorted(actions.items()), sorted(rewards.items()), sorted(terms.items()),
                        [o["observation"].tobytes() for o in obs.values()]))
        return out

    def play_partway(e, steps):
        for _ in range(steps):
            actions = {}
            for s, agent in enumerate(e.agents):
                legal = np.flatnonzero(e._observe(s)["action_mask"])
                if len(legal):
                    actions[agent] = int(legal[int(rng.random() * len(legal))])
            e.step(actions)

    play_partway(env, 25)
    before = repr(env.table.game.state())
    twin = COPIERS[how](env)
    choices = [rng.random() for _ in range(500)]
    ours = play(twin, choices)
    assert repr(env.table.game.state()) == before, "playing the copy moved the original"
    assert ours == play(env, choices) and len(ours) > 10
    assert twin.table.game.ledger.totals() == env.table.game.ledger.totals()


def test_an_environment_copied_before_reset_resets():
    env = aec_env("changbai")
    twin = copy.deepcopy(env)
    twin.reset(seed=2)
    env.reset(seed=2)
    assert _aec_record(twin) == _aec_record(env)
    from mahjong_core.env import VectorEnv

    vector = VectorEnv("sichuan", 2, "greedy")
    vector_twin = pickle.loads(pickle.dumps(vector))
    assert repr(vector_twin) == repr(vector)
    first, second = vector.reset(seed=4)[0], vector_twin.reset(seed=4)[0]
    assert np.array_equal(first["observation"], second["observation"])


class _Counting(type(aec_env("mcr"))):
    """A user's subclass with an attribute of its own."""

    def __init__(self, ruleset, **kwargs):
        super().__init__(ruleset, **kwargs)
        self.steps_taken = 0

    def step(self, action):
        self.steps_taken += 1
        super().step(action)


def test_a_subclass_copies_as_itself_with_its_own_attributes():
    env = _Counting("sichuan")
    env.reset(seed=5)
    _aec_play(env, [0.3] * 400, 20)
    twin = copy.deepcopy(env)
    assert type(twin) is _Counting and twin.steps_taken == env.steps_taken == 20
    choices = [random.Random(1).random() for _ in range(400)]
    assert _aec_play(twin, choices, 400) == _aec_play(env, choices, 400)
    assert twin.steps_taken == env.steps_taken > 20


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("ruleset,opponents", [("sichuan", None), ("mcr", None), ("changbai", "greedy"),
                                               ("mcr", "random")])
def test_a_vector_copy_steps_on_as_the_original(ruleset, opponents, how):
    from mahjong_core.env import VectorEnv

    env = VectorEnv(ruleset, 5, opponents)
    env.reset(seed=11)
    rng = np.random.default_rng(3)
    for _ in range(40):
        env.step(env.sample_actions(rng))
    before = [repr(g.state()) for g in env._games]
    twin = COPIERS[how](env)
    assert type(twin) is VectorEnv and repr(twin) == repr(env)
    assert twin._games[0] is not env._games[0] and twin._obs is not env._obs
    assert np.array_equal(twin._obs, env._obs) and np.array_equal(twin._masks, env._masks)

    def play(e, seed):
        out = []
        pick = np.random.default_rng(seed)
        for _ in range(150):
            obs, rewards, terminated, truncated, info = e.step(e.sample_actions(pick))
            out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), rewards.tolist(),
                        terminated.tolist(), info["seat"].tolist()))
        return out

    ours = play(twin, 9)
    assert [repr(g.state()) for g in env._games] == before, "stepping the copy moved the original"
    assert ours == play(env, 9)
    assert sum(sum(step[3]) for step in ours) > 0  # hands ended (and were dealt again) after the copy
