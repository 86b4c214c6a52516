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

from ..rule_keys import WALL_TILES, RuleKeys, boolean, check_values, integer_at_least, one_of, optional_integer_at_least

__all__ = ["Rules", "RulesError", "ZIMO_BONUS_CHOICES", "DIRECT_KONG_CHOICES", "PASS_LOCK_CHOICES",
           "DEALER_RULE_CHOICES", "DIHU_BROKEN_BY_CHOICES"]


ZIMO_BONUS_CHOICES: Tuple[Optional[str], ...] = ("add_base", "add_fan", None)
DIRECT_KONG_CHOICES: Tuple[str, ...] = ("chengbao", "jiajiayou")
PASS_LOCK_CHOICES: Tuple[Optional[str], ...] = ("until_draw", None)
DEALER_RULE_CHOICES: Tuple[str, ...] = ("random", "discarder")
DIHU_BROKEN_BY_CHOICES: Tuple[str, ...] = ("pung_kong_win", "pung_kong")


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
      dihu_broken_by: "pung_kong_win" | "pung_kong" = "pung_kong_win"
          What cancels 地胡 (a non-dealer's self-draw on its first draw) when it happens earlier in
          the first round: any pung, kong (concealed ones too) or win ("pung_kong_win": a win on a
          discard is a claim); "pung_kong": pungs and kongs only.

    Payments
      zimo_bonus: "add_base" | "add_fan" | None = "add_base"
          Self-draw (自摸加底): each payer pays the hand's points + 1 base ("add_base"), or the hand
          counted one 番 higher ("add_fan", 自摸加番), or just the points (None).
      direct_kong: "chengbao" | "jiajiayou" = "chengbao"
          直杠 (kong on a discard): the discarder pays 2 base (承包制, "chengbao"); "jiajiayou"
          (家家有) adds 1 base from every other player still in the hand.
      refund_to_winners: bool = True
          退税 refunds kong income "to the players who paid it" (RULES.md), winners included (seed:
          refunds are withheld only from winners who left the table, 刮风下雨的人若最后退税，则不再退给
          已经逃跑的胡家 — always, whatever this key says). False = payers who have already won get no
          refund. Only income the kong player still holds is refunded: income 呼叫转移 passed to a
          winner stays with that winner.
      call_transfer: bool = True
          呼叫转移: the income of the kong before a 杠上炮 goes to the winner(s), each receiving the
          full amount (胡家给多份). False: the kong player keeps it (杠上炮 still scores its 番).
      dead_waits_ready: bool = True
          查大叫 reads readiness from the hand's shape: a hand is ready even when every copy of its
          wait is already visible (rivers, melds, won tiles). False: a wait every copy of which the
          player can see does not count (the game engine passes what each seat sees).

    Leaving (逃跑/强退, `SichuanSettlement.leave`, `SichuanGame.leave`)
      escape_penalty: int = 16
          逃跑/强退: the leaver pays this many base to each player not yet won (seed: 16倍点数 ×
          未胡人数).
      escape_ready_check_last: int = 4
          ... and when the wall holds this many tiles or fewer, the others' 查大叫 against the
          leaver (ready or not) is computed too and the higher of the two is charged (seed: 在最后
          4张牌的情况下，他人查大叫). 0 = never. (Not for a winner who leaves: it has no hand to check.)
      escape_ends_hand: bool = False
          False (RULES.md): the hand goes on for the others after a leave, the leaver's turns skipped,
          until fewer than two are still playing. True (the seed's letter: 未胡者逃跑，游戏结束): a
          leave by a player who has not won ends the hand at once (no further checks).

    Play (used by the game engine)
      forced_win_last: int = 0
          During the wall's last N tiles a player who can win on a tile must (no passing into 查叫).
          0 = never forced (seed: 定缺规则中最后四张可以不胡); the seed's non-血战 rule is 4 (最后四张自动胡).
      pass_lock: "until_draw" | None = "until_draw"
          After passing a win, the player cannot win on a discard again until their next draw unless
          the new win scores more 番. None = no lock.
      dealer_rule: "random" | "discarder" = "random"
          Dealer of the next hand: drawn at random (血战 mode), or "discarder" (the first winner's
          discarder deals; the winner itself after a self-draw; after a drawn hand the dealer stays).
      blood_battle: bool = True
          血战到底: a win does not end the hand; it ends when all but one have won or the wall is
          empty. False (普通场, preset `qq_normal`): the first win — one or several players on one
          discard — ends the hand; a drawn hand (nobody won) runs 查花猪 / 查大叫 / 退税.

    Presets: `qq` (血战到底, the defaults) and `qq_normal` (普通场: blood_battle=False,
    dealer_rule="discarder"; seed: 非血战：第二局起点炮者坐庄，流局则连庄). qq_normal keeps 定缺, so the
    seed's note 定缺规则中最后四张可以不胡 applies and forced_win_last stays 0.
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
    dihu_broken_by: str = "pung_kong_win"
    call_transfer: bool = True
    dead_waits_ready: bool = True
    blood_battle: bool = True
    escape_penalty: int = 16
    escape_ready_check_last: int = 4
    escape_ends_hand: bool = False

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
    "forced_win_last": integer_at_least(0, WALL_TILES),
    "pass_lock": one_of(*PASS_LOCK_CHOICES),
    "dealer_rule": one_of(*DEALER_RULE_CHOICES),
    "dihu_broken_by": one_of(*DIHU_BROKEN_BY_CHOICES),
    "call_transfer": boolean,
    "dead_waits_ready": boolean,
    "blood_battle": boolean,
    "escape_penalty": integer_at_least(0),
    "escape_ready_check_last": integer_at_least(0, WALL_TILES),
    "escape_ends_hand": boolean,
}

Rules.presets = MappingProxyType({
    "qq": Rules(),
    "qq_normal": Rules(blood_battle=False, dealer_rule="discarder"),
})
