"""`mahjong-core score sichuan "<hand>" [options]`: score a Sichuan hand from the shell.

A complete hand (14 − 3·melds concealed tiles, the last one the winning tile) prints its itemised
score; a waiting hand (13 − 3·melds) prints the value of each wait and the best one (查大叫). Exit
code 0 for a win (or a ready hand), 1 when it is not one.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, Optional

from mahjong_core.errors import InvalidArgumentError, InvalidHandError
from mahjong_core.tiles import Tile, tile_from_str

from .hand import SUITS, as_hand, holds_void_tile, suits_held
from .rules import Rules
from .scoring import SichuanScore, score, score_waits

__all__ = ["configure", "run"]

_FLAGS = {
    "self_drawn": "won on one's own draw (自摸)",
    "kong_replacement": "won on a kong replacement tile (杠上花; implies --self-drawn)",
    "after_kong_discard": "won on the discard made right after a kong's replacement draw (杠上炮)",
    "robbed_kong": "won by robbing an added kong (抢杠胡)",
    "first_draw": "won on the dealt hand / first draw, no claim before (天胡 with --dealer, else 地胡; "
                  "implies --self-drawn)",
    "dealer": "the winner is the dealer",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the Sichuan scoring arguments to `parser`."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("hand", help='notation, e.g. "[555p,1]11223344m99p" (no honours, no chows); '
                                     "the last concealed tile of a complete hand is the winning tile")
    parser.add_argument("--void", choices=SUITS, default=None, help="the player's void suit (定缺)")
    parser.add_argument("--win-tile", default=None, help="the winning tile if not the notation's last, e.g. 5p")
    for name, text in _FLAGS.items():
        parser.add_argument("--" + name.replace("_", "-"), action="store_true", help=text)
    parser.add_argument("--rules", choices=sorted(Rules.presets), default=Rules.DEFAULT_PRESET,
                        help="rules preset (default: %(default)s)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule key, e.g. --set max_fan=4 --set zimo_bonus=add_fan "
                             f"(keys: {', '.join(Rules.keys())})")
    parser.add_argument("--plain", action="store_true", help="no Unicode tile glyphs")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    """Score or evaluate the hand of `args`; print it; return the exit code."""
    rules = _rules(args.rules, args.set)
    hand = as_hand(args.hand)
    if hand.n_tiles == 13 - 3 * hand.n_melds:
        given = [f"--{name.replace('_', '-')}" for name in _FLAGS if getattr(args, name)]
        given += ["--win-tile"] if args.win_tile is not None else []
        if given:
            raise InvalidArgumentError(f"{', '.join(given)}: a waiting hand (13 tiles) is valued per wait, on a "
                                       f"discard; give the winning tile in the hand (14 tiles) to score it with them")
        return _print_waits(hand, args, rules)
    win_tile = None if args.win_tile is None else _tile(args.win_tile)
    flags = {name: getattr(args, name) for name in _FLAGS}
    flags["self_drawn"] = flags["self_drawn"] or flags["kong_replacement"] or flags["first_draw"]
    value = score(hand, win_tile=win_tile, void_suit=args.void, rules=rules, **flags)
    reason = None if value is not None else _not_winning_reason(hand, args.void)
    if args.json:
        out: Dict[str, Any] = {"hand": str(hand), "rules": rules.to_dict(), "preset": rules.preset_name,
                               "void_suit": args.void, "winning": value is not None}
        out.update({"score": value.to_dict()} if value is not None else {"reason": reason})
        print(json.dumps(out, ensure_ascii=False))
    else:
        _print_header(hand, rules, args.void, args.plain)
        print(str(value) if value is not None else f"not a winning hand: {reason}")
    return 0 if value is not None else 1


def _print_waits(hand: Any, args: argparse.Namespace, rules: Rules) -> int:
    values = score_waits(hand, void_suit=args.void, rules=rules)
    best: Optional[SichuanScore] = max((v for v in values.values() if v is not None),
                                       key=lambda v: v.points, default=None)
    if args.json:
        print(json.dumps({"hand": str(hand), "rules": rules.to_dict(), "preset": rules.preset_name,
                          "void_suit": args.void, "ready": best is not None,
                          "waits": {str(t): None if v is None else v.to_dict() for t, v in values.items()},
                          "best": None if best is None else best.to_dict()}, ensure_ascii=False))
    else:
        _print_header(hand, rules, args.void, args.plain)
        if not values:
            print("not ready: no wait")
        for tile, value in values.items():
            print(f"  wait {tile}: {_wait_text(value)}")
        if best is not None:
            print(f"查大叫 value (best wait {best.win_tile}): {best.points}")
    return 0 if best is not None else 1


def _wait_text(value: Optional[SichuanScore]) -> str:
    """One wait's line: "平胡 1 + 根 1 = 2 番, x4, 24 points"."""
    return "not a win (void suit or three suits)" if value is None else value.summary()


def _print_header(hand: Any, rules: Rules, void: Optional[str], plain: bool) -> None:
    print(f"hand   {hand}" + ("" if plain else f"   {hand.glyphs()}"))
    preset = rules.preset_name
    print(f"rules  {preset if preset else repr(rules)} (base {rules.base})" + (f"   void {void}" if void else ""))


def _not_winning_reason(hand: Any, void: Optional[str]) -> str:
    if len(suits_held(hand)) == 3:
        return "it holds all three suits (a Sichuan win has at most two)"
    if holds_void_tile(hand, void):
        return f"it holds tiles of the void suit {void}"
    return "the tiles do not form four sets and a pair or seven pairs"


def _tile(text: str) -> Tile:
    try:
        return tile_from_str(text)
    except ValueError as exc:
        raise InvalidHandError(f"--win-tile: {exc}") from None


def _rules(preset: str, overrides: Any) -> Rules:
    return Rules.preset(preset, **Rules.parse_assignments(overrides))
