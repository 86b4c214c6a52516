"""`mahjong-core score changbai "<hand>" ...`: score a win and print an itemised table.

    mahjong-core score changbai "123m456p789s123sEE"             # a discard win
    mahjong-core score changbai "[123m,1]456p789s123sEE" --self-drawn
    mahjong-core score changbai "123m456p789s123sEE" --loser "123m456p789s12sCC" \\
        --dealer loser --piao 4 2                                          # and what that loser pays

Exit status: 0 for a win, 1 when the hand does not win (the reason is printed), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Optional, Tuple

from mahjong_core._display import display_width, pad_display

from .hand import as_hand
from .patterns import Pattern
from .rules import DEFAULT_PRESET, Rules
from .scoring import ChangbaiScore, loser_patterns_of, refusal, score
from .settlement import pair_amount

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the Changbai scoring arguments (the positional hand included) to `parser`."""
    parser.description = "Score a Changbai 长白麻将 win: winner-side doublings, item by item."
    parser.add_argument("hand", help='notation, winning tile last, e.g. "123m456p789s123sEE" or "[555p,1]123m678s999sEE"')
    ready = parser.add_mutually_exclusive_group()
    ready.add_argument("--ready", dest="declared_ready", action="store_true", default=True,
                       help="the winner had declared ready (报听) — the default")
    ready.add_argument("--not-ready", dest="declared_ready", action="store_false",
                       help="the winner had not declared ready (then the hand cannot win)")
    parser.add_argument("--win-tile", help="the winning tile, e.g. 5p (default: the last concealed tile)")
    parser.add_argument("--self-drawn", action="store_true", help="won by self-draw (自摸)")
    parser.add_argument("--kong-replacement", action="store_true",
                        help="won on a kong replacement (杠上花; implies --self-drawn)")
    parser.add_argument("--after-kong-discard", action="store_true", help="won on the discard after a kong (杠后炮)")
    parser.add_argument("--robbed-kong", action="store_true", help="won by robbing a promoted kong (抢杠胡)")
    parser.add_argument("--rules", choices=sorted(Rules.presets), default=DEFAULT_PRESET, help="rule preset")
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", default=[],
                        help="override a rule key, e.g. --set base=2 --set discard_payers=all (repeatable)")
    parser.add_argument("--loser", metavar="HAND",
                        help="a loser's hand (13 - 3*melds tiles): show its doublings and the payment")
    parser.add_argument("--dealer", choices=("none", "winner", "loser"), default="none",
                        help="who of the pair is the dealer, for the payment (default none)")
    parser.add_argument("--piao", nargs=2, type=int, metavar=("WINNER", "LOSER"), default=(0, 0),
                        help="the winner's and the loser's 飘, for the payment")
    parser.add_argument("--plain", action="store_true", help="no Unicode tile glyphs")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    """Score `args.hand`; print a table (or JSON). Returns the exit status."""
    rules = Rules.preset(args.rules, **Rules.parse_assignments(args.set))
    hand = as_hand(args.hand)
    flags = dict(
        win_tile=args.win_tile,
        self_drawn=args.self_drawn or args.kong_replacement,
        kong_replacement=args.kong_replacement,
        after_kong_discard=args.after_kong_discard,
        robbed_kong=args.robbed_kong,
    )
    result = score(hand, declared_ready=args.declared_ready, rules=rules, **flags)
    if result is None:
        # What refuses the hand once declared ready; nothing means --not-ready did (the library's
        # reason names its Python argument declared_ready=True instead of the flag).
        reason = refusal(hand, win_tile=args.win_tile, declared_ready=True, rules=rules)
        if reason is None:
            reason = "not declared ready: a Changbai win needs 报听 (--ready, the default, instead of --not-ready)"
        _emit_refusal(args, str(hand), reason)
        return 1
    payment = _payment(args, result, rules) if args.loser else None
    if args.json:
        print(json.dumps(_json(hand, result, payment, rules), ensure_ascii=False))
    else:
        _print_table(args, hand, result, payment)
    return 0


# ---------------------------------------------------------------------------------------------


