"""The table server with real WebSocket clients on 127.0.0.1: four clients (one dropping and
reconnecting, one timing out), malformed messages, leaving, HTTP, and a restart from saved logs."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("websockets", reason='the server tests need the [server] extra: pip install "mahjong_core[server]"')

from mahjong_core.server import TableServer, engine_api  # noqa: E402
from mahjong_core.server.protocol import ProtocolError, parse_message  # noqa: E402
from server_clients import WAIT, Client, play  # noqa: E402


def run(coro, timeout: float = 90):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def started(**options) -> TableServer:
    options.setdefault("port", 0)
    server = TableServer("sichuan", **options)
    await server.start()
    return server


def url(server: TableServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


async def seated(server: TableServer, n: int, **join) -> list:
    clients = []
    for i in range(n):
        c = await Client(url(server)).open()
        await c.request({"type": "join", "name": f"p{i}", **join}, "joined")
        join.pop("bots", None)
        join.setdefault("table", c.messages[-1]["table"])
        clients.append(c)
    return clients


def check_streams(table, clients) -> None:
    """Each client got exactly its own seat's event stream, and nothing hidden of other seats; every
    event, view and action sent matches the engine's JSON Schemas (docs/schema)."""
    from test_json_schema import _valid

    for c in clients:
        assert c.events == engine_api.events(table.game, c.seat)
        for e in c.events:
            _valid("event.schema.json", e)
            if e["type"] in ("draw", "replacement", "concealed_kong") and e["seat"] != c.seat:
                assert e["tile"] is None, e
        for m in c.messages:
            if m["type"] == "state":
                _valid("view.schema.json", m["view"])
                for a in m["legal"]:
                    _valid("action.schema.json", a["json"])
                assert len(m["view"]["hand"]) == m["view"]["hand_sizes"][c.seat]
                assert m["view"]["seat"] == c.seat
    omniscient = engine_api.events(table.game, None)
    assert any(e["type"] == "draw" and e["tile"] is not None for e in omniscient)


def test_four_clients_one_drops_and_reconnects_one_times_out(tmp_path):
    async def main():
        server = await started(time_limit=0.4, log_dir=str(tmp_path), seed=11)
        clients = await seated(server, 4)
        table = server.tables[clients[0].messages[-1]["table"]]
        assert table.started and [c.seat for c in clients] == [0, 1, 2, 3]
        rng = random.Random(5)
        # seat 1 answers 3 decisions, drops, waits past a time limit and resumes from its last index
        dropper = clients[1]

        async def drop_and_resume():
            assert await play(dropper, rng, stop_after=3) is None
            seen = len(dropper.events)
            step_then = dropper.state["step"]
            await dropper.close()
            await asyncio.sleep(1.0)   # the server answers for it meanwhile (time limit 0.4 s)
            again = Client(url(server))
            await again.open()
            again.events = list(dropper.events)
            joined = await again.request({"type": "resume", "token": dropper.token, "since": seen}, "joined")
            assert joined["seat"] == 1
            first = await again.expect("events")
            assert first["since"] == seen   # only the events it missed
            assert table.step > step_then
            clients[1] = again
            return await play(again, rng)

        results = await asyncio.gather(
            play(clients[0], rng), drop_and_resume(), play(clients[2], rng), play(clients[3], rng, skip=2))
        assert all(r is not None and r["type"] == "result" for r in results)
        assert table.finished
        timeouts = [m for m in clients[3].messages if m["type"] == "timeout"]
        assert len(timeouts) >= 2
        check_streams(table, clients)
        # the log is saved, replays (verified) to the same ledger, and is served over HTTP
        with open(tmp_path / f"{table.id}.json") as f:
            log = json.load(f)
        assert not (tmp_path / f"{table.id}.table.jsonl").exists()
        from test_json_schema import _valid

        _valid("log.schema.json", log)
        again = engine_api.verified_replay(log)
        assert again.ledger.to_json() == log["ledger"] == table.game.ledger.to_json()
        body = await asyncio.to_thread(
            lambda: urllib.request.urlopen(f"http://127.0.0.1:{server.port}/log/{table.id}.json", timeout=WAIT).read())
        assert json.loads(body) == log
        await server.close()

    run(main())


