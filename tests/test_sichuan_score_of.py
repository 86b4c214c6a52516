"""The Sichuan engine values a win with `flow._score_of`, which sends its own hands straight to
`scoring._score` (skipping the checks `_score_win` makes, which hold by construction): it must give
exactly `_score_win`'s score at every win offered in seeded games, and send anything else through
`_score_win`'s checks."""

from __future__ import annotations

import pytest

from mahjong_core.errors import InvalidHandError
from mahjong_core.game import new_game
from mahjong_core.game.actions import SUIT_LETTERS
from mahjong_core.rules.sichuan import flow
from mahjong_core.rules.sichuan.scoring import _context, _score_win
from seeded_play import offered_wins


def _offered_wins(hands: int):
    """(game, seat, hand, context) at every WIN offered in `hands` seeded greedy games, the hand and
    context built as the flow builds them for that win."""
    for game, seat, tile, self_drawn, robbing in offered_wins("sichuan", hands, ("greedy",) * 4, 21):
        if self_drawn:
            context = _context(True, game.replacement, False, False, game._first_draw(seat), seat == game.dealer)
            yield game, seat, game.hand_of(seat, tile, add=False), context
        else:
            context = _context(False, False, game.after_kong and not robbing, robbing, False, seat == game.dealer)
            yield game, seat, game.hand_of(seat, tile), context


def test_the_engine_path_scores_every_offered_win_as_score_win():
    seen = 0
    for game, seat, hand, context in _offered_wins(60):
        void = SUIT_LETTERS[game.void[seat]]
        direct = flow._score_of(hand, context, void, game.rules)
        checked = _score_win(hand, context, void, game.rules)
        assert direct == checked, (hand, context)
        assert direct is not None  # (the engine offers WIN only on a winning tile)
        seen += 1
    assert seen >= 30  # the games really offered wins to compare


def test_anything_but_the_engine_hand_takes_the_checks():
    context = _context(False, False, False, False, False, False)
    rules = new_game("sichuan", seed=1).rules
    text = "123m456m789m11p234p"  # a notation string, not a Hand: checked and parsed by _score_win
    assert flow._score_of(text, context, "s", rules) == _score_win(text, context, "s", rules)
    with pytest.raises(InvalidHandError, match="without honours"):
        flow._score_of("123m456m789m11p23pE", context, "s", rules)
    with pytest.raises(InvalidHandError):
        flow._score_of("123m456m789m11p234p", context, "x", "qq")  # rules by name: checked path
