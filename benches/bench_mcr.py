"""MCR scoring: ours next to PyMahjongGB 1.4.0 on the same seeded winning hands.

Run: pytest benches/bench_mcr.py            (see benches/README.md for saving/comparing runs)

The corpus is tests/mcr_handgen.py's mix (0-4 melds, kongs of every kind, seven pairs, knitted
forms, thirteen orphans, nine gates, every context flag, flowers), with consistent context flags.
Each library gets its native input, prepared outside the timed loop: ours a `mahjong_core.Hand`
(with its `|PS####|F` context), PyMahjongGB its tuple of packs, standing tiles, winning tile and
flags. Both compute the full fan list; ours also the chosen decomposition (attribution is lazy).
The performance goal is a ratio: ours at least as fast as PyMahjongGB per hand.

Hands with melds (issue 23): `mcr.score(text)` >= 2x PyMahjongGB by number of melds. A second seeded
corpus of the same generator is drawn in three equal parts, 0 melds, 1-2 melds and 3-4 melds (so two
thirds have melds: chows, pungs, and kongs melded, concealed and promoted), each hand with its
`|PS####|F` context; one benchmark group per part (and one for the whole mix) times ours from the
text against PyMahjongGB on its native input prepared outside the loop.

    python benches/bench_mcr.py [ROUNDS]   # interleaved rounds, best of each: ratio per meld count
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
import time
from typing import Dict, List

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))

import mahjong_core as mc  # noqa: E402
import mcr_handgen  # noqa: E402
from mahjong_core.rules import mcr  # noqa: E402

N = 5000
# PyMahjongGB 1.4.0's reading (the corpus has flowers; the `botzone` preset follows the Botzone judge,
# which gives no 边张/嵌张/单钓将 on a 组合龙 tile — tests/test_mcr_differential.py does the same).
RULES = dataclasses.replace(mcr.Rules.presets["botzone"], knitted_straight_wait_counts=True, flowers=True)
_rng = random.Random(2024)
HANDS = [mc.parse(mcr_handgen.random_hand(_rng, consistent=True)) for _ in range(N)]
GROUP = "mcr score: winning hands"


def run(benchmark, fn, ours=False):
    benchmark.extra_info["hands"] = N
    benchmark.extra_info["ours"] = ours
    benchmark(fn)


@pytest.mark.benchmark(group=GROUP)
class TestMCRScore:
    def test_ours_score(self, benchmark):
        score, hands, rules = mcr.score, HANDS, RULES
        run(benchmark, lambda: [score(h, rules=rules).total for h in hands], ours=True)

    def test_ours_score_batch(self, benchmark):
        pytest.importorskip("numpy")
        records = mcr.encode_batch(HANDS)
        run(benchmark, lambda: mcr.score_batch(records, RULES), ours=True)

    def test_pymahjonggb(self, benchmark):
        gb = pytest.importorskip("MahjongGB")
        import mcr_oracle

        calc = gb.MahjongFanCalculator
        args = [mcr_oracle.gb_args(h) for h in HANDS]
        run(benchmark, lambda: [calc(*a) for a in args])


@pytest.mark.benchmark(group="mcr score: from notation text")
class TestMCRScoreText:
    def test_ours_parse_and_score(self, benchmark):
        texts = [str(h) for h in HANDS]
        score, rules = mcr.score, RULES
        run(benchmark, lambda: [score(t, rules=rules).total for t in texts], ours=True)

    def test_pymahjonggb_same_hands(self, benchmark):
        """PyMahjongGB on the same hands, with its native input prepared outside the loop (it has
        no text input): the peer of the goal `mcr.score("<notation>")` >= 2x faster."""
        gb = pytest.importorskip("MahjongGB")
        import mcr_oracle

        calc = gb.MahjongFanCalculator
        args = [mcr_oracle.gb_args(h) for h in HANDS]
        run(benchmark, lambda: [calc(*a) for a in args])


def test_same_results_as_pymahjonggb_on_the_bench_corpus():
    """The benchmark compares like with like: identical fan lists on this corpus."""
    pytest.importorskip("MahjongGB")
    from collections import Counter

    import mcr_oracle

    for h in HANDS[:1000]:
        assert Counter(mcr.score(h, rules=RULES).fan_ids) == mcr_oracle.gb_fans(h), str(h)


# ---------------------------------------------------------------------------------------------
# Hands with melds, by number of melds (issue 23)

MELD_BUCKETS = {"0 melds": (0, 0), "1-2 melds": (1, 2), "3-4 melds": (3, 4)}
N_PER_BUCKET = 2000


def melded_corpus(n_per_bucket: int = N_PER_BUCKET, seed: int = 23) -> Dict[str, List[str]]:
    """Seeded winning hands as notation text (context suffix included), `n_per_bucket` per meld bucket:
    the generator's mix drawn until each bucket is full, so two thirds of the corpus has melds."""
    rng = random.Random(seed)
    out: Dict[str, List[str]] = {name: [] for name in MELD_BUCKETS}
    while any(len(texts) < n_per_bucket for texts in out.values()):
        text = mcr_handgen.random_hand(rng, consistent=True)
        n = mc.parse(text).n_melds
        for name, (low, high) in MELD_BUCKETS.items():
            if low <= n <= high and len(out[name]) < n_per_bucket:
                out[name].append(text)
    return out


