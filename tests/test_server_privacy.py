"""What a seat learns of the other seats' questions through the table server: nothing.

The engine opens a claim window only when some seat can take the discard, so who is asked there is
hidden information. A seat that is not asked must get exactly the messages it would get had no
window opened (docs/SERVER.md, "Steps, time limits, bots"), and no reply may name another seat's
question or legal actions.
"""

from __future__ import annotations

import asyncio
import json
import os
import re

import pytest

pytest.importorskip("websockets", reason='the server tests need the [server] extra: pip install "mahjong_core[server]"')

from mahjong_core.server import TableServer, engine_api  # noqa: E402
from server_clients import WAIT, Client  # noqa: E402

OBSERVER, CLAIMER = 0, 1   # the two people at the table; seats 2 and 3 are bots
SEED = 4                   # a hand in which the claimer is asked in claim windows the observer is not
PRIVATE = {"claim", "rob", "last_draw"}   # (and a declared seat's turn: `_private`)


def _private(game) -> bool:
    """A question that exists only because of someone's hidden tiles (docs/ENGINE.md, "Private
    decision points"): a claim or rob window, a Changbai last draw that wins, a declared-ready seat's
    turn (asked only when its drawn tile wins or makes a kong)."""
    phase = _phase(game)
    return phase in PRIVATE or (phase == "turn" and game.declared[game.turn])


def run(coro, timeout: float = 90):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def _phase(game) -> str:
    return game.view(0)["phase"]


def _silent_window(game) -> bool:
    """A claim window the observer is not asked in (the question the test hides from it)."""
    return _private(game) and OBSERVER not in game.pending() and game.answer_of(OBSERVER) is None


def _choose(seat: int, legal: list):
    """The observer takes its first legal action; the claimer passes every claim."""
    names = [a["name"] for a in legal]
    if seat == CLAIMER and "Pass" in names:
        return "Pass"
    return names[0]


def expected_observer_messages(initial, history) -> list:
    """The observer's messages in a world without the windows it is not asked in (the claimer passed
    each of them, so the hand is the same): a state at every decision point a person answers in that
    world, its step id the number of public decision points (turns, 定缺) before it; built from the
    engine alone, replaying the hand's answers."""
    game = initial
    out, sent, last, public_ids, point = [], game.event_count(), None, -1, None   # (the deal was sent before)

    def note():
        nonlocal public_ids, point
        if not _private(game) and game.step != point:
            public_ids, point = public_ids + 1, game.step

    def tell():
        nonlocal sent, last
        events = game.events(OBSERVER, sent)
        if events:
            out.append(("events", sent, events))
            sent += len(events)
        legal = [game.space.code(a) for a in game.legal_actions(OBSERVER)]
        view = dict(game.view(OBSERVER), step=public_ids)
        if (public_ids, legal) != last or events:
            out.append(("state", public_ids, view, legal))
            last = (public_ids, legal)

    note()
    for seat, action in history:
        person = seat in (OBSERVER, CLAIMER)
        # (the server tells the observer nothing while a private question it has no open part in —
        # not asked, or answered already — waits for the claimer)
        if person and not (seat == CLAIMER and _private(game) and OBSERVER not in game.pending()):
            tell()
            if seat == OBSERVER:
                out.append(("accepted", public_ids, game.space.code(action)))
        game.act(seat, action)
        note()
    tell()
    out.append(("result",))
    return out


def silent_kinds(game, history) -> set:
    """The kinds of question the observer was not asked in (bots' included), replaying the hand."""
    kinds = set()
    for seat, action in history:
        if _silent_window(game):
            kinds.add("declared turn" if _phase(game) == "turn" else _phase(game))
        game.act(seat, action)
    return kinds


def received(client: Client) -> list:
    """The client's messages since the table started, in the form of `expected_observer_messages`."""
    out = []
    started = False
    for m in client.messages:
        started = started or (m["type"] == "state" and m["started"])
        if not started:
            continue
        if m["type"] == "events":
            out.append(("events", m["since"], m["events"]))
        elif m["type"] == "state":
            out.append(("state", m["step"], m["view"], [a["code"] for a in m["legal"]]))
        elif m["type"] == "accepted":
            out.append(("accepted", m["step"], m["action"]["code"]))
        elif m["type"] == "result":
            out.append(("result",))
    return out


async def _answer(client: Client, table) -> None:
    """`client` answers its open question (waiting for the state that asks it)."""
    while not (client.state and client.state["legal"] and client.state["step"] == table.step
               and client.state is not getattr(client, "answered", None)):
        await client.recv()
    client.answered = client.state
    action = _choose(client.seat, client.state["legal"])
    await client.request({"type": "act", "step": client.state["step"], "action": action}, "accepted")


