"""The compiled step loop of VectorEnv (`_encode.StepKernel`) and the AEC env's fast paths against a slow,
obviously-correct Python reference built from the public pieces: `Table`, `encode`, `legal_mask`,
`next_seat`, `play_until` and the ledger's totals."""

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from mahjong_core.env import VectorEnv, aec_env, encode  # noqa: E402
from mahjong_core.env import _encode  # noqa: E402
from mahjong_core.env.opponents import bot_rng, play_until, resolve_opponents  # noqa: E402
from mahjong_core.env.table import Table, next_seat  # noqa: E402
from mahjong_core.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from mahjong_core.game import new_game  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")


@pytest.mark.parametrize("ruleset, rules", [("sichuan", None), ("sichuan", "qq_normal"), ("changbai", None),
                                           ("mcr", None), ("mcr", "botzone")])
def test_table_deals_new_games_hands(ruleset, rules):
    """`Table.reset` builds hand k of a seed with `Game._from_seed` directly: the same hand, class
    and dealer as `new_game(ruleset, seed=S, hand_no=k, rules=rules, dealer=...)` (k % 4, the
    seed's own draw where the rules' dealer is random, seat 0 on the Botzone table)."""
    table = Table(ruleset, rules, 1.0)
    random_dealer = table.cls.random_dealer(table.rules)
    for k in range(6):
        game = table.reset(11 if k == 0 else None)
        dealer = 0 if rules == "botzone" else None if random_dealer else k % 4
        ref = new_game(ruleset, seed=11, hand_no=k, rules=rules, dealer=dealer)
        assert type(game) is type(ref) and game.dealer == ref.dealer
        assert game.state() == ref.state() and game.pending() == ref.pending()


class ReferenceVector:
    """VectorEnv's documented behaviour, one sub-env at a time, in plain Python."""

    def __init__(self, ruleset, n, seed, opponents=None, seat=0, scale=1.0):
        self.tables = [Table(ruleset, None, scale) for _ in range(n)]
        self.opponents, self.learner, self.scale = opponents, seat, scale
        self.bots = []
        for _ in range(n):
            row = [None] * 4
            if opponents is not None:
                for k, bot in enumerate(resolve_opponents(opponents)):
                    row[(seat + 1 + k) % 4] = bot
            self.bots.append(row)
        self.seats = [self.deal(i, seed + i) for i in range(n)]

    def deal(self, i, seed):
        table = self.tables[i]
        while True:
            game = table.reset(seed)
            seed = None
            if self.opponents is None:
                seat = next_seat(game)
            else:
                rng = bot_rng(table.seed, table.hand_no)
                for bot in self.bots[i]:
                    if bot is not None:
                        bot.new_hand(rng)
                seat = play_until(game, self.learner, self.bots[i])
            if seat >= 0:
                break
        self.paid = getattr(self, "paid", {})
        self.paid[i] = game.ledger.totals()
        return seat

    def observe(self, i):
        game, seat = self.tables[i].game, self.seats[i]
        mask = np.zeros(game.space.size, np.int8)
        for a in game.pending()[seat]:
            mask[game.space.code_of_uid[a.uid]] = 1
        return encode(game, seat), mask

    def step(self, i, code):
        game, seat = self.tables[i].game, self.seats[i]
        game.act(seat, game.space.action(code))
        nxt = next_seat(game) if self.opponents is None else play_until(game, self.learner, self.bots[i])
        totals = game.ledger.totals()
        seat_rewards = np.array([(totals[s] - self.paid[i][s]) * self.scale for s in range(4)], np.float64)
        self.paid[i] = totals
        done = nxt < 0
        self.seats[i] = self.deal(i, None) if done else nxt
        return seat_rewards[seat], seat_rewards, done


def compare(ruleset, n, steps, opponents=None, seat=0, scale=1.0):
    env = VectorEnv(ruleset, n, opponents, seat=seat, reward_scale=scale)
    ref = ReferenceVector(ruleset, n, 7, opponents, seat, scale)
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(3)
    ended = paid = 0
    for _ in range(steps):
        for i in range(n):
            o, m = ref.observe(i)
            assert info["seat"][i] == ref.seats[i]
            assert np.array_equal(obs["observation"][i], o) and np.array_equal(obs["action_mask"][i], m)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        expected = [ref.step(i, int(actions[i])) for i in range(n)]
        obs, rew, term, trunc, info = env.step(actions)
        for i, (r, sr, done) in enumerate(expected):
            assert rew[i] == r and np.array_equal(info["seat_rewards"][i], sr) and term[i] == done
        assert not trunc.any()
        ended += int(term.sum())
        paid += int((info["seat_rewards"] != 0).any(axis=1).sum())
    return ended, paid


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_self_play_matches_the_reference(ruleset):
    ended, paid = compare(ruleset, 5, 700, scale=0.25)
    assert ended >= 20  # many hands ended along the way ...
    assert paid >= (20 if ruleset != "mcr" else 0)  # ... and paid out (random MCR hands reach 8 fan too rarely)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_with_opponents_matches_the_reference(ruleset):
    ended, paid = compare(ruleset, 3, 150, opponents=["greedy", "random", "greedy"], seat=1)
    assert ended >= 5 and paid >= 3


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_with_random_opponents_matches_the_reference(ruleset):
    """Three RandomBots share the hand's random stream, so the order in which they answer a claim
    window decides their choices: the native loop answers them lowest seat first, as play_until's
    Python loop (the reference) does."""
    ended, paid = compare(ruleset, 3, 250, opponents="random", seat=2)
    assert ended >= 10