def _payment(args: argparse.Namespace, result: ChangbaiScore, rules: Rules) -> Dict[str, Any]:
    patterns = loser_patterns_of(args.loser, rules)
    d_lose = sum(p.doublings for p in patterns)
    piao_w, piao_l = args.piao
    amount = pair_amount(result.doublings, d_lose, args.dealer != "none", piao_w, piao_l,
                         multiplier=result.multiplier, rules=rules)
    return dict(loser=str(as_hand(args.loser)), loser_patterns=patterns, loser_doublings=d_lose,
                dealer=args.dealer, dealer_doublings=int(args.dealer != "none" and rules.dealer_doubling),
                piao=[piao_w, piao_l], base=rules.base, max_doublings=rules.max_doublings, amount=amount)


def _context_text(result: ChangbaiScore) -> str:
    c = result.context
    if c.kong_replacement:
        return "self-drawn on a kong replacement"
    if c.self_drawn:
        return "self-drawn"
    if c.robbed_kong:
        return "robbing a kong"
    return "on the discard after a kong" if c.after_kong_discard else "on a discard"


def _print_table(args: argparse.Namespace, hand: Any, result: ChangbaiScore, payment: Optional[Dict[str, Any]]) -> None:
    glyphs = f"   {hand.glyphs()}" if not args.plain else ""
    print(f"hand      {hand}{glyphs}")
    print(f"win       {result.win_tile} {_context_text(result)}, declared ready")
    print(f"reading   {_reading_text(result)}")
    rows = [(p.name_zh, p.name_en + (f" x{p.count}" if p.count > 1 else ""), _value_text(p)) for p in result.patterns]
    _print_rows(rows)
    times = f" x {result.multiplier}" if result.multiplier > 1 else ""
    print(f"total     {result.doublings} doublings{times} = {result.value} x base")
    if payment is not None:
        loser_rows = [(p.name_zh, p.name_en, _value_text(p)) for p in payment["loser_patterns"]]
        print(f"loser     {payment['loser']}")
        _print_rows(loser_rows or [("-", "no loser-side pattern", "0")])
        cap = "" if payment["max_doublings"] is None else f", at most 2^{payment['max_doublings']}"
        print(f"payment   {payment['base']} x 2^({result.doublings} + {payment['loser_doublings']} + "
              f"{payment['dealer_doublings']} dealer){times} + 飘 {payment['piao'][0]} + {payment['piao'][1]} "
              f"= {payment['amount']}{cap}")


def _print_rows(rows: List[Tuple[str, str, str]]) -> None:
    width = max(display_width(zh) for zh, _, _ in rows)
    en_width = max(len(en) for _, en, _ in rows)
    for zh, en, value in rows:
        print(f"  {pad_display(zh, width)}  {en:<{en_width}}  {value:>3}")


def _value_text(p: Pattern) -> str:
    return f"x{p.multiplier}" if p.multiplier > 1 else str(p.doublings)


def _reading_text(result: ChangbaiScore) -> str:
    return repr(result.decomposition).removeprefix("Decomposition(").removesuffix(")")


def _json(hand: Any, result: ChangbaiScore, payment: Optional[Dict[str, Any]], rules: Rules) -> Dict[str, Any]:
    out: Dict[str, Any] = {
        "hand": str(hand),
        "winning": True,
        "win": True,  # (the name before "winning", which every ruleset's --json has)
        "win_tile": str(result.win_tile),
        "doublings": result.doublings,
        "multiplier": result.multiplier,
        "value": result.value,
        "items": [_pattern_json(p) for p in result.patterns],
        "decomposition": repr(result.decomposition),
        "rules": rules.to_dict(),
    }
    if payment is not None:
        out["payment"] = {**payment, "loser_patterns": [_pattern_json(p) for p in payment["loser_patterns"]]}
    return out


def _pattern_json(p: Pattern) -> Dict[str, Any]:
    return dict(key=p.key, name_zh=p.name_zh, name_en=p.name_en, doublings=p.doublings, count=p.count,
                multiplier=p.multiplier)


def _emit_refusal(args: argparse.Namespace, hand: str, reason: str) -> None:
    if args.json:
        print(json.dumps({"hand": hand, "winning": False, "win": False, "reason": reason}, ensure_ascii=False))
    else:
        print(f"hand      {hand}")
        print(f"no win    {reason}")
