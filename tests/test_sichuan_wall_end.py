"""The engine's wall-end checks (查花猪/查大叫 read off its own state, `SichuanGame._wall_end_checks`)
against `SichuanSettlement.drawn_hand` on the same hands: the same report and the same ledger.

Each seeded hand is played by a game subclass whose wall end also runs `drawn_hand` on a copy of the
settlement taken just before, with the hands and void suits the public API takes.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from seeded_play import play_mixed_sichuan

from mahjong_core.game.actions import SUIT_LETTERS
from mahjong_core.rules.sichuan.flow import SichuanGame
from mahjong_core.rules.sichuan.rules import Rules


class _Compared(SichuanGame):
    """Records (drawn_hand's report and ledger, the engine's report and ledger) at the wall end."""

    seen_reports: list = []

    def _wall_end_checks(self, in_hand):
        twin = copy.deepcopy(self.settlement)
        expected = twin.drawn_hand({s: self.hand_of(s) for s in in_hand},
                                   void_suits={s: SUIT_LETTERS[self.void[s]] for s in in_hand})
        got = SichuanGame._wall_end_checks(self, in_hand)
        self.seen_reports.append((expected, list(twin.ledger), got, list(self.settlement.ledger)))
        return got


@pytest.mark.parametrize("preset, overrides", [
    ("qq", {}), ("qq_normal", {}), ("qq", {"refund_to_winners": False, "direct_kong": "jiajiayou"}),
    ("qq", {"max_fan": 2, "gen_counts_kongs": True}),
])
def test_engine_wall_end_matches_drawn_hand(preset, overrides):
    rules = dataclasses.replace(Rules.resolve(preset), **overrides)
    _Compared.seen_reports = []
    ready = pigs = 0
    # greedy bots get ready (查大叫 scores them), random ones keep three suits (花猪)
    play_mixed_sichuan(_Compared, rules, range(300), 0.6, 7)
    assert len(_Compared.seen_reports) > 40
    for expected, expected_ledger, got, got_ledger in _Compared.seen_reports:
        assert got == expected
        assert got_ledger == expected_ledger
        ready += len(got.ready)
        pigs += len(got.pigs)
    assert ready > 10 and pigs > 0  # both kinds of payment were compared
