"""Sichuan 血战到底 (RULES.md §2, seed 004: QQ's rules): scoring, 定缺, 花猪, 查大叫 and settlement.

Scoring::

    from mahjong_core.rules import sichuan
    s = sichuan.score("111222444m33399p", self_drawn=True, void_suit="s")
    s.fan, s.multiplier, s.points, s.payment   # 2, 2, 12, 18  (对对胡; 自摸加底: each loser pays 18)
    s.items                                    # (FanItem(name_zh='对对胡', fan=2),)  .name_en: 'All pungs'
    print(s)                                   # itemised table
    sichuan.best_ready_value("1111m234567899m") # 查大叫 value of a waiting hand (best wait): 48 points
    sichuan.is_flower_pig("123m456p789s1122m") # 花猪: three suits -> True

How the game engine drives the settlement (one `SichuanSettlement` per hand; `Rules` as configured)::

    settlement = sichuan.SichuanSettlement(rules)
    # 刮风下雨 as they happen (an added kong only after its robbing window closed unrobbed):
    settlement.kong(player, "concealed", tile=t)               # or "added"
    settlement.kong(player, "direct", tile=t, discarder=d)
    # a discard won by one or more players (each score made with the same flags; 杠上炮 wins carry
    # after_kong_discard=True and trigger 呼叫转移; a robbed added kong: robbed_kong=True, discarder =
    # the robbed player, and no kong() call at all):
    settlement.win_on_discard(d, {w1: sichuan.score(hand_w1, void_suit=v1, rules=rules),
                                  w2: sichuan.score(hand_w2, void_suit=v2, rules=rules)})
    # a self-draw (自摸, 杠上花, 天胡/地胡):
    settlement.self_draw(w, sichuan.score(hand_w, self_drawn=True, void_suit=v, rules=rules))
    # the wall ran out while two or more players had not won: 查花猪, 查大叫, 退税
    settlement.wall_exhausted({seat: hand for seat in settlement.in_hand}, void_suits=voids)
    # a player leaves for good (逃跑/强退; hands only needed in the wall's last tiles):
    settlement.leave(seat, {s: hand for s in others}, void_suits=voids, wall_left=n)
    settlement.ledger          # Ledger of Transfer(payer, payee, amount, reason, ref)
    sichuan.coins(settlement.ledger, room_factor=200, fee=400)   # 游戏币
    settlement.finished        # three players won, or the wall-end checks ran

Whenever `settlement.finished` is False after a win the hand goes on (血战到底). Each method checks
the whole event first and raises `IllegalActionError` without recording anything when it is
impossible (a seat that has won acting again, a self-draw score for a discard win, rules that differ
from the settlement's, ...).

Modules: `rules` (Rules), `hand` (input, suits, 花猪), `scoring` (fan table, score), `settlement`
(ledger), `currency` (游戏币: coins), `cli` (command line). Everything public is re-exported here.
"""

from __future__ import annotations

from .currency import Coins, coins
from .hand import SUITS, as_hand, is_flower_pig, suits_held
from .rules import Rules, RulesError
from .scoring import (
    ENGLISH_NAMES,
    EXTRAS,
    PATTERNS,
    FanItem,
    Pattern,
    SichuanScore,
    WinContext,
    best_ready_value,
    hand_points,
    is_winning,
    score,
    score_waits,
)
from .settlement import (
    FLOWER_PIG_BASES,
    REASONS,
    DiscardWinEvent,
    Event,
    KongEvent,
    KongKind,
    KongRecord,
    LeaveEvent,
    LeaveReport,
    SelfDrawEvent,
    SichuanSettlement,
    WallEndEvent,
    WallEndReport,
    settle,
)

__all__ = [
    "Rules", "RulesError",
    "score", "is_winning", "score_waits", "best_ready_value", "is_flower_pig", "hand_points",
    "SichuanScore", "FanItem", "Pattern", "WinContext", "PATTERNS", "EXTRAS", "ENGLISH_NAMES",
    "SUITS", "as_hand", "suits_held",
    "SichuanSettlement", "settle", "KongKind", "KongRecord", "WallEndReport", "REASONS", "FLOWER_PIG_BASES",
    "KongEvent", "DiscardWinEvent", "SelfDrawEvent", "WallEndEvent", "LeaveEvent", "LeaveReport", "Event",
    "coins", "Coins",
]