@pytest.mark.parametrize("ruleset", ["mcr", "changbai", "sichuan"])
def test_every_ruleset_is_served(ruleset):
    async def main():
        server = TableServer(ruleset, port=0, time_limit=None, bots=3, seed=9)
        await server.start()
        (c,) = await seated(server, 1, bots=3)
        result = await play(c, random.Random(8))
        table = server.tables["t-1"]
        assert result["totals"] == table.game.ledger.totals() and c.messages[0]["ruleset"] == ruleset
        check_streams(table, [c])
        await server.close()

    run(main())


def test_disconnect_mid_claim_window_is_answered_by_default_action():
    async def main():
        server = await started(time_limit=0.3, bots=3, seed=4)
        (c,) = await seated(server, 1, bots=3)
        table = server.tables[c.messages[-1]["table"]]
        rng = random.Random(1)
        game = table.game
        # play (passing every claim, so that the hand goes on) until this seat's claim window is open
        # with the time limit running, then vanish
        while True:
            m = await c.expect("state", where=lambda m: bool(m["legal"]) or m["view"]["finished"])
            assert not m["view"]["finished"], "no claim window for seat 0 in this hand"
            if m["view"]["phase"] == "claim":
                break
            await c.send({"type": "act", "step": m["step"], "action": rng.choice(m["legal"])["code"]})
        step = table.step   # (the engine's step id; the seat's own ids count only what it sees)
        history = len(game.answer_history())
        await c.close()
        deadline = time.monotonic() + WAIT
        while table.step == step and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert table.step != step
        seat_answers = [a for s, a in game.answer_history()[history:history + 4] if s == c.seat]
        assert seat_answers and repr(seat_answers[0]) == "Pass"
        await server.close()

    run(main())


MALFORMED = [
    ("not json", "malformed", "not JSON"),
    (b"\xff\xfe", "malformed", "UTF-8"),
    ("[1, 2]", "malformed", "JSON object"),
    ('{"kind": "join"}', "malformed", '"type"'),
    ('{"type": 5}', "malformed", '"type"'),
    ('{"type": "dance"}', "unknown_type", "unknown message type"),
    ('{"type": "act", "step": 0}', "bad_field", 'missing field "action"'),
    ('{"type": "act", "step": "0", "action": 1}', "bad_field", '"step" must be an integer'),
    ('{"type": "act", "step": true, "action": 1}', "bad_field", '"step" must be an integer'),
    ('{"type": "act", "step": -1, "action": 1}', "bad_field", '"step" must be 0..'),
    ('{"type": "act", "step": 0, "action": 1, "extra": 1}', "bad_field", 'unknown field "extra"'),
    ('{"type": "join", "seat": 7}', "bad_field", '"seat" must be 0..3'),
    ('{"type": "join", "bots": 1, "table": "t-1"}', "bad_field", '"bots" is for a new table'),
    ('{"type": "join", "table": "nope"}', "unknown_table", "no open table"),
    ('{"type": "join", "table": "t-1", "seat": 0}', "seat_taken", "seat 0 is not open"),
    ('{"type": "resume", "token": "forged"}', "unknown_token", "no seat holds this token"),
    ('{"type": "resume"}', "bad_field", 'missing field "token"'),
    ("x" * 5000, "malformed", "too long"),
]


