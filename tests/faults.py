"""A TCP proxy of the test's own, between our code and a real service (the shared
PostgreSQL or Mosquitto), for injecting faults without touching the service: the shared
services are never stopped or restarted (other runs use them).

Modes, switched at any moment:

- ``up``: bytes pass both ways.
- ``cut``: every connection is closed at once (both sides), and new ones are closed as
  they arrive: a network that refuses connections.
- ``blackhole``: connections stay open and new ones are accepted, but nothing passes
  either way and nothing is answered: a network that silently drops packets (a cable
  pulled, a firewall), the fault that only a timeout notices. What is sent meanwhile is
  held, as TCP's retransmissions would deliver it, and goes on once the network is
  back, on the connections still open.
- ``lose_replies``: what the client sends reaches the service, what the service answers
  is thrown away: a commit that is carried out but whose reply is lost.

:meth:`Proxy.lose_reply_then_cut` is the lost reply of issue 29: the next answer the
service sends is dropped and the connections are cut, so the client cannot know whether
its last request was carried out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Literal

Mode = Literal["up", "cut", "blackhole", "lose_replies"]

__all__ = ["Mode", "Proxy", "proxy"]


class Proxy:
    """Listens on 127.0.0.1 (a free port) and forwards to ``host:port``."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.mode: Mode = "up"
        self.listen_port = 0
        self.accepted = 0
        self.replies_lost = 0
        """Chunks of the service's answers thrown away (``lose_replies``, and by
        :meth:`lose_reply_then_cut`)."""
        self._server: asyncio.Server | None = None
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._cut_after_reply = False
        self._reply_lost = asyncio.Event()
        self._flowing = asyncio.Event()  # clear while blackholed
        self._flowing.set()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.listen_port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.listen_port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self.set("cut")
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def set(self, mode: Mode) -> None:
        """Switch to ``mode`` now (``cut`` closes every open connection)."""
        self.mode = mode
        if mode == "blackhole":
            self._flowing.clear()
        else:
            self._flowing.set()
        if mode == "cut":
            for client, service in list(self._pairs):
                _abort(client)
                _abort(service)
            self._pairs.clear()

    async def lose_reply_then_cut(self, timeout: float = 10.0) -> None:
        """Drop the next chunk the service sends, then cut every connection; returns once
        that has happened (``TimeoutError`` if no answer came within ``timeout``)."""
        self._reply_lost.clear()
        self._cut_after_reply = True
        async with asyncio.timeout(timeout):
            await self._reply_lost.wait()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        await self._flowing.wait()  # a blackhole answers no new connection either
        if self.mode == "cut":
            _abort(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            _abort(writer)
            return
        pair = (writer, up_writer)
        self._pairs.add(pair)
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._pipe(reader, up_writer, upstream=True))
                group.create_task(self._pipe(up_reader, writer, upstream=False))
        except* (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._pairs.discard(pair)
            _abort(writer)
            _abort(up_writer)

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, upstream: bool
    ) -> None:
        while True:
            data = await reader.read(65536)
            if not data:
                _abort(writer)
                return
            await self._flowing.wait()  # held while blackholed
            if self.mode == "cut":
                return
            if not upstream and self._cut_after_reply:
                self._cut_after_reply = False
                self.replies_lost += 1
                self.set("cut")
                self.mode = "up"  # the next connection gets through again
                self._reply_lost.set()
                return
            if not upstream and self.mode == "lose_replies":
                self.replies_lost += 1
                continue
            writer.write(data)
            await writer.drain()


def _abort(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        writer.transport.abort()


@contextlib.asynccontextmanager
async def proxy(host: str, port: int) -> AsyncIterator[Proxy]:
    """A :class:`Proxy` to ``host:port`` for the duration of the block."""
    found = Proxy(host, port)
    await found.start()
    try:
        yield found
    finally:
        await found.stop()
