"""Shared helpers of the viz tests: played hands, the engine's table after each answer, and a
Botzone judge record written from an engine game (to test the record converter)."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

from mahjong_core.game import new_game
from mahjong_core.game.bots import make_bot
from mahjong_core.game.constants import MELD_CHOW
from mahjong_core.game.simulate import play_hand

CASES = [("mcr", None), ("mcr", {"flowers": True}), ("mcr", "classic"), ("sichuan", None), ("changbai", None)]


def played(ruleset: str, seed: int, rules: Any = None, bots: Tuple[str, ...] = ("greedy",) * 4, **options: Any):
    game = new_game(ruleset, seed=seed, rules=rules, **options)
    players = [make_bot(b) for b in bots]
    rng = random.Random(seed)
    for p in players:
        p.new_hand(rng)
    return play_hand(game, players)


def with_win(ruleset: str, rules: Any = None, start: int = 1) -> Any:
    for seed in range(start, start + 200):
        game = played(ruleset, seed, rules)
        if game.winners:
            return game
    raise AssertionError(f"no {ruleset} hand with a win")


def engine_table(game: Any) -> Dict[str, Any]:
    """What the engine says lies on the table (independent of mahjong_core.viz)."""
    melds = []
    for s in range(4):
        ms = []
        for kind, t, _, _ in game.melds[s]:
            ms.append([t, t + 1, t + 2] if kind == MELD_CHOW else [t] * (3 if kind == 1 else 4))
        melds.append(ms)
    return {"hands": [sum(game.hands[s]) for s in range(4)],
            "counts": [list(game.hands[s]) for s in range(4)],
            "melds": melds, "rivers": [list(r) for r in game.rivers], "flowers": [list(f) for f in game.flowers],
            "wall": game.tail - game.head, "declared": list(game.declared), "won": list(game.won)}


def checkpoints(log: Dict[str, Any]) -> List[Tuple[int, Dict[str, Any]]]:
    """(number of events, engine table) after the start and after every logged answer."""
    from mahjong_core.game.registry import game_class

    rules = game_class(log["ruleset"]).rules_class().resolve(dict(log["rules"]))
    game = new_game(log["ruleset"], wall=log["wall"], rules=rules, seed=log["seed"], dealer=log["dealer"],
                    hand_no=log["hand_no"], **log["options"])
    out = [(len(game.event_history()), engine_table(game))]
    for seat, code in log["actions"]:
        game.act(seat, code)
        out.append((len(game.event_history()), engine_table(game)))
    return out


_CODES = ([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
          + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"] + [f"H{i}" for i in range(1, 9)])


def botzone_record(game: Any) -> Dict[str, Any]:
    """A judge-format record of an MCR engine game played from seat 0 (dealer) without flowers:
    the deal of 13 each, the dealer's 14th tile as its first DRAW, then one round per event."""
    assert game.dealer == 0 and game.ruleset == "mcr"
    wall = game.wall
    rounds: List[Dict[str, Any]] = [{"action": "INIT"}]
    content = {str(s): "1 0 0 0 0 " + " ".join(_CODES[t] for t in sorted(wall[13 * s: 13 * s + 13]))
               for s in range(4)}
    rounds.append({"action": "DEAL", "_content": content})
    rounds.append({"action": "DRAW", "player": 0, "tile": _CODES[wall[52]]})
    claim = None
    previous: Dict[str, Any] = {}
    for e in game.log["events"]:
        kind = e["type"]
        code = _CODES[_index(e["tile"])] if e.get("tile") else None
        if kind in ("draw", "replacement"):
            rounds.append({"action": "DRAW", "player": e["seat"], "tile": code})
        elif kind in ("pung", "chow"):
            claim = e
        elif kind == "discard":
            if claim is None:
                rounds.append({"action": "PLAY", "player": e["seat"], "tile": code})
            elif claim["type"] == "pung":
                rounds.append({"action": "PENG", "player": e["seat"], "tile": code})
            else:
                middle = _index(claim["tile"]) - claim["position"] + 2
                rounds.append({"action": "CHI", "player": e["seat"], "tile": code, "tileCHI": _CODES[middle]})
            claim = None
        elif kind in ("kong", "concealed_kong"):
            rounds.append({"action": "GANG", "player": e["seat"], "tile": code})
        elif kind == "adding_kong" or (kind == "added_kong" and previous.get("type") != "adding_kong"):
            rounds.append({"action": "BUGANG", "player": e["seat"], "tile": code})
        elif kind == "win":
            fans = [{"name": f[0], "value": f[1], "cnt": f[2]} for f in e["score"]["fans"]]
            rounds.append({"action": "HU", "player": e["seat"], "fanCnt": e["score"]["total"], "fan": fans,
                           "_finish": True})
        elif kind == "exhausted":
            rounds.append({"action": "HUANG", "_finish": True})
        previous = e
    log: List[Dict[str, Any]] = []
    totals = game.ledger.totals()
    for r in rounds:
        display = {k: v for k, v in r.items() if not k.startswith("_")}
        if r.get("_finish"):
            log.append({"output": {"command": "finish", "content": {str(s): totals[s] for s in range(4)},
                                   "display": display}})
            break
        log.append({"output": {"command": "request", "content": r.get("_content", {}), "display": display}})
        log.append({str(s): {"verdict": "OK", "response": "PASS"} for s in range(4)})
    return {"log": log, "initdata": {"walltiles": " ".join(_CODES[t] for t in wall), "quan": 0}}


def _index(name: str) -> int:
    from mahjong_core.viz.table import tile_index

    return tile_index(name)
