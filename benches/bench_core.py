"""Core analysis: ours (per-hand on Hand and bytes, batch) next to other libraries in the same run.

Run: pytest benches/bench_core.py            (see benches/README.md for saving/comparing runs)
Each benchmark processes a whole seeded corpus per round; the summary prints ns per hand.
"""

from __future__ import annotations

import pytest

import mahjong_core as mc

from corpora import complete_hands, near_ready_hands, random_hands, to_136, to_gb, winning_mix

N = 2000
RANDOM13 = random_hands(N, 13)
NEAR_READY = near_ready_hands(N)
WIN_MIX = winning_mix(N)
COMPLETE = complete_hands(N)

CHANGBAI = mc.Forms.CHANGBAI  # standard + seven pairs + thirteen orphans (the Riichi-comparable set)
MCR = mc.Forms.MCR


def run(benchmark, fn, hands, ours=False):
    benchmark.extra_info["hands"] = len(hands)
    benchmark.extra_info["ours"] = ours
    benchmark(fn)


def numpy_rows(hands):
    np = pytest.importorskip("numpy")
    return np.array(hands, dtype=np.uint8)


# ---- shanten on random 13-tile hands -------------------------------------------------------

@pytest.mark.benchmark(group="shanten: random 13 tiles, std+7pairs+13orphans")
class TestShantenRandom:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)

    def test_ours_bytes(self, benchmark):
        hands = [bytes(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)

    def test_ours_batch(self, benchmark):
        rows = numpy_rows(RANDOM13)
        run(benchmark, lambda: mc.batch.shanten(rows, 0, CHANGBAI), rows, ours=True)

    def test_mahjong(self, benchmark):
        shanten_mod = pytest.importorskip("mahjong.shanten")
        calc = shanten_mod.Shanten().calculate_shanten
        run(benchmark, lambda: [calc(c) for c in RANDOM13], RANDOM13)

    def test_riichienv(self, benchmark):
        riichienv = pytest.importorskip("riichienv")
        hands = [to_136(c) for c in RANDOM13]
        f = riichienv.calculate_shanten
        run(benchmark, lambda: [f(h) for h in hands], hands)

    def test_xiangting(self, benchmark):
        xiangting = pytest.importorskip("xiangting")
        four = xiangting.PlayerCount.FOUR
        f = xiangting.calculate_replacement_number
        run(benchmark, lambda: [f(c, four) for c in RANDOM13], RANDOM13)


@pytest.mark.benchmark(group="shanten: random 13 tiles, all five MCR forms")
class TestShantenMCR:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_ours_batch(self, benchmark):
        rows = numpy_rows(RANDOM13)
        run(benchmark, lambda: mc.batch.shanten(rows, 0, MCR), rows, ours=True)

    def test_pymahjonggb_all_forms(self, benchmark):
        gb = pytest.importorskip("MahjongGB")
        hands = [to_gb(c) for c in RANDOM13]
        f = gb.MahjongShanten
        run(benchmark, lambda: [f((), h) for h in hands], hands)


# ---- win detection on 14-tile hands (10% complete) ---------------------------------------

@pytest.mark.benchmark(group="is_winning: 14 tiles (10% complete), std+7pairs+13orphans")
class TestIsWinning:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in WIN_MIX]
        f = mc.is_winning
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)

    def test_ours_bytes(self, benchmark):
        hands = [bytes(c) for c in WIN_MIX]
        f = mc.is_winning
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)

    def test_ours_batch(self, benchmark):
        rows = numpy_rows(WIN_MIX)
        run(benchmark, lambda: mc.batch.is_winning(rows, 0, CHANGBAI), rows, ours=True)

    def test_mahjong_agari(self, benchmark):
        agari = pytest.importorskip("mahjong.agari")
        f = agari.Agari().is_agari
        run(benchmark, lambda: [f(c) for c in WIN_MIX], WIN_MIX)


# ---- waits of near-ready hands -------------------------------------------------------------

@pytest.mark.benchmark(group="waits: near-ready 13 tiles, all five MCR forms")
class TestWaits:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in NEAR_READY]
        f = mc.waits
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_ours_mask(self, benchmark):
        hands = [mc.Hand(c) for c in NEAR_READY]
        f = mc.waits_mask
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_ours_batch(self, benchmark):
        rows = numpy_rows(NEAR_READY)
        run(benchmark, lambda: mc.batch.waits(rows, 0, MCR), rows, ours=True)

    def test_pymahjonggb_regular_useful(self, benchmark):
        gb = pytest.importorskip("MahjongGB")
        hands = [to_gb(c) for c in NEAR_READY]
        f = gb.RegularShanten
        run(benchmark, lambda: [f(h) for h in hands], hands)


# ---- effective tiles -------------------------------------------------------------------------

@pytest.mark.benchmark(group="effective tiles: random 13 tiles, std+7pairs+13orphans")
class TestEffective:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.effective_tiles
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)

    def test_xiangting_necessary(self, benchmark):
        xiangting = pytest.importorskip("xiangting")
        four = xiangting.PlayerCount.FOUR
        f = xiangting.calculate_necessary_tiles
        run(benchmark, lambda: [f(c, four) for c in RANDOM13], RANDOM13)


@pytest.mark.benchmark(group="effective tiles: random 13 tiles, all five MCR forms")
class TestEffectiveMCR:
    def test_ours_hand(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.effective_tiles
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_pymahjonggb_five_forms(self, benchmark):
        gb = pytest.importorskip("MahjongGB")
        hands = [to_gb(c) for c in RANDOM13]
        fns = (gb.RegularShanten, gb.SevenPairsShanten, gb.ThirteenOrphansShanten,
               gb.HonorsAndKnittedTilesShanten, gb.KnittedStraightShanten)

        def useful():
            for h in hands:
                for f in fns:
                    f(h)

        run(benchmark, useful, hands)


# ---- decompositions and discard options ---------------------------------------------------

@pytest.mark.benchmark(group="decompositions: complete 14-tile hands")
class TestDecompositions:
    def test_ours(self, benchmark):
        hands = [mc.Hand(c) for c in COMPLETE]
        f = mc.decompositions
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_mahjong_divider(self, benchmark):
        divider_mod = pytest.importorskip("mahjong.hand_calculating.divider")
        divide = divider_mod.HandDivider().divide_hand
        run(benchmark, lambda: [divide(c) for c in COMPLETE], COMPLETE)


@pytest.mark.benchmark(group="discard options: random 14 tiles, all five MCR forms")
class TestDiscardOptions:
    def test_ours(self, benchmark):
        hands = [mc.Hand(c) for c in WIN_MIX]
        f = mc.discard_options
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)