def test_malformed_messages_get_an_error_and_change_nothing():
    async def main():
        server = await started(time_limit=None, seed=8)
        clients = await seated(server, 4)
        table = server.tables["t-1"]
        outsider = await Client(url(server)).open()
        before = json.dumps(table.game.log), table.step
        for raw, code, words in MALFORMED:
            reply = await outsider.request(raw, "error")
            assert reply["error"] == code and words in reply["message"], (raw, reply)
        reply = await outsider.request({"type": "act", "step": 0, "action": 0}, "error")
        assert reply["error"] == "not_seated"
        server.max_tables = 1   # a join that needs a new table beyond the limit is refused
        reply = await outsider.request({"type": "join", "bots": 3}, "error")
        assert reply["error"] == "refused" and "limit" in reply["message"] and len(server.tables) == 1
        # seated clients: acts that are stale, illegal, or not actions (the 定缺 window: all four choose)
        for c in clients:
            await c.expect("state", where=lambda m: bool(m["legal"]))
        mover = clients[0]
        step = mover.state["step"]
        legal = {a["code"] for a in mover.state["legal"]}
        illegal = next(code for code in range(88) if code not in legal)
        for message, code, words in [
            ({"type": "act", "step": step + 1, "action": min(legal)}, "stale", "step"),
            ({"type": "act", "step": step, "action": illegal}, "illegal", "not legal"),
            ({"type": "act", "step": step, "action": 999}, "illegal", "not an action code"),
            ({"type": "act", "step": step, "action": True}, "illegal", "integer code"),
            ({"type": "act", "step": step, "action": "Dance(5m)"}, "illegal", "names no action"),
            ({"type": "act", "step": step, "action": [1]}, "illegal", ""),
            ({"type": "act", "step": step, "action": {"type": "dance"}}, "illegal", "unknown action type"),
            ({"type": "act", "step": step, "action": {"type": "chow", "position": 1}}, "illegal", "not an action of"),
            ({"type": "join"}, "already_seated", "holds seat"),
        ]:
            reply = await mover.request(message, "error")
            assert reply["error"] == code and words in reply["message"], (message, reply)
        assert (json.dumps(table.game.log), table.step) == before
        # a good answer by name is accepted; answering again is refused and changes nothing
        name = mover.state["legal"][0]["name"]
        await mover.request({"type": "act", "step": step, "action": name}, "accepted")
        await clients[1].request({"type": "act", "step": step, "action": clients[1].state["legal"][0]["json"]},
                                 "accepted")   # the engine's JSON form of an action works too
        assert table.game.answer_of(0) is not None and table.game.answer_of(1) is not None
        after = json.dumps(table.game.log), table.step
        # (the 定缺 window is still open for the others) another answer, or a Pass the seat was never
        # offered, is a late answer: `stale`, with no legal list the seat cannot use
        for late in (max(legal), name, "Pass"):
            reply = await mover.request({"type": "act", "step": step, "action": late}, "error")
            assert reply["error"] == "stale" and "legal:" not in reply["message"], reply
        assert (json.dumps(table.game.log), table.step) == after
        await server.close()

    run(main())


def test_leave_for_good_is_settled_by_the_rule_or_played_by_a_bot(tmp_path):
    """A seat that leaves: the ruleset's leave rule settles it when the game has one (Sichuan 逃跑 in
    the rules branch), else a bot plays it; either way a restart from the journal gives the same
    game, and the hand finishes."""
    async def main():
        server = await started(time_limit=5, bots=2, seed=4, log_dir=str(tmp_path))
        a, b = await seated(server, 2, bots=2)
        table = server.tables["t-1"]
        await b.expect("state", where=lambda m: bool(m["legal"]))   # the 定缺 window is open for seat 1
        settles = engine_api.leave_settles(table.game, 1)
        await b.request({"type": "leave"}, "left")
        if settles:
            assert 1 in table.game.left and any(e["type"] == "leave" for e in table.game.events(None))
        else:
            assert table.game.answer_of(1) is not None   # its bot answered at once
        reply = await b.request({"type": "act", "step": 0, "action": 0}, "error")
        assert reply["error"] == "not_seated"
        stale = await (await Client(url(server)).open()).request({"type": "resume", "token": b.token}, "error")
        assert stale["error"] == "unknown_token"
        step, log = table.step, table.game.log
        await server.close()
        again = await started(time_limit=5, log_dir=str(tmp_path))
        restored = again.tables["t-1"]
        assert restored.step == step and restored.game.log == log and restored.seats[1].left
        back = await Client(url(again)).open()
        await back.request({"type": "resume", "token": a.token}, "joined")
        result = await play(back, random.Random(2))
        assert result["type"] == "result" and restored.finished
        await again.close()

    run(main())


class _LeavingGame:
    HAS_LEAVE_RULE = True

    def __init__(self):
        self.left = []

    def leave(self, seat):
        self.left.append(seat)


def test_leave_capability_is_asked_of_the_game_not_the_ruleset_name():
    game = _LeavingGame()
    assert engine_api.leave_settles(game, 2)
    game.HAS_LEAVE_RULE = False
    assert not engine_api.leave_settles(game, 2)
    game.HAS_LEAVE_RULE = True
    game.can_leave = lambda seat: seat == 1
    assert engine_api.leave_settles(game, 1) and not engine_api.leave_settles(game, 2)