def test_opponents_answer_in_the_native_loop(monkeypatch):
    """Where the engine is compiled, the built-in bots' answers come from the native loop: their
    `choose` is asked only where the learner shares a claim window with a lower seat (the Python
    driver's part); the pure-Python engine asks it every time. The play is the same either way."""
    from mahjong_core.game import native
    from mahjong_core.game.bots import RandomBot

    asked = []
    choose = RandomBot.choose
    monkeypatch.setattr(RandomBot, "choose", lambda self, game, seat, actions: asked.append(seat) or
                        choose(self, game, seat, actions))

    def play(native_on):
        if not native_on:
            monkeypatch.setattr(native, "seats_for", lambda game, bots: None)
        env = VectorEnv("mcr", 2, "random", seat=1)
        obs, _ = env.reset(seed=9)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(200):
            obs, _, term, _, _ = env.step(env.sample_actions(rng))
            seen.append(obs["observation"].tobytes())
        return seen

    def play_single(native_on):  # the Gymnasium env, seat drawn per hand, mixed opponents
        from mahjong_core.env.gym_env import MahjongEnv
        if not native_on:
            monkeypatch.setattr(native, "seats_for", lambda game, bots: None)
        env = MahjongEnv("sichuan", ["random", "greedy", "random"], seat="random")
        rng = np.random.default_rng(2)
        seen = []
        for episode in range(6):
            obs, info = env.reset(seed=episode)
            done = False
            while not done:
                seen.append((info["seat"], obs["observation"].tobytes()))
                obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                seen.append(reward)
        return seen

    with_native = play(True), play_single(True)
    native_asked = len(asked)
    asked.clear()
    assert (play(False), play_single(False)) == with_native
    assert len(asked) > 500
    if native.loop()[0] is not None:
        assert native_asked < len(asked) / 5
    else:
        assert native_asked == len(asked)


def test_vector_actions_of_every_integer_kind_and_bad_ones():
    env = VectorEnv("sichuan", 2)
    obs, _ = env.reset(seed=4)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    states = [t.game.state() for t in env.tables]
    for bad in ([legal[0], 10**30], [legal[0], -1], [legal[0], 2.0], [legal[0], True], [legal[0], "3"],
                np.array([legal, legal]), np.array(legal, np.float64)):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="sub-env 1"):
        env.step(np.array([legal[0], illegal], np.uint8))
    assert [t.game.state() for t in env.tables] == states  # nothing moved
    for kind in (np.int8, np.uint16, np.int64):
        obs, *_ = env.step(np.array(legal, kind))
        legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    env.step([np.int32(legal[0]), legal[1]])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_observations_and_next_seat(ruleset):
    env = aec_env(ruleset)
    rng = np.random.default_rng(5)
    for hand in range(3):
        env.reset(seed=hand)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game = env.table.game
            seat = int(agent[-1])
            assert seat == next_seat(game) == _encode.next_seat(game)
            assert np.array_equal(obs["observation"], encode(game, seat))
            mask = np.zeros(game.space.size, np.int8)
            for a in game.pending()[seat]:
                mask[game.space.code_of_uid[a.uid]] = 1
            assert np.array_equal(obs["action_mask"], mask)
            for other in range(4):  # seats with nothing to answer now see an all-zero mask
                if other not in game.pending() or other in game._answers:
                    assert not env.observe(f"player_{other}")["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_calls_a_game_classes_own_act(ruleset):
    """The step loop calls `Game.act` unbound where a game's class keeps it, and the game's own
    `act` where its class overrides it (a table class may): the same play either way, and the
    override asked once per decision."""
    calls = []

    def counted(cls):
        class Counted(cls):
            def act(self, seat, action, step=None):
                calls.append(seat)
                return super().act(seat, action, step)
        return Counted

    plain, counting = VectorEnv(ruleset, 3), VectorEnv(ruleset, 3)
    for table in counting.tables:
        table._hands.cls = counted(table._hands.cls)  # the class its hands are dealt from
    a, _ = plain.reset(seed=5)
    b, _ = counting.reset(seed=5)
    rng = np.random.default_rng(8)
    for _ in range(120):
        assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])
        actions = plain.sample_actions(rng)
        a, ra, ta, _, _ = plain.step(actions)
        b, rb, tb, _, _ = counting.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
    assert len(calls) == 120 * 3
    assert all(type(t.game).__name__ == "Counted" for t in counting.tables)


def test_step_kernel_checks_its_rows():
    """The kernel's per-row arrays are as long as the env's list of games at construction: a row
    outside them, or a list that changed length, raises instead of being read or written."""
    env = VectorEnv("sichuan", 3)
    env.reset(seed=1)
    kernel = env._kernel
    for bad in (-1, 3, 10**6):
        with pytest.raises(InvalidArgumentError, match="row"):
            kernel.set_paid(bad, 0)
    env._games.append(env._games[0])
    try:
        with pytest.raises(InvalidArgumentError, match="4 entries, not 3"):
            kernel.step([0, 0, 0, 0])
        with pytest.raises(InvalidArgumentError, match="4 entries, not 3"):
            env.sample_actions(0)
    finally:
        env._games.pop()
    env.step(env.sample_actions(0))


def test_the_kernel_calls_the_compiled_engine_through_its_c_entries():
    """Where the engine is compiled, the step kernel answers through the engine's C entries
    (game/_capi.pyx's capsule); from the .py source, through its methods (the play is the same:
    the reference tests above run on both builds)."""
    from mahjong_core.game import native

    assert _encode.ENGINE_C_ENTRIES == (native.loop()[0] is not None)
