"""Sichuan 血战到底 rule keys: the frozen `Rules` configuration and its presets.

Every key decides one point RULES.md §2 (or seed 004) leaves open; the defaults are the `qq` preset
(QQ's rule page). `Rules(**overrides)` starts from that preset, `Rules.presets["qq"]` is an instance,
`dataclasses.replace(rules, key=value)` works, and an unknown key or a bad value raises `RulesError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Optional, Tuple

from mahjong_core.errors import RulesError

from ..rule_keys import RuleKeys, boolean, check_values, integer_at_least, one_of, optional_integer_at_least

__all__ = ["Rules", "RulesError", "ZIMO_BONUS_CHOICES", "DIRECT_KONG_CHOICES", "PASS_LOCK_CHOICES",
           "DEALER_RULE_CHOICES"]


ZIMO_BONUS_CHOICES: Tuple[Optional[str], ...] = ("add_base", "add_fan", None)
DIRECT_KONG_CHOICES: Tuple[str, ...] = ("chengbao", "jiajiayou")
PASS_LOCK_CHOICES: Tuple[Optional[str], ...] = ("until_draw", None)
DEALER_RULE_CHOICES: Tuple[str, ...] = ("random", "discarder")


@dataclass(frozen=True, repr=False)
class Rules(RuleKeys):
    """The rule keys of Sichuan 血战到底 (RULES.md §2). Defaults = preset `qq` (seed 004).

    Scoring
      base: int = 6
          Base points (底分). A hand of F 番 is worth base × 2^(F−1); kong payments, the self-draw
          bonus and the 16× flower-pig penalty are counted in multiples of it.
      max_fan: int | None = None
          Cap on a hand's total 番 (base pattern + extras, and the self-draw 番 under
          zimo_bonus="add_fan"). None = no cap. Also caps 查大叫 values.
      gen_counts_kongs: bool = False
          根: four identical tiles held count 1 番 each. False (seed: 四张同样的牌不作杠算1根): a
          declared kong is not a 根; four identical tiles held otherwise are — concealed, or a melded
          pung plus the fourth tile among the concealed tiles. True: declared kongs count too.

    Payments
      zimo_bonus: "add_base" | "add_fan" | None = "add_base"
          Self-draw (自摸加底): each payer pays the hand's points + 1 base ("add_base"), or the hand
          counted one 番 higher ("add_fan", 自摸加番), or just the points (None).
      direct_kong: "chengbao" | "jiajiayou" = "chengbao"
          直杠 (kong on a discard): the discarder pays 2 base (承包制, "chengbao"); "jiajiayou"
          (家家有) adds 1 base from every other player still in the hand.
      refund_to_winners: bool = True
          退税 refunds kong income "to the players who paid it" (RULES.md), winners included (seed:
          refunds are withheld only from winners who left the table). False = payers who have
          already won get no refund.

    Play (used by the game engine)
      forced_win_last: int = 0
          During the wall's last N tiles a player who can win on a tile must (no passing into 查叫).
          0 = never forced (seed: 定缺规则中最后四张可以不胡); the seed's non-血战 rule is 4 (最后四张自动胡).
      pass_lock: "until_draw" | None = "until_draw"
          After passing a win, the player cannot win on a discard again until their next draw unless
          the new win scores more 番. None = no lock.
      dealer_rule: "random" | "discarder" = "random"
          Dealer of the next hand: drawn at random (血战 mode), or "discarder" (the first winner's
          discarder deals; after a drawn hand the dealer stays).
    """

    base: int = 6
    zimo_bonus: Optional[str] = "add_base"
    direct_kong: str = "chengbao"
    gen_counts_kongs: bool = False
    max_fan: Optional[int] = None
    refund_to_winners: bool = True
    forced_win_last: int = 0
    pass_lock: Optional[str] = "until_draw"
    dealer_rule: str = "random"

    RULESET: ClassVar[str] = "Sichuan"
    DEFAULT_PRESET: ClassVar[str] = "qq"

    def __post_init__(self) -> None:
        check_values(self, _CHECKS)


_CHECKS = {
    "base": integer_at_least(1),
    "zimo_bonus": one_of(*ZIMO_BONUS_CHOICES),
    "direct_kong": one_of(*DIRECT_KONG_CHOICES),
    "gen_counts_kongs": boolean,
    "max_fan": optional_integer_at_least(1),
    "refund_to_winners": boolean,
    "forced_win_last": integer_at_least(0),
    "pass_lock": one_of(*PASS_LOCK_CHOICES),
    "dealer_rule": one_of(*DEALER_RULE_CHOICES),
}

Rules.presets = MappingProxyType({"qq": Rules()})
