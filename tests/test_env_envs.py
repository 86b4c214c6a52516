"""PettingZoo, Gymnasium and vector environments: the official API checkers, rewards, bad input."""

import warnings

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from mahjong_core.env import VectorEnv, aec_env, encode, legal_mask, parallel_env  # noqa: E402
from mahjong_core.env.bots import PolicyBot  # noqa: E402
from mahjong_core.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from mahjong_core.game import new_game  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_aec_api(ruleset):
    api_test(aec_env(ruleset), num_cycles=300)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_parallel_api(ruleset):
    parallel_api_test(parallel_env(ruleset), num_cycles=300)


def random_aec_hand(env, rng):
    env.reset(seed=int(rng.integers(1 << 30)))
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return total, steps


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_rewards_are_the_ledger(ruleset):
    rng = np.random.default_rng(0)
    env = aec_env(ruleset, reward_scale=0.5)
    for _ in range(5):
        total, steps = random_aec_hand(env, rng)
        totals = env.table.game.ledger.totals()
        assert [total[a] for a in env.possible_agents] == [0.5 * t for t in totals]
        assert sum(total.values()) == 0 and steps > 10


def test_aec_bad_actions_change_nothing():
    env = aec_env("sichuan")
    env.reset(seed=3)
    before = env.table.game.state()
    for bad in (-1, 88, 10**9, 1.5, "x", None, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.table.game.state() == before


def test_aec_last_is_pettingzoos_last():
    """`last()` skips PettingZoo's `observe` hop: the same five values as `observe` and the
    dicts, a subclass's own `observe` still used, and a clear error before the first reset."""
    env = aec_env("mcr")
    with pytest.raises(IllegalActionError, match="reset"):
        env.last()
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(40):
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        expected = env.observe(agent)
        assert obs.keys() == expected.keys()
        assert all((obs[k] == expected[k]).all() and obs[k].dtype == expected[k].dtype for k in obs)
        assert (reward, term, trunc, info) == (env._cumulative_rewards[agent], env.terminations[agent],
                                               env.truncations[agent], env.infos[agent])
        assert env.last(observe=False)[0] is None
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    class Marked(type(env)):
        def observe(self, agent):
            return {"marked": agent}

    marked = Marked("mcr")
    marked.reset(seed=5)
    assert marked.last()[0] == {"marked": marked.agent_selection}


def test_envs_play_hand_after_hand_on_the_botzone_table():
    """The Botzone table has no dealer (seat 0 plays first): the envs deal every hand that way
    (they used to pass dealer k % 4 and failed at the second hand)."""
    env = VectorEnv("mcr", 2, rules="botzone")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    hands = 0
    while hands < 4:
        _, _, term, _, _ = env.step(env.sample_actions(rng))
        hands += int(term.sum())
        assert all(type(t.game).__name__ == "BotzoneGame" and t.game.dealer == 0 for t in env.tables)
    assert max(t.hand_no for t in env.tables) >= 2


def test_parallel_rejects_missing_and_illegal_actions():
    env = parallel_env("mcr")
    obs, _ = env.reset(seed=2)
    before = env.table.game.state()
    with pytest.raises(IllegalActionError, match="no action"):
        env.step({})
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    bad = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in acting}
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.table.game.state() == before


