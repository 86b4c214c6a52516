"""Property tests of the Sichuan settlement over random event sequences (hypothesis).

Random hands of play — kongs of every kind, discard wins with one to three winners (plain, 杠上炮,
抢杠胡), self-draws, the wall's end — some of them impossible on purpose. For every sequence:

* every ledger sums to zero and every transfer is between two seats for a positive amount;
* an impossible event raises `IllegalActionError` and changes nothing;
* a player who has won never appears in a later transfer — except, with `refund_to_winners`, as the
  payee of a 退税 refund of a kong payment they made before winning;
* every refund returns exactly the kong payment its `ref` names, to the player who paid it, at most
  once; every 呼叫转移 hands on exactly a kong payment the discarder received;
* at the wall's end every non-ready player has refunded each payment of their own kongs (those not
  handed on by 呼叫转移) — except payments by winners when `refund_to_winners=False`;
* the hand is over after three winners or the wall's end, and then every event is refused.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Tuple

from hypothesis import given, settings
from hypothesis import strategies as st

from depth import examples

import mahjong_core as mc
from mahjong_core.rules import sichuan
from mahjong_core.rules.sichuan import Rules, SichuanSettlement

RULE_VARIANTS = (
    Rules(),
    Rules(direct_kong="jiajiayou"),
    Rules(zimo_bonus="add_fan", max_fan=4),
    Rules(zimo_bonus=None, refund_to_winners=False, base=1),
    Rules(gen_counts_kongs=True, direct_kong="jiajiayou", refund_to_winners=False),
)

DISCARD_HANDS = ("11123m789m999p456p", "11333222456999s", "111222444m33399p", "11224444557799m", "[555p,1]111222333m99p")
SELF_DRAWN_HANDS = ("111222444m33399p", "11112222m334455m", "23445677p345789s")
BLOOM_HANDS = ("[5555p,2]11123m789m999p", "[1111s]22233344455s")
WALL_HANDS = (
    "123m456p789s1122m",        # flower pig
    "[555s,1]123m456p78m99m",   # flower pig through a meld
    "[7777p,2]11122233m99p",    # ready (12)
    "1122334455667s",           # ready (96)
    "1112223334m999p",          # ready (12; not with void m)
    "[5555p]13579m24689p",      # not ready
    "13579m13579p246p",         # not ready
)
KONG_REASONS = {"direct_kong", "added_kong", "concealed_kong"}


@lru_cache(maxsize=None)
def pools(rules: Rules) -> Dict[str, Tuple[sichuan.SichuanScore, ...]]:
    def scores(hands, **flags):
        return tuple(sichuan.score(h, rules=rules, **flags) for h in hands)

    return {
        "plain": scores(DISCARD_HANDS),
        "after_kong": scores(DISCARD_HANDS, after_kong_discard=True),
        "robbed": scores(DISCARD_HANDS, robbed_kong=True),
        "self": scores(SELF_DRAWN_HANDS, self_drawn=True) + scores(BLOOM_HANDS, self_drawn=True, kong_replacement=True),
    }


def snapshot(s: SichuanSettlement):
    return list(s.ledger), s.won, s.kongs, s.finished


def draw_event(data, s: SichuanSettlement, rules: Rules):
    """A random event; seats are drawn from all four so that some events are impossible."""
    seat = st.integers(0, 3)
    kind = data.draw(st.sampled_from(["kong", "kong", "discard", "discard", "self", "wall"]))
    if kind == "kong":
        kong_kind = data.draw(st.sampled_from(["direct", "added", "concealed"]))
        discarder = data.draw(seat) if kong_kind == "direct" else None
        return lambda: s.kong(data.draw(seat), kong_kind, discarder=discarder)
    if kind == "discard":
        flavour = data.draw(st.sampled_from(["plain", "plain", "after_kong", "robbed"]))
        winners = data.draw(st.lists(seat, min_size=1, max_size=3, unique=True))
        wins = {w: data.draw(st.sampled_from(pools(rules)[flavour])) for w in winners}
        # often the last kong's player: a 杠上炮 needs the discarder's kong as the last event
        discarder = data.draw(st.one_of(seat, st.just(s.kongs[-1].player)) if s.kongs else seat)
        return lambda: s.discard_win(discarder, wins)
    if kind == "self":
        return lambda: s.self_drawn_win(data.draw(seat), data.draw(st.sampled_from(pools(rules)["self"])))
    hands = {p: data.draw(st.sampled_from(WALL_HANDS)) for p in s.in_hand}
    voids = {p: data.draw(st.sampled_from([None, "m", "p", "s"])) for p in s.in_hand}
    return lambda: s.drawn_hand(hands, voids)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), variant=st.integers(0, len(RULE_VARIANTS) - 1), steps=st.integers(1, 14))
def test_settlement_invariants(data, variant, steps):
    rules = RULE_VARIANTS[variant]
    s = SichuanSettlement(rules)
    won_at: Dict[int, Tuple[int, int]] = {}  # seat -> (first ledger index of its win event, end of that event)
    report = None
    for _ in range(steps):
        before = snapshot(s)
        start = len(s.ledger)
        event = draw_event(data, s, rules)
        try:
            result = event()
        except mc.IllegalActionError:
            assert snapshot(s) == before, "a refused event must change nothing"
            continue
        assert not before[3], "an event was accepted after the hand was over"
        for seat in s.won:
            won_at.setdefault(seat, (start, len(s.ledger)))
        if isinstance(result, sichuan.WallEndReport):
            report = result
        if s.finished:
            break
    check_ledger(s, rules, won_at, report)


def check_ledger(s: SichuanSettlement, rules: Rules, won_at: Dict[int, Tuple[int, int]], report) -> None:
    ledger = list(s.ledger)
    assert sum(s.totals()) == 0
    assert all(t.amount > 0 and t.payer != t.payee for t in ledger)

    for seat, (event_start, event_end) in won_at.items():
        for index in range(event_start, len(ledger)):
            t = ledger[index]
            if seat not in (t.payer, t.payee):
                continue
            if index < event_end:  # the win itself: the winner only receives
                assert t.payee == seat and t.reason in ("discard_win", "robbed_kong_win", "self_draw", "call_transfer")
            else:
                assert rules.refund_to_winners and t.reason == "kong_refund" and t.payee == seat, (seat, index, t)
                assert t.ref is not None and t.ref < event_start  # a payment made before the win

    refunded: List[int] = []
    for t in ledger:
        if t.reason in ("kong_refund", "call_transfer"):
            paid = ledger[t.ref]
            assert paid.reason in KONG_REASONS and paid.amount == t.amount and t.payer == paid.payee
        if t.reason == "kong_refund":
            assert t.payee == paid.payer
            refunded.append(t.ref)
        elif t.ref is not None:
            assert t.reason == "call_transfer"
    assert len(refunded) == len(set(refunded)), "a kong payment was refunded twice"

    if report is not None:
        transferred = {t.ref for t in ledger if t.reason == "call_transfer"}
        for kong in s.kongs:
            if kong.player not in report.not_ready or set(kong.payments) & transferred:
                assert not set(kong.payments) & set(refunded)
                continue
            for entry in kong.payments:
                payer_won_first = ledger[entry].payer in won_at
                assert (entry in refunded) == (rules.refund_to_winners or not payer_won_first)
    assert s.finished == (report is not None or len(s.won) >= 3)
