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
    """`discard_options` (issue 14: <= 5 µs) next to `best_discards` (shanten only, no objects) and
    the per-discard path it replaces (one shanten and one effective_tiles call per discard)."""

    def test_ours(self, benchmark):
        hands = [mc.Hand(c) for c in WIN_MIX]
        f = mc.discard_options
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_ours_reading_every_option(self, benchmark):
        # What a caller pays who looks at every option's effective tiles (the mappings are lazy).
        hands = [mc.Hand(c) for c in WIN_MIX]
        f = mc.discard_options

        def read():
            for h in hands:
                for o in f(h):
                    o.effective

        run(benchmark, read, hands, ours=True)

    def test_ours_standard_form(self, benchmark):
        hands = [mc.Hand(c) for c in WIN_MIX]
        f, forms = mc.discard_options, mc.Forms.STANDARD
        run(benchmark, lambda: [f(h, forms) for h in hands], hands, ours=True)

    def test_best_discards(self, benchmark):
        hands = [mc.Hand(c) for c in WIN_MIX]
        f = mc.best_discards
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_per_discard_calls(self, benchmark):
        rows = [bytes(c) for c in WIN_MIX[:200]]
        shanten, effective = mc.shanten, mc.effective_tiles

        def per_discard():
            for row in rows:
                for x in range(34):
                    if row[x]:
                        after = bytearray(row)
                        after[x] -= 1
                        after = bytes(after)
                        shanten(after)
                        effective(after)

        run(benchmark, per_discard, rows, ours=True)


# ---- start-up: whole processes ------------------------------------------------------------
#
# What every CLI run, spawned worker and test process pays before its first answer. Each round is
# one fresh `python -c` (outside this directory, so the installed package is imported); the
# summary reports the median of the rounds, and the peer runs in the same session.
# PYTHONDONTWRITEBYTECODE is dropped for these processes: with it (some CI images and sandboxes
# set it) Python recompiles every source module at every start, ~20 ms of ours that no pip
# install pays, since pip writes the bytecode at install time.

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

STARTUP_ROUNDS = 15
_STARTUP_CWD = tempfile.gettempdir()


_STARTUP_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _process(code):
    subprocess.run([sys.executable, "-c", code], check=True, cwd=_STARTUP_CWD, env=_STARTUP_ENV)


def run_process(benchmark, code, ours=False):
    benchmark.extra_info["hands"] = 1
    benchmark.extra_info["ours"] = ours
    benchmark.extra_info["statistic"] = "median"
    benchmark.pedantic(_process, args=(code,), rounds=STARTUP_ROUNDS, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="start-up: a whole new process (median)")
class TestStartup:
    def test_ours_import_and_first_shanten(self, benchmark):
        run_process(benchmark, "import mahjong_core as m; m.shanten('123m456p789s1122z')", ours=True)

    def test_riichienv_import(self, benchmark):
        pytest.importorskip("riichienv")
        run_process(benchmark, "import riichienv")

    def test_python_pass(self, benchmark):
        run_process(benchmark, "pass")


# ---- notation -----------------------------------------------------------------------------

TEXTS = [mc.format_hand(mc.Hand(c)) for c in COMPLETE]


@pytest.mark.benchmark(group="parse: complete 14-tile hands")
class TestParse:
    def test_ours_parse(self, benchmark):
        f = mc.parse
        run(benchmark, lambda: [f(t) for t in TEXTS], TEXTS, ours=True)

    def test_python_reference_parser(self, benchmark):
        from mahjong_core.notation import _parse_reference as f

        run(benchmark, lambda: [f(t) for t in TEXTS], TEXTS)


@pytest.mark.benchmark(group="format: complete 14-tile hands")
class TestFormat:
    def test_ours_format_hand(self, benchmark):
        hands = [mc.parse(t) for t in TEXTS]
        f = mc.format_hand
        run(benchmark, lambda: [f(h) for h in hands], hands, ours=True)

    def test_python_reference_formatter(self, benchmark):
        from mahjong_core.notation import _format_reference as f

        hands = [mc.parse(t) for t in TEXTS]
        run(benchmark, lambda: [f(h) for h in hands], hands)


# ---- fixed costs: a 1-row batch, a Forms member -------------------------------------------

@pytest.mark.benchmark(group="batch fixed cost: 1-row batch.shanten per call")
class TestBatchFixedCost:
    def test_ours_one_row_batch(self, benchmark):
        rows = [numpy_rows([c]) for c in RANDOM13]
        f = mc.batch.shanten
        run(benchmark, lambda: [f(r, 0, CHANGBAI) for r in rows], rows, ours=True)

    def test_ours_per_hand_call_for_reference(self, benchmark):
        hands = [bytes(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h, CHANGBAI) for h in hands], hands, ours=True)


@pytest.mark.benchmark(group="forms argument: shanten on a Hand, all five forms")
class TestFormsArgument:
    def test_ours_forms_member(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h, mc.Forms.MCR) for h in hands], hands, ours=True)

    def test_ours_int(self, benchmark):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.shanten
        run(benchmark, lambda: [f(h, 31) for h in hands], hands, ours=True)


# ---- CPU dispatch: the POPCNT copy next to the baseline copy ------------------------------

def _with_kernels(variant, fn):
    from mahjong_core import _core

    if variant not in _core.cpu_dispatch()["available"]:
        pytest.skip(f"no {variant} kernels on this CPU/build")
    before = _core.cpu_dispatch()["variant"]
    _core._use_kernels(variant)

    def timed():
        _core._use_kernels(variant)
        return fn()

    return timed, lambda: _core._use_kernels(before)


@pytest.mark.benchmark(group="cpu dispatch: waits, near-ready 13 tiles, all five forms")
class TestDispatchWaits:
    @pytest.mark.parametrize("variant", ["popcnt", "baseline"])
    def test_ours(self, benchmark, variant):
        hands = [mc.Hand(c) for c in NEAR_READY]
        f = mc.waits_mask
        timed, restore = _with_kernels(variant, lambda: [f(h) for h in hands])
        try:
            run(benchmark, timed, hands, ours=True)
        finally:
            restore()


@pytest.mark.benchmark(group="cpu dispatch: shanten, random 13 tiles, all five forms")
class TestDispatchShanten:
    @pytest.mark.parametrize("variant", ["popcnt", "baseline"])
    def test_ours(self, benchmark, variant):
        hands = [mc.Hand(c) for c in RANDOM13]
        f = mc.shanten
        timed, restore = _with_kernels(variant, lambda: [f(h, MCR) for h in hands])
        try:
            run(benchmark, timed, hands, ours=True)
        finally:
            restore()
