"""The native BLAKE2b behind the wall generator and the seeded dealer (cpp/src/blake2b.cpp) gives
hashlib.blake2b's bytes, and its bindings reject what they cannot take."""

import hashlib
import random

import pytest

from mahjong_core._core import _blake2b, _blake2b_stream
from mahjong_core.errors import InvalidArgumentError
from mahjong_core.game.wall import seeded_dealer


def test_digests_match_hashlib():
    rng = random.Random(11)
    for _ in range(2000):
        key, salt, person = (rng.randbytes(rng.randrange(n)) for n in (65, 17, 17))
        msg = rng.randbytes(rng.choice([0, 1, 6, 8, 127, 128, 129, 255, 256, 257, 1000]))
        size = rng.randrange(1, 65)
        want = hashlib.blake2b(msg, key=key, salt=salt, person=person, digest_size=size).digest()
        assert _blake2b(msg, key, salt, person, size) == want


def test_counter_stream_matches_hashlib():
    rng = random.Random(12)
    for first, blocks in [(0, 5), (3, 1), (2**64 - 2, 2), (1000, 0), (7, 40)]:
        key, salt = rng.randbytes(32), rng.randbytes(16)
        want = b"".join(hashlib.blake2b(b.to_bytes(8, "little"), key=key, salt=salt, person=b"mjc-wall-v1").digest()
                        for b in range(first, first + blocks))
        assert _blake2b_stream(key, salt, b"mjc-wall-v1", first, blocks) == want


def test_seeded_dealer_is_the_documented_digest():
    for seed, hand_no in [(0, 0), (1, 5), (2**256 - 1, 2**128 - 1)] + [(9, n) for n in range(200)]:
        digest = hashlib.blake2b(b"dealer", digest_size=8, key=seed.to_bytes(32, "little"),
                                 salt=hand_no.to_bytes(16, "little"), person=b"mjc-dealer-v1").digest()
        assert seeded_dealer(seed, hand_no) == digest[0] % 4


@pytest.mark.parametrize("call", [
    lambda: _blake2b(b"", bytes(65), b"", b"", 8),
    lambda: _blake2b(b"", b"", bytes(17), b"", 8),
    lambda: _blake2b(b"", b"", b"", bytes(17), 8),
    lambda: _blake2b(b"", b"", b"", b"", 0),
    lambda: _blake2b(b"", b"", b"", b"", 65),
    lambda: _blake2b_stream(b"", b"", b"", 0, 1),
    lambda: _blake2b_stream(bytes(32), b"", b"", -1, 1),
    lambda: _blake2b_stream(bytes(32), b"", b"", 2**64 - 1, 2),
    lambda: _blake2b_stream(bytes(32), b"", b"", 0, 1 << 17),
    lambda: _blake2b_stream(bytes(32), b"", b"", True, 1),
])
def test_bad_arguments_raise(call):
    with pytest.raises(InvalidArgumentError):
        call()


def test_non_bytes_raise_type_error():
    with pytest.raises(TypeError):
        _blake2b("text", b"", b"", b"", 8)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _blake2b_stream(None, b"", b"", 0, 1)  # type: ignore[arg-type]
