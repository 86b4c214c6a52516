"""The environments keep the conventions Gymnasium's and PettingZoo's tooling relies on: spaces of
their own, entropy for a first reset without a seed, same-step autoreset's final observation and
info, fresh reward arrays, copies that share nothing, sub-envs that do not share a bot, errors
after a hand, NumPy numbers as arguments, and `gymnasium.make_vec`'s native vector env."""

from __future__ import annotations

import copy

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_seed_test, seed_test  # noqa: E402

import mahjong_core.env  # noqa: E402,F401  (registers the Gymnasium ids)
from mahjong_core.env import MahjongEnv, VectorEnv, aec_env, encode, parallel_env  # noqa: E402
from mahjong_core.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from mahjong_core.game.bots import RandomBot  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")


# -- spaces ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_seed_tests_pass(ruleset):
    """PettingZoo's own determinism checks sample two environments' action spaces in lockstep:
    they fail when the environments (or agents) share one space object."""
    seed_test(lambda: aec_env(ruleset), num_cycles=40)
    parallel_seed_test(lambda: parallel_env(ruleset, illegal_action="default"), num_cycles=40)


def test_every_environment_and_agent_has_its_own_spaces():
    a, b = aec_env("mcr"), aec_env("mcr")
    spaces = [env.action_space(agent) for env in (a, b) for agent in env.possible_agents]
    spaces += [env.observation_space(agent) for env in (a, b) for agent in env.possible_agents]
    spaces += [MahjongEnv("mcr").action_space, MahjongEnv("mcr").action_space, VectorEnv("mcr", 2).single_action_space]
    assert len({id(space) for space in spaces}) == len(spaces)
    a.action_space("player_0").seed(5)
    first = [a.action_space("player_0").sample() for _ in range(5)]
    a.action_space("player_0").seed(5)
    b.action_space("player_0").sample()  # another env's space moves nothing of this one's stream
    a.action_space("player_1").sample()  # nor another agent's
    assert [a.action_space("player_0").sample() for _ in range(5)] == first
    with pytest.raises(InvalidArgumentError, match="player_0"):
        a.action_space("player_9")


def test_the_aec_env_is_not_parallelizable_by_wrapper_and_says_so():
    """A claim window asks seats out of turn: PettingZoo's `aec_to_parallel` needs a cycle."""
    assert aec_env("sichuan").metadata["is_parallelizable"] is False
    assert parallel_env("sichuan").metadata["is_parallelizable"] is False


def test_parallel_illegal_action_default_plays_the_default_and_flags_it():
    env = parallel_env("mcr", illegal_action="default")
    env.reset(seed=4)
    game = env.table.game
    (seat,) = [s for s in game._pending if s not in game._answers]
    agent = f"player_{seat}"
    expected = game.default_action(seat)
    legal = set(np.flatnonzero(env.action_masks()[agent]))
    illegal = next(code for code in range(game.space.size) if code not in legal)
    _, _, _, _, infos = env.step({agent: illegal})
    assert infos[agent] == {"illegal_action": True}
    assert game.rivers[seat][-1] == expected.tile
    strict = parallel_env("mcr")
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step({agent: illegal})
    with pytest.raises(InvalidArgumentError, match="illegal_action"):
        parallel_env("mcr", illegal_action="ignore")


# -- seeds ----------------------------------------------------------------------------------------


def test_a_first_reset_without_a_seed_draws_one():
    """Gymnasium's convention: environments started without a seed (`make_vec`'s sub-envs, a
    pool's workers) deal different hands; the seed drawn is the table's, and replays them."""
    aec = [aec_env("sichuan") for _ in range(2)]
    for env in aec:
        env.reset()
    assert aec[0].table.seed != aec[1].table.seed
    single = [MahjongEnv("sichuan", opponents="random") for _ in range(2)]
    first = [env.reset()[0]["observation"] for env in single]
    assert single[0].table.seed != single[1].table.seed and not np.array_equal(*first)
    again = MahjongEnv("sichuan", opponents="random")
    assert np.array_equal(again.reset(seed=single[0].table.seed)[0]["observation"], first[0])
    synced = gymnasium.make_vec("mahjong_core/Sichuan-v0", num_envs=3, vectorization_mode="sync")
    rows = synced.reset()[0]["observation"]
    assert len({rows[i].tobytes() for i in range(3)}) == 3
    vector = [VectorEnv("mcr", 2) for _ in range(2)]
    for env in vector:
        env.reset()
    seeds = [[table.seed for table in env.tables] for env in vector]
    assert seeds[0][1] == seeds[0][0] + 1 and seeds[0] != seeds[1]
    drawn = aec[0].table.seed
    aec[0].reset()  # without a seed after the first: the next hand of the same seed
    assert (aec[0].table.seed, aec[0].table.hand_no) == (drawn, 1)


