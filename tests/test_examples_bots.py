"""The example bots (examples/mc_bot.py, examples/imitation.py): legal complete games, no hidden
information in the Monte-Carlo search, and a tiny imitation run that learns. Small budgets."""

import importlib.util
import os
import random

import pytest

np = pytest.importorskip("numpy")

from mahjong_core.env import encode, legal_mask  # noqa: E402
from mahjong_core.env.determinize import determinize  # noqa: E402
from mahjong_core.game import new_game  # noqa: E402
from mahjong_core.game.bots import GreedyBot  # noqa: E402
from mahjong_core.game.simulate import play_hand  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")


def load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", os.path.join(EXAMPLES, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mc_bot = load("mc_bot")
imitation = load("imitation")


class Recording:
    """Wraps a bot; fails when it answers with an action that is not in the legal list."""

    def __init__(self, bot):
        self.bot = bot
        self.choices = 0

    def new_hand(self, rng):
        self.bot.new_hand(rng)

    def choose(self, game, seat, actions):
        action = self.bot.choose(game, seat, actions)
        assert action in actions, (action, actions)
        self.choices += 1
        return action


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr", "changbai"])
def test_mc_bot_plays_legal_complete_hands(ruleset):
    bot = mc_bot.FlatMonteCarloBot(worlds=2, width=2, proposals=2)
    for hand in range(2):
        game = new_game(ruleset, seed=11, hand_no=hand)
        players = [GreedyBot() for _ in range(4)]
        players[hand] = Recording(bot)
        rng = random.Random(hand)
        for p in players:
            p.new_hand(rng)
        play_hand(game, players)
        assert game.finished and players[hand].choices > 0
    assert bot.searches > 0


def _search_states(ruleset, seed, want):
    """Games at decisions where the MC bot searches (its seat to discard with several candidates)."""
    game = new_game(ruleset, seed=seed)
    greedy = GreedyBot()
    greedy.new_hand(random.Random(0))
    probe = mc_bot.FlatMonteCarloBot()
    states = []
    while not game.finished and len(states) < want:
        pending = game.pending()
        seat, actions = next(iter(pending.items()))
        if (len(actions) > 1 and all(a.kind.name == "DISCARD" for a in actions)
                and len(probe._discard_candidates(game, seat, actions, greedy.choose(game, seat, actions))) > 1):
            states.append((game.clone(), seat, actions))
        game.act(seat, greedy.choose(game, seat, actions))
    return states


@pytest.mark.parametrize("ruleset", ["sichuan", "mcr"])
def test_mc_bot_choice_uses_no_hidden_information(ruleset):
    """Re-deal every tile the bot cannot see: with the same rng its search gives the same choice."""
    states = _search_states(ruleset, seed=5, want=4)
    assert len(states) == 4
    for k, (game, seat, actions) in enumerate(states):
        choices = []
        for redeal in (None, 101, 202):
            g = game if redeal is None else determinize(game, seat, random.Random(redeal))
            if redeal is not None:
                assert any(bytes(g.hands[s]) != bytes(game.hands[s]) for s in range(4) if s != seat)
                assert (encode(g, seat) == encode(game, seat)).all()
            bot = mc_bot.FlatMonteCarloBot(worlds=4, width=3, proposals=2)
            bot.new_hand(random.Random(k))
            choices.append(bot.choose(g, seat, g.pending()[seat]))
        assert choices[0] in actions and len(set(choices)) == 1, choices


def test_mc_bot_values_are_common_random_numbers():
    """The same candidate twice gets the same value on every world (the comparison is paired), so
    a search between a discard and itself never leaves greedy's choice."""
    game, seat, actions = _search_states("sichuan", seed=7, want=1)[0]
    bot = mc_bot.FlatMonteCarloBot(worlds=6, margin=0.0)
    bot.new_hand(random.Random(3))
    first = bot.choose(game, seat, actions)
    assert bot._search(game, seat, [first, first]) is first
    assert bot.deviations <= 1


def test_imitation_features_read_only_the_observation():
    states = _search_states("sichuan", seed=9, want=3)
    features = imitation.Features("sichuan")
    for game, seat, _ in states:
        other = determinize(game, seat, random.Random(1))
        a = features(encode(game, seat), legal_mask(game, seat))
        b = features(encode(other, seat), legal_mask(other, seat))
        assert (a == b).all()
        assert a[:, 0].sum() >= 1  # some legal discard keeps the best shanten


def test_imitation_learns_greedy_and_plays_legal_hands():
    features = imitation.Features("sichuan")
    data = imitation.collect("sichuan", 30, seed=1, features=features)
    held_out = imitation.collect("sichuan", 10, seed=2, features=features)
    rng = np.random.default_rng(0)
    model = imitation.Model(data[0].shape[1], 32, data[2].shape[1], rng)
    before = imitation.agreement(model, held_out)
    imitation.train(model, data, 2, rng, held_out)
    after = imitation.agreement(model, held_out)
    assert after > 0.8 and after > before
    from mahjong_core.env import PolicyBot

    bot = PolicyBot(imitation.Policy(model, features), name="imitation")
    result = imitation.duplicate_match("sichuan", bot, "random", walls=2, seed=3)
    assert result.hands == 8
