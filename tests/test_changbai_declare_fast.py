"""Changbai's 报听 check on the engine's hot path (rules/changbai/flow.py) against the obvious one.

`ChangbaiGame._declare_options` runs on every turn under `ready_required`. It skips the core's
shanten call when `_may_be_ready` says the hand cannot be ready, takes the discards that leave a
ready hand from `best_discards`, and tells a single winning kind with `_ready_wait` (one core wait
mask on the engine's counts) instead of building a core `Hand` for `ready.can_declare_ready`. Each
shortcut is compared here with the computation it replaces, on constructed hands (melds, seven
pairs, thirteen orphans, phantom waits) under every rule switch that matters, and on the turns of
seeded games.
"""

from __future__ import annotations

import random

import pytest

from mahjong_core import Forms, Hand, shanten, waits_mask
from mahjong_core.game import new_game
from mahjong_core.game.actions import DECLARE, ActionKind
from mahjong_core.game.bots import make_bot
from mahjong_core.game.constants import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG
from mahjong_core.game.engine import _core_meld
from mahjong_core.rules.changbai import Rules, ready
from mahjong_core.rules.changbai import flow
from mahjong_core.notation import parse_tiles

TERMINALS_AND_HONOURS = [t for t in range(34) if t >= 27 or t % 9 in (0, 8)]

RULE_VARIANTS = [
    Rules(),
    Rules(phantom_waits_count=True),
    Rules(seven_pairs_need_terminal=False),
    Rules(thirteen_orphans=False),
    Rules(phantom_waits_count=True, seven_pairs_need_terminal=False, thirteen_orphans=False),
]


def tiles(text: str) -> bytearray:
    out = bytearray(34)
    for t in parse_tiles(text):
        out[t] += 1
    return out


def forms_of(rules: Rules) -> int:
    return int(ready.changbai_forms(rules))


# -- hand generation ------------------------------------------------------------------------------


def _take(total, t, n):
    if total[t] + n > 4:
        return False
    total[t] += n
    return True


def _random_set(rng, total):
    """A chow or pung drawn so that no kind exceeds four copies: (engine meld kind, tile) or None."""
    for _ in range(20):
        if rng.random() < 0.5:
            suit, rank = rng.randrange(3), rng.randrange(7)
            low = 9 * suit + rank
            if all(total[low + i] < 4 for i in range(3)):
                for i in range(3):
                    total[low + i] += 1
                return MELD_CHOW, low
        else:
            t = rng.randrange(34)
            if _take(total, t, 3):
                return MELD_PUNG, t
    return None


def complete_hand(rng):
    """(concealed counts of 14 − 3·melds, engine melds): a complete standard hand, or a concealed
    seven pairs or thirteen orphans hand now and then."""
    roll = rng.random()
    if roll < 0.12:  # seven pairs (a quad counts as two pairs)
        counts = bytearray(34)
        pool = rng.sample(range(34), 7)
        if rng.random() < 0.3:
            pool[1] = pool[0]
        for t in pool:
            counts[t] += 2
        return counts, []
    if roll < 0.2:  # thirteen orphans
        counts = bytearray(34)
        for t in TERMINALS_AND_HONOURS:
            counts[t] = 1
        counts[rng.choice(TERMINALS_AND_HONOURS)] += 1
        return counts, []
    total = [0] * 34  # every copy in the hand and its melds
    melds = []
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3, 4))):
        if rng.random() < 0.25:  # a kong
            t = rng.randrange(34)
            if _take(total, t, 4):
                concealed = rng.random() < 0.5
                melds.append((MELD_CONCEALED_KONG, t, 0, -1) if concealed else (MELD_KONG, t, 1, -1))
                continue
        made = _random_set(rng, total)
        if made is not None:
            melds.append((made[0], made[1], 1, -1))
    counts = bytearray(34)
    for _ in range(4 - len(melds)):
        made = _random_set(rng, total)
        if made is None:
            return complete_hand(rng)
        kind, t = made
        for i in range(3 if kind == MELD_CHOW else 1):
            counts[t + i] += 1 if kind == MELD_CHOW else 3
    for _ in range(50):
        t = rng.randrange(34)
        if _take(total, t, 2):
            counts[t] += 2
            return counts, melds
    return complete_hand(rng)