def test_result_links_the_replay_viewer_when_viz_is_installed(monkeypatch):
    import types

    viz = types.ModuleType("mahjong_core.viz")
    viz.replay_html = lambda log, seat=None: f"<html>{len(log['actions'])} answers</html>"
    monkeypatch.setitem(sys.modules, "mahjong_core.viz", viz)

    async def main():
        server = await started(time_limit=None, bots=3, seed=6)
        (c,) = await seated(server, 1, bots=3)
        result = await play(c, random.Random(4))
        assert result["replay"] == "/replay/t-1.html" and result["log"] == "/log/t-1.json"
        url = f"http://127.0.0.1:{server.port}{result['replay']}"
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=WAIT).read().decode())
        assert body == f"<html>{len(server.tables['t-1'].game.log['actions'])} answers</html>"
        await server.close()

    run(main())


def test_http_page_and_errors():
    async def main():
        server = await started(time_limit=None)
        base = f"http://127.0.0.1:{server.port}"

        def get(path):
            try:
                with urllib.request.urlopen(base + path, timeout=WAIT) as r:
                    return r.status, r.headers["Content-Type"], r.read().decode()
            except urllib.error.HTTPError as exc:
                return exc.code, exc.headers["Content-Type"], exc.read().decode()

        status, kind, body = await asyncio.to_thread(get, "/")
        assert status == 200 and kind.startswith("text/html") and "<script>" in body
        assert "http://" not in body.replace("location.protocol", "") and "https://" not in body  # no CDN
        assert (await asyncio.to_thread(get, "/log/t-9.json"))[0] == 404
        assert (await asyncio.to_thread(get, "/log/../../etc/passwd"))[0] == 404
        assert (await asyncio.to_thread(get, "/nowhere"))[0] == 404
        status, kind, body = await asyncio.to_thread(get, "/tables")
        assert status == 200 and json.loads(body) == []
        await server.close()

    run(main())


def test_restored_table_is_at_the_same_step(tmp_path):
    async def main():
        server = await started(time_limit=None, bots=3, seed=21, log_dir=str(tmp_path))
        (c,) = await seated(server, 1, bots=3)
        rng = random.Random(3)
        state = await c.expect("state", where=lambda m: bool(m["legal"]))
        for _ in range(6):
            await c.send({"type": "act", "step": state["step"], "action": rng.choice(state["legal"])["code"]})
            state = await c.expect("state", where=lambda m, s=state["step"]: bool(m["legal"]) and m["step"] != s)
        table = server.tables["t-1"]
        step, log, view = table.step, table.game.log, table.game.view(0)
        await server.close()   # the journal stays, as after a crash ...
        with open(tmp_path / "t-1.table.jsonl", "a") as f:
            f.write('[1, 8')      # ... which may tear the line being written
        again = await started(time_limit=None, bots=3, log_dir=str(tmp_path))
        assert again.recovered == ["t-1"]
        restored = again.tables["t-1"]
        assert restored.step == step and restored.game.log["actions"] == log["actions"]
        assert restored.game.view(0) == view
        new = again.new_table()
        assert new.id == "t-2"   # numbering goes on after the restored tables
        back = await Client(url(again)).open()
        back.events = list(c.events)
        await back.request({"type": "resume", "token": c.token, "since": len(c.events)}, "joined")
        resumed = await back.expect("state")
        assert resumed["step"] == step and resumed["legal"] == state["legal"]
        assert back.events == engine_api.events(restored.game, 0)
        await again.close()

    run(main())


def _serve(log_dir, *extra):
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_core", "serve", "--port", "0", "--log-dir", str(log_dir), "--bot-delay", "0",
         "--time-limit", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    line = proc.stdout.readline()
    assert "http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    return proc, port, line


