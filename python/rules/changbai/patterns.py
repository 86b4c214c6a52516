"""Changbai scoring patterns: the catalogue of RULES.md §3 and one detector per pattern.

Doublings (番) add up; a hand payment is `base × 2^(D_win + D_lose + D_dealer) × multiplier + 飘`.
Patterns of the *winner* (`winner_*` functions) read the complete hand: some hold for the whole
hand, some for one reading (a decomposition with the winning tile placed in one of its blocks).
Patterns of a *loser* (`loser_patterns`) read their 13 − 3·melds tiles and count only what was
visible to everyone (明 patterns), 手把一 and 门清.

Decisions RULES.md leaves open, taken here:
- Identical chows: two → 一般高, three or four → 两般高 (one instance; the fourth adds nothing).
  明 when all the identical chows of the pattern are melded chows (for four: at least three).
- 四归一 明 means all four copies lie in the player's exposed chows and pungs; a winning tile that
  is the fourth copy was not in the hand before the win, so that 四归一 is 暗.
- 夹胡 and 手把一 (always a single-tile wait) both count; 单吊幺九 comes on top of 夹胡 (单吊).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from mahjong_core import Block, BlockKind, Decomposition, Forms, Hand, MeldKind, Tile

__all__ = [
    "Pattern",
    "CATALOGUE",
    "pattern",
    "winner_hand_patterns",
    "winner_reading_patterns",
    "loser_patterns",
    "sort_patterns",
]

# key: (中文, English, doublings per instance, multiplier) — in the order of the RULES.md table.
CATALOGUE: Dict[str, Tuple[str, str, int, int]] = {
    "plain": ("穷胡", "Plain win", 0, 1),
    "closed_wait": ("夹胡(坎张)", "Closed wait", 1, 1),
    "edge_wait": ("夹胡(边张)", "Edge wait", 1, 1),
    "single_wait": ("夹胡(单吊)", "Single wait", 1, 1),
    "seven_pairs": ("七对", "Seven pairs", 2, 1),
    "thirteen_orphans": ("十三幺", "Thirteen orphans", 0, 13),
    "double_chow_melded": ("一般高(明)", "Pure double chow, melded", 1, 1),
    "double_chow": ("一般高(暗)", "Pure double chow", 1, 1),
    "triple_chow_melded": ("两般高(明)", "Pure triple chow, melded", 2, 1),
    "triple_chow": ("两般高(暗)", "Pure triple chow", 2, 1),
    "full_flush": ("清一色", "Full flush", 2, 1),
    "half_flush": ("混一色", "Half flush", 1, 1),
    "all_pungs": ("飘胡", "All pungs", 1, 1),
    "melded_hand": ("手把一", "Melded hand", 1, 1),
    "tile_hog_melded": ("四归一(明)", "Tile hog, melded", 1, 1),
    "tile_hog": ("四归一(暗)", "Tile hog", 1, 1),
    "concealed_hand": ("门清", "Concealed hand", 1, 1),
    "single_wait_terminal": ("单吊幺九", "Single wait on a terminal or honour", 1, 1),
    "kong_replacement": ("杠上花", "Win on a kong replacement", 2, 1),
    "after_kong_discard": ("杠后炮", "Win on the discard after a kong", 2, 1),
}
_ORDER = {key: i for i, key in enumerate(CATALOGUE)}
# Block kinds as plain ints: comparing with these skips an enum attribute lookup per test.
_CHOW = int(BlockKind.CHOW)
_PAIR = int(BlockKind.PAIR)


@dataclass(frozen=True)
class Pattern:
    """One scored pattern: `doublings` is the total of its `count` instances."""

    key: str
    name_zh: str
    name_en: str
    doublings: int
    count: int = 1
    multiplier: int = 1

    def __repr__(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        value = f"x{self.multiplier}" if self.multiplier > 1 else str(self.doublings)
        return f"{self.name_zh}{times} {value}"


def pattern(key: str, count: int = 1) -> Pattern:
    """The catalogue's pattern `key` with `count` instances."""
    zh, en, each, multiplier = CATALOGUE[key]
    return Pattern(key, zh, en, each * count, count, multiplier)


def sort_patterns(patterns: Iterable[Pattern]) -> Tuple[Pattern, ...]:
    """Patterns in catalogue (RULES.md table) order."""
    return tuple(sorted(patterns, key=lambda p: _ORDER[p.key]))


# ---------------------------------------------------------------------------------------------
# Winner: patterns of the whole hand (every reading shares them)


def winner_hand_patterns(hand: Hand, *, kong_replacement: bool, after_kong_discard: bool) -> List[Pattern]:
    """清一色/混一色, 四归一, 手把一 and the kong-related wins; 门清 depends on the form (see below)."""
    found = [p for p in (_flush(hand.all_counts), _melded_hand(hand)) if p]
    found += _tile_hogs(hand)
    if kong_replacement:
        found.append(pattern("kong_replacement"))
    if after_kong_discard:
        found.append(pattern("after_kong_discard"))
    return found


