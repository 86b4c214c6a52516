"""Lockstep differential run: the real Botzone judge and `mahjong_core.botzone.Table` side by side.

Per round: the judge's output (requests, display, or the finish with scores and fans) must equal the
table's; then, before the bots' real answers are played, `probes` alternative answer sets are tried
on both — one seat answering something else (a random legal answer of the table, a near-miss
illegal one, a HU, garbage) and everyone else their real answer — and the judge's next output must
equal the table's for each (the same WA / WH / win / next requests): the legal answer sets agree.

Used by tests/test_botzone_judge.py (skipped without the judge) and to record the fixtures in
tests/data/botzone/ (see its README).
"""

from __future__ import annotations

import copy
import random
from typing import Any, Dict, List, Tuple

from botzone_bots import make_bot
from botzone_judge_driver import run_judge

from mahjong_core.botzone import Table
from mahjong_core.botzone.tiles import CODES

CONFIGS: Tuple[Tuple[str, ...], ...] = (
    ("kit", "kitclaim", "random", "greedy"),
    ("claimer",) * 4,
    ("falsehu", "kit", "claimer", "greedy"),
    ("kitclaim",) * 4,
    ("sloppy", "claimer", "kit", "greedy"),
    ("random",) * 4,
    ("kit",) * 4,
    ("greedy", "falsehu", "kitclaim", "sloppy"),
)


def walltiles(game: int) -> str:
    """Game `game`'s wall: 136 tiles, or 144 with flowers for every third game."""
    tiles = [c for c in CODES[:34] for _ in range(4)]
    if game % 3 == 2:
        tiles += list(CODES[34:])
    random.Random(game).shuffle(tiles)
    return " ".join(tiles)


def _compare(judge: Dict[str, Any], table: Table, where: str) -> List[str]:
    ours = table.log["log"][-1]["output"]
    if judge["command"] != ours["command"]:
        return [f"{where}: judge {judge['command']} {judge['display'].get('action')} "
                f"{judge['display'].get('player')}, table {ours['command']} {ours['display'].get('action')} "
                f"{ours['display'].get('player')}"]
    jd, od = judge["display"], ours["display"]
    out = []
    if judge["command"] == "finish":
        keys = ["action", "player", "score"] + (["fanCnt"] if jd.get("action") in ("HU", "WH") else [])
        for key in keys:
            if jd.get(key) != od.get(key):
                out.append(f"{where}: finish {key}: judge {jd.get(key)!r}, table {od.get(key)!r}")
        if jd.get("action") == "HU":
            jf = sorted((f["name"], f["cnt"], f["value"]) for f in jd.get("fan", []))
            of = sorted((f["name"], f["cnt"], f["value"]) for f in od.get("fan", []))
            if jf != of:
                out.append(f"{where}: fans: judge {jf}, table {of}")
        if {k: int(v) for k, v in judge["content"].items()} != {k: int(v) for k, v in ours["content"].items()}:
            out.append(f"{where}: scores: judge {judge['content']}, table {ours['content']}")
        return out
    if judge["content"] != ours["content"]:
        out.append(f"{where}: requests: judge {judge['content']}, table {ours['content']}")
    for key in ("action", "player", "tile", "tileCHI", "hand"):
        if jd.get(key) != od.get(key):
            out.append(f"{where}: display {key}: judge {jd.get(key)!r}, table {od.get(key)!r}")
    return out


def _alternatives(table: Table, rng: random.Random) -> List[Tuple[int, str]]:
    """Candidate (seat, answer) probes for this round."""
    game = table.game
    kind = table.round_kind
    out: List[Tuple[int, str]] = []
    deciders = [s for s in range(4) if len(table.legal_responses(s)) > 1]
    for s in deciders:
        out.append((s, rng.choice(sorted(table.legal_responses(s)))))
    seat = rng.randrange(4)
    hand = [t for t in range(34) if game.hands[seat][t]]
    missing = [t for t in range(34) if not game.hands[seat][t]]
    tile = CODES[rng.choice(hand)] if hand else "W1"
    absent = CODES[rng.choice(missing)] if missing else "W1"
    near = ["HU", "PASS", "GANG", f"PENG {tile}", f"PLAY {absent}", f"PLAY {tile}", f"GANG {tile}",
            f"BUGANG {tile}", f"CHI {tile} {tile}", "PASS ", "", "PLAY", f"PENG {absent}"]
    if kind in ("play", "peng", "chi") and game.discard >= 0 and game.discard < 27:
        d = game.discard
        mid = d + rng.choice((-1, 0, 1))
        if 0 <= mid < 27 and mid // 9 == d // 9:
            near.append(f"CHI {CODES[mid]} {tile}")
    out.append((seat, rng.choice(near)))
    return out


def lockstep(judge: str, game: int, *, probes: int = 2, kinds: Tuple[str, ...] = ()) -> Tuple[Dict[str, Any], List[str], int]:
    """Play game `game` on the judge and the table together. Returns (the judge's record, the
    disagreements, the number of probes made)."""
    wt = walltiles(game)
    quan = game % 4
    kinds = kinds or CONFIGS[game % len(CONFIGS)]
    bots = [make_bot(k, game, i, len(wt.split(" "))) for i, k in enumerate(kinds)]
    initdata = {"walltiles": wt, "quan": quan, "srand": game}
    table = Table(walltiles=wt, quan=quan, srand=game)
    rng = random.Random(f"probe-{game}")
    log: List[Any] = []
    problems: List[str] = []
    made = 0
    for rnd in range(1000):
        out = run_judge(judge, log, initdata)
        log.append({"output": out})
        problems += _compare(out, table, f"game {game} round {rnd}")
        if problems or out["command"] == "finish":
            break
        answers = {i: bots[i].respond(out["content"][str(i)]) for i in range(4)}
        for seat, text in _alternatives(table, rng)[:probes]:
            alt = dict(answers)
            alt[seat] = text
            entry = {str(i): {"verdict": "OK", "response": alt[i]} for i in range(4)}
            judged = run_judge(judge, log + [entry], initdata)
            trial = copy.deepcopy(table)
            trial.respond(alt)
            made += 1
            problems += _compare(judged, trial, f"game {game} round {rnd} probe seat {seat} {text!r}")
        log.append({str(i): {"verdict": "OK", "response": answers[i]} for i in range(4)})
        table.respond(answers)
    record = {"log": log, "initdata": initdata, "bots": list(kinds), "game": game}
    return record, problems, made