def test_numpy_numbers_are_arguments_like_python_ones():
    a = VectorEnv("mcr", np.int64(2), seat=np.int8(1), reward_scale=np.float32(0.5), opponents="random")
    b = VectorEnv("mcr", 2, seat=1, reward_scale=0.5, opponents="random")
    obs_a, _ = a.reset(seed=np.int64(3))
    obs_b, _ = b.reset(seed=3)
    assert a.num_envs == 2 and type(a.num_envs) is int and a.learner == 1
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    for bad in (np.float64(2.0), True, 0, -1):
        with pytest.raises(InvalidArgumentError, match="num_envs"):
            VectorEnv("mcr", bad)


# -- VectorEnv's step ------------------------------------------------------------------------------


def _play_rows(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield env.step(env.sample_actions(rng))


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr"])
def test_same_step_autoreset_reports_the_final_observation_and_totals(ruleset):
    env = VectorEnv(ruleset, 3, final_info=True)
    env.reset(seed=7)
    rewards_this_hand = np.zeros((3, 4))
    checked = 0
    rng = np.random.default_rng(1)
    for _ in range(700):
        games = list(env._games)
        seats = env._seat_arr.copy()
        obs, rewards, terminated, truncated, infos = env.step(env.sample_actions(rng))
        rewards_this_hand += infos["seat_rewards"]
        if not terminated.any():
            assert "final_obs" not in infos and "final_info" not in infos
            continue
        assert np.array_equal(infos["_final_obs"], terminated) and np.array_equal(infos["_final_info"], terminated)
        final = infos["final_info"]
        for i in np.flatnonzero(terminated):
            game = games[i]
            assert game.finished and env._games[i] is not game
            seat = seats[i]  # the seat whose answer ended the hand
            assert final["seat"][i] == seat
            assert np.array_equal(infos["final_obs"][i]["observation"], encode(game, seat))
            assert not infos["final_obs"][i]["action_mask"].any()
            assert list(final["totals"][i]) == game.ledger.totals()
            assert list(rewards_this_hand[i]) == [float(t) for t in game.ledger.totals()]  # every step's reward adds up to them
            rewards_this_hand[i] = 0
            checked += 1
        for i in np.flatnonzero(~terminated):
            assert infos["final_obs"][i] is None and not final["_totals"][i]
    assert checked >= 5


def test_final_info_is_off_by_default_and_on_through_make_vec_and_copies():
    plain = VectorEnv("sichuan", 4)
    plain.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        _, _, terminated, _, infos = plain.step(plain.sample_actions(rng))
        ends += int(terminated.sum())
        assert "final_obs" not in infos and "final_info" not in infos
    assert ends > 0 and plain._ended == []  # (nothing kept for it either)
    made = gymnasium.make_vec("mahjong_core/Sichuan-v0", num_envs=2)
    assert made.final_info is True and copy.deepcopy(made).final_info is True
    with pytest.raises(InvalidArgumentError, match="final_info is True or False"):
        VectorEnv("sichuan", 2, final_info="yes")


def test_rewards_flags_and_infos_are_new_arrays_each_step():
    env = VectorEnv("sichuan", 4)
    env.reset(seed=2)
    kept = []
    for obs, rewards, terminated, truncated, infos in _play_rows(env, 400):
        kept.append((rewards, terminated, truncated, infos["seat"], infos["seat_rewards"],
                     rewards.copy(), terminated.copy(), infos["seat"].copy(), infos["seat_rewards"].copy()))
    for r, t, tr, seat, seat_r, r0, t0, seat0, seat_r0 in kept:
        assert np.array_equal(r, r0) and np.array_equal(t, t0) and np.array_equal(seat, seat0)
        assert np.array_equal(seat_r, seat_r0) and not tr.any()
    assert any(step[5].any() for step in kept) and any(step[6].any() for step in kept)  # (they were not all zero)
    _, rewards, *_ = env.step(env.sample_actions(0))
    rewards[:] = 99.0  # the caller's to change: the next step is not affected
    _, rewards, *_ = env.step(env.sample_actions(0))
    assert not (rewards == 99.0).any()


def test_out_of_range_codes_name_the_row():
    env = VectorEnv("mcr", 3)
    env.reset(seed=1)
    codes = env.sample_actions(0)
    codes[2] = 999
    with pytest.raises(IllegalActionError, match=r"sub-env 2: 999 is not an action code of mcr"):
        env.step(codes)


def test_a_closed_vector_env_refuses_to_step():
    env = VectorEnv("mcr", 2)
    env.reset(seed=1)
    env.close()
    with pytest.raises(IllegalActionError, match="closed"):
        env.step(np.zeros(2, np.int64))


# -- bots and copies -------------------------------------------------------------------------------


def _row_trajectory(num_envs, opponents, row, steps=250):
    env = VectorEnv("sichuan", num_envs, opponents)
    obs, _ = env.reset(seed=[10 + i for i in range(num_envs)] if row < num_envs else None)
    out = []
    rng = np.random.default_rng(3)
    for _ in range(steps):
        masks = obs["action_mask"]
        codes = np.array([int(np.flatnonzero(masks[i])[rng.integers(1 << 30) % int(masks[i].sum())]) if i == row
                          else int(np.flatnonzero(masks[i])[0]) for i in range(num_envs)])
        obs, rewards, terminated, _, _ = env.step(codes)
        out.append((obs["observation"][row].tobytes(), float(rewards[row]), bool(terminated[row])))
    return out


def test_a_bot_object_plays_as_one_copy_per_sub_env():
    """A bot object given to `VectorEnv` is reseeded by every hand dealt: shared by the sub-envs,
    a row's play would depend on N. Each sub-env plays its own (shallow) copy."""
    mine = RandomBot()
    assert _row_trajectory(2, mine, 1) == _row_trajectory(5, mine, 1)
    env = VectorEnv("sichuan", 3, mine)
    played = [{id(bot) for bot in row if bot is not None} for row in env.bots]
    assert [len(ids) for ids in played] == [1, 1, 1] and len(set.union(*played) | {id(mine)}) == 4

    class Uncopyable(RandomBot):
        def __copy__(self):
            raise TypeError("holds a socket")

    with pytest.raises(InvalidArgumentError, match="__copy__"):
        VectorEnv("sichuan", 2, Uncopyable())


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_single_agent_env_shares_no_random_stream(how):
    """Playing a copy (a search bot looking ahead) must not move the original's opponents."""
    import pickle

    def play(env, obs, steps):
        seen = []
        for _ in range(steps):
            obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            seen.append((obs["observation"].tobytes(), reward))
            if done:
                obs, _ = env.reset()
        return seen

    original, twin = MahjongEnv("sichuan", opponents="random"), MahjongEnv("sichuan", opponents="random")
    obs, _ = original.reset(seed=0)
    twin_obs, _ = twin.reset(seed=0)
    clone = copy.deepcopy(original) if how == "deepcopy" else pickle.loads(pickle.dumps(original))
    looked_ahead = play(clone, obs, 60)
    assert play(original, obs, 60) == play(twin, twin_obs, 60) == looked_ahead


# -- the AEC env after its hand --------------------------------------------------------------------


def test_the_aec_env_after_its_hand_raises_illegal_action_and_keeps_still():
    env = aec_env("mcr")
    with pytest.raises(IllegalActionError, match="reset"):
        env.action_masks()
    env.reset(seed=1)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else env.sample_action(0))
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(3), env.last, lambda: env.sample_action(0)):
        with pytest.raises(IllegalActionError, match="the hand is over"):
            call()
    assert env.agents == [] and env.table.game.finished
    env.reset()  # and the next hand deals
    assert len(env.agents) == 4


# -- gymnasium.make_vec ----------------------------------------------------------------------------


def test_make_vec_builds_the_native_vector_env_of_learner_rows():
    vec = gymnasium.make_vec("mahjong_core/MCR-v0", num_envs=3, opponents="random")
    assert isinstance(vec, VectorEnv) and not vec.self_play and vec.learner == 0
    obs, _ = vec.reset(seed=5)
    same = VectorEnv("mcr", 3, "random")
    obs_same, _ = same.reset(seed=5)
    assert np.array_equal(obs["observation"], obs_same["observation"])
    assert gymnasium.make_vec("mahjong_core/Sichuan-v0", num_envs=2).bots[0][1].name == "greedy"
    with pytest.raises(InvalidArgumentError, match="vectorization_mode='sync'"):
        gymnasium.make_vec("mahjong_core/MCR-v0", num_envs=2, render_mode="ansi")
    with pytest.raises(InvalidArgumentError, match="seat='random'"):
        gymnasium.make_vec("mahjong_core/MCR-v0", num_envs=2, seat="random")
