"""MCR's win check (`MCRGame._score`, at every win on offer) takes shortcuts: `Game._visible_count`
counts one kind in a C loop, and the package's own scorer is called through its native evaluator
directly. Both are compared here with the slow public computation on seeded mid-game positions."""

import random

import pytest

from mahjong_core.errors import InvalidHandError
from mahjong_core.game import new_game
from mahjong_core.game.bots import GreedyBot, RandomBot
from mahjong_core.game.simulate import play_hand
from mahjong_core.rules import mcr
from mahjong_core.rules.mcr import flow
from mahjong_core.tiles import Tile


class _Recorder(GreedyBot):
    """A greedy bot that keeps a copy of the game at every question it is asked (not the exact
    GreedyBot type, so the Python driver asks it)."""

    def __init__(self, out):
        super().__init__()
        self.out = out

    def choose(self, game, seat, actions):
        self.out.append(game.clone())
        return super().choose(game, seat, actions)


def _positions(rules, hands, seed, **options):
    """Copies of seeded MCR games at every decision of a greedy/random table."""
    out = []
    for i in range(hands):
        bots = [_Recorder(out), RandomBot(), _Recorder(out), GreedyBot()]
        rng = random.Random(seed * 1000 + i)
        for bot in bots:
            bot.new_hand(rng)
        game = new_game("mcr", seed=seed, hand_no=i, rules=rules, dealer=i % 4, **options)
        play_hand(game, bots)
    return out


def _slow_score(game, seat, tile, self_drawn, robbing):
    """What the win check computes, through the public API only."""
    hand = game.hand_of(seat, tile, add=not self_drawn)
    visible = game.visible_counts(seat)[tile]
    if not self_drawn and not robbing:
        visible -= 1
    kwargs = dict(win_tile=tile, self_drawn=self_drawn, last_copy=visible >= 3,
                  wall_last=game.wall_remaining() == 0 and not robbing,
                  kong=(self_drawn and game.replacement) or robbing,
                  seat_wind=(seat - game.dealer) % 4, prevalent_wind=game.prevalent_wind,
                  flowers=len(game.flowers[seat]), rules=game.rules)
    if game.rules.declared_ready_fan:
        kwargs["declared_ready"] = game.declared[seat]
    score = mcr.score(hand, **kwargs)
    if score is None or score.base_total < game.rules.min_fan:
        return None
    return score


def test_the_direct_call_is_the_packages_scorer():
    new_game("mcr", seed=1)
    assert flow._SCORE_ENTRY is mcr.score
    assert [int(t) for t in flow._TILES] == list(range(34))
    assert all(flow._TILES[t] is Tile(t) for t in range(34))


@pytest.mark.parametrize("seed", [1, 2])
def test_visible_count_is_visible_counts(seed):
    positions = _positions(None, 30, seed)
    assert len(positions) > 500
    kongs = 0
    for game in positions[::3]:
        kongs += any(m[0] == 4 for melds in game.melds for m in melds)
        for seat in range(4):
            seen = game.visible_counts(seat)
            assert [game._visible_count(seat, t) for t in range(34)] == list(seen)
    assert kongs  # others' concealed kongs (hidden) were among the positions


@pytest.mark.parametrize("rules,options", [
    (None, {}),
    ("classic", {}),
    (dict(flowers=True, mil_concealed_melded_kong=True, strict_context=False), {"prevalent_wind": 2}),
    (dict(min_fan=1), {"prevalent_wind": 1}),
])
def test_win_check_scores_are_the_public_scores(rules, options):
    positions = _positions(rules, 12, 5, **options)
    checked = wins = errors = 0
    for game in positions[::3]:
        for seat in range(4):
            size = 13 - 3 * game.n_melds[seat]
            held = sum(game.hands[seat])
            if held == size:  # waiting: a discard or a robbed kong tile would complete it
                tiles = [t for t in range(34) if game.hands[seat][t] < 4]
                cases = [(t, False, robbing) for t in tiles for robbing in (False, True)]
            elif held == size + 1:  # complete size: a self-draw of any tile held
                cases = [(t, True, False) for t in range(34) if game.hands[seat][t]]
            else:
                continue
            for tile, self_drawn, robbing in cases:
                try:
                    expected = _slow_score(game, seat, tile, self_drawn, robbing)
                except InvalidHandError as exc:  # an impossible position (five of a kind, 和绝张 while holding one)
                    with pytest.raises(type(exc)) as raised:
                        game._score(seat, tile, self_drawn=self_drawn, robbing=robbing)
                    assert str(raised.value) == str(exc)
                    errors += 1
                    continue
                got = game._score(seat, tile, self_drawn=self_drawn, robbing=robbing)
                assert got == expected
                if got is not None:
                    assert got.fans == expected.fans and got.win_tile is expected.win_tile
                    assert got._context == expected._context
                    wins += 1
                checked += 1
    assert checked > 5000 and wins > 20


def test_win_check_falls_back_to_the_keyword_call():
    """With the package's scorer replaced, the win check calls the replacement as it always did."""
    calls = []

    class Backend:
        Rules = mcr.Rules
        settle = staticmethod(mcr.settle)

        @staticmethod
        def score(hand, **kwargs):
            calls.append(kwargs)
            return mcr.score(hand, **kwargs)

    with flow.backend_override(Backend):
        game = new_game("mcr", seed=9)
    game.hands[0][:] = bytes(34)
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 10):
        game.hands[0][t] += 1
    score = game._score(0, 10, self_drawn=False, robbing=False)
    assert calls and calls[0]["win_tile"] == 10 and calls[0]["rules"] is game.rules
    assert score is not None and score == _slow_score(game, 0, 10, False, False)