def winner_reading_patterns(hand: Hand, win: Tile, reading: Decomposition, win_block: Optional[int]) -> List[Pattern]:
    """Patterns of one reading; `win_block` indexes the block of `reading.blocks` that holds the
    winning tile `win` (standard form only)."""
    if reading.form == Forms.SEVEN_PAIRS:
        return [pattern("seven_pairs")]  # 门清 does not come on top
    if reading.form == Forms.THIRTEEN_ORPHANS:
        return [pattern("thirteen_orphans")]
    assert win_block is not None, "a standard reading needs the winning tile's block"
    found = _identical_chows(_chows(reading.sets))
    if all(b.is_pung_like for b in reading.sets):
        found.append(pattern("all_pungs"))
    if _is_concealed_hand(hand):
        found.append(pattern("concealed_hand"))
    found += _wait_patterns(reading.blocks[win_block], win)
    return found


def _wait_patterns(block: Block, win_tile: Tile) -> List[Pattern]:
    """夹胡 (坎张 / 边张 / 单吊) from the block that holds the winning tile, and 单吊幺九."""
    if block.kind == _PAIR:
        found = [pattern("single_wait")]
        if win_tile.is_terminal_or_honor:
            found.append(pattern("single_wait_terminal"))
        return found
    if block.kind == _CHOW:
        if win_tile == block.tile + 1:
            return [pattern("closed_wait")]
        low_rank = block.tile % 9 + 1
        if (low_rank == 1 and win_tile == block.tile + 2) or (low_rank == 7 and win_tile == block.tile):
            return [pattern("edge_wait")]
    return []


# ---------------------------------------------------------------------------------------------
# Loser: the patterns that also count when paying (明 patterns, 手把一, 门清)


def loser_patterns(hand: Hand) -> Tuple[Pattern, ...]:
    """Loser-side patterns of a 13 − 3·melds hand: only what its melds show, 手把一 and 门清."""
    melded_chows = [(m.tile, True) for m in hand.melds if m.kind == MeldKind.CHOW]
    found = [p for p in _identical_chows(melded_chows) if p.key.endswith("_melded")]
    found += [p for p in _tile_hogs(hand) if p.key == "tile_hog_melded"]
    found += [p for p in (_melded_hand(hand),) if p]
    if _is_concealed_hand(hand):
        found.append(pattern("concealed_hand"))
    return sort_patterns(found)


# ---------------------------------------------------------------------------------------------
# Detectors shared by both sides


def _flush(all_counts: Sequence[int]) -> Optional[Pattern]:
    """清一色: one suit only, or honours only; 混一色: one suit plus honours."""
    suits = {t // 9 for t, n in enumerate(all_counts) if n and t < 27}
    has_honours = any(all_counts[27:])
    if len(suits) + has_honours == 1:
        return pattern("full_flush")
    if len(suits) == 1 and has_honours:
        return pattern("half_flush")
    return None


def _melded_hand(hand: Hand) -> Optional[Pattern]:
    """手把一: four chow/pung/melded-kong melds; any concealed kong disqualifies."""
    if hand.n_melds == 4 and not any(m.concealed for m in hand.melds):
        return pattern("melded_hand")
    return None


def _is_concealed_hand(hand: Hand) -> bool:
    """门清: no chow, pung or melded kong (concealed kongs allowed)."""
    return hand.is_concealed


def _tile_hogs(hand: Hand) -> List[Pattern]:
    """四归一: each suited kind held four times (concealed + melds) and not as a kong."""
    total = hand.all_counts
    if 4 not in total[:27]:
        return []
    in_melds = hand.meld_counts
    kong_kinds = {m.tile for m in hand.melds if m.kind == MeldKind.KONG}
    hogs = [t for t in range(27) if total[t] == 4 and t not in kong_kinds]
    melded = sum(1 for t in hogs if in_melds[t] == 4)
    counts = (("tile_hog_melded", melded), ("tile_hog", len(hogs) - melded))
    return [pattern(key, count) for key, count in counts if count]


def _chows(sets: Iterable[Block]) -> List[Tuple[Tile, bool]]:
    """(lowest tile, melded?) of each chow."""
    return [(b.tile, b.meld is not None) for b in sets if b.kind == _CHOW]


def _identical_chows(chows: Sequence[Tuple[Tile, bool]]) -> List[Pattern]:
    """一般高 (two identical chows) and 两般高 (three or four), 明 when the chows are melded."""
    if len(chows) < 2:
        return []
    # (plain dicts: the counting Counter did, in the same first-seen order, at a fraction of the cost)
    total: Dict[Tile, int] = {}
    melded: Dict[Tile, int] = {}
    for tile, is_melded in chows:
        total[tile] = total.get(tile, 0) + 1
        if is_melded:
            melded[tile] = melded.get(tile, 0) + 1
    if len(total) == len(chows):
        return []  # no two chows alike
    counts: Dict[str, int] = {}
    for tile, n in total.items():
        if n == 2:
            key = "double_chow_melded" if melded.get(tile, 0) == 2 else "double_chow"
        elif n >= 3:
            key = "triple_chow_melded" if melded.get(tile, 0) >= 3 else "triple_chow"
        else:
            continue
        counts[key] = counts.get(key, 0) + 1
    return [pattern(key, count) for key, count in counts.items()]
