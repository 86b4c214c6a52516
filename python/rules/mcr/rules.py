"""MCR rule keys (RULES.md §1): the frozen `Rules` and its presets `official`, `classic`, `botzone`.

`Rules(**overrides)` starts from `official`; `Rules.presets[name]` are instances; unknown keys and bad
values raise `RulesError`; `Rules.resolve(x)` takes None, a preset name, a Rules or a dict of keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Union

from ..rule_keys import RuleKeys, boolean, check_values, integer_at_least, one_of
from ._native import ScoreOption

__all__ = ["Rules", "DEFAULT_RULES", "DEALER_RULES", "resolve"]

DEALER_RULES = ("seed000", "rotate")
TABLES = ("standard", "botzone")


@dataclass(frozen=True, repr=False)
class Rules(RuleKeys):
    """The MCR rule keys (RULES.md section 1). `Rules(**overrides)` starts from the `official`
    preset; `Rules.presets[name]` are ready instances; `dataclasses.replace(rules, key=value)` works.

    min_fan                      fans needed to win, flowers not counted (8)
    flowers                      144 tiles with 8 flowers, 1 fan each (花牌); False = 136 tiles
    declared_ready_fan           报听 allowed and worth 听牌 (1), as in seed 000's client
    mil_concealed_melded_kong    MIL's 明暗杠 (5) for one melded + one concealed kong (instead of
                                 明杠 1 + 暗杠 2)
    knitted_straight_wait_counts a 组合龙 tile can also read as 边张/嵌张/单钓将
    phantom_waits_count          a wait on a kind whose 4 copies you hold still counts as a wait
                                 (so it can spoil a single wait)
    strict_context               contradictory context flags raise InvalidHandError (和绝张 with
                                 another copy held, 抢杠和 on a held tile, 杠上开花 without a kong,
                                 抢杠和 with 海底捞月); False reads them as PyMahjongGB does (drops
                                 the first three, counts 抢杠和 + 海底捞月 both)
    multiple_winners             several players may win on one discard (False: the nearest to the
                                 discarder in turn order wins)
    dealer_rule                  "seed000": the dealer keeps the deal on a dealer win or a draw,
                                 otherwise the winner deals; "rotate": the deal passes on every hand
    false_win_penalty            a false win pays this to each other player (10)
    table                        "standard": one wall, the dealer starts with 14 tiles, WIN offered
                                 only at min_fan; "botzone": the Botzone judge's table (four walls,
                                 seat 0 first, 144 tiles when the wall has flowers, false wins and
                                 wrong answers penalised — mahjong_core.botzone, docs/BOTZONE.md)
    """

    min_fan: int = 8
    flowers: bool = False
    declared_ready_fan: bool = False
    mil_concealed_melded_kong: bool = False
    knitted_straight_wait_counts: bool = True
    phantom_waits_count: bool = True
    strict_context: bool = True
    multiple_winners: bool = False
    dealer_rule: str = "seed000"
    false_win_penalty: int = 10
    table: str = "standard"

    RULESET: ClassVar[str] = "MCR"
    DEFAULT_PRESET: ClassVar[str] = "official"
    # The scoring switches as option bits of the compiled scorer, set per instance by __post_init__
    # (a ClassVar so that it is not a rule key).
    _options: ClassVar[int] = 0

    def __post_init__(self) -> None:
        check_values(self, _CHECKS)
        bits = (
            (ScoreOption.MIL_CONCEALED_MELDED_KONG if self.mil_concealed_melded_kong else 0)
            | (ScoreOption.KNITTED_STRAIGHT_WAIT_COUNTS if self.knitted_straight_wait_counts else 0)
            | (ScoreOption.PHANTOM_WAITS_COUNT if self.phantom_waits_count else 0)
            | (ScoreOption.STRICT_CONTEXT if self.strict_context else 0)
            | (ScoreOption.FLOWERS if self.flowers else 0)
            | (ScoreOption.DECLARED_READY_FAN if self.declared_ready_fan else 0)
        )
        object.__setattr__(self, "_options", int(bits))


_CHECKS = {
    "min_fan": integer_at_least(0),
    "flowers": boolean,
    "declared_ready_fan": boolean,
    "mil_concealed_melded_kong": boolean,
    "knitted_straight_wait_counts": boolean,
    "phantom_waits_count": boolean,
    "strict_context": boolean,
    "multiple_winners": boolean,
    "dealer_rule": one_of(*DEALER_RULES),
    "false_win_penalty": integer_at_least(0),
    "table": one_of(*TABLES),
}

Rules.presets = MappingProxyType(
    {
        "official": Rules(),
        # Seed 000's client: 136 tiles, 报听 worth 听牌.
        "classic": Rules(declared_ready_fan=True),
        # The Botzone judge (its bundled fan calculator): MIL's 明暗杠, impossible flags dropped, no
        # 边张/嵌张/单钓将 on a 组合龙 tile (PyMahjongGB 1.4.0, a later calculator, counts them); its
        # table (four walls, WA/WH), 136 tiles, or 144 when the wall has flowers (counted as fans).
        "botzone": Rules(mil_concealed_melded_kong=True, strict_context=False, knitted_straight_wait_counts=False,
                         table="botzone"),
    }
)
DEFAULT_RULES = Rules.presets["official"]


def resolve(rules: Union[Rules, str, None]) -> Rules:
    """`rules` as a Rules: None = `official`, a preset name, a Rules, or a dict of key overrides."""
    return DEFAULT_RULES if rules is None else Rules.resolve(rules)
