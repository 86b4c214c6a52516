"""Forms of arguments a policy or a client produces by accident: refused with IllegalActionError /
InvalidArgumentError (MahjongError subclasses) that say what to pass, the game unchanged; NumPy
integers accepted where any integer is."""

from __future__ import annotations

import pickle

import pytest

from mahjong_core.errors import IllegalActionError, InvalidArgumentError
from mahjong_core.game import new_game
from mahjong_core.game.actions import Action

np = pytest.importorskip("numpy")


def _game():
    game = new_game("mcr", seed=3)
    seat, options = next(iter(game.pending().items()))
    return game, seat, game.space.code(options[0])


def test_a_numpy_array_of_codes_is_refused_and_changes_nothing():
    game, seat, code = _game()
    before = pickle.dumps(game)
    for batch in (np.array([code]), np.array([code, code]), np.array([[code]])):
        with pytest.raises(IllegalActionError, match=r"one integer code.*int\(codes\[i\]\)"):
            game.act(seat, batch)
        assert pickle.dumps(game) == before
    game.act(seat, np.array([code])[0])   # one element: a NumPy integer, accepted
    assert pickle.dumps(game) != before


def test_a_numpy_array_is_no_seat():
    game, seat, code = _game()
    with pytest.raises(IllegalActionError, match="seat must be 0..3"):
        game.act(np.array([seat]), code)
    with pytest.raises(IllegalActionError, match="seat must be 0..3"):
        game.view(np.array([0, 1]))


def test_json_actions_without_a_type_or_with_odd_keys_are_named():
    with pytest.raises(IllegalActionError, match=r'needs its "type"'):
        Action.from_json({"typ": "pass"})
    with pytest.raises(IllegalActionError, match="has no field"):
        Action.from_json({"type": "pass", 1: 2, "x": 3})   # keys of mixed types


def test_events_since_takes_numpy_integers():
    game, seat, code = _game()
    game.act(seat, code)
    n = game.event_count()
    assert game.events(0, since=np.int64(1)) == game.events(0, since=1)
    assert game.events(None, since=np.uint8(n)) == []
    for bad in (np.float64(1), np.array([1]), True, n + 1):
        with pytest.raises(InvalidArgumentError, match="since must be an event index"):
            game.events(0, since=bad)


def test_walls_and_tiles_are_integers_not_floats_or_bools():
    import mahjong_core as mc

    with pytest.raises(InvalidArgumentError, match="not a tile"):
        mc.format_tiles([1.0])
    wall = new_game("mcr", seed=1).wall
    for bad in ([t + 0.5 for t in wall], [t == 1 if t < 2 else t for t in wall]):
        with pytest.raises(mc.errors.InvalidHandError, match="not a tile index or name"):
            new_game("mcr", wall=bad)
    assert new_game("mcr", wall=np.array(wall)).wall == wall   # NumPy integers are indices


def test_rules_dict_keys_must_be_names():
    from mahjong_core.errors import RulesError
    from mahjong_core.rules import sichuan

    with pytest.raises(RulesError, match=r"rule keys are names \(strings\), got 1; the .* keys: base"):
        sichuan.Rules.resolve({1: 2})


def test_the_parallel_env_refuses_actions_for_agents_it_does_not_have():
    pytest.importorskip("pettingzoo")
    from mahjong_core.env import parallel_env

    env = parallel_env("mcr")
    obs, _ = env.reset(seed=1)
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items() if o["action_mask"].any()}
    before = pickle.dumps(env.table.game)
    for extra in ({"player_9": 3}, {5: "junk"}):
        with pytest.raises(IllegalActionError, match="no agent"):
            env.step({**actions, **extra})
        assert pickle.dumps(env.table.game) == before
    env.step(actions)


def test_a_long_text_that_is_no_tile_is_quoted_short():
    from mahjong_core import Tile
    from mahjong_core.botzone.tiles import tile_index
    from mahjong_core.errors import ParseError

    for parse in (Tile.parse, tile_index):
        with pytest.raises(ParseError) as caught:
            parse("x" * 100_000)
        assert len(str(caught.value)) < 300 and "xxxx" in str(caught.value)
