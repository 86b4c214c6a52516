"""The Changbai engine values a win with `ChangbaiGame._win_score`, which sends the hand it built
straight to `scoring._best_score` (skipping `score`'s argument checks, which hold by construction,
and, for a seat that declared ready under `ready_required`, the wait check its declaration already
made): it must give exactly `score`'s answer at every win offered in seeded games, under the
default rules and under presets without 报听."""

from __future__ import annotations

import pytest

from mahjong_core import parse
from mahjong_core.game import new_game
from mahjong_core.rules.changbai import flow
from mahjong_core.rules.changbai.rules import Rules
from mahjong_core.rules.changbai.scoring import score
from seeded_play import offered_wins


def _offered_wins(hands: int, rules):
    """(game, seat, hand, flags) at every win the engine checks in `hands` seeded games of greedy
    and random bots: the hand and the flags as the flow builds them for `_win_score`."""
    bots = ("greedy", "random", "greedy", "greedy")
    for game, seat, tile, self_drawn, robbing in offered_wins("changbai", hands, bots, 33, rules):
        if self_drawn:  # (杠上花 too)
            yield game, seat, game.hand_of(seat, tile, add=False), (True, game.replacement, False, False)
        else:
            yield game, seat, game.hand_of(seat, tile), (False, False, game.after_kong and not robbing, robbing)


@pytest.mark.parametrize("rules", [None, {"ready_required": False}])
def test_the_engine_path_scores_every_offered_win_as_score(rules):
    seen = declared = 0
    for game, seat, hand, (self_drawn, replacement, after_kong, robbed) in _offered_wins(120, rules):
        direct = game._win_score(hand, seat, self_drawn, replacement, after_kong, robbed)
        checked = score(hand, self_drawn=self_drawn, declared_ready=game.declared[seat],
                        kong_replacement=replacement, after_kong_discard=after_kong, robbed_kong=robbed,
                        rules=game.rules)
        assert direct == checked, (hand, self_drawn, replacement, after_kong, robbed)
        assert direct is not None  # (the engine offers WIN only when the hand wins)
        seen += 1
        declared += game.declared[seat]
    assert seen >= 40  # the games really offered wins to compare
    if game.rules.ready_required:
        assert declared == seen  # every win under 报听 came from a declared seat: the skipped check ran
    else:
        assert declared == 0


def test_a_hand_that_does_not_win_is_refused_on_the_engine_path_too():
    """Under rules without 报听 the engine path still runs `_refusal` (the seat never declared)."""
    game = new_game("changbai", seed=2, rules={"ready_required": False})
    hand = parse("123m456m789p11s23s9s")  # 14 tiles, the last (9s) the winning tile: not complete
    assert hand.win_tile is not None and not game.declared[0]
    assert game._win_score(hand, 0, False, False, False, False) is None
    assert score(hand, declared_ready=False, rules=game.rules) is None
    complete = parse("123m456m789p11s234s")  # 4s completes it (the rules may still refuse: compare)
    assert game._win_score(complete, 0, False, False, False, False) == score(
        complete, declared_ready=False, rules=game.rules)


def test_win_contexts_are_shared_and_equal_to_new_ones():
    a = flow._win_context(False, False, True, False)
    assert a is flow._win_context(False, False, True, False)
    assert a == flow.WinContext(False, False, True, False)
    assert isinstance(new_game("changbai", seed=1).rules, Rules)
