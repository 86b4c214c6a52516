"""Seeded hand corpora for the benchmarks (deterministic across runs and machines)."""

from __future__ import annotations

import random
from typing import List

import mahjong_core as mc


def _deal(rng: random.Random, tiles: int) -> List[int]:
    wall = [i // 4 for i in range(136)]
    rng.shuffle(wall)
    counts = [0] * 34
    for t in wall[:tiles]:
        counts[t] += 1
    return counts


def random_hands(n: int, tiles: int = 13, seed: int = 1) -> List[List[int]]:
    """Hands dealt from a shuffled 136-tile wall."""
    rng = random.Random(seed)
    return [_deal(rng, tiles) for _ in range(n)]


def complete_hand(rng: random.Random) -> List[int]:
    """Four random sets and a pair (at most four copies of a kind)."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    counts[suit * 9 + start + k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def near_ready_hands(n: int, seed: int = 3) -> List[List[int]]:
    """13-tile hands at shanten 0 or 1: a complete hand minus one tile, sometimes with a swap."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        counts = complete_hand(rng)
        held = [t for t in range(34) if counts[t]]
        counts[rng.choice(held)] -= 1
        if rng.random() < 0.5:
            held = [t for t in range(34) if counts[t]]
            counts[rng.choice(held)] -= 1
            counts[rng.choice([t for t in range(34) if counts[t] < 4])] += 1
        if mc.shanten(bytes(counts), mc.Forms.STANDARD) <= 1:
            out.append(counts)
    return out


def winning_mix(n: int, seed: int = 2) -> List[List[int]]:
    """14-tile hands of which every tenth is complete."""
    rng = random.Random(seed)
    return [complete_hand(rng) if i % 10 == 0 else _deal(rng, 14) for i in range(n)]


def complete_hands(n: int, seed: int = 4) -> List[List[int]]:
    rng = random.Random(seed)
    return [complete_hand(rng) for _ in range(n)]


GB_CODES = [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + [f"T{i}" for i in range(1, 10)] + [
    "F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def to_gb(counts: List[int]) -> tuple:
    """PyMahjongGB tile codes."""
    return tuple(GB_CODES[i] for i in range(34) for _ in range(counts[i]))


def to_136(counts: List[int]) -> List[int]:
    """Tile ids 0..135 (four per kind), as riichienv takes them."""
    return [4 * i + k for i in range(34) for k in range(counts[i])]
