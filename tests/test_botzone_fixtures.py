"""The Botzone table against the real judge's recorded games (tests/data/botzone/, see its README).

Every recorded game is replayed through `mahjong_core.botzone.Table` from its `walltiles` and the
bots' recorded answers: every round's requests (all four lines) and display (action, player, tile,
chow, dealt hands) must be the judge's, and the finish (HU / WH / WA / HUANG / a verdict) with its
player, scores, fan count and fans; at every round, each seat's `BotzoneState` rebuilt from its own
requests must show the table game's view and the same legal answers. The judge is not needed.
"""

import copy
import gzip
import json
import os
from collections import Counter

import pytest

from botzone_replay import check_states, replay_record

DATA = os.path.join(os.path.dirname(__file__), "data", "botzone", "judge_games.jsonl.gz")


def _records():
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


RECORDS = _records()


def test_the_fixtures_cover_what_matters():
    assert len(RECORDS) >= 200
    ends = Counter(r["log"][-1]["output"]["display"]["action"] for r in RECORDS)
    assert {"HU", "WH", "WA", "HUANG"} <= set(ends) and ends["HU"] >= 50
    rounds = Counter(e["output"]["display"].get("action") for r in RECORDS for e in r["log"] if "output" in e)
    assert {"BUHUA", "CHI", "PENG", "GANG", "BUGANG"} <= set(rounds)
    assert any(len(r["initdata"]["walltiles"].split(" ")) == 144 for r in RECORDS)
    fans = {f["name"] for r in RECORDS for f in r["log"][-1]["output"]["display"].get("fan", [])
            if r["log"][-1]["output"]["display"]["action"] == "HU"}
    assert {"抢杠和", "杠上开花", "海底捞月", "妙手回春", "和绝张", "花牌"} <= fans


@pytest.mark.parametrize("chunk", range(8))
def test_the_table_plays_exactly_like_the_judge(chunk):
    problems = []
    for record in RECORDS[chunk::8]:
        problems += [f"game {record.get('game')}: {p}" for p in replay_record(record) + check_states(record)]
    assert problems == []


def test_the_replay_notices_a_difference():
    record = next(r for r in RECORDS if r["log"][-1]["output"]["display"]["action"] == "HU")
    changed = copy.deepcopy(record)
    changed["log"][-1]["output"]["content"]["0"] += 1
    assert any("scores" in p for p in replay_record(changed))
    changed = copy.deepcopy(record)
    changed["log"][4]["output"]["content"]["1"] += " W1"
    assert any("requests" in p for p in replay_record(changed))
