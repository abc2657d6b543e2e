"""Spectators that never read, against a real ``pokerroom serve --demo`` (issue 29 item 7):
each costs the server at most what docs/operations.md promises (``outbox_bytes``, 1 MiB),
the server closes them itself while they are still connected, the memory comes back once
they have gone, and the table plays on at >= 0.9 of its hand rate meanwhile.

CI runs ``POKERROOM_STRESS_SLOW_READERS`` of them (default 100; ``make stress``: 300)
against an ``outbox_bytes`` of ``POKERROOM_STRESS_OUTBOX_BYTES`` (default 256 KiB, so that
they fill it four times sooner; ``make stress``: the server's own 1 MiB).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.settings import ServerSettings
from tests.stress.serving import Served, serve
from tests.stress.test_connections import KB_PER_CONNECTION

READERS = int(os.environ.get("POKERROOM_STRESS_SLOW_READERS", "100"))
OUTBOX_BYTES = int(os.environ.get("POKERROOM_STRESS_OUTBOX_BYTES", str(256 << 10)))
assert ServerSettings().outbox_bytes >= OUTBOX_BYTES  # the server's own, or less
KB_LEFT_EACH = KB_PER_CONNECTION
"""What a spectator gone may leave of the server's memory: as much as an idle connection
costs while it is open (tests/stress/test_connections.py). While open, one that never
reads may cost that and :data:`OUTBOX_BYTES` waiting for it."""
CLOSED_WITHIN = 80.0
"""Seconds by which the server has closed every spectator that never reads: websockets'
keepalive ping (20 s) unanswered for 20 s, its close frame unread for 10 s, and the time
the kernel's socket buffers (megabytes on loopback) take to fill first."""


def masked(text: str) -> bytes:
    """A client's text frame (RFC 6455: masked)."""
    payload, mask = text.encode(), os.urandom(4)
    size = len(payload)
    head = (
        bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + struct.pack("!H", size)
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def spectator(served: Served) -> socket.socket:
    """A socket that upgrades and asks to watch the demo table; whether it reads what
    comes is the caller's to say (a small receive buffer: the kernel holds little)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, (served.host, served.port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(sock, (
        f"GET /ws HTTP/1.1\r\nHost: {served.host}:{served.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode())  # fmt: skip
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += await loop.sock_recv(sock, 4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    await loop.sock_sendall(sock, masked(json.dumps({"type": "spectate", "table": "demo"})))
    return sock


def open_sockets(served: Served) -> int:
    """How many sockets the server process has open."""
    fds = Path(f"/proc/{served.proc.pid}/fd")
    found = 0
    for fd in fds.iterdir():
        with contextlib.suppress(OSError):
            found += os.readlink(fd).startswith("socket:")
    return found


class Watcher:
    """A spectator that reads everything and notes when each hand ends."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ended: list[float] = []
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        await self.ws.send(json.dumps({"type": "spectate", "table": "demo"}))
        async for raw in self.ws:
            m = json.loads(raw)
            if m["type"] == "event" and m["event"]["type"] == "hand_ended":
                self.ended.append(time.monotonic())

    def rate(self, start: float, end: float) -> float:
        return sum(start <= t < end for t in self.ended) / (end - start)


async def drain(sock: socket.socket) -> None:
    """Read (and drop) whatever comes, until the connection closes."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(OSError):
        while await loop.sock_recv(sock, 1 << 16):
            pass


@pytest.mark.alone  # the table's hand rates compared
async def test_spectators_that_never_read_are_bounded_closed_and_given_back(
    tmp_path: Path,
) -> None:
    """The table's pace with them is compared with its pace with as many spectators that
    read: each costs the table its share of every event, read or not (on this machine
    100 of them take a 16-hands-a-second table to about 0.88 of its pace)."""
    async with (
        serve(tmp_path, house_think_seconds=0.005, outbox_bytes=OUTBOX_BYTES) as served,
        connect(served.address) as ws,
    ):
        watcher = Watcher(ws)
        await asyncio.sleep(3.0)  # under way: tables, caches, the allocator's pools
        started = time.monotonic()
        await asyncio.sleep(5.0)
        alone = watcher.rate(started, time.monotonic())
        rss_base, sockets_base = served.rss_kb(), open_sockets(served)
        silent = [await spectator(served) for _ in range(READERS)]
        flood_began = time.monotonic()
        peak, closed_at = served.rss_kb(), None
        while time.monotonic() - flood_began < CLOSED_WITHIN:
            await asyncio.sleep(0.5)
            peak = max(peak, served.rss_kb())
            if open_sockets(served) <= sockets_base:
                closed_at = time.monotonic() - flood_began
                break
        with_silent = watcher.rate(flood_began, time.monotonic())
        for sock in silent:  # they go: from the server's side, gone already
            sock.close()
        await asyncio.sleep(3.0)
        rss_left = served.rss_kb()
        readers = [await spectator(served) for _ in range(READERS)]
        reading = [asyncio.create_task(drain(sock)) for sock in readers]
        await asyncio.sleep(1.0)
        started = time.monotonic()
        await asyncio.sleep(8.0)
        with_readers = watcher.rate(started, time.monotonic())
        for task, sock in zip(reading, readers, strict=True):
            task.cancel()
            sock.close()
        watcher.task.cancel()
        await served.stop()
    # What the spectators held at the peak is what was there then and had gone once they
    # had (the table's own growth meanwhile, its log and the database's cache, stays).
    peak_each, left_each = (peak - rss_left) / READERS, (rss_left - rss_base) / READERS
    print(
        f"\n{READERS} spectators that never read: RSS {rss_base} -> peak {peak} KB "
        f"({peak_each:.0f} KB each at most), {rss_left} KB after they went ({left_each:.1f} KB "
        f"each); all closed by the server after {closed_at} s; demo table {alone:.2f} "
        f"hands/s alone, {with_readers:.2f} with {READERS} that read, {with_silent:.2f} "
        f"with those that do not ({with_silent / with_readers:.2f})"
    )
    assert closed_at is not None, "the server kept connections that never read"
    assert peak_each < OUTBOX_BYTES / 1024 + KB_PER_CONNECTION
    assert left_each < KB_LEFT_EACH
    assert with_silent >= 0.9 * with_readers, (alone, with_readers, with_silent)