def test_serve_json_reports_where_it_listens_and_when_it_stops(tmp_path):
    """`serve --json --port 0`: a JSON line with the port the system chose and the WebSocket address,
    which a client then joins; SIGINT stops it with a last JSON line and exit status 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_core", "serve", "--json", "--port", "0", "--ruleset", "mcr", "--bots", "3",
         "--bot-delay", "0", "--time-limit", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        line = proc.stdout.readline()
        listening = json.loads(line)
        assert listening["event"] == "listening" and listening["ruleset"] == "mcr" and listening["resumed"] == []
        assert listening["host"] == "127.0.0.1" and listening["port"] > 0
        assert listening["websocket"] == f"ws://127.0.0.1:{listening['port']}/ws"
        assert listening["url"] == f"http://127.0.0.1:{listening['port']}/"

        async def join():
            c = Client(listening["websocket"])
            await c.open()
            await c.request({"type": "join", "bots": 3}, "joined")
            await c.expect("state")
            await c.close()

        run(join())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)
    assert proc.returncode == 0, err
    assert [json.loads(x) for x in out.splitlines()] == [{"event": "stopped"}]


def test_crash_and_restart_from_saved_logs(tmp_path):
    """A server killed with SIGKILL mid-hand is restarted on its log dir: every table resumes at the same
    step and its players resume their seats with their tokens."""
    proc, port, _ = _serve(tmp_path, "--bots", "3", "--seed", "5")
    try:
        async def first():
            tokens, steps = [], []
            for _ in range(2):
                c = Client(f"ws://127.0.0.1:{port}/ws")
                await c.open()
                await c.request({"type": "join", "bots": 3}, "joined")
                state = await c.expect("state", where=lambda m: bool(m["legal"]))
                for _ in range(3):   # a few answers, then the crash
                    await c.send({"type": "act", "step": state["step"], "action": state["legal"][0]["code"]})
                    state = await c.expect(
                        "state", where=lambda m, s=state["step"]: bool(m["legal"]) and m["step"] != s)
                tokens.append((c.token, c.messages[0]))
                steps.append(state["step"])
            return tokens, steps

        tokens, steps = run(first())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(WAIT)
    assert sorted(os.listdir(tmp_path)) == ["t-1.table.jsonl", "t-2.table.jsonl"]
    proc, port, line = _serve(tmp_path)
    try:
        assert "resumed t-1, t-2" in line

        async def second():
            for (token, _), step in zip(tokens, steps):
                c = Client(f"ws://127.0.0.1:{port}/ws")
                await c.open()
                await c.request({"type": "resume", "token": token}, "joined")
                state = await c.expect("state")
                assert state["step"] == step and state["legal"]
                assert await play(c, random.Random(0)) is not None
                await c.close()   # else the server's shutdown waits out its close timeout (10 s) for us

        run(second())
    finally:
        proc.terminate()
        proc.wait(WAIT)
    assert sorted(os.listdir(tmp_path)) == ["t-1.json", "t-2.json"]
    for name in ("t-1.json", "t-2.json"):
        with open(tmp_path / name) as f:
            log = json.load(f)
        assert log["finished"] and engine_api.verified_replay(log).ledger.to_json() == log["ledger"]


def test_a_journal_that_does_not_replay_is_refused(tmp_path):
    async def main():
        server = await started(time_limit=None, bots=3, seed=2, log_dir=str(tmp_path))
        (c,) = await seated(server, 1, bots=3)
        await c.expect("state", where=lambda m: bool(m["legal"]))
        await server.close()

    run(main())
    path = tmp_path / "t-1.table.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + ['[0, 999, 5]', '[1, 0, 5]']) + "\n")   # an answer never legal
    with pytest.raises(engine_api.ReplayError, match="does not replay: 999 is not an action code"):
        TableServer("sichuan", port=0, log_dir=str(tmp_path)).recover()


def test_protocol_parser_rejects_before_anything_runs():
    assert parse_message('{"type": "act", "step": 3, "action": "Pass"}')["step"] == 3
    with pytest.raises(ProtocolError, match="unknown field"):
        parse_message('{"type": "leave", "now": true}')


def test_missing_websockets_names_the_extra():
    code = ("import sys; sys.modules['websockets'] = None; sys.modules['websockets.asyncio'] = None\n"
            "sys.modules['websockets.asyncio.server'] = None\n"
            "import mahjong_core, mahjong_core.server\n"
            "assert 'websockets' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
            "from mahjong_core.server import TableServer\n"
            "import asyncio\n"
            "try:\n    asyncio.run(TableServer('sichuan', port=0).start())\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=WAIT, cwd="/")
    assert 'pip install "mahjong_core[server]"' in out.stdout, out.stderr
    out = subprocess.run([sys.executable, "-c", "import mahjong_core, sys; import mahjong_core.game; "
                          "print('websockets' in sys.modules)"], capture_output=True, text=True, timeout=WAIT, cwd="/")
    assert out.stdout.strip() == "False"


def test_serve_command_is_registered():
    out = subprocess.run([sys.executable, "-m", "mahjong_core", "serve", "--help"], capture_output=True, text=True,
                         timeout=WAIT, cwd="/")
    assert out.returncode == 0 and "--time-limit" in out.stdout and "--log-dir" in out.stdout
