"""Malformed HTTP on the websocket port (issue 29 item 15, which found a traceback per bad
request on the Slumbot-style API's port): each gets an HTTP error or a closed connection,
none writes a traceback to the log (at INFO, websockets' one line a connection at most),
and the server serves the next client as ever. A real server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest
from websockets.asyncio.client import connect

from server.app import PokerServer
from tests.helpers import ask

UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)
MALFORMED = [
    b"GARBAGE\r\n\r\n",  # no request line
    b"GET /ws HTTP/1.0\r\n\r\n",  # an HTTP version websockets does not speak
    b"GET /ws HTTP/1.1\r\nHost x\r\n\r\n",  # a header without its colon
    b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",  # a path that is not text
    b"GET /ws HTTP/1.1\r\nHost: \xff\r\n\r\n",  # a header that is not text
    b"POST /ws HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",  # a body
    b"GET /ws HTTP/1.1\r\n" + b"X: " + b"a" * 10_000 + b"\r\n\r\n",  # a header too long
    b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\n\r\n",  # a path too long
    b"GET /ws HTTP/1.1\r\n" + b"".join(b"X%d: y\r\n" % i for i in range(300)) + b"\r\n",
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    UPGRADE.replace(b"dGhlIHNhbXBsZSBub25jZQ==", b"bad") + b"\r\n",  # a bad key
    UPGRADE + b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99\r\n\r\n",
    UPGRADE + b"\r\nGARBAGE AFTER THE HANDSHAKE",  # not a websocket frame
    UPGRADE + b"\r\n\x81\xff" + b"\xff" * 8 + b"abcd",  # a frame of 2**64 - 1 bytes
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(64)),  # TLS on the plain port
    b"\r\n\r\n\r\n",
    b"",  # connected, and gone
]


async def send_raw(port: int, data: bytes) -> bytes:
    """Send ``data`` and return what came back before the server closed (or 2 s passed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        if not data:
            writer.write_eof()
        await writer.drain()
        with contextlib.suppress(TimeoutError, ConnectionError):
            async with asyncio.timeout(2.0):
                return await reader.read(4096)
        return b""
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_malformed_http_gets_an_answer_and_no_traceback(
    app: tuple[PokerServer, str], caplog: pytest.LogCaptureFixture
) -> None:
    _, address = app
    port = int(address.rsplit(":", 1)[1])
    caplog.set_level(logging.INFO)
    answers = [await send_raw(port, data) for data in MALFORMED]
    await asyncio.sleep(0.2)  # the handshakes' last log lines
    for data, answer in zip(MALFORMED, answers, strict=True):
        assert answer == b"" or answer.startswith(b"HTTP/1.1 "), (data[:40], answer[:80])
    # Websockets' own answers: a status for what it could read, the connection closed
    # for what it could not.
    statuses = {a.split(b" ", 2)[1] for a in answers if a}
    assert statuses >= {b"400", b"431", b"414", b"505"}, statuses
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    assert all(r.levelno < logging.WARNING for r in caplog.records), [
        (r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.WARNING
    ]
    async with connect(f"ws://{address}/ws") as ws:  # and the next client is served
        assert (await ask(ws, {"type": "ping"}))["type"] == "pong"
