"""WebSocket test clients for the table server tests and the load bench (not a test module).

Every wait has a timeout: a test that would hang fails instead.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Callable, Dict, List, Optional

from websockets.asyncio.client import connect

WAIT = 20.0  # seconds: the longest any single wait in these tests may take


class Client:
    """One WebSocket client: keeps every message it got; `expect` waits for one of a type."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws: Any = None
        self.messages: List[Dict[str, Any]] = []
        self._seen = 0
        self.events: List[Dict[str, Any]] = []
        self.token: Optional[str] = None
        self.seat = -1
        self.state: Optional[Dict[str, Any]] = None

    async def open(self) -> "Client":
        self.ws = await asyncio.wait_for(connect(self.url), WAIT)
        hello = await self.expect("hello")
        assert hello["protocol"] == "mahjong_core.server/1"
        assert hello["limits"]["message_chars"] == 4096 and hello["limits"]["frame_bytes"] == 65536  # (SERVER.md)
        return self

    async def close(self) -> None:
        await asyncio.wait_for(self.ws.close(), WAIT)

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def recv(self, timeout: float = WAIT) -> Dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self._note(message)
        self.messages.append(message)
        return message

    def _note(self, m: Dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "joined":
            self.token, self.seat = m["token"], m["seat"]
        elif kind == "events":
            assert m["since"] == len(self.events), (m["since"], len(self.events))
            self.events.extend(m["events"])
        elif kind == "state":
            self.state = m

    async def expect(self, kind: str, timeout: float = WAIT, where: Optional[Callable[[Dict[str, Any]], bool]] = None
                     ) -> Dict[str, Any]:
        """The first message of `kind` (and matching `where`) not returned yet; earlier ones are kept."""
        deadline = time.monotonic() + timeout
        while True:
            for i in range(self._seen, len(self.messages)):
                m = self.messages[i]
                if m["type"] == kind and (where is None or where(m)):
                    self._seen = i + 1
                    return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind!r} message within {timeout}s; last: {self.messages[-3:]}")
            await self.recv(left)

    async def request(self, message: Any, kind: str) -> Dict[str, Any]:
        self._seen = len(self.messages)
        await self.send(message)
        return await self.expect(kind)

    def my_turn(self) -> bool:
        return bool(self.state and self.state["legal"])


async def play(client: Client, rng: random.Random, *, skip: int = 0, stop_after: Optional[int] = None,
               latencies: Optional[List[float]] = None) -> Optional[Dict[str, Any]]:
    """Answer every decision with a random legal action until the result (returned).

    `skip`: the first `skip` decisions are left unanswered (the server's time limit answers them).
    `stop_after`: return None after that many answers (to drop the connection mid-hand).
    `latencies`: the time from sending an answer to the server's "accepted" is appended."""
    answered, skipped, last_step = 0, 0, -1
    sent_at = 0.0
    backlog = [client.state] if client.state and client.state["legal"] else []  # a state already received
    while True:
        m = backlog.pop() if backlog else await client.recv()
        kind = m["type"]
        if kind == "result":
            return m
        if kind == "accepted" and latencies is not None:
            latencies.append(time.perf_counter() - sent_at)
        if kind == "error" and m["error"] != "stale":
            raise AssertionError(f"seat {client.seat}: {m}")
        if kind == "state" and m["legal"] and m["step"] != last_step:
            last_step = m["step"]
            if skipped < skip:
                skipped += 1
                continue
            if stop_after is not None and answered >= stop_after:
                return None
            sent_at = time.perf_counter()
            await client.send({"type": "act", "step": m["step"], "action": rng.choice(m["legal"])["code"]})
            answered += 1
