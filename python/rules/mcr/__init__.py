"""MCR — Chinese Official mahjong (国标, 81 fans): rules, scoring, settlement (RULES.md §1).

    >>> from mahjong_core.rules import mcr
    >>> s = mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000")
    >>> s.total, [f.name_zh for f in s.fans]
    (19, ['一色三步高', '喜相逢', '缺一门', '自摸'])
    >>> mcr.settle(s, winner=0).totals()
    [81, -27, -27, -27]

Modules: `rules` (Rules, presets official / classic / botzone), `fans` (the fan table, `Fan`),
`scoring` (`score`, `MCRScore`, waits, batch), `settlement` (`settle`, `MCRSettlement`,
`false_win_penalty`), `flow` (the game flow, `MCRGame`, used by `mahjong_core.game`), `cli` (the
`mahjong-core score mcr` command). The evaluator is native (`_native`; see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from .fans import FAN_BY_ID, FANS, OPTIONAL_FANS, RULE_BOOK_FANS, Fan, FanInfo, fan
from .rules import DEFAULT_RULES, Rules
from .scoring import FanUse, MCRScore, encode_batch, meets_minimum, score, score_batch, score_waits
from .settlement import MCRSettlement, false_win_penalty, settle

__all__ = [
    "Rules", "DEFAULT_RULES",
    "MCRScore", "FanUse", "Fan", "FanInfo", "FANS", "FAN_BY_ID", "RULE_BOOK_FANS", "OPTIONAL_FANS", "fan",
    "score", "score_waits", "score_batch", "encode_batch", "meets_minimum",
    "settle", "false_win_penalty", "MCRSettlement",
]
