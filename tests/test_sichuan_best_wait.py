"""Sichuan scoring's fast paths against the obviously correct computations.

`best_ready_value` (and the engine's wall end, `SichuanGame._wall_end_checks`) pick the best wait
from the counts (`scoring._best_wait` / `_pattern_key`) and score only that one. The reference here
scores every wait in full (`score_waits`, which runs `_score` on each) and keeps the first with the
most points — what `best_ready_value` did before the fast path. They must agree exactly (the same
`SichuanScore`, or None) on many seeded waiting hands built to hit every pattern: pure suits, 1-9
sets, pungs, 2-5-8 pungs, seven pairs with and without a quad, melded pungs and kongs, void suits,
three suits, exhausted and excluded waits, and rules with a 番 cap or 根 counted for kongs.

`_score` takes each reading's best pattern from `_best_pattern` instead of `max` over the
`_patterns` generator: compared here on every reading of many complete hands and contexts.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from seeded_play import play_mixed_sichuan

from mahjong_core.game.actions import SUIT_LETTERS
from mahjong_core import _core
from mahjong_core.hand import Hand
from mahjong_core.model import Meld, MeldKind
from mahjong_core.rules.sichuan import Rules, best_ready_value, score_waits
from mahjong_core.rules.sichuan.flow import SichuanGame
from mahjong_core.rules.sichuan.scoring import WinContext, _best_pattern, _best_wait, _held_of, _patterns
from mahjong_core.tiles import Forms

RULES = [Rules(), Rules(gen_counts_kongs=True), Rules(max_fan=3), Rules(max_fan=2, base=1)]


def slow_best(hand, void, rules, exclude=()):
    """The first wait (in tile order) with the most points, every wait scored in full."""
    best = None
    for value in score_waits(hand, void_suit=void, rules=rules, exclude=exclude).values():
        if value is not None and (best is None or value.points > best.points):
            best = value
    return best


def _suit_kinds(rng):
    """Kinds to build from: one suit (清), two suits, terminals only, 2-5-8 only or anything."""
    style = rng.randrange(7)
    suits = rng.sample(range(3), 1 if style < 2 or style == 6 else 2)
    if style == 2 or style == 6:
        ranks = [0, 1, 2, 6, 7, 8]
    elif style == 3:
        ranks = [1, 4, 7]
    else:
        ranks = list(range(9))
    return [9 * s + r for s in suits for r in ranks], suits


def random_complete(rng):
    """(34 concealed counts, melds) of a complete Sichuan-shaped hand, or None when the draw failed."""
    kinds, suits = _suit_kinds(rng)
    counts = [0] * 34
    melds = []
    if rng.random() < 0.25:  # seven pairs, sometimes with a quad
        pairs = [rng.choice(kinds) for _ in range(7)]
        for t in pairs:
            counts[t] += 2
        return (counts, melds) if max(counts) <= 4 else None
    n_melds = rng.choice([0, 0, 1, 2, 3])
    pung_bias = rng.random()
    for i in range(4):
        if i < n_melds:
            t = rng.choice(kinds)
            melds.append((t, rng.random() < 0.4))
            continue
        if rng.random() < pung_bias:
            counts[rng.choice(kinds)] += 3
        else:
            starts = [t for t in kinds if t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds] or kinds
            t = rng.choice(starts)
            if t % 9 > 6:
                counts[t] += 3
            else:
                for k in range(3):
                    counts[t + k] += 1
    counts[rng.choice(kinds)] += 2
    if rng.random() < 0.15:  # a stray tile of another suit: two or three suits held
        counts[9 * rng.choice([s for s in range(3) if s not in suits]) + rng.randrange(9)] += 1
        counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
    held = list(counts)
    for t, kong in melds:
        held[t] += 4 if kong else 3
    if max(held) > 4 or len({t for t, _ in melds}) < len(melds):
        return None
    return counts, melds


def random_waiting(rng):
    while True:
        drawn = random_complete(rng)
        if drawn is None:
            continue
        counts, melds = drawn
        t = rng.choice([k for k in range(34) if counts[k]])
        counts[t] -= 1
        core_melds = tuple(Meld(MeldKind.KONG if kong else MeldKind.PUNG, t, concealed=kong and rng.random() < 0.5)
                           for t, kong in melds)
        return Hand(counts, core_melds)


def test_fast_best_ready_value_matches_scoring_every_wait():
    rng = random.Random(2024)
    compared = ready = ties = 0
    patterns = set()
    for i in range(4000):
        hand = random_waiting(rng)
        rules = RULES[i % len(RULES)]
        void = rng.choice([None, None, "m", "p", "s"])
        exclude = rng.sample(range(27), rng.randrange(3)) if rng.random() < 0.2 else ()
        expected = slow_best(hand, void, rules, exclude)
        got = best_ready_value(hand, void_suit=void, rules=rules, exclude=exclude)
        assert got == expected, (str(hand), void, rules, exclude)
        compared += 1
        if expected is not None:
            ready += 1
            patterns.add(expected.pattern.name_zh)
            values = [v.points for v in score_waits(hand, void_suit=void, rules=rules, exclude=exclude).values() if v]
            ties += values.count(max(values)) > 1
    assert compared == 4000 and ready > 1500 and ties > 100
    assert len(patterns) >= 11, patterns  # every base pattern a discard win can have


def _best_wait_between(hand, void, rules, waits):
    """`_best_wait` offered only the kinds in `waits`, with the inputs `_best_ready_of` builds."""
    kongs = sum(1 << int(m.tile) for m in hand.melds if m.kind == MeldKind.KONG)
    outside = all(int(m.tile) % 9 in (0, 8) for m in hand.melds)
    mask = sum(1 << t for t in waits)
    std = mask if hand.n_melds else _core._waits_mask_melds(hand, Forms.STANDARD, 0) & mask
    return _best_wait(bytes(hand.counts), bytes(hand.all_counts), hand.n_melds, kongs, outside, mask, std,
                      {None: -1, "m": 0, "p": 1, "s": 2}[void], rules)


def test_every_pair_of_waits_is_ordered_as_their_scores():
    """Stronger than comparing the final choice: offered any one wait, `_best_wait` says whether it
    wins at all; offered any two, it keeps the one worth more points (the lower tile on a tie) — so
    every wait's total 番 is compared, not only the best one's."""
    rng = random.Random(99)
    pairs = 0
    for i in range(2500):
        hand = random_waiting(rng)
        rules = RULES[i % len(RULES)]
        void = rng.choice([None, None, "m", "p", "s"])
        values = {int(t): v for t, v in score_waits(hand, void_suit=void, rules=rules).items()}
        for t, value in values.items():
            assert _best_wait_between(hand, void, rules, [t]) == (-1 if value is None else t), (str(hand), t)
        scored = sorted(t for t, v in values.items() if v is not None)
        for a in scored:
            for b in scored:
                if a < b:
                    expected = a if values[a].points >= values[b].points else b
                    assert _best_wait_between(hand, void, rules, [a, b]) == expected, (str(hand), void, rules, a, b)
                    pairs += 1
    assert pairs > 1500


@pytest.mark.parametrize("hand", ["1111234567899m", "1122334455667m", "1122335577889m", "111999m123p789p9p",
                                  "[111m][999m]11123p99p", "[1111p][999p,1]11123m99m", "222555888m2258p",
                                  "[222m][555m][888m]2225p", "1112223334449m",
                                  # 龙七对 against 带幺九 one 番 lower (the quad's pairs must count 5 番)
                                  "11112233m89999s", "112233p1189999s", "89999m11778899s"])
def test_spot_checks(hand):
    """Named hands (some have no wait or no Sichuan win under some void suits)."""
    for rules in RULES:
        for void in (None, "m", "p", "s"):
            assert best_ready_value(hand, void_suit=void, rules=rules) == slow_best(hand, void, rules)


class _Compared(SichuanGame):
    """Records the engine's wall-end report with the slow reference values of the same hands."""

    seen: list = []

    def _wall_end_checks(self, in_hand):
        expected = {}
        for s in in_hand:
            hand = self.hand_of(s)
            if len({t // 9 for t in range(27) if hand.all_counts[t]}) == 3:
                continue
            value = slow_best(hand, SUIT_LETTERS[self.void[s]], self.rules)
            if value is not None:
                expected[s] = value
        got = SichuanGame._wall_end_checks(self, in_hand)
        self.seen.append((expected, dict(got.ready)))
        return got


@pytest.mark.parametrize("overrides", [{}, {"gen_counts_kongs": True}, {"max_fan": 2}])
def test_engine_wall_end_values_match_scoring_every_wait(overrides):
    rules = dataclasses.replace(Rules.resolve("qq"), **overrides)
    _Compared.seen = []
    play_mixed_sichuan(_Compared, rules, range(250), 0.7, 11)
    ready = 0
    for expected, got in _Compared.seen:
        assert got == expected
        ready += len(got)
    assert len(_Compared.seen) > 40 and ready > 30


def test_best_pattern_is_the_first_largest_of_patterns():
    """Every reading of many complete hands, under every kind of context: `_best_pattern` is what
    `max` over `_patterns` (largest fan − uses_quad, then fan; the first on a tie) picks."""
    contexts = [WinContext(), WinContext(self_drawn=True), WinContext(after_kong_discard=True),
                WinContext(self_drawn=True, first_draw=True), WinContext(self_drawn=True, first_draw=True, dealer=True)]
    rng = random.Random(5)
    readings = 0
    seen = set()
    for _ in range(3000):
        drawn = random_complete(rng)
        if drawn is None:
            continue
        counts, melds = drawn
        hand = Hand(counts, tuple(Meld(MeldKind.KONG if kong else MeldKind.PUNG, t) for t, kong in melds))
        held = _held_of(hand)
        for d in _core.decompositions(hand, Forms.SICHUAN):
            for context in contexts:
                expected = max(_patterns(d, held, context), key=lambda p: (p.fan - p.uses_quad, p.fan))
                assert _best_pattern(d, held, context) == expected, (str(hand), d, context)
                seen.add(expected.name_zh)
            readings += 1
    assert readings > 1200 and len(seen) == 13, seen
