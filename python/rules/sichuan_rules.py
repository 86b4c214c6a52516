"""Sichuan 血战到底 rule keys: the frozen `Rules` configuration and its presets.

Every key decides one point RULES.md §2 (or seed 004) leaves open; the defaults are the `qq` preset
(QQ's rule page). `Rules(**overrides)` starts from that preset, `Rules.presets["qq"]` is an instance,
`dataclasses.replace(rules, key=value)` works, and an unknown key or a bad value raises `RulesError`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Dict, Mapping, Optional, Tuple

from mahjong_core.errors import RulesError

__all__ = ["Rules", "RulesError", "ZIMO_BONUS_CHOICES", "DIRECT_KONG_CHOICES", "PASS_LOCK_CHOICES",
           "DEALER_RULE_CHOICES"]


ZIMO_BONUS_CHOICES: Tuple[Optional[str], ...] = ("add_base", "add_fan", None)
DIRECT_KONG_CHOICES: Tuple[str, ...] = ("chengbao", "jiajiayou")
PASS_LOCK_CHOICES: Tuple[Optional[str], ...] = ("until_draw", None)
DEALER_RULE_CHOICES: Tuple[str, ...] = ("random", "discarder")


@dataclass(frozen=True)
class Rules:
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

    presets: ClassVar[Mapping[str, "Rules"]]
    DEFAULT_PRESET: ClassVar[str] = "qq"

    def __new__(cls, *args: Any, **overrides: Any) -> "Rules":
        if args:
            raise RulesError("Rules takes keyword arguments only, e.g. Rules(base=10)")
        unknown = sorted(set(overrides) - set(cls.keys()))
        if unknown:
            raise RulesError(
                f"unknown Sichuan rule key(s) {', '.join(unknown)}; valid keys: {', '.join(cls.keys())}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        _check_int("base", self.base, minimum=1)
        _check_choice("zimo_bonus", self.zimo_bonus, ZIMO_BONUS_CHOICES)
        _check_choice("direct_kong", self.direct_kong, DIRECT_KONG_CHOICES)
        _check_bool("gen_counts_kongs", self.gen_counts_kongs)
        if self.max_fan is not None:
            _check_int("max_fan", self.max_fan, minimum=1)
        _check_bool("refund_to_winners", self.refund_to_winners)
        _check_int("forced_win_last", self.forced_win_last, minimum=0)
        _check_choice("pass_lock", self.pass_lock, PASS_LOCK_CHOICES)
        _check_choice("dealer_rule", self.dealer_rule, DEALER_RULE_CHOICES)

    @classmethod
    def keys(cls) -> Tuple[str, ...]:
        """The rule keys, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> "Rules":
        """The named preset, with optional overrides: `Rules.preset("qq", max_fan=4)`."""
        try:
            rules = cls.presets[name]
        except KeyError:
            raise RulesError(f"unknown Sichuan preset {name!r}; presets: {', '.join(cls.presets)}") from None
        return dataclasses.replace(rules, **overrides) if overrides else rules

    @property
    def preset_name(self) -> Optional[str]:
        """The name of the preset these rules equal, or None when some key differs from every preset."""
        return next((name for name, rules in self.presets.items() if rules == self), None)

    def to_dict(self) -> Dict[str, Any]:
        """Every key and value (JSON-serialisable), for game logs."""
        return {key: getattr(self, key) for key in self.keys()}

    def __repr__(self) -> str:
        name = self.preset_name
        if name is not None:
            return f"Rules.preset({name!r})"
        default = self.presets[self.DEFAULT_PRESET]
        changed = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.keys() if getattr(self, k) != getattr(default, k))
        return f"Rules({changed})"


def _check_bool(key: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"rule key {key} must be True or False, got {value!r}")


def _check_int(key: str, value: Any, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RulesError(f"rule key {key} must be an integer >= {minimum}, got {value!r}")


def _check_choice(key: str, value: Any, choices: Tuple[Any, ...]) -> None:
    if value not in choices or (value is not None and not isinstance(value, str)):
        raise RulesError(f"rule key {key} must be one of {', '.join(map(repr, choices))}; got {value!r}")


Rules.presets = MappingProxyType({"qq": Rules()})
