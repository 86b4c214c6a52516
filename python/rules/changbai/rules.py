"""Changbai 长白麻将 rule keys (`Rules`) and presets — RULES.md §3.

`Rules()` is the default preset `changbai`; `Rules(base=2)` starts from it and overrides one key;
`Rules.presets["changbai"]` is the preset instance; `dataclasses.replace(rules, key=value)` works.
Unknown keys and out-of-range values raise `RulesError` (a `MahjongError` and `ValueError`) naming
the key and what is allowed. Every key is documented on the class; keys marked *(game engine)*
are read by `mahjong_core.game`, the others by this ruleset's scoring and settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Optional, Tuple

from mahjong_core.errors import RulesError

from ..rule_keys import (LARGEST_INTEGER, WALL_TILES, RuleKeys, boolean, check_values, integer_at_least, one_of,
                         optional_integer_at_least)

__all__ = ["Rules", "RulesError", "DEFAULT_PRESET", "resolve"]

DEFAULT_PRESET = "changbai"

DISCARD_PAYERS = ("discarder", "all")
FIRST_DEALERS = ("seat0", "random")


@dataclass(frozen=True, repr=False)
class Rules(RuleKeys):
    """The Changbai rule keys. Defaults = preset `changbai` (RULES.md §3).

    Payments (every amount is a multiple of `base`):

    - `base` (1): the base point. A hand payment between winner W and loser L is
      `base × 2^(D_win(W) + D_lose(L) + D_dealer) × (13 if 十三幺) + piao(W) + piao(L)`.
    - `dealer_doubling` (True): one more doubling on every hand payment pair the dealer is part of
      (as winner or loser). Kong scores never follow the dealer.
    - `discard_payers` ("discarder"): who pays a discard win — `"discarder"` only, or `"all"`:
      every non-winner pays, the discarder with one more doubling.
    - `max_doublings` (None): cap on the total exponent of one payment pair (winner + loser +
      dealer + the `"all"` discarder doubling); None = no cap.
    - `piao_choices` ((0, 2, 4, 6)): the 飘 values a player may pick before the deal; 0 must be one.
    - `multiple_winners` (True): 一炮多响 — several players may win on one discard, each settled
      with the discarder separately.
    - `melded_kong_base` (1): a melded kong (点杠, or 捡杠 = promoted pung) — each of the other three
      pays this many base points, at once. 点杠不包杠: the feeder pays no more than the others.
    - `concealed_kong_base` (2): the same for a concealed kong (暗杠).
    - `keep_kong_scores_on_draw` (True): kong scores stand when the hand is drawn (seed: 流局杠分要计算);
      False refunds them.
    - `drawn_hand_base` (2): on a drawn hand (流局) the dealer pays each other player this many base.
    - `drawn_hand_piao` (False): add the two players' 飘 to the drawn-hand payment. RULES.md adds 飘 to
      winner–loser pairs; a drawn hand has no winner, so by default it does not.

    Winning:

    - `ready_required` (True): 报听 (declared ready) is required to win; a hand may declare only
      with exactly one winning tile kind. False: any complete hand wins (a house variant).
    - `phantom_waits_count` (False): a wait on a kind whose four copies are all in the player's
      own hand and melds counts as a winning kind (then such a hand has two kinds and may not
      declare). RULES.md: they do not count.
    - `seven_pairs_need_terminal` (True): 七对 must hold at least one terminal or honour tile.
    - `thirteen_orphans` (True): 十三幺 is a winning form (×13).
    - `rob_kong` (True): 抢杠胡 on a promoted kong (never on a melded or concealed one). *(game engine)*

    Dealing and the wall *(game engine)*:

    - `first_dealer` ("seat0"): seat 0 deals the first hand, or `"random"` (drawn from the seed).
    - `reserve_without_kong` (14): while nobody has made a kong this hand, this many tiles at the
      wall's end are not drawn (无杠流局); after any kong the wall is drawn out (有杠流局).
    - `last_draws_win_only` (4): the last drawable tiles, one per player in turn: with such a tile a
      player may only win by self-draw — no discard, no kong.

    Not implemented:

    - `sanqing` (False): 三清/四清 are named by seed 003 but never defined; True raises `RulesError`
      until the rule is defined.
    """

    base: int = 1
    dealer_doubling: bool = True
    discard_payers: str = "discarder"
    max_doublings: Optional[int] = None
    piao_choices: Tuple[int, ...] = (0, 2, 4, 6)
    multiple_winners: bool = True
    melded_kong_base: int = 1
    concealed_kong_base: int = 2
    keep_kong_scores_on_draw: bool = True
    drawn_hand_base: int = 2
    drawn_hand_piao: bool = False
    ready_required: bool = True
    phantom_waits_count: bool = False
    seven_pairs_need_terminal: bool = True
    thirteen_orphans: bool = True
    rob_kong: bool = True
    first_dealer: str = "seat0"
    reserve_without_kong: int = 14
    last_draws_win_only: int = 4
    sanqing: bool = False

    RULESET: ClassVar[str] = "Changbai"
    DEFAULT_PRESET: ClassVar[str] = DEFAULT_PRESET

    def __post_init__(self) -> None:
        object.__setattr__(self, "piao_choices", _as_int_tuple(self.piao_choices))
        check_values(self, _CHECKS)


# ---------------------------------------------------------------------------------------------
# Value checks: each returns None when the value is fine, else what is wrong.


def _as_int_tuple(value: Any) -> Any:
    try:
        return tuple(value)
    except TypeError:
        return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _piao_choices(v: Any) -> Optional[str]:
    if not isinstance(v, tuple) or not v or not all(_is_int(x) and 0 <= x <= LARGEST_INTEGER for x in v):
        return f"must be a non-empty sequence of integers 0..{LARGEST_INTEGER}"
    if 0 not in v:
        return "must include 0 (a player may always choose not to 飘)"
    if len(set(v)) != len(v):
        return "must not repeat a value"
    return None


def _not_implemented(v: Any) -> Optional[str]:
    if v is False:
        return None
    return "三清/四清 are named by seed 003 but never defined, so they are not implemented; use False"


_CHECKS = {
    "base": integer_at_least(1),
    "dealer_doubling": boolean,
    "discard_payers": one_of(*DISCARD_PAYERS),
    "max_doublings": optional_integer_at_least(0),
    "piao_choices": _piao_choices,
    "multiple_winners": boolean,
    "melded_kong_base": integer_at_least(0),
    "concealed_kong_base": integer_at_least(0),
    "keep_kong_scores_on_draw": boolean,
    "drawn_hand_base": integer_at_least(0),
    "drawn_hand_piao": boolean,
    "ready_required": boolean,
    "phantom_waits_count": boolean,
    "seven_pairs_need_terminal": boolean,
    "thirteen_orphans": boolean,
    "rob_kong": boolean,
    "first_dealer": one_of(*FIRST_DEALERS),
    "reserve_without_kong": integer_at_least(0, WALL_TILES),
    "last_draws_win_only": integer_at_least(0, WALL_TILES),
    "sanqing": _not_implemented,
}

Rules.presets = MappingProxyType({DEFAULT_PRESET: Rules()})


def resolve(rules: Any = None) -> Rules:
    """`rules` as a Rules: None = the default preset, a preset name, a Rules, or a dict of overrides."""
    return Rules.presets[DEFAULT_PRESET] if rules is None else Rules.resolve(rules)
