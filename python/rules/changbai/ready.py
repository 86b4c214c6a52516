"""报听 (declaring ready) in Changbai: which tile kinds complete a hand, and who may declare.

A hand may declare ready only when exactly one tile kind completes it (RULES.md §3), over the
standard form, seven pairs (which must hold a terminal or honour) and thirteen orphans. A kind whose
four copies the player already holds (concealed tiles and melds) is a *phantom* wait: it can never
arrive and does not count (`Rules.phantom_waits_count=False`).

All functions take a waiting hand: 13 − 3·melds concealed tiles (the hand after its discard).
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

from mahjong_core import Forms, Hand, Tile, waits

from .hand import HandLike, as_tile, complete_size_hand, waiting_hand
from .rules import Rules, resolve

__all__ = [
    "winning_kinds",
    "can_declare_ready",
    "ready_wait",
    "ready_discards",
    "keeps_ready_wait",
    "changbai_forms",
]

DEFAULT_RULES = Rules()


def changbai_forms(rules: Rules) -> Forms:
    """The winning forms the rules allow (thirteen orphans can be switched off)."""
    return Forms.CHANGBAI if rules.thirteen_orphans else Forms.STANDARD | Forms.SEVEN_PAIRS


def winning_kinds(hand: HandLike, rules: Optional[Rules] = None) -> Tuple[Tile, ...]:
    """Every tile kind that completes this waiting hand under the rules, in tile order."""
    return winning_kinds_of(waiting_hand(hand, "winning_kinds"), resolve(rules))


def can_declare_ready(hand: HandLike, rules: Optional[Rules] = None) -> bool:
    """True when the waiting hand has exactly one winning tile kind (so it may declare 报听)."""
    return len(winning_kinds_of(waiting_hand(hand, "can_declare_ready"), resolve(rules))) == 1


def ready_wait(hand: HandLike, rules: Optional[Rules] = None) -> Optional[Tile]:
    """The single winning kind of a hand that may declare ready, else None."""
    kinds = winning_kinds_of(waiting_hand(hand, "ready_wait"), resolve(rules))
    return kinds[0] if len(kinds) == 1 else None


def ready_discards(hand: HandLike, rules: Optional[Rules] = None) -> Tuple[Tile, ...]:
    """For a hand of 14 − 3·melds tiles (after a draw): the discards that leave a hand that may declare."""
    h = complete_size_hand(hand, "ready_discards")
    r = resolve(rules)
    candidates = (Tile(t) for t, n in enumerate(h.counts) if n)
    return tuple(t for t in candidates if len(winning_kinds_of(h.without_tile(t), r)) == 1)


def keeps_ready_wait(hand_after_kong: HandLike, wait: Union[int, str], rules: Optional[Rules] = None) -> bool:
    """May a declared player make this kong? Only if `wait` stays the one winning kind.

    `hand_after_kong` is the hand with the kong melded and before the replacement draw — always
    13 − 3·melds concealed tiles, whether the kong was concealed, melded or promoted.
    """
    h = waiting_hand(hand_after_kong, "keeps_ready_wait")
    return winning_kinds_of(h, resolve(rules)) == (as_tile(wait, "wait"),)


def winning_kinds_of(hand: Hand, rules: Rules) -> Tuple[Tile, ...]:
    """`winning_kinds` of a Hand already known to hold 13 − 3·melds tiles (no size check)."""
    exclude_phantoms = not rules.phantom_waits_count
    kinds = set(waits(hand, changbai_forms(rules) & ~Forms.SEVEN_PAIRS, exclude_exhausted=exclude_phantoms))
    # Seven pairs needs a concealed hand (the core refuses the form for a hand with melds).
    pair_waits = waits(hand, Forms.SEVEN_PAIRS, exclude_exhausted=exclude_phantoms) if hand.n_melds == 0 else ()
    if pair_waits and rules.seven_pairs_need_terminal and not holds_terminal_or_honor(hand):
        pair_waits = tuple(t for t in pair_waits if t.is_terminal_or_honor)
    kinds.update(pair_waits)
    return tuple(sorted(kinds))


_TERMINALS_AND_HONOURS = tuple(t for t in Tile if t.is_terminal_or_honor)


def holds_terminal_or_honor(hand: Hand) -> bool:
    """Any terminal or honour among the concealed tiles (for seven pairs: the whole hand)."""
    counts = hand.counts
    return any(counts[t] for t in _TERMINALS_AND_HONOURS)
