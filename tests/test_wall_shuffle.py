"""The seeded wall shuffle: the native Fisher–Yates against a plain Python rendering of
python/game/wall.py's documented algorithm (BLAKE2b word stream + rejection sampling)."""

import hashlib
import random
import struct

import pytest

from mahjong_core._core import _shuffle_with_words
from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game import shuffled_wall, tile_set


def reference_words(seed, hand_no):
    """The documented word stream, one 16-bit word at a time, without end."""
    block = 0
    while True:
        digest = hashlib.blake2b(block.to_bytes(8, "little"), digest_size=64, key=seed.to_bytes(32, "little"),
                                 salt=hand_no.to_bytes(16, "little"), person=b"mjc-wall-v1").digest()
        yield from struct.unpack("<32H", digest)
        block += 1


def reference_shuffle(tiles, words):
    """Fisher–Yates, one word per position, rejecting words >= 65536 - 65536 % range."""
    wall = list(tiles)
    for i in range(len(wall) - 1, 0, -1):
        w = next(words)
        while w >= 65536 - 65536 % (i + 1):
            w = next(words)
        j = w % (i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


@pytest.mark.parametrize("ruleset,flowers", [("sichuan", False), ("mcr", False), ("mcr", True), ("changbai", False)])
def test_shuffled_wall_matches_the_reference(ruleset, flowers):
    tiles = tile_set(ruleset, flowers)
    for seed, hand_no in [(0, 0), (1, 1), (2**255 + 3, 2**127 - 1)] + [(7, n) for n in range(300)]:
        assert shuffled_wall(tiles, seed, hand_no) == reference_shuffle(tiles, reference_words(seed, hand_no))


def test_native_shuffle_with_rejections_and_a_short_stream():
    rng = random.Random(5)
    for n in (0, 1, 2, 3, 7, 108, 136, 144, 300):
        for _ in range(20):
            # Words biased towards the top of the range, so many are rejected.
            words = [rng.choice((rng.randrange(65536), 65535 - rng.randrange(64))) for _ in range(3 * n + 4)]
            raw = struct.pack(f"<{len(words)}H", *words)
            tiles = bytearray(rng.randrange(256) for _ in range(n))
            expected_iter = iter(words)
            try:
                expected = reference_shuffle(list(tiles), expected_iter)
                used = len(words) - sum(1 for _ in expected_iter)
            except StopIteration:
                expected, used = None, -1
            before = bytes(tiles)
            assert _shuffle_with_words(tiles, raw) == used
            assert list(tiles) == (expected if expected is not None else list(before))
            # Too few words: -1 and the tiles untouched.
            if n > 1:
                short = bytearray(before)
                assert _shuffle_with_words(short, raw[: 2 * (n // 2 - 1)]) == -1
                assert bytes(short) == before


def test_shuffle_input_errors():
    with pytest.raises(InvalidArgumentError, match="at most 4096 tiles"):
        _shuffle_with_words(bytearray(5000), b"\0" * 10000)
    with pytest.raises(TypeError):
        _shuffle_with_words(b"\1\2", b"\0\0")  # tiles must be a bytearray (shuffled in place)
    with pytest.raises(ValueError, match="tile ints 0..255"):
        shuffled_wall([1, 2, 300], 1, 0)
    with pytest.raises(ValueError, match="tile ints 0..255"):
        shuffled_wall([1, "x"], 1, 0)


@pytest.mark.parametrize("ruleset,options", [("sichuan", {}), ("changbai", {}), ("mcr", {}),
                                             ("mcr", {"flowers": True})])
def test_seeded_hands_deal_the_documented_wall(ruleset, options):
    """`new_game(..., seed=)` walls (dealt through `Game._from_seed`, which keeps each class's tile set
    as bytes after its first hand) are the reference shuffle of the ruleset's tile set, hand after
    hand and for a ruleset class whose tile set differs."""
    from mahjong_core.game import new_game
    from mahjong_core.game.registry import game_class, resolve_rules

    rules = resolve_rules(ruleset, options or None)
    tiles = tile_set(ruleset, options.get("flowers", False))
    for seed, hand_no in [(3, 0), (3, 1), (2**200 + 9, 77), (3, 0)]:  # (3, 0) again: the kept set
        game = new_game(ruleset, seed=seed, hand_no=hand_no, rules=rules)
        assert game.wall == reference_shuffle(tiles, reference_words(seed, hand_no))
        assert type(game.wall) is list

    class DoubledTiles(game_class(ruleset)):  # another class: another tile set, kept apart
        @classmethod
        def tiles(cls, flowers=False):
            return sorted(tiles * 2)

    wall = DoubledTiles._from_seed(rules, 5, 2, 0).wall
    assert wall == reference_shuffle(sorted(tiles * 2), reference_words(5, 2))
    assert new_game(ruleset, seed=5, hand_no=2, rules=rules, dealer=0).wall == reference_shuffle(
        tiles, reference_words(5, 2))