@pytest.mark.parametrize("ruleset, seed, kinds", [
    ("sichuan", SEED, {"claim"}),
    # Changbai: a declared-ready seat's turn, a last draw that wins, asked of others than the observer
    ("changbai", 8, {"claim", "declared turn"}),
    ("changbai", 12, {"last_draw"}),
])
def test_a_seat_not_asked_in_a_claim_window_sees_nothing_of_it(ruleset, seed, kinds):
    async def main():
        server = TableServer(ruleset, port=0, time_limit=None, bots=2, seed=seed - 1, bot_delay=0)
        await server.start()
        clients = []
        for seat in (OBSERVER, CLAIMER):
            c = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
            join = {"type": "join", "bots": 2} if seat == OBSERVER else {"type": "join", "table": "t-1"}
            await c.request(join, "joined")
            clients.append(c)
        table = server.tables["t-1"]
        initial = engine_api.checked_replay(dict(table.game.log, actions=[]))
        observer, probes = clients[OBSERVER], []
        while not table.finished:
            people = sorted(s for s in table.game.pending() if s in (OBSERVER, CLAIMER))
            if _silent_window(table.game):
                # the observer, told nothing, tries an answer and asks for the tables: the replies
                # must be those of a moment without the window
                reply = await observer.request({"type": "act", "step": table.step, "action": "Pass"}, "error")
                probes.append(reply)
                tables = await observer.request({"type": "tables"}, "tables")
                assert tables["tables"][0]["step"] == table.step + 1   # as if the turn had moved on
            await _answer(clients[people[0]], table)
        await observer.expect("result")
        history = table.game.answer_history()
        await server.close()
        return initial, history, observer, probes

    initial, history, observer, probes = run(main())
    seen = silent_kinds(engine_api.checked_replay(dict(initial.log)), history)
    assert kinds <= seen, f"{ruleset} seed {seed}: the observer met no silent {kinds - seen}; pick another seed"
    for reply in probes:
        assert reply["error"] == "stale" and reply["request"] == "act", reply
        assert re.findall(r"seat \d", reply["message"]) == [f"seat {OBSERVER}"], reply["message"]
        assert "legal:" not in reply["message"] and "waiting" not in reply["message"]
    got = received(observer)
    assert all(m[3] for m in got if m[0] == "state" and (m[2]["phase"] in PRIVATE or (
        m[2]["phase"] == "turn" and m[2]["declared"][m[2]["turn"]])))   # only its own windows
    assert got == expected_observer_messages(initial, history)


# --- tables nobody comes to ---------------------------------------------------------------------

def test_a_table_that_never_starts_goes_away_and_does_not_count_toward_the_limit(tmp_path):
    async def main():
        server = TableServer("sichuan", port=0, time_limit=None, max_tables=3, log_dir=str(tmp_path))
        server.abandoned_grace = 0.3
        await server.start()
        address = f"ws://127.0.0.1:{server.port}/ws"
        tokens = []
        for _ in range(3):
            c = await Client(address).open()
            tokens.append((await c.request({"type": "join", "bots": 0}, "joined"))["token"])
            await c.close()
        await asyncio.sleep(0.1)
        # inside the grace period a closed seat can be resumed (a page reload) ...
        again = await Client(address).open()
        assert (await again.request({"type": "resume", "token": tokens[0]}, "joined"))["table"] == "t-1"
        # ... and the tables nobody holds do not count toward the limit
        new = await Client(address).open()
        assert (await new.request({"type": "join", "bots": 3}, "joined"))["table"] == "t-4"
        await asyncio.sleep(0.6)
        assert sorted(server.tables) == ["t-1", "t-4"]   # t-2, t-3 are gone, with their journals
        assert sorted(os.listdir(tmp_path)) == ["t-1.table.jsonl", "t-4.table.jsonl"]
        gone = await Client(address).open()
        assert (await gone.request({"type": "resume", "token": tokens[1]}, "error"))["error"] == "unknown_token"
        third = await Client(address).open()   # t-1 (held again), t-4, t-5: the limit
        assert (await third.request({"type": "join", "bots": 3}, "joined"))["table"] == "t-5"
        assert (await gone.request({"type": "join", "bots": 3}, "error"))["error"] == "refused"
        await again.close()   # t-1 has not started: nobody holds it now, so it stops counting at once
        await asyncio.sleep(0.1)
        assert (await gone.request({"type": "join", "bots": 3}, "joined"))["table"] == "t-6"
        await asyncio.sleep(0.6)
        assert "t-1" not in server.tables
        await server.close()

    run(main())


# --- resuming, replacing ------------------------------------------------------------------------

