"""Changbai 长白麻将 (RULES.md §3, seed 003): 报听-gated wins, doublings, 飘 and pairwise settlement.

Rules and presets — `Rules()` is preset `changbai`; `Rules(base=2)`; unknown keys raise `RulesError`.

Declaring ready (报听 is required to win; only a hand with exactly one winning tile kind may declare):

    >>> from mahjong_core.rules import changbai
    >>> changbai.can_declare_ready("123m456p789s123sE")   # waits on E only
    True
    >>> changbai.can_declare_ready("123m456p789s23sEE")   # 1s or 4s: two kinds
    False

Scoring a win — winner-side doublings with reasons, best over every reading of the hand; None when
the hand does not win (not complete, not declared ready, or a hand that could not have declared):

    >>> changbai.score("123m456p789s123sEE")             # winning tile last: E, 单吊 on an honour
    ChangbaiScore(3 doublings, win E: 夹胡(单吊) 1, 门清 1, 单吊幺九 1)
    >>> changbai.score("123m456p789s123sEE", declared_ready=False) is None
    True
    >>> changbai.loser_doublings("123m456p789s12sCC")     # a 门清 loser pays one doubling more
    1

Settlement — `pair_amount` is the RULES.md formula; the game engine feeds a `ChangbaiSettlement`
one event at a time and reads its zero-sum `Ledger`:

    >>> s = changbai.ChangbaiSettlement(changbai.Rules(), dealer=0, piao=(2, 0, 0, 4))
    >>> s.kong(1, concealed=True)                 # 暗杠: 2 base from each other player
    (0, 1, 2)
    >>> s.discard_win(0, {3: changbai.score("123m456p789s123sEE")}, {0: "123m456p789s12sCC"})
    (3,)
    >>> s.ledger[3]                               # 1 × 2^(3 + 1 门清 + 1 dealer) + 飘 4 + 2
    Transfer(0->3 38 discard_win)
    >>> s.ledger.totals(), s.next_dealer()
    ([-40, 6, -2, 36], 1)

Event methods (each returns the indices of the transfers it added; a wrong call raises
`IllegalActionError` and records nothing): `kong(seat, concealed=...)` for a kong that stands,
`self_drawn_win(winner, score, hands)`, `discard_win(discarder, {winner: score, ...}, hands)`
(also 抢杠胡: scores with `robbed_kong=True`, the robbed player as discarder), `drawn_hand()`,
then `next_dealer()`. `hands[seat]` is a payer's hand of 13 − 3·melds tiles.

Command line: `python -m mahjong_core score changbai "<hand>" --ready --self-drawn` (see
`cli`). The implementation lives in `rules` (keys), `ready` (报听),
`patterns` (the pattern catalogue and detectors), `scoring`, `settlement`.
"""

from __future__ import annotations

from .patterns import CATALOGUE, Pattern
from .ready import can_declare_ready, keeps_ready_wait, ready_discards, ready_wait, winning_kinds
from .rules import DEFAULT_PRESET, Rules, RulesError
from .scoring import ChangbaiScore, WinContext, loser_doublings, loser_patterns_of, refusal, score
from .settlement import REASONS, ChangbaiSettlement, next_dealer, pair_amount

__all__ = [
    "Rules",
    "RulesError",
    "DEFAULT_PRESET",
    "winning_kinds",
    "can_declare_ready",
    "ready_wait",
    "ready_discards",
    "keeps_ready_wait",
    "Pattern",
    "CATALOGUE",
    "ChangbaiScore",
    "WinContext",
    "score",
    "refusal",
    "loser_doublings",
    "loser_patterns_of",
    "pair_amount",
    "ChangbaiSettlement",
    "REASONS",
    "next_dealer",
]
