"""Seeded generator of random MCR winning hands in the notation (with the |PS####|F suffix).

Hands are built directly (sets + a pair, or a special form), not sampled and filtered, with a bias
towards the shapes that make fans: one or two suits, honours, terminals, nearby ranks, repeated
sets, kongs of every kind, 0-4 exposed melds, every context flag and flowers.

    random_hand(rng, consistent=False, flowers=True) -> str

With `consistent=True` the context flags never contradict the hand (和绝张 with a copy of the tile
in the concealed hand, 抢杠和 on a tile the winner holds, 杠上开花 without a kong); with
`flowers=False` no flowers are written (for rules that play 136 tiles).
"""

from __future__ import annotations

import random
from typing import List, Optional, Tuple

SUITS = "mps"
HONORS = "ESWNCFP"
KNITTED = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def tile_text(t: int) -> str:
    return HONORS[t - 27] if t >= 27 else f"{t % 9 + 1}{SUITS[t // 9]}"


def group_text(tiles: List[int]) -> str:
    """Tiles of one suit (or honours) written as one notation group, e.g. 123m or EEE."""
    if tiles[0] >= 27:
        return "".join(HONORS[t - 27] for t in tiles)
    return "".join(str(t % 9 + 1) for t in tiles) + SUITS[tiles[0] // 9]


def tiles_text(tiles: List[int]) -> str:
    return "".join(tile_text(t) for t in tiles)


class _Palette:
    """Which kinds this hand prefers: a few suits, maybe honours, maybe a rank window."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        n_suits = rng.choice((1, 1, 2, 2, 3, 3, 3))
        self.suits = rng.sample(range(3), n_suits)
        self.honor_weight = rng.choice((0.0, 0.0, 0.1, 0.25, 0.5, 0.9))
        style = rng.random()
        if style < 0.15:
            self.ranks = [1, 9]  # terminals
        elif style < 0.3:
            lo = rng.randint(1, 6)
            self.ranks = list(range(lo, lo + rng.randint(3, 4)))
            self.ranks = [r for r in self.ranks if r <= 9]
        elif style < 0.4:
            self.ranks = rng.choice(([2, 4, 6, 8], [1, 2, 3, 4], [6, 7, 8, 9], [4, 5, 6], [2, 3, 4, 6, 8], [5]))
        else:
            self.ranks = list(range(1, 10))
        self.honors = list(range(27, 34)) if rng.random() < 0.5 else rng.sample(range(27, 34), rng.randint(1, 4))

    def tile(self) -> int:
        if self.rng.random() < self.honor_weight:
            return self.rng.choice(self.honors)
        return self.rng.choice(self.suits) * 9 + self.rng.choice(self.ranks) - 1

    def chow_start(self) -> int:
        s = self.rng.choice(self.suits)
        starts = [r for r in self.ranks if r <= 7] or list(range(1, 8))
        if self.rng.random() < 0.3:
            starts = [1, 4, 7]
        return s * 9 + self.rng.choice(starts) - 1


def _template(rng: random.Random) -> Tuple[List[tuple], int]:
    """Sets + pair of a rare pattern (双龙会, 绿一色, 全双刻, winds and dragons, straights)."""
    a, b, c = rng.sample(range(3), 3)
    kind = rng.randrange(7)
    if kind == 0:  # 一色双龙会
        return [("chow", a * 9), ("chow", a * 9), ("chow", a * 9 + 6), ("chow", a * 9 + 6)], a * 9 + 4
    if kind == 1:  # 三色双龙会
        return [("chow", a * 9), ("chow", a * 9 + 6), ("chow", b * 9), ("chow", b * 9 + 6)], c * 9 + 4
    if kind == 2:  # 绿一色
        greens = [19, 20, 21, 23, 25, 32]
        sets = [rng.choice([("chow", 19), ("pung", rng.choice(greens))]) for _ in range(4)]
        return sets, rng.choice(greens)
    if kind == 3:  # 全双刻
        evens = [s * 9 + r for s in range(3) for r in (1, 3, 5, 7)]
        return [("pung", t) for t in rng.sample(evens, 4)], rng.choice(evens)
    if kind == 4:  # winds and dragons
        winds = rng.random() < 0.5
        honors = rng.sample(range(27, 31) if winds else range(31, 34), 3)
        n = rng.randint(2, 4 if winds else 3)
        sets = [("pung", t) for t in (list(range(27, 31)) if n == 4 else honors[:n])]
        sets += [("chow", a * 9 + rng.randint(0, 6)) for _ in range(4 - len(sets))]
        return sets, rng.choice(range(27, 34))
    if kind == 5:  # straights
        return [("chow", a * 9), ("chow", (b if rng.random() < 0.5 else a) * 9 + 3), ("chow", c * 9 + 6),
                ("chow", rng.randrange(3) * 9 + rng.randint(0, 6))], rng.randrange(27)
    fives = [s * 9 + 4 for s in range(3)]
    return [("chow", t - rng.randint(0, 2)) for t in rng.sample(fives * 2, 3)] + [("pung", rng.choice(fives))], \
        rng.choice(fives)


def _standard(rng: random.Random, pal: _Palette) -> Optional[Tuple[List[tuple], int]]:
    if rng.random() < 0.06:
        sets, pair = _template(rng)
        counts = [0] * 34
        sets = [(("kong" if k == "pung" and rng.random() < 0.15 else k), t) for k, t in sets]
        for k, t in sets:
            for x in _set_tiles(k, t):
                counts[x] += 1
        counts[pair] += 2
        return (sets, pair) if max(counts) <= 4 else None
    counts = [0] * 34
    sets: List[tuple] = []
    p_chow = rng.choice((0.0, 0.3, 0.6, 0.8, 1.0))
    p_kong = rng.choice((0.0, 0.05, 0.15, 0.4))
    last: Optional[tuple] = None
    for _ in range(4):
        for _attempt in range(30):
            if last is not None and rng.random() < 0.25:
                kind, tile = last  # repeat or shift a set: 一般高, 节高, 步高 ...
                if kind == "chow":
                    tile = tile + rng.choice((0, 0, 1, 2, 3, 6)) if tile < 27 else tile
                    if tile >= 27 or tile % 9 > 6 or tile // 9 != last[1] // 9:
                        tile = pal.chow_start()
                elif tile < 27 and rng.random() < 0.6:
                    nt = tile + 1
                    tile = nt if nt // 9 == tile // 9 else tile
                    if rng.random() < 0.5:
                        tile = rng.randrange(3) * 9 + tile % 9
            elif rng.random() < p_chow:
                kind, tile = "chow", pal.chow_start()
            else:
                kind, tile = "pung", pal.tile()
            if kind == "chow" and (tile >= 27 or tile % 9 > 6):
                continue
            if kind != "chow" and rng.random() < p_kong:
                kind = "kong"
            need = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * (4 if kind == "kong" else 3)
            trial = counts[:]
            for t in need:
                trial[t] += 1
            if max(trial) <= 4:
                counts = trial
                sets.append((kind, tile))
                last = (kind if kind == "chow" else "pung", tile)
                break
        else:
            return None
    for _attempt in range(30):
        pair = pal.tile() if rng.random() < 0.8 else rng.randrange(34)
        if counts[pair] <= 2:
            return sets, pair
    return None


def _set_tiles(kind: str, tile: int) -> List[int]:
    return [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * (4 if kind == "kong" else 3)


def _melds_text(rng: random.Random, sets: List[tuple], max_melds: int) -> Tuple[List[str], List[tuple], List[tuple]]:
    """Turn some sets into melds (every kong is one): meld texts, melded sets, the hand's sets."""
    kongs = [s for s in sets if s[0] == "kong"]
    others = [s for s in sets if s[0] != "kong"]
    rng.shuffle(others)
    n_extra = rng.randint(0, max(0, max_melds - len(kongs)))
    melded = kongs + others[:n_extra]
    hand_sets = others[n_extra:]
    texts = []
    for kind, tile in melded:
        if kind == "chow":
            body = group_text([tile, tile + 1, tile + 2])
            texts.append(f"[{body},{rng.randint(1, 3)}]")
        elif kind == "pung":
            texts.append(f"[{group_text([tile] * 3)},{rng.randint(1, 3)}]")
        else:
            body = group_text([tile] * 4)
            r = rng.random()
            if r < 0.4:
                texts.append(f"[{body}]")  # concealed kong
            elif r < 0.75:
                texts.append(f"[{body},{rng.randint(1, 3)}]")  # melded kong
            else:
                texts.append(f"[{body},{rng.randint(5, 7)}]")  # promoted kong
    rng.shuffle(texts)
    return texts, melded, hand_sets


def _concealed_text(rng: random.Random, tiles: List[int], win: int) -> str:
    rest = sorted(tiles)
    rest.remove(win)
    return _compact(rest) + tile_text(win)


def _compact(tiles: List[int]) -> str:
    out = []
    for s in range(3):
        run = [t for t in tiles if t // 9 == s and t < 27]
        if run:
            out.append(group_text(run))
    hon = [t for t in tiles if t >= 27]
    if hon:
        out.append(group_text(hon))
    return "".join(out)


def _context(rng: random.Random, concealed: List[int], meld_tiles: List[int], has_kong: bool, win: int,
             consistent: bool, flowers: bool) -> str:
    winds = "ESWN"
    self_drawn = rng.random() < 0.5
    last_copy = rng.random() < 0.12
    wall_last = rng.random() < 0.08
    kong = rng.random() < 0.12
    if consistent:
        others_in_hand = concealed.count(win) - 1
        if others_in_hand:
            last_copy = False
        if kong and (not has_kong if self_drawn else others_in_hand + meld_tiles.count(win) > 0):
            kong = False
        if kong and wall_last and not self_drawn:  # 抢杠和 + 海底捞月: a robbed tile is no discard
            wall_last = False
    flags = "".join("1" if f else "0" for f in (self_drawn, last_copy, wall_last, kong))
    text = f"|{rng.choice(winds)}{rng.choice(winds)}{flags}"
    r = rng.random() if flowers else 1.0
    if r < 0.15:
        text += f"|{rng.randint(1, 8)}"
    elif r < 0.2:
        text += "|" + "".join(sorted(rng.sample("abcdefgh", rng.randint(1, 8))))
    return text


def random_hand(rng: random.Random, consistent: bool = False, flowers: bool = True) -> str:
    """One random winning hand in the notation, context suffix included."""
    while True:
        text = _try_hand(rng, consistent, flowers)
        if text is not None:
            return text


def _try_hand(rng: random.Random, consistent: bool, flowers: bool) -> Optional[str]:
    form = rng.random()
    pal = _Palette(rng)
    melds: List[str] = []
    meld_tiles: List[int] = []
    has_kong = False
    if form < 0.78:
        made = _standard(rng, pal)
        if made is None:
            return None
        sets, pair = made
        melds, melded, hand_sets = _melds_text(rng, sets, rng.choice((0, 0, 1, 2, 3, 4)))
        concealed = [pair, pair] + [t for kind, tile in hand_sets for t in _set_tiles(kind, tile)]
        hand_tiles = set(concealed)
        meld_tiles = [t for kind, tile in melded for t in _set_tiles(kind, tile)]
        has_kong = any(kind == "kong" for kind, _ in sets)
        win = rng.choice(sorted(hand_tiles)) if rng.random() < 0.5 else rng.choice(concealed)
    elif form < 0.86:
        counts = [0] * 34
        pairs = []
        while len(pairs) < 7:
            t = pal.tile() if rng.random() < 0.85 else rng.randrange(34)
            if rng.random() < 0.15:
                start = pal.chow_start()
                t = start
            if counts[t] <= 2:
                counts[t] += 2
                pairs.append(t)
        if rng.random() < 0.1:  # seven shifted pairs
            s = rng.randrange(3) * 9 + rng.randint(0, 2)
            pairs = list(range(s, s + 7))
        concealed = [t for t in pairs for _ in range(2)]
        win = rng.choice(concealed)
    elif form < 0.91:
        arr = rng.choice(KNITTED)
        knitted = [arr[run] * 9 + run + 3 * step for run in range(3) for step in range(3)]
        made = _standard(rng, pal)
        if made is None:
            return None
        sets, pair = made
        kind, tile = sets[0]
        if kind == "kong":
            kind = "pung"
        set_tiles = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
        all_tiles = knitted + set_tiles + [pair, pair]
        if max(all_tiles.count(t) for t in all_tiles) > 4:
            return None
        if rng.random() < 0.3:
            melds = [f"[{group_text(set_tiles)},{rng.randint(1, 3)}]"]
            meld_tiles = set_tiles
            concealed = knitted + [pair, pair]
        else:
            concealed = knitted + set_tiles + [pair, pair]
        win = rng.choice(concealed)
    elif form < 0.94:
        arr = rng.choice(KNITTED)
        knitted = [arr[run] * 9 + run + 3 * step for run in range(3) for step in range(3)]
        concealed = rng.sample(knitted + list(range(27, 34)), 14) if rng.random() < 0.7 else \
            rng.sample(knitted, 7) + list(range(27, 34))
        win = rng.choice(concealed)
    elif form < 0.97:
        orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
        concealed = orphans + [rng.choice(orphans)]
        win = rng.choice(concealed)
    else:
        s = rng.randrange(3) * 9
        concealed = [s] * 3 + [s + r for r in range(1, 8)] + [s + 8] * 3 + [s + rng.randrange(9)]
        win = rng.choice(concealed) if rng.random() < 0.3 else concealed[-1]
    text = "".join(melds) + _concealed_text(rng, concealed, win)
    return text + _context(rng, concealed, meld_tiles, has_kong, win, consistent, flowers)