def test_resuming_a_finished_hand_sends_its_result():
    async def main():
        server = TableServer("sichuan", port=0, time_limit=None, bots=3, seed=4, bot_delay=0)
        await server.start()
        c = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
        await c.request({"type": "join", "bots": 3}, "joined")
        while True:
            m = await c.expect("state")
            if m["view"]["finished"]:
                break
            if m["legal"]:
                await c.send({"type": "act", "step": m["step"], "action": m["legal"][0]["code"]})
        result = await c.expect("result")
        await c.close()
        for since in (0, len(c.events)):
            back = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
            await back.request({"type": "resume", "token": c.token, "since": since}, "joined")
            state = await back.expect("state")
            assert state["view"]["finished"]
            assert await back.expect("result") == result
            await back.close()
        await server.close()

    run(main())


def test_a_replaced_connection_is_told_and_closed():
    async def main():
        server = TableServer("sichuan", port=0, time_limit=None, bots=3, seed=4)
        await server.start()
        first = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
        await first.request({"type": "join", "bots": 3}, "joined")
        second = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
        await second.request({"type": "resume", "token": first.token}, "joined")
        replaced = await first.expect("error")
        assert replaced["error"] == "replaced"
        with pytest.raises(Exception) as closed:
            while True:
                await first.recv(WAIT)
        assert type(closed.value).__name__.startswith("ConnectionClosed")
        assert first.ws.close_code == 4000
        await server.close()

    run(main())


# --- the JSON of the protocol -------------------------------------------------------------------

@pytest.mark.parametrize("raw, code, words, request_type", [
    ('{"type": "join", "bots": 4}', "bad_field", '"bots" must be 0..3', "join"),
    ('{"type": "resume", "since": 1}', "bad_field", 'missing field "token"', "resume"),
    ('{"type": "ping", "id": NaN}', "malformed", "NaN is not JSON", None),
    ('{"type": "ping", "id": -Infinity}', "malformed", "-Infinity is not JSON", None),
    ('{"type": "ping", "id": 1e999}', "malformed", "too large", None),
    ('{"type": "ping", "type": "join"}', "malformed", 'key "type" appears twice', None),
    ('{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}", "malformed", "nested too deeply", None),
    # (deeper than a message needs, shallower than any decoder's own limit: refused on every Python)
    ('{"type": "ping", "id": ' + "[" * 40 + "]" * 40 + "}", "malformed", "nested too deeply", None),
    ("null", "malformed", "got null", None),
    ("[1]", "malformed", "got array", None),
    ('{"type": "act", "step": 0, "action": null}', "not_seated", "", "act"),
])
def test_strict_json_and_errors_that_name_the_request(raw, code, words, request_type):
    async def main():
        server = TableServer("sichuan", port=0, time_limit=None)
        await server.start()
        c = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
        reply = await c.request(raw, "error")
        await server.close()
        return reply

    reply = run(main())
    assert reply["error"] == code and words in reply["message"], reply
    assert reply["request"] == request_type


def test_actions_of_the_wrong_json_type_are_named_in_json_terms():
    async def main():
        server = TableServer("sichuan", port=0, time_limit=None, bots=3, seed=2)
        await server.start()
        c = await Client(f"ws://127.0.0.1:{server.port}/ws").open()
        await c.request({"type": "join", "bots": 3}, "joined")
        state = await c.expect("state", where=lambda m: bool(m["legal"]))
        replies = [await c.request({"type": "act", "step": state["step"], "action": value}, "error")
                   for value in (None, 1.5, True, [1])]
        await server.close()
        return replies

    for reply, shown in zip(run(main()), ("got null", "got number", "got true", "got array")):
        assert reply["error"] == "illegal" and reply["message"].endswith(shown), reply
        assert "NoneType" not in reply["message"] and "float" not in reply["message"]


# --- a client that does not read ----------------------------------------------------------------

def test_a_client_that_does_not_read_is_closed(monkeypatch):
    """Its queue of unread messages is bounded: past the limit the server closes it (code 4001)."""
    from websockets.asyncio.client import connect

    from mahjong_core.server import server as server_module

    monkeypatch.setattr(server_module, "QUEUE_LIMIT", 100_000)

    async def main():
        server = TableServer("sichuan", port=0, time_limit=None)
        await server.start()
        ws = await asyncio.wait_for(connect(f"ws://127.0.0.1:{server.port}/ws", max_queue=1), WAIT)
        ws.transport.pause_reading()   # reads nothing more: the pongs pile up
        ping = json.dumps({"type": "ping", "id": "y" * 4000})
        for _ in range(4000):   # 16 MB of pongs: more than the socket buffers take, and bounded
            await asyncio.wait_for(ws.send(ping), WAIT)
        ws.transport.resume_reading()
        pongs = 0
        with pytest.raises(Exception) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), WAIT)
                pongs += 1
        assert type(closed.value).__name__.startswith("ConnectionClosed"), closed.value
        assert ws.close_code == server_module.CLOSE_NOT_READING and pongs < 4000
        await server.close()

    run(main())