def meld_tile_counts(melds):
    out = [0] * 34
    for kind, t, _, _ in melds:
        if kind == MELD_CHOW:
            for i in range(3):
                out[t + i] += 1
        else:
            out[t] += 3 if kind == MELD_PUNG else 4
    return out


def swap_tile(rng, counts, melds):
    """Replace one concealed tile by a random kind (keeping at most four copies of it)."""
    in_melds = meld_tile_counts(melds)
    out = bytearray(counts)
    t = rng.choice([k for k in range(34) if out[k]])
    out[t] -= 1
    while True:
        k = rng.randrange(34)
        if out[k] + in_melds[k] < 4:
            out[k] += 1
            return out


def random_hand(rng, size):
    pool = [t for t in range(34) for _ in range(4)]
    counts = bytearray(34)
    for t in rng.sample(pool, size):
        counts[t] += 1
    return counts


def fourteen_tile_hands(rng, n):
    """(counts, engine melds) of 14 − 3·melds tiles: complete, one or two tiles off, or random."""
    for i in range(n):
        counts, melds = complete_hand(rng)
        for _ in range(i % 4):  # 0..3 tiles swapped: complete, ready, 1- and 2-shanten hands
            counts = swap_tile(rng, counts, melds)
        yield counts, melds
        if i % 3 == 0:
            yield random_hand(rng, 14), []


def waiting_hands(rng, n):
    """(counts, engine melds) of 13 − 3·melds tiles: a complete hand less a tile, sometimes with a
    tile swapped; plus hands holding all four copies of a wait (phantom waits)."""
    for i in range(n):
        counts, melds = complete_hand(rng)
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        if i % 4 == 3:
            counts = swap_tile(rng, counts, melds)
        yield counts, melds
    # Phantom waits: 444m 6666m 777s FFF waits on 5m and on 6m, whose four copies it holds; 56m 77p
    # 678s with concealed kongs of 7m and P waits on 4m and on 7m, all in a kong.
    yield tiles("4446666m777sFFF"), []
    yield tiles("56m77p678s"), [(MELD_CONCEALED_KONG, 6, 0, -1), (MELD_CONCEALED_KONG, 33, 0, -1)]


# -- the pieces ------------------------------------------------------------------------------------


def test_may_be_ready_never_refuses_a_hand_at_most_ready():
    """`_may_be_ready` may only answer False for a hand the core finds neither ready nor complete."""
    rng = random.Random(2024)
    refused = ready_seen = 0
    for counts, melds in fourteen_tile_hands(rng, 6000):
        for forms in (int(Forms.CHANGBAI), int(Forms.STANDARD | Forms.SEVEN_PAIRS)):
            s = shanten(bytes(counts), forms, melds=len(melds))
            ok = flow._may_be_ready(counts, len(melds), forms)
            assert ok or s > 0, (bytes(counts), melds, forms, s)
            refused += not ok
            ready_seen += s <= 0
    assert refused > 1000 and ready_seen > 1000  # both sides of the test are exercised