MELDED = melded_corpus()
MELDED["mix (2/3 with melds)"] = [t for texts in zip(*MELDED.values()) for t in texts]


def corpus_facts(texts: List[str]) -> Dict[str, int]:
    """What the melds of a corpus are made of (extra_info of the benchmarks)."""
    facts = {"hands": len(texts), "chows": 0, "pungs": 0, "melded kongs": 0, "concealed kongs": 0,
             "promoted kongs": 0}
    for text in texts:
        for m in mc.parse(text).melds:
            if m.kind == mc.MeldKind.CHOW:
                facts["chows"] += 1
            elif m.kind == mc.MeldKind.PUNG:
                facts["pungs"] += 1
            elif m.concealed:
                facts["concealed kongs"] += 1
            elif m.claimed is not None and m.claimed >= 5:
                facts["promoted kongs"] += 1
            else:
                facts["melded kongs"] += 1
    return facts


def _gb_inputs(texts: List[str]) -> list:
    import mcr_oracle

    return [mcr_oracle.gb_args(mc.parse(t)) for t in texts]


@pytest.mark.parametrize("bucket", list(MELDED))
class TestMCRScoreMelded:
    def test_ours_text(self, benchmark, bucket):
        benchmark.group = f"mcr score text by melds: {bucket}"
        texts, score, rules = MELDED[bucket], mcr.score, RULES
        benchmark.extra_info.update(corpus_facts(texts))
        run_melded(benchmark, lambda: [score(t, rules=rules).total for t in texts], len(texts), ours=True)

    def test_pymahjonggb(self, benchmark, bucket):
        gb = pytest.importorskip("MahjongGB")
        benchmark.group = f"mcr score text by melds: {bucket}"
        calc, args = gb.MahjongFanCalculator, _gb_inputs(MELDED[bucket])
        run_melded(benchmark, lambda: [calc(*a) for a in args], len(args))


def run_melded(benchmark, fn, hands: int, ours: bool = False) -> None:
    benchmark.extra_info["hands"] = hands
    benchmark.extra_info["ours"] = ours
    benchmark(fn)


def test_same_results_as_pymahjonggb_on_the_melded_corpus():
    """The melded comparison is like with like: identical fan lists, every bucket."""
    pytest.importorskip("MahjongGB")
    from collections import Counter

    import mcr_oracle

    for name, texts in MELDED.items():
        for text in texts[:400]:
            assert Counter(mcr.score(text, rules=RULES).fan_ids) == mcr_oracle.gb_fans(mc.parse(text)), (name, text)


def _cpu_per_hand(fn, hands: int) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) / hands * 1e6


def main(rounds: int = 7) -> None:
    """Interleaved rounds (PyMahjongGB, then ours, per bucket) and the best of each figure, so a burst
    of load on a shared machine hits both sides alike and rarely every round."""
    import MahjongGB

    calc, score, rules = MahjongGB.MahjongFanCalculator, mcr.score, RULES
    best: Dict[str, List[float]] = {name: [float("inf"), float("inf")] for name in MELDED}
    inputs = {name: (texts, _gb_inputs(texts)) for name, texts in MELDED.items()}
    for i in range(rounds):
        for name, (texts, args) in inputs.items():
            gb_us = _cpu_per_hand(lambda: [calc(*a) for a in args], len(args))
            ours_us = _cpu_per_hand(lambda: [score(t, rules=rules).total for t in texts], len(texts))
            best[name] = [min(best[name][0], ours_us), min(best[name][1], gb_us)]
        print(f"round {i + 1}/{rounds} done", flush=True)
    print(f"\nmcr.score(text) vs PyMahjongGB, best of {rounds} interleaved rounds (CPU µs per hand)\n")
    print("| hands | ours µs | PyMahjongGB µs | ratio | goal ≥ 2× |")
    print("|---|---|---|---|---|")
    for name, (ours_us, gb_us) in best.items():
        ratio = gb_us / ours_us
        print(f"| {name} ({len(MELDED[name])}) | {ours_us:.2f} | {gb_us:.2f} | {ratio:.2f}× | "
              f"{'✓' if ratio >= 2 else '✗'} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