@pytest.mark.parametrize("env_id", ["mahjong_core/Sichuan-v0", "mahjong_core/MCR-v0", "mahjong_core/Changbai-v0"])
def test_gymnasium_check_env(env_id):
    import mahjong_core.env.gym_env  # noqa: F401  (registers the ids)

    env = gymnasium.make(env_id, opponents=["greedy", "random", "greedy"], illegal_action="default")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_episode_rewards_and_errors():
    import mahjong_core.env.gym_env  # noqa: F401

    env = gymnasium.make("mahjong_core/Sichuan-v0", opponents="greedy", seat="random").unwrapped
    rng = np.random.default_rng(1)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        total = 0.0
        done = False
        while not done:
            game, seat = env.table.game, info["seat"]  # the observation is the learner's, as encode gives it
            assert np.array_equal(obs["observation"], encode(game, seat))
            assert np.array_equal(obs["action_mask"], legal_mask(game, seat)) and obs["action_mask"].any()
            legal = np.flatnonzero(obs["action_mask"])
            obs, r, done, trunc, info = env.step(int(rng.choice(legal)))
            total += r
        assert total == info["totals"][info["seat"]]
        assert not obs["action_mask"].any()  # the hand is over: nothing to answer
        with pytest.raises(IllegalActionError):
            env.step(0)
    env.reset(seed=9)
    before = env.table.game.state()
    with pytest.raises(IllegalActionError):
        env.step(10**6)
    assert env.table.game.state() == before
    with pytest.raises(InvalidArgumentError):
        gymnasium.make("mahjong_core/MCR-v0", opponents=["greedy"] * 2)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_self_play(ruleset):
    n = 6
    env = VectorEnv(ruleset, n)
    obs, info = env.reset(seed=10)
    assert obs["observation"].shape == (n, env.single_observation_space["observation"].shape[0], 34)
    assert obs["action_mask"].shape == (n, env.single_action_space.n)
    buffers = (obs["observation"], obs["action_mask"])
    rng = np.random.default_rng(0)
    sums = np.zeros((n, 4))
    ended = 0
    for _ in range(400):
        masks = obs["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        seats = info["seat"].copy()
        obs, rew, term, trunc, info = env.step(actions)
        assert obs["observation"] is buffers[0] and obs["action_mask"] is buffers[1]
        assert np.array_equal(rew, info["seat_rewards"][np.arange(n), seats])
        sums += info["seat_rewards"]
        ended += term.sum()
        for i in range(n):  # each row is the observation of the seat that must act
            game = env.tables[i].game
            assert info["seat"][i] in game.pending()
            assert obs["action_mask"][i].sum() == len(game.pending()[info["seat"][i]])
    assert ended > 0
    assert abs(sums.sum()) < 1e-9


def test_vector_seeding_is_per_sub_env():
    def run(n, seed):
        env = VectorEnv("sichuan", n)
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"][0].copy()]
        for _ in range(150):
            actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
            obs, *_ = env.step(actions)
            out.append(obs["observation"][0].copy())
        return out

    a, b = run(2, 4), run(5, 4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = run(2, 5)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_vector_with_opponents_and_bad_input():
    env = VectorEnv("changbai", 3, opponents="greedy", seat=2)
    obs, info = env.reset(seed=1)
    assert (info["seat"] == 2).all()
    games = [t.game for t in env.tables]
    states = [g.state() for g in games]
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    bad = list(legal)
    bad[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    for actions in (bad, legal[:2], legal[:2] + [1.5], legal[:2] + [-3]):
        with pytest.raises(IllegalActionError):
            env.step(actions)
    assert [g.state() for g in games] == states  # all or nothing
    done = 0
    for _ in range(300):
        obs, rew, term, trunc, info = env.step([int(np.flatnonzero(m)[-1]) for m in obs["action_mask"]])
        done += term.sum()
        assert (info["seat"] == 2).all()
    assert done > 0
    with pytest.raises(InvalidArgumentError):
        VectorEnv("mcr", 0)


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr"])
def test_vector_sample_actions_is_uniform_over_the_legal_actions(ruleset):
    env = VectorEnv(ruleset, 4)
    with pytest.raises(IllegalActionError, match="reset"):
        env.sample_actions(0)
    obs, _ = env.reset(seed=3)
    assert np.array_equal(env.sample_actions(7), env.sample_actions(np.random.default_rng(7)))  # seeded
    rng = np.random.default_rng(1)
    for _ in range(60):  # always legal for the row's acting seat, and steps accept it as it is
        actions = env.sample_actions(rng)
        assert actions.dtype == np.int64 and actions.shape == (4,)
        assert all(obs["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, *_ = env.step(actions)
    # uniform: at a decision with k legal actions, each is drawn ~n/k times (chi-square, k - 1 dof)
    while obs["action_mask"][0].sum() < 5:
        obs, *_ = env.step(env.sample_actions(rng))
    legal = np.flatnonzero(obs["action_mask"][0])
    draws = 8000
    counts = np.zeros(env.single_action_space.n)
    for _ in range(draws):
        counts[env.sample_actions(rng)[0]] += 1
    assert counts.sum() == counts[legal].sum()  # never an illegal code
    expected = draws / len(legal)
    chi2 = float(((counts[legal] - expected) ** 2 / expected).sum())
    assert chi2 < 3 * len(legal) + 30, (chi2, len(legal))  # far above the 99.9% point for k <= 40


def test_policy_bot_plays_in_a_match():
    from mahjong_core.game.bots import GreedyBot
    from mahjong_core.game.match import Match

    seen = []

    def first_legal(observation, mask):
        seen.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    match = Match("mcr", seed=3).play([PolicyBot(first_legal), GreedyBot(), GreedyBot(), GreedyBot()], hands=2)
    assert match.hand_no == 2 and seen and set(seen) == {(61, 34)}
    game = new_game("mcr", seed=1)
    with pytest.raises(IllegalActionError):
        PolicyBot(lambda o, m: int(np.flatnonzero(m == 0)[0])).choose(game, game.dealer, game.pending()[game.dealer])