def _may_be_ready_tile_by_tile(counts, n_melds, forms):
    """`_may_be_ready` read tile by tile off its docstring: the 十三幺 exception, then more than two
    isolated singles (an honour: any single; a suited tile: none of its suit within two kinds)."""
    if not n_melds and forms & int(Forms.THIRTEEN_ORPHANS):
        if sum(1 for t in TERMINALS_AND_HONOURS if not counts[t]) <= 1:
            return True
    isolated = 0
    for t in range(34):
        if counts[t] != 1:
            continue
        if t >= 27:
            isolated += 1
            continue
        suit = t // 9
        neighbours = [u for u in (t - 2, t - 1, t + 1, t + 2) if 0 <= u < 27 and u // 9 == suit]
        isolated += not any(counts[u] for u in neighbours)
    return isolated <= 2


def test_may_be_ready_equals_its_definition():
    """The bit-mask `_may_be_ready` (compiled: two vector compares) answers as the definition read tile by
    tile, on random hands of every size, with and without melds and 十三幺, and on hands made to sit at
    its edges (two or three isolated tiles, singles at the ends of a suit, 十三幺 one or two kinds short)."""
    rng = random.Random(99)
    answers = {True: 0, False: 0}

    def check(counts, melds, forms):
        want = _may_be_ready_tile_by_tile(counts, melds, forms)
        assert flow._may_be_ready(counts, melds, forms) == want, (bytes(counts), melds, forms)
        answers[want] += 1

    for _ in range(20000):
        counts = bytearray(34)
        for t in rng.sample(range(34), rng.randint(1, 14)):
            counts[t] = rng.choice((1, 1, 1, 2, 3, 4))
        melds = rng.randint(0, 4)
        for forms in (int(Forms.CHANGBAI), int(Forms.STANDARD | Forms.SEVEN_PAIRS)):
            check(counts, melds, forms)
    for t in range(34):  # one single beside pairs at every position of every suit
        for gap in (1, 2, 3):
            counts = bytearray(34)
            counts[t] = 1
            for u in (t - gap, t + gap):
                if 0 <= u < 34:
                    counts[u] = 2
            check(counts, 0, int(Forms.STANDARD))
    orphans = bytearray(34)
    for t in TERMINALS_AND_HONOURS:
        orphans[t] = 1
    for drop in [(), (0,), (0, 33), (27, 28)]:
        counts = bytearray(orphans)
        for t in drop:
            counts[t] = 0
        counts[4] = 2
        for melds in (0, 1):
            check(counts, melds, int(Forms.CHANGBAI))
    assert answers[True] > 3000 and answers[False] > 3000  # both answers exercised
    # any sequence of 34 counts is read as Python reads it (compiled: only 34 bytes in bytes or a
    # bytearray go to the vector compare); a shorter one raises instead of being read past its end
    for counts in (orphans, bytearray(b"\x02" * 4 + bytes(30))):
        for forms in (int(Forms.CHANGBAI), int(Forms.STANDARD)):
            assert flow._may_be_ready(list(counts), 0, forms) == flow._may_be_ready(bytes(counts), 0, forms) \
                == _may_be_ready_tile_by_tile(counts, 0, forms)
    with pytest.raises(IndexError):
        flow._may_be_ready(bytearray(10), 0, int(Forms.STANDARD))


_FROM_SOURCE = r"""
import sys
sys.path.insert(0, sys.argv[1])
import source_first
source_first.install()
import test_changbai_declare_fast as t
assert t.flow.__file__.endswith(".py"), t.flow.__file__
t.test_may_be_ready_equals_its_definition()
t.test_may_be_ready_never_refuses_a_hand_at_most_ready()
print("ok")
"""


def test_may_be_ready_from_its_source_equals_its_definition():
    """The same checks on flow.py itself (its pure-Python masks), in a child that imports every hot
    module from its .py file (tests/source_first.py)."""
    import os
    import subprocess
    import sys
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run([sys.executable, "-c", _FROM_SOURCE, here], capture_output=True, text=True,
                            cwd=tempfile.gettempdir(), check=False)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


def test_may_be_ready_on_thirteen_orphans():
    base = bytearray(34)
    for t in TERMINALS_AND_HONOURS:
        base[t] = 1
    base[27] += 1  # complete: 13 kinds and a pair
    assert flow._may_be_ready(base, 0, int(Forms.CHANGBAI))
    assert not flow._may_be_ready(base, 0, int(Forms.STANDARD | Forms.SEVEN_PAIRS))
    one_off = bytearray(base)
    one_off[0] -= 1
    one_off[4] += 1  # 12 kinds, a pair and a 5m: ready on 1m
    assert shanten(bytes(one_off), Forms.CHANGBAI) == 0
    assert flow._may_be_ready(one_off, 0, int(Forms.CHANGBAI))
    two_off = bytearray(one_off)
    two_off[8] -= 1
    two_off[13] += 1  # 11 kinds: 1-shanten at best
    assert shanten(bytes(two_off), Forms.CHANGBAI) > 0
    assert not flow._may_be_ready(two_off, 0, int(Forms.CHANGBAI))


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=repr)
def test_ready_wait_equals_the_core_hand_computation(rules):
    """`_ready_wait` on raw counts and engine melds == `ready.ready_wait` on the core Hand."""
    rng = random.Random(7)
    forms = forms_of(rules)
    singles = none = phantoms = 0
    for counts, melds in waiting_hands(rng, 4000):
        hand = Hand(bytes(counts), [_core_meld(m) for m in melds])
        slow = ready.ready_wait(hand, rules)
        fast = flow._ready_wait(counts, len(melds), melds, forms, rules)
        assert fast == (-1 if slow is None else int(slow)), (hand, melds, rules)
        singles += slow is not None
        none += slow is None
        phantoms += waits_mask(hand, Forms.STANDARD) != waits_mask(hand, Forms.STANDARD, exclude_exhausted=True)
    assert singles > 500 and none > 500 and phantoms > 20


