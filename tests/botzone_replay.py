"""Replay a Botzone judge record through `mahjong_core.botzone.Table` and list every disagreement.

A record is `{"log": [...], "initdata": {...}}` as Botzone (or tests/botzone_judge_driver.py) writes
it. For every round the table must produce the judge's requests (all four lines, exactly), the
judge's display action / player / tile (/ tileCHI); the last round must finish like the judge's:
same action (HU, WH, WA, HUANG, TLE ...), player, scores, fan count and fan list.
"""

from __future__ import annotations

from typing import Any, Dict, List

from mahjong_core.botzone import Table

_ROUND_KEYS = ("action", "player", "tile", "tileCHI", "hand")
_FINISH_KEYS = ("action", "player", "score", "fanCnt")


def _fans(display: Dict[str, Any]) -> List[tuple]:
    return sorted((f["name"], f["cnt"], f["value"]) for f in display.get("fan", []))


def replay_record(record: Dict[str, Any]) -> List[str]:
    """Disagreements between the judge's record and our table (empty when they agree)."""
    init = record["initdata"]
    table = Table(walltiles=init["walltiles"], quan=init["quan"], srand=init.get("srand"))
    log = record["log"]
    problems: List[str] = []
    for i in range(0, len(log), 2):
        judge = log[i]["output"]
        ours = table.log["log"][-1]["output"]
        where = f"round {i // 2}"
        if judge["command"] != ours["command"]:
            problems.append(f"{where}: judge {judge['command']} {judge['display'].get('action')}, "
                            f"table {ours['command']} {ours['display'].get('action')}")
            break
        if judge["command"] == "finish":
            jd, od = judge["display"], ours["display"]
            for key in _FINISH_KEYS:
                if jd.get(key) != od.get(key) and not (key == "fanCnt" and jd.get("action") not in ("HU", "WH")):
                    problems.append(f"{where}: finish {key}: judge {jd.get(key)!r}, table {od.get(key)!r}")
            if jd.get("action") == "HU" and _fans(jd) != _fans(od):
                problems.append(f"{where}: fans: judge {_fans(jd)}, table {_fans(od)}")
            content = {k: int(v) for k, v in judge["content"].items()}
            if content != {k: int(v) for k, v in ours["content"].items()}:
                problems.append(f"{where}: scores: judge {content}, table {ours['content']}")
            break
        if judge["content"] != ours["content"]:
            problems.append(f"{where}: requests: judge {judge['content']}, table {ours['content']}")
            break
        for key in _ROUND_KEYS:
            if judge["display"].get(key) != ours["display"].get(key):
                problems.append(f"{where}: display {key}: judge {judge['display'].get(key)!r}, "
                                f"table {ours['display'].get(key)!r}")
        if problems:
            break
        if table.finished:
            problems.append(f"{where}: the table finished, the judge did not")
            break
        answers = log[i + 1]
        table.respond({int(s): a["response"] for s, a in answers.items()},
                      {int(s): a.get("verdict", "OK") for s, a in answers.items()})
    else:
        problems.append("the judge's record ended without a finish")
    return problems


def check_states(record: Dict[str, Any]) -> List[str]:
    """Replay `record` and, at every round, rebuild each seat's `BotzoneState` from its requests and
    responses: its view must equal the table game's `view(seat)` wherever the seat has a decision, and
    its legal answers (as response texts) must equal `Table.legal_responses(seat)`."""
    from mahjong_core.botzone import BotzoneState

    init = record["initdata"]
    size = len(init["walltiles"].split(" "))
    table = Table(walltiles=init["walltiles"], quan=init["quan"])
    log = record["log"]
    states = [BotzoneState(wall_size=size) for _ in range(4)]
    problems: List[str] = []
    previous: List[Any] = [None] * 4
    for i in range(0, len(log) - 1, 2):
        if table.finished:
            break
        requests = table.requests()
        game = table.game
        for s in range(4):
            state = states[s]
            state.feed(requests[s], previous[s])
            if table.round_kind in ("draw", "play", "peng", "chi", "bugang") and s in game._pending:
                ours, theirs = state.view(), game.view(s)
                if ours != theirs:
                    diff = {k: (ours.get(k), theirs.get(k)) for k in theirs if ours.get(k) != theirs.get(k)}
                    problems.append(f"round {i // 2} seat {s}: view differs: {diff}")
            texts = _state_texts(state)
            if texts != table.legal_responses(s):
                problems.append(f"round {i // 2} seat {s}: legal {sorted(texts)} != table {sorted(table.legal_responses(s))}")
        if problems:
            return problems
        answers = log[i + 1]
        previous = [answers[str(s)]["response"] for s in range(4)]
        table.respond({int(s): a["response"] for s, a in answers.items()},
                      {int(s): a.get("verdict", "OK") for s, a in answers.items()})
    return problems


def _state_texts(state: Any) -> set:
    from mahjong_core.game.actions import ActionKind

    out = set()
    legal = list(state.legal) or []
    if not legal:
        return {"PASS"}
    for action in legal:
        if action.kind in (ActionKind.PUNG, ActionKind.CHOW):
            discards = list(state.claim(action).legal)
            state.unclaim()
            for discard in discards:
                state.claim(action)
                out.add(state.respond(discard))
        else:
            out.add(state.respond(action))
    return out
