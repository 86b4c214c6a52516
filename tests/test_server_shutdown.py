"""Closing the table server does not wait on sockets that never asked for anything.

Browsers open spare TCP connections to a server they have talked to (speculative pre-connects) and
may never send a request on them. websockets' close waited for each such socket's opening handshake
to time out (`open_timeout`, 10 s), so `mahjong-core serve` hung for 10 s on Ctrl-C with a browser
tab open. `TableServer.close()` aborts those sockets; a real client still gets its close handshake.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("websockets", reason='the server tests need the [server] extra: pip install "mahjong_core[server]"')

from mahjong_core.server import TableServer  # noqa: E402

#: websockets' default opening-handshake time-out, which close() used to wait out per idle socket
OPEN_TIMEOUT = 10.0


async def _started() -> TableServer:
    server = TableServer("sichuan", host="127.0.0.1", port=0)
    await server.start()
    return server


def test_close_drops_a_socket_that_never_sent_a_request():
    async def scenario():
        server = await _started()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await asyncio.sleep(0.05)  # the server has accepted it and waits for the HTTP request
        # Half the handshake time-out: the old close() could not return before the full 10 s.
        await asyncio.wait_for(server.close(), OPEN_TIMEOUT / 2)
        data = await asyncio.wait_for(reader.read(), OPEN_TIMEOUT / 2)  # the server's end is gone
        writer.close()
        return data

    try:
        data = asyncio.run(scenario())
    except ConnectionResetError:
        data = b""   # an abort may reach the client as a reset rather than an end of stream
    assert data == b""


def test_an_open_connection_still_gets_the_close_handshake():
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async def scenario():
        server = await _started()
        idle_reader, idle_writer = await asyncio.open_connection("127.0.0.1", server.port)
        async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            await asyncio.wait_for(server.close(), OPEN_TIMEOUT / 2)
            with pytest.raises(ConnectionClosed) as closed:
                while True:   # the server's greeting frames first, then the close
                    await asyncio.wait_for(ws.recv(), OPEN_TIMEOUT / 2)
        idle_writer.close()
        return closed.value.rcvd

    received = asyncio.run(scenario())
    assert received is not None and received.code == 1001   # "going away", sent by the server
