"""play_hand refuses a non-Game up front (its loop reads the engine's typed fields)."""

import pytest

from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game import new_game
from mahjong_core.game.bots import RandomBot
from mahjong_core.game.simulate import play_hand


def test_play_hand_refuses_a_non_game_and_names_it():
    with pytest.raises(InvalidArgumentError, match="got dict"):
        play_hand({"finished": False}, [RandomBot() for _ in range(4)])


def test_play_hand_still_plays_a_game_to_the_end():
    game = play_hand(new_game("sichuan", seed=3), [RandomBot() for _ in range(4)])
    assert game.finished and game.pending() == {}
