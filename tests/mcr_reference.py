"""A slow, readable MCR scorer used only as a test oracle for the C++ evaluator.

It reads the hand through the core's public Python API (`decompositions`, `waits`) and evaluates
every decomposition with plain Python predicates, one small function per family of fans, then
applies the exclusion lists. It restates the fan values and exclusion lists on purpose, so that it
stays an independent oracle (tests/test_mcr_fans.py checks they equal the C++ table); it shares
only the core's decomposition enumerator with the C++ evaluator. The two are compared hand by hand
in tests/test_mcr_differential.py, and both against PyMahjongGB.

    score(hand, options) -> (total, {fan_id: count}, decomposition)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Dict, List, Optional, Tuple

import mahjong_core as mc
from mahjong_core import BlockKind, Forms, Tile

# --------------------------------------------------------------------------------------------
# Fan values (also checked against the golden data and PyMahjongGB's own point values).

VALUES: Dict[str, int] = {
    "DASIXI": 88, "DASANYUAN": 88, "LVYISE": 88, "JIULIANBAODENG": 88, "SIGANG": 88, "LIANQIDUI": 88,
    "SHISANYAO": 88,
    "QINGYAOJIU": 64, "XIAOSIXI": 64, "XIAOSANYUAN": 64, "ZIYISE": 64, "SIANKE": 64, "YISESHUANGLONGHUI": 64,
    "YISESITONGSHUN": 48, "YISESIJIEGAO": 48,
    "YISESIBUGAO": 32, "SANGANG": 32, "HUNYAOJIU": 32,
    "QIDUI": 24, "QIXINGBUKAO": 24, "QUANSHUANGKE": 24, "QINGYISE": 24, "YISESANTONGSHUN": 24,
    "YISESANJIEGAO": 24, "QUANDA": 24, "QUANZHONG": 24, "QUANXIAO": 24,
    "QINGLONG": 16, "SANSESHUANGLONGHUI": 16, "YISESANBUGAO": 16, "QUANDAIWU": 16, "SANTONGKE": 16,
    "SANANKE": 16,
    "QUANBUKAO": 12, "ZUHELONG": 12, "DAYUWU": 12, "XIAOYUWU": 12, "SANFENGKE": 12,
    "HUALONG": 8, "TUIBUDAO": 8, "SANSESANTONGSHUN": 8, "SANSESANJIEGAO": 8, "WUFANHU": 8,
    "MIAOSHOUHUICHUN": 8, "HAIDILAOYUE": 8, "GANGSHANGKAIHUA": 8, "QIANGGANGHU": 8,
    "PENGPENGHU": 6, "HUNYISE": 6, "SANSESANBUGAO": 6, "WUMENQI": 6, "QUANQIUREN": 6, "SHUANGANGANG": 6,
    "SHUANGJIANKE": 6,
    "MINGANGANG": 5,
    "QUANDAIYAO": 4, "BUQIUREN": 4, "SHUANGMINGGANG": 4, "HUJUEZHANG": 4,
    "JIANKE": 2, "QUANFENGKE": 2, "MENFENGKE": 2, "MENQIANQING": 2, "PINGHU": 2, "SIGUIYI": 2,
    "SHUANGTONGKE": 2, "SHUANGANKE": 2, "ANGANG": 2, "DUANYAO": 2,
    "YIBANGAO": 1, "XIXIANGFENG": 1, "LIANLIU": 1, "LAOSHAOFU": 1, "YAOJIUKE": 1, "MINGGANG": 1,
    "QUEYIMEN": 1, "WUZI": 1, "BIANZHANG": 1, "KANZHANG": 1, "DANDIAOJIANG": 1, "ZIMO": 1,
    "HUAPAI": 1, "TINGPAI": 1,
}

# What each fan makes redundant (the rule book's 不计 lists, written out in full). A fan that is
# itself excluded does not exclude anything (e.g. 九莲宝灯 drops 不求人 but keeps 自摸).
EXCLUDES: Dict[str, Tuple[str, ...]] = {
    "DASIXI": ("SANFENGKE", "PENGPENGHU", "QUANFENGKE", "MENFENGKE", "YAOJIUKE"),
    "DASANYUAN": ("SHUANGJIANKE", "JIANKE"),
    "LVYISE": ("HUNYISE",),
    "JIULIANBAODENG": ("QINGYISE", "MENQIANQING", "BUQIUREN", "WUZI", "QUEYIMEN"),
    "SIGANG": ("SANGANG", "SHUANGMINGGANG", "SHUANGANGANG", "MINGANGANG", "MINGGANG", "ANGANG",
               "DANDIAOJIANG", "PENGPENGHU"),
    "LIANQIDUI": ("QIDUI", "QINGYISE", "BUQIUREN", "MENQIANQING", "DANDIAOJIANG", "WUZI", "QUEYIMEN"),
    "SHISANYAO": ("WUMENQI", "BUQIUREN", "MENQIANQING", "DANDIAOJIANG", "HUNYAOJIU"),
    "QINGYAOJIU": ("PENGPENGHU", "SHUANGTONGKE", "YAOJIUKE", "WUZI", "QUANDAIYAO", "HUNYAOJIU"),
    "XIAOSIXI": ("SANFENGKE",),
    "XIAOSANYUAN": ("SHUANGJIANKE", "JIANKE"),
    "ZIYISE": ("PENGPENGHU", "QUANDAIYAO", "YAOJIUKE", "HUNYAOJIU"),
    "SIANKE": ("MENQIANQING", "BUQIUREN", "PENGPENGHU", "SANANKE", "SHUANGANKE"),
    "YISESHUANGLONGHUI": ("PINGHU", "QIDUI", "QINGYISE", "YIBANGAO", "LAOSHAOFU", "WUZI", "QUEYIMEN"),
    "YISESITONGSHUN": ("YISESANTONGSHUN", "YISESANJIEGAO", "YIBANGAO", "SIGUIYI", "QIDUI"),
    "YISESIJIEGAO": ("YISESANTONGSHUN", "YISESANJIEGAO", "PENGPENGHU"),
    "YISESIBUGAO": ("YISESANBUGAO",),
    "SANGANG": ("SHUANGMINGGANG", "SHUANGANGANG", "MINGANGANG", "MINGGANG", "ANGANG"),
    "HUNYAOJIU": ("PENGPENGHU", "YAOJIUKE", "QUANDAIYAO"),
    "QIDUI": ("BUQIUREN", "MENQIANQING", "DANDIAOJIANG"),
    "QIXINGBUKAO": ("WUMENQI", "BUQIUREN", "MENQIANQING", "DANDIAOJIANG", "QUANBUKAO"),
    "QUANSHUANGKE": ("PENGPENGHU", "DUANYAO", "WUZI"),
    "QINGYISE": ("WUZI", "QUEYIMEN"),
    "YISESANTONGSHUN": ("YISESANJIEGAO", "YIBANGAO"),
    "YISESANJIEGAO": ("YISESANTONGSHUN",),
    "QUANDA": ("WUZI", "DAYUWU"),
    "QUANZHONG": ("DUANYAO", "WUZI"),
    "QUANXIAO": ("WUZI", "XIAOYUWU"),
    "QINGLONG": ("LIANLIU", "LAOSHAOFU"),
    "SANSESHUANGLONGHUI": ("XIXIANGFENG", "LAOSHAOFU", "WUZI", "PINGHU"),
    "QUANDAIWU": ("DUANYAO", "WUZI"),
    "SANTONGKE": ("SHUANGTONGKE",),
    "SANANKE": ("SHUANGANKE",),
    "QUANBUKAO": ("WUMENQI", "BUQIUREN", "MENQIANQING", "DANDIAOJIANG"),
    "DAYUWU": ("WUZI",),
    "XIAOYUWU": ("WUZI",),
    "TUIBUDAO": ("QUEYIMEN",),
    "SANSESANTONGSHUN": ("XIXIANGFENG",),
    "MIAOSHOUHUICHUN": ("ZIMO",),
    "GANGSHANGKAIHUA": ("ZIMO",),
    "QIANGGANGHU": ("HUJUEZHANG",),
    "QUANQIUREN": ("DANDIAOJIANG",),
    "SHUANGANGANG": ("ANGANG", "SHUANGANKE"),
    "SHUANGJIANKE": ("JIANKE",),
    "MINGANGANG": ("MINGGANG", "ANGANG"),
    "BUQIUREN": ("MENQIANQING", "ZIMO"),
    "SHUANGMINGGANG": ("MINGGANG",),
    "PINGHU": ("WUZI",),
    "DUANYAO": ("WUZI",),
}
ORDER = sorted(VALUES, key=lambda f: -VALUES[f])  # stable: table order within a value


@dataclass(frozen=True)
class Options:
    mil_concealed_melded_kong: bool = False
    knitted_straight_wait_counts: bool = True
    phantom_waits_count: bool = True
    declared_ready: bool = False  # the 听牌 fan of seed 000's client (only with declared_ready_fan)


# --------------------------------------------------------------------------------------------
# Tile facts

def suit(t: int) -> int:
    return t // 9  # 3 = honours


def rank(t: int) -> int:
    return t % 9 + 1


def is_honor(t: int) -> bool:
    return t >= 27


def is_terminal(t: int) -> bool:
    return t < 27 and rank(t) in (1, 9)


GREEN = {Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN}
REVERSIBLE = {Tile.P1, Tile.P2, Tile.P3, Tile.P4, Tile.P5, Tile.P8, Tile.P9,
              Tile.S2, Tile.S4, Tile.S5, Tile.S6, Tile.S8, Tile.S9, Tile.WHITE}
WINDS = range(27, 31)
DRAGONS = range(31, 34)


@dataclass(frozen=True)
class Set:
    kind: str  # "chow", "pung", "kong"
    tile: int  # lowest tile
    exposed: bool  # a claimed meld (melded/promoted kongs included, concealed kongs not)
    in_hand: bool  # made of the concealed hand tiles (not a declared meld)

    @property
    def tiles(self) -> List[int]:
        if self.kind == "chow":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (4 if self.kind == "kong" else 3)

    @property
    def pung_like(self) -> bool:
        return self.kind != "chow"


# --------------------------------------------------------------------------------------------
# Combination fans of chows and pungs (套算一次: a set combines with each other set at most once,
# and every new combination must bring in a set not combined before, so n sets give <= n-1).

def chow_pair_fan(a: int, b: int) -> Optional[str]:
    if suit(a) == suit(b):
        gap = abs(a - b)
        return {0: "YIBANGAO", 3: "LIANLIU", 6: "LAOSHAOFU"}.get(gap)
    return "XIXIANGFENG" if rank(a) == rank(b) else None


def chow_triple_fan(a: int, b: int, c: int) -> Optional[str]:
    ts = sorted((a, b, c))
    suits = {suit(t) for t in ts}
    ranks = sorted(rank(t) for t in ts)
    if len(suits) == 1:
        if ranks[0] == ranks[1] == ranks[2]:
            return "YISESANTONGSHUN"
        if ranks == [1, 4, 7]:
            return "QINGLONG"
        d1, d2 = ranks[1] - ranks[0], ranks[2] - ranks[1]
        if d1 == d2 and d1 in (1, 2):
            return "YISESANBUGAO"
        return None
    if len(suits) == 3:
        if ranks[0] == ranks[1] == ranks[2]:
            return "SANSESANTONGSHUN"
        if ranks == [1, 4, 7]:
            return "HUALONG"
        if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
            return "SANSESANBUGAO"
    return None


def chow_quad_fan(ts: List[int]) -> Optional[str]:
    if len({suit(t) for t in ts}) != 1:
        return None
    ranks = sorted(rank(t) for t in ts)
    if len(set(ranks)) == 1:
        return "YISESITONGSHUN"
    gaps = {ranks[i + 1] - ranks[i] for i in range(3)}
    if len(gaps) == 1 and gaps <= {1, 2}:
        return "YISESIBUGAO"
    return None


def pung_pair_fan(a: int, b: int) -> Optional[str]:
    return "SHUANGTONGKE" if suit(a) != suit(b) and rank(a) == rank(b) else None


def pung_triple_fan(a: int, b: int, c: int) -> Optional[str]:
    ts = sorted((a, b, c))
    suits = {suit(t) for t in ts}
    ranks = sorted(rank(t) for t in ts)
    if len(suits) == 1 and ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
        return "YISESANJIEGAO"
    if len(suits) == 3:
        if ranks[0] == ranks[1] == ranks[2]:
            return "SANTONGKE"
        if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
            return "SANSESANJIEGAO"
    return None


def pung_quad_fan(ts: List[int]) -> Optional[str]:
    if len({suit(t) for t in ts}) != 1:
        return None
    ranks = sorted(rank(t) for t in ts)
    return "YISESIJIEGAO" if all(ranks[i + 1] - ranks[i] == 1 for i in range(3)) else None


PAIR_PRIORITY = ("YIBANGAO", "XIXIANGFENG", "LIANLIU", "LAOSHAOFU", "SHUANGTONGKE")


def best_forest(edges: List[Tuple[int, int, str]], n: int) -> List[str]:
    """The largest set of pairwise fans where each fan brings in a set not yet combined
    (a forest: n sets give at most n - 1). All pairwise fans of one kind of set are worth the
    same, so any maximal forest is best; it is grown greedily, 一般高 before 喜相逢 before 连六
    before 老少副 (PyMahjongGB's choice among equal totals)."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    chosen = []
    for a, b, f in sorted(edges, key=lambda e: PAIR_PRIORITY.index(e[2])):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            chosen.append(f)
    return chosen


def combination_fans(tiles: List[int], quad, triple, pair) -> List[str]:
    """Fans from combining sets of one kind (all chows or all suited pungs), 套算一次."""
    n = len(tiles)
    ts = sorted(tiles)
    if n == 4:
        f = quad(ts)
        if f:
            return [f]
    if n >= 3:
        found = []
        for idx in combinations(range(n), 3):
            f = triple(*(ts[i] for i in idx))
            if f:
                # The fourth set combines once more, with one of the three (the best fan).
                extra = [g for r in range(n) if r not in idx for i in idx for g in [pair(ts[i], ts[r])] if g]
                extra.sort(key=PAIR_PRIORITY.index)
                found.append([f] + extra[:1])
        if found:
            return max(found, key=lambda fs: sum(VALUES[f] for f in fs))
    edges = []
    for i, j in combinations(range(n), 2):
        f = pair(ts[i], ts[j])
        if f:
            edges.append((i, j, f))
    return best_forest(edges, n)


# --------------------------------------------------------------------------------------------
# Whole-hand tile fans (shared by every form)

def tile_fans(all_tiles: List[int]) -> List[str]:
    fans = []
    kinds = set(all_tiles)
    suits = {suit(t) for t in kinds if not is_honor(t)}
    honors = [t for t in kinds if is_honor(t)]
    if not honors:
        fans.append("WUZI")
    if len(suits) == 2:
        fans.append("QUEYIMEN")
    if len(suits) == 1 and honors:
        fans.append("HUNYISE")
    if len(suits) == 1 and not honors:
        fans.append("QINGYISE")
    if not suits:
        fans.append("ZIYISE")
    if len(suits) == 3 and any(t in WINDS for t in honors) and any(t in DRAGONS for t in honors):
        fans.append("WUMENQI")
    if not honors:
        ranks = {rank(t) for t in kinds}
        if ranks <= {7, 8, 9}:
            fans.append("QUANDA")
        elif ranks <= {4, 5, 6}:
            fans.append("QUANZHONG")
        elif ranks <= {1, 2, 3}:
            fans.append("QUANXIAO")
        if ranks <= {6, 7, 8, 9}:
            fans.append("DAYUWU")
        if ranks <= {1, 2, 3, 4}:
            fans.append("XIAOYUWU")
    if all(not is_terminal(t) and not is_honor(t) for t in kinds):
        fans.append("DUANYAO")
    if kinds <= REVERSIBLE:
        fans.append("TUIBUDAO")
    if kinds <= GREEN:
        fans.append("LVYISE")
    if all(is_terminal(t) for t in kinds):
        fans.append("QINGYAOJIU")
    if all(is_terminal(t) or is_honor(t) for t in kinds):
        fans.append("HUNYAOJIU")
    return fans


def tile_hogs(all_counts: List[int], kongs: List[int]) -> int:
    return sum(1 for t in range(34) if all_counts[t] == 4 and t not in kongs)


# --------------------------------------------------------------------------------------------
# The hand and its win context

@dataclass
class Context:
    win: int
    self_drawn: bool
    last_copy: bool
    wall_last: bool
    kong: bool
    seat: int
    prevalent: int
    concealed: bool  # no claimed meld (concealed kongs allowed)
    unique_wait: bool
    all_counts: List[int]
    melds: tuple

    def situational(self) -> List[str]:
        fans = []
        if self.self_drawn:
            fans.append("ZIMO")
        if self.last_copy:
            fans.append("HUJUEZHANG")
        if self.wall_last:
            fans.append("MIAOSHOUHUICHUN" if self.self_drawn else "HAIDILAOYUE")
        if self.kong:
            fans.append("GANGSHANGKAIHUA" if self.self_drawn else "QIANGGANGHU")
        return fans


def context(hand: mc.Hand, opts: Options) -> Context:
    ctx = hand.context or mc.MCRContext()
    win = int(hand.win_tile)
    own_concealed = hand.counts[win] - 1
    in_melds = hand.meld_counts[win]
    has_kong = any(m.kind == mc.MeldKind.KONG for m in hand.melds)
    # Flags that contradict the hand are dropped (the `botzone` reading); the public scorer
    # rejects them under strict_context.
    last_copy = (ctx.last_copy and own_concealed == 0) or in_melds == 3
    kong = ctx.kong and (has_kong if ctx.self_drawn else own_concealed + in_melds == 0)
    before = list(hand.counts)
    before[win] -= 1
    waits = mc.waits(mc.Hand(before, hand.melds), exclude_exhausted=not opts.phantom_waits_count)
    return Context(
        win=win, self_drawn=ctx.self_drawn, last_copy=last_copy, wall_last=ctx.wall_last, kong=kong,
        seat=ctx.seat_wind, prevalent=ctx.prevalent_wind, concealed=hand.is_concealed,
        unique_wait=len(waits) == 1, all_counts=list(hand.all_counts), melds=hand.melds,
    )


# --------------------------------------------------------------------------------------------
# Evaluation of one decomposition

def _sets_of(hand: mc.Hand, d: mc.Decomposition) -> List[Set]:
    out = []
    for b in d.sets:
        kind = {BlockKind.CHOW: "chow", BlockKind.PUNG: "pung", BlockKind.KONG: "kong"}[b.kind]
        if b.meld is None:
            out.append(Set(kind, int(b.tile), False, True))
        else:
            m = hand.melds[b.meld]
            out.append(Set(kind, int(b.tile), not m.concealed, False))
    return out


def _wait_fan(sets: List[Set], pair: Optional[int], c: Context, knitted: Tuple[int, ...], opts: Options) -> List[str]:
    if not c.unique_wait:
        return []
    if knitted and c.win in knitted and not opts.knitted_straight_wait_counts:
        return []
    edge = closed = single = False
    for s in sets:
        if s.in_hand and s.kind == "chow" and c.win in s.tiles:
            pos = c.win - s.tile
            if pos == 1:
                closed = True
            elif (pos == 2 and rank(s.tile) == 1) or (pos == 0 and rank(s.tile) == 7):
                edge = True
    if pair == c.win:
        single = True
    if edge:
        return ["BIANZHANG"]
    if closed:
        return ["KANZHANG"]
    if single:
        return ["DANDIAOJIANG"]
    return []


def _concealment(fans: Counter, c: Context) -> None:
    """门前清 for a hand without claimed melds; 不求人 (which drops 门前清 and 自摸) if self-drawn."""
    if c.concealed:
        fans["MENQIANQING"] = 1
        if c.self_drawn:
            fans["BUQIUREN"] = 1


def _evaluate_sets(sets: List[Set], pair: int, c: Context, opts: Options, knitted: Tuple[int, ...] = ()) -> Counter:
    fans: Counter = Counter()
    chows = [s for s in sets if s.kind == "chow"]
    pungs = [s for s in sets if s.pung_like]
    all_tiles = [t for s in sets for t in s.tiles] + [pair, pair] + list(knitted)
    n_chows = len(chows) + (3 if knitted else 0)

    # Concealed pungs: a pung the discarded winning tile completed is melded, unless that tile
    # can be read in one of the hand's chows or the pair instead.
    concealed_pungs = [s for s in pungs if not s.exposed]
    if not c.self_drawn:
        in_other = pair == c.win or any(s.in_hand and s.kind == "chow" and c.win in s.tiles for s in sets)
        in_other = in_other or (knitted and c.win in knitted)
        if not in_other:
            for s in concealed_pungs:
                if s.in_hand and s.tile == c.win:
                    concealed_pungs = [p for p in concealed_pungs if p is not s]
                    break

    # Kongs
    melded_kongs = sum(1 for s in pungs if s.kind == "kong" and s.exposed)
    concealed_kongs = sum(1 for s in pungs if s.kind == "kong" and not s.exposed)
    kongs = melded_kongs + concealed_kongs
    # Every kong pattern present is raised; the exclusion table keeps the biggest.
    if kongs == 4:
        fans["SIGANG"] = 1
    if kongs >= 3:
        fans["SANGANG"] = 1
    if melded_kongs >= 2:
        fans["SHUANGMINGGANG"] = 1
    if concealed_kongs >= 2:
        fans["SHUANGANGANG"] = 1
    if melded_kongs and concealed_kongs and opts.mil_concealed_melded_kong:
        fans["MINGANGANG"] = 1
    if melded_kongs:
        fans["MINGGANG"] = 1
    if concealed_kongs:
        fans["ANGANG"] = 1
    n_concealed = len(concealed_pungs)
    for need, name in ((4, "SIANKE"), (3, "SANANKE"), (2, "SHUANGANKE")):
        if n_concealed >= need:
            fans[name] = 1

    # Honour pungs
    winds = [s.tile for s in pungs if s.tile in WINDS]
    dragons = [s.tile for s in pungs if s.tile in DRAGONS]
    if len(winds) == 4:
        fans["DASIXI"] = 1
    if len(winds) == 3 and pair in WINDS:
        fans["XIAOSIXI"] = 1
    if len(winds) >= 3:
        fans["SANFENGKE"] = 1
    if len(dragons) == 3:
        fans["DASANYUAN"] = 1
    if len(dragons) == 2 and pair in DRAGONS:
        fans["XIAOSANYUAN"] = 1
    if len(dragons) >= 2:
        fans["SHUANGJIANKE"] = 1
    if dragons:
        fans["JIANKE"] = len(dragons)
    if 27 + c.prevalent in winds:
        fans["QUANFENGKE"] = 1
    if 27 + c.seat in winds:
        fans["MENFENGKE"] = 1
    # 幺九刻: pungs of terminals and of honours not already counted as 箭刻 / 风刻 / 三风刻.
    yaojiu = sum(1 for s in pungs if is_terminal(s.tile))
    if len(winds) < 3:
        yaojiu += sum(1 for w in winds if w not in (27 + c.prevalent, 27 + c.seat))
    if yaojiu:
        fans["YAOJIUKE"] = yaojiu

    # Combinations
    for f in combination_fans([s.tile for s in chows], chow_quad_fan, chow_triple_fan, chow_pair_fan):
        fans[f] += 1
    suited_pungs = [s.tile for s in pungs if not is_honor(s.tile)]
    for f in combination_fans(suited_pungs, pung_quad_fan, pung_triple_fan, pung_pair_fan):
        fans[f] += 1
    chow_tiles = sorted(s.tile for s in chows)
    if len(chow_tiles) == 4 and not is_honor(pair) and rank(pair) == 5:
        lows = [rank(t) for t in chow_tiles]
        suits_ = [suit(t) for t in chow_tiles]
        if lows.count(1) == 2 and lows.count(7) == 2:
            if len(set(suits_)) == 1 and suit(pair) == suits_[0]:
                fans["YISESHUANGLONGHUI"] = 1
            by_suit = Counter(suits_)
            if (len(by_suit) == 2 and all(v == 2 for v in by_suit.values()) and suit(pair) not in by_suit
                    and all(sorted(rank(t) for t in chow_tiles if suit(t) == s_) == [1, 7] for s_ in by_suit)):
                fans["SANSESHUANGLONGHUI"] = 1

    # Shape of the whole hand
    if len(pungs) == 4:
        fans["PENGPENGHU"] = 1
    if n_chows == 4 and not is_honor(pair):
        fans["PINGHU"] = 1
    blocks = [s.tiles for s in sets] + [[pair, pair]]
    if not knitted and all(any(is_terminal(t) or is_honor(t) for t in b) for b in blocks):
        fans["QUANDAIYAO"] = 1
    if not knitted and all(any(not is_honor(t) and rank(t) == 5 for t in b) for b in blocks):
        fans["QUANDAIWU"] = 1
    if not knitted and len(pungs) == 4 and all(not is_honor(t) and rank(t) % 2 == 0 for b in blocks for t in b):
        fans["QUANSHUANGKE"] = 1
    for f in tile_fans(all_tiles):
        fans[f] += 1
    kong_tiles = [s.tile for s in pungs if s.kind == "kong"]
    hogs = tile_hogs(c.all_counts, kong_tiles)
    if hogs:
        fans["SIGUIYI"] = hogs

    # Concealment and the win
    exposed = [s for s in sets if s.exposed]
    if c.concealed:
        _concealment(fans, c)
    if len(exposed) == 4 and not c.self_drawn:
        fans["QUANQIUREN"] = 1
    for f in _wait_fan(sets, pair, c, knitted, opts):
        fans[f] += 1
    if knitted:
        fans["ZUHELONG"] = 1
    return fans


def _nine_gates(hand: mc.Hand, c: Context) -> bool:
    if hand.melds:
        return False
    before = list(hand.counts)
    before[c.win] -= 1
    s = suit(c.win)
    if s == 3:
        return False
    return before[s * 9:s * 9 + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3] and sum(before) == 13


def _apply_exclusions(fans: Counter) -> Counter:
    out = Counter({f: n for f, n in fans.items() if n > 0})
    for f in ORDER:
        if out.get(f):
            for g in EXCLUDES.get(f, ()):
                out.pop(g, None)
    return out


def evaluate(hand: mc.Hand, d: mc.Decomposition, c: Context, opts: Options, exclude: bool = True) -> Counter:
    """The fans of one reading (before 无番和 and flowers); `exclude=False` gives the raw fans,
    before the exclusion table is applied."""
    fans: Counter = Counter()
    if d.form == Forms.STANDARD:
        fans = _evaluate_sets(_sets_of(hand, d), int(d.pair), c, opts)
        if _nine_gates(hand, c):
            fans["JIULIANBAODENG"] = 1
            fans["YAOJIUKE"] -= 1
    elif d.form == Forms.KNITTED_STRAIGHT:
        fans = _evaluate_sets(_sets_of(hand, d), int(d.pair), c, opts, tuple(int(t) for t in d.knitted))
    elif d.form == Forms.SEVEN_PAIRS:
        pairs = [int(t) for t in d.pairs]
        all_tiles = [t for t in pairs for _ in range(2)]
        shifted = (len({suit(t) for t in pairs}) == 1 and not is_honor(pairs[0])
                   and sorted(pairs) == list(range(min(pairs), min(pairs) + 7)))
        fans["QIDUI"] = 1
        if shifted:
            fans["LIANQIDUI"] = 1
        for f in tile_fans(all_tiles):
            fans[f] += 1
        hogs = tile_hogs(c.all_counts, [])
        if hogs:
            fans["SIGUIYI"] = hogs
        _concealment(fans, c)
        if c.unique_wait:
            fans["DANDIAOJIANG"] = 1
    elif d.form in (Forms.THIRTEEN_ORPHANS, Forms.HONORS_KNITTED):
        if d.form == Forms.THIRTEEN_ORPHANS:
            fans["SHISANYAO"] = 1
        else:
            fans["QUANBUKAO"] = 1
            if all(hand.counts[t] for t in range(27, 34)):
                fans["QIXINGBUKAO"] = 1
            if all(hand.counts[t] for t in d.knitted):
                fans["ZUHELONG"] = 1
        for f in tile_fans([t for t in range(34) for _ in range(hand.counts[t])]):
            fans[f] += 1
        _concealment(fans, c)
        if c.unique_wait:
            fans["DANDIAOJIANG"] = 1
    for f in c.situational():
        fans[f] += 1
    return _apply_exclusions(fans) if exclude else Counter({f: n for f, n in fans.items() if n > 0})


# Among decompositions with equal totals PyMahjongGB reports one particular reading; this order
# reproduces it (checked on every tie of the differential corpus): the special forms, then the
# standard readings by their concealed sets, each set ranked by (suit in the order m s p z, rank,
# pung above chow), the sets of a reading sorted from the highest; the lexicographically smallest
# reading wins.
SUIT_RANK = (0, 2, 1, 3)  # m, p, s, z -> m < s < p < z
FORM_RANK = {Forms.SEVEN_PAIRS: 0, Forms.THIRTEEN_ORPHANS: 0, Forms.HONORS_KNITTED: 0, Forms.KNITTED_STRAIGHT: 1,
             Forms.STANDARD: 2}


def tie_key(d: mc.Decomposition):
    def rank_of(b) -> int:
        t = int(b.tile)
        return (SUIT_RANK[suit(t)] * 9 + t % 9) * 2 + (0 if b.kind == BlockKind.CHOW else 1)
    sets = sorted((rank_of(b) for b in d.sets if b.meld is None), reverse=True)
    return (-FORM_RANK[d.form], sets)


def total(fans: Counter) -> int:
    return sum(VALUES[f] * n for f, n in fans.items())


def score(hand, opts: Options = Options()) -> Optional[Tuple[int, Counter, mc.Decomposition]]:
    """Best total over every decomposition (flowers and 无番和 added afterwards)."""
    if isinstance(hand, str):
        hand = mc.parse(hand)
    decs = mc.decompositions(hand)
    if not decs:
        return None
    c = context(hand, opts)
    best = None
    for d in sorted(decs, key=tie_key):
        fans = evaluate(hand, d, c, opts)
        if not fans:
            fans = Counter({"WUFANHU": 1})
        if best is None or total(fans) > best[0]:
            best = (total(fans), fans, d)
    assert best is not None
    flowers = (hand.context.flowers if hand.context else 0)
    fans = Counter(best[1])
    if flowers:
        fans["HUAPAI"] = flowers
    if opts.declared_ready:
        fans["TINGPAI"] = 1
    return total(fans), fans, best[2]
