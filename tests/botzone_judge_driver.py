"""Drive the real Botzone judge (a locally built judge/main.cpp, never committed) with protocol bots.

`play(judge, walltiles, quan, bots)` plays one game the way Botzone does: the judge is run once per
round on the whole log so far and answers the next requests; the bots answer; the result is the
Botzone-format record `{"log": [...], "initdata": {...}}` (judge entries `{"output": ...}`, bot
entries `{"0": {"verdict": "OK", "response": ...}, ...}`).
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict, List, Optional

JUDGE_ENV = "BOTZONE_JUDGE"


def judge_path() -> Optional[str]:
    """The judge binary named by $BOTZONE_JUDGE, if it exists."""
    path = os.environ.get(JUDGE_ENV)
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def run_judge(judge: str, log: List[Any], initdata: Dict[str, Any]) -> Dict[str, Any]:
    data = json.dumps({"log": log, "initdata": initdata})
    done = subprocess.run([judge], input=data, capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


def play(judge: str, walltiles: str, quan: int, bots: List[Any], srand: int = 1) -> Dict[str, Any]:
    initdata = {"walltiles": walltiles, "quan": quan, "srand": srand}
    log: List[Any] = []
    while True:
        out = run_judge(judge, log, initdata)
        log.append({"output": out})
        if out["command"] == "finish":
            break
        log.append({str(i): {"verdict": "OK", "response": bots[i].respond(out["content"][str(i)])}
                    for i in range(4)})
    return {"log": log, "initdata": initdata}