def test_phantom_and_seven_pairs_rules_decide():
    """Hands where a rule switch changes the answer (so the rules are really read)."""
    default, phantoms_count = Rules(), Rules(phantom_waits_count=True)
    for hand, melds, wait in ((tiles("4446666m777sFFF"), [], 4),
                              (tiles("56m77p678s"), [(MELD_CONCEALED_KONG, 6, 0, -1), (MELD_CONCEALED_KONG, 33, 0, -1)], 3)):
        assert flow._ready_wait(hand, len(melds), melds, forms_of(default), default) == wait
        assert flow._ready_wait(hand, len(melds), melds, forms_of(phantoms_count), phantoms_count) == -1
    # 22m 33m 44p 55p 66s 77s 8s waits on 8s only as seven pairs, which the default rules refuse (no
    # terminal or honour); without that rule it may declare.
    pairs = tiles("2233m4455p66778s")
    assert ready.ready_wait(Hand(bytes(pairs)), default) is None
    assert flow._ready_wait(pairs, 0, [], forms_of(default), default) == -1
    anyway = Rules(seven_pairs_need_terminal=False)
    assert ready.ready_wait(Hand(bytes(pairs)), anyway) == 25
    assert flow._ready_wait(pairs, 0, [], forms_of(anyway), anyway) == 25


# -- the whole hook on seeded games ----------------------------------------------------------------


def slow_declare_options(game, seat):
    """The computation `_declare_options` replaces: per held kind, a shanten call and a core Hand."""
    hand = game.hands[seat]
    melds = game.n_melds[seat]
    forms = game.FORMS
    if shanten(bytes(hand), forms, melds=melds) > 0:
        return []
    out = []
    for t in range(34):
        if not hand[t]:
            continue
        after = bytearray(hand)
        after[t] -= 1
        if shanten(bytes(after), forms, melds=melds) == 0 and ready.can_declare_ready(
                Hand(bytes(after), game.core_melds(seat)), game.rules):
            out.append(DECLARE[t])
    return out


@pytest.mark.parametrize("rules", [None, dict(phantom_waits_count=True),
                                   dict(seven_pairs_need_terminal=False, thirteen_orphans=False)], ids=repr)
def test_declare_options_on_seeded_games(rules):
    """Every draw turn of seeded games (greedy and random bots): the 报听 discards offered are the
    slow computation's, and a declaration fixes the wait `ready.ready_wait` names."""
    turns = offered = declared = 0
    for hand_no in range(40):
        game = new_game("changbai", seed=5, hand_no=hand_no, dealer=hand_no % 4, rules=rules)
        bots = [make_bot(b) for b in ("greedy", "random", "greedy", "greedy")]
        rng = random.Random(hand_no)
        for b in bots:
            b.new_hand(rng)
        while not game.finished:
            for seat, actions in game.pending().items():
                if (game.declares and not game.declared[seat] and game.drawn >= 0 and seat == game.turn
                        and any(a.kind == ActionKind.DISCARD for a in actions)):
                    fast = [a for a in actions if a.kind == ActionKind.DECLARE]
                    assert fast == slow_declare_options(game, seat), (hand_no, seat, bytes(game.hands[seat]))
                    assert fast == list(game._declare_options(seat))  # (none: the empty tuple)
                    turns += 1
                    offered += bool(fast)
                action = bots[seat].choose(game, seat, actions)
                if action.kind == ActionKind.DECLARE:
                    after = bytearray(game.hands[seat])
                    after[action.arg] -= 1
                    wait = ready.ready_wait(Hand(bytes(after), game.core_melds(seat)), game.rules)
                    game.act(seat, action)
                    if game.hands[seat] == after:  # (not yet drawn again: the wait is still the declared one)
                        assert game.waits[seat] == 1 << int(wait)
                        declared += 1
                else:
                    game.act(seat, action)
                break  # the pending table changes after each answer
    assert turns > 500 and offered > 20 and declared > 5

