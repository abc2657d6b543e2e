"""Connections: one :class:`Session` per websocket, its rate bucket and send buffer, and
the loop that reads its messages.

Everything here is about one connection and nothing else: what a message means is
:mod:`server.routing`'s business, and the tables never wait for a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import datetime as dt
import functools
import ipaddress
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from server import protocol
from server.errors import Code
from server.settings import ServerSettings
from server.tables import Player

T = TypeVar("T")

POLICY_VIOLATION = 1008  # RFC 6455: the close code for a client that breaks the rules
OPEN = State.OPEN  # looked up once: an enum member costs a descriptor call per access
SLOW_CLOSE_SECONDS = 5.0
"""How long a client closed for not reading has to read what waits for it and the close
frame, before its connection is dropped and its buffer freed."""
BEHIND_SECONDS = 0.05
"""How long a client that is behind (bytes still wait in its transport) waits for its next
write: its messages go out together, 20 writes a second at most, not one a turn of the
event loop. Under uvloop each write waiting in the transport costs its own buffer, request
and bookkeeping: 100 spectators that never read, on the demo table, held 2.7 MB each for
1 MiB of messages."""


class Bucket:
    """Token bucket: ``rate`` messages a second on average, bursts of ``burst``; every
    message takes a token. Each of the server's own action requests adds one (up to
    :data:`ANSWERS` beyond the burst), which its answer spends: a bot answering a fast
    table is never refused, and still has the whole rate for its other messages, while a
    client sending more than it is asked for is refused."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        if self.tokens < self.burst:  # the rate refills up to the burst, no further
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def asked(self) -> None:
        """The server has asked the client for an answer (an action request)."""
        self.tokens = min(self.tokens + 1, self.burst + ANSWERS)


ANSWERS = 4
"""Answers to action requests a client may have in hand beyond its burst."""


class Session:
    """One websocket connection: who it is, what it watches, and what it is sent."""

    def __init__(self, settings: ServerSettings, websocket: ServerConnection, address: str) -> None:
        self.settings = settings
        self.websocket = websocket
        self.address = address
        """Where the client connects from, for the caps per address (an IPv6 client's
        /64 network: one host often has all of it)."""
        self.player: Player | None = None
        self.token: str | None = None  # the session token its welcome gave
        self.since: dt.datetime | None = None  # a guest's: when their name became theirs
        self.tables: set[str] = set()
        self.delays: dict[str, tuple[int, float]] = {}  # table -> (hands, seconds)
        self.delayed: dict[str, deque[tuple[float, int, str]]] = {}  # (due, hand, text)
        self.hands_ended: dict[str, int] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.closing = False
        self.outgoing: list[bytes] = []  # frames send() queued this turn of the event loop
        self.bucket = Bucket(settings.messages_per_second, settings.burst)

    def send(self, text: str, *, urgent: bool = False) -> None:
        """Queue a message on the connection; see :meth:`send_many`."""
        self.send_many((text,), urgent=urgent)

    def send_many(self, texts: Iterable[str], *, urgent: bool = False) -> None:
        """Queue messages on the connection, in order, without waiting: a table never
        waits for a client. What is queued in one turn of the event loop goes to the
        socket in one write (:meth:`flush`): a table's events reach its players together,
        and a syscall per message would cost the server a third of its CPU. ``urgent``
        (an action request) writes at once, with what is queued before it. A client that
        is behind gets a write every :data:`BEHIND_SECONDS` (the frames wait here meanwhile,
        shared with every other client they go to)."""
        websocket = self.websocket
        if self.closing or websocket.protocol.state is not OPEN:
            return  # the connection is going: its handler cleans up
        was_empty = not self.outgoing
        self.outgoing.extend(map(_frame, texts))
        if urgent:
            self.bucket.asked()  # an action request: its answer may come past the limit
            self.flush()
        elif was_empty and self.outgoing:
            loop = asyncio.get_running_loop()
            if websocket.transport.get_write_buffer_size():
                loop.call_later(BEHIND_SECONDS, self.flush)
            else:
                loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write what :meth:`send` queued. A client that does not read is closed, not
        buffered for without end."""
        if not self.outgoing:
            return  # written already, by an urgent send
        data, self.outgoing = b"".join(self.outgoing), []
        websocket = self.websocket
        if websocket.protocol.state is not OPEN:
            return  # closing: nothing may follow the close frame
        # What still waits from before says whether the client reads: one large message
        # (a welcome with the catalogue, an export) to a client that does is no flood.
        if websocket.transport.get_write_buffer_size() > self.settings.outbox_bytes:
            self._too_slow()
            return
        websocket.transport.write(data)

    def _too_slow(self) -> None:
        """Close a client that does not read. Not with ``websocket.close()``: it waits for
        the buffer to drain before its close timeout even starts, which a client that
        never reads never lets happen, and the buffer (a mebibyte) stays until it goes.
        The close frame goes after what is queued; a client that reads it all within
        :data:`SLOW_CLOSE_SECONDS` learns why, and any other is dropped then."""
        self.closing = True
        websocket = self.websocket
        websocket.protocol.send_close(POLICY_VIOLATION, "too slow: messages are piling up")
        websocket.send_data()
        loop = asyncio.get_running_loop()
        loop.call_later(SLOW_CLOSE_SECONDS, websocket.transport.abort)

    async def while_connected(self, work: Awaitable[T]) -> T:
        """``work``'s result, unless the client goes first: then it is cancelled (a read
        for the worker, say, waiting its turn there) and ConnectionClosed raised. Only for
        work that changes nothing: what the client would have been told is all it does."""
        task = asyncio.ensure_future(work)
        gone = asyncio.ensure_future(self.websocket.wait_closed())
        try:
            await asyncio.wait((task, gone), return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # the server is stopping: the work too
            task.cancel()
            raise
        finally:
            gone.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise ConnectionClosed(None, None)
        return task.result()

    def hand_ended(self, table_id: str, hand_number: int) -> None:
        """A hand at a table is over: a spectator delayed by hands may see more now."""
        if table_id in self.delays:
            self.hands_ended[table_id] = hand_number
            self._release(table_id)

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        """A table's messages; a spectator watching with a delay gets them late."""
        if table_id not in self.delays:
            self.send_many(texts)
            return
        due = time.monotonic() + self.delays[table_id][1]
        self.delayed.setdefault(table_id, deque()).extend((due, hand_number, t) for t in texts)
        self._release(table_id)

    def _release(self, table_id: str, *, timer: bool = False) -> None:
        """Send what is due: ``delay_seconds`` have passed and, with ``delay_hands = k``,
        hand ``N`` becomes visible once hand ``N + k - 1`` has ended (k = 1: a hand is
        shown when it is over). At most one timer per table waits for the next message;
        while it does, only it releases (the head of the queue is already hand-ready)."""
        if timer:
            self.timers.pop(table_id, None)
        elif table_id in self.timers:
            return
        queue = self.delayed.get(table_id)
        hands, _ = self.delays[table_id]
        ended = self.hands_ended.get(table_id, 0)
        now = time.monotonic()
        while queue and (hands == 0 or queue[0][1] + hands - 1 <= ended):
            due = queue[0][0]
            if due > now:
                self.timers[table_id] = asyncio.get_running_loop().call_later(
                    due - now, lambda: self._release(table_id, timer=True)
                )
                return
            self.send(queue.popleft()[2])

    def stop_delay(self, table_id: str) -> None:
        """Deliver everything held back (the spectator sat down, or left)."""
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self.delays.pop(table_id, None)
        for _, _, text in self.delayed.pop(table_id, deque()):
            self.send(text)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library)."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        return ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim  # type: ignore[no-any-return]
    return None


_TRIM = _malloc_trim()
_trim_after = 0.0  # time.monotonic() before which a trim is already on its way


def give_back_memory() -> None:
    """Soon, give the memory freed by closed connections back to the system.

    A connection's buffers and objects are freed when it closes, but glibc's malloc
    keeps the pages for the process: a client that does not read leaves up to
    :attr:`ServerSettings.outbox_bytes` in its transport's buffer, grown among the
    server's small allocations (measured: 100 spectators that never read left 342 KB
    each of resident memory after they had gone, 120 MB for a 106 MB server;
    ``malloc_trim(0)`` gave it back, 108 MB, in under a millisecond). A second after a
    connection closes, one trim for all that closed meanwhile."""
    global _trim_after  # noqa: PLW0603
    now = time.monotonic()
    if _TRIM is None or now < _trim_after:
        return
    _trim_after = now + 1.0
    trim = _TRIM
    asyncio.get_running_loop().call_later(1.0, lambda: trim(0))


@functools.lru_cache(maxsize=256)
def _frame(text: str) -> bytes:
    """``text`` as a websocket frame. A table sends the same text to every seat: kept, a
    message fanned out is framed once. (No extensions: compression is off, see
    :func:`server.app.PokerServer.running`.)"""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


async def read_messages(
    session: Session, answer: Callable[[Session, str | bytes], Awaitable[str | None]]
) -> None:
    """Answer a connection's messages until it closes. Every message takes a token from
    its bucket; a client over the rate, or sending too many bad messages a minute, is
    refused and then closed with :data:`POLICY_VIOLATION`, the replies so far sent first."""
    websocket, limit = session.websocket, session.settings.errors_before_close
    errors, window = 0, time.monotonic()
    try:
        async for raw in websocket:
            if time.monotonic() - window > 60:  # count bad messages a minute at a time
                errors, window = 0, time.monotonic()
            if not session.bucket.take():
                errors += 1
                session.send(protocol.error(Code.RATE_LIMITED, "too many messages: slow down"))
            else:
                reply = await answer(session, raw)
                if reply is not None:
                    session.send(reply)
                    errors += reply.startswith('{"type":"error"')
            if errors >= limit:
                session.flush()  # the replies so far first: they say what went wrong
                await websocket.close(POLICY_VIOLATION, "too many bad messages")
                break
    except ConnectionClosed:
        pass
    finally:
        for timer in session.timers.values():
            timer.cancel()
        give_back_memory()


def client_address(websocket: ServerConnection, proxies: frozenset[str]) -> str:
    """Where a client connects from: the peer's address or, from a trusted proxy, the
    last address its ``X-Forwarded-For`` names; an IPv6 address as its /64 network (one
    host often has all of it), an IPv4-mapped one as IPv4."""
    peer = websocket.remote_address[0] if websocket.remote_address else "unknown"
    if peer in proxies and websocket.request is not None:
        forwarded = websocket.request.headers.get("X-Forwarded-For", "")
        peer = forwarded.rsplit(",", 1)[-1].strip() or peer
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]  # not an address (a Unix socket): one bucket for all of them
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)
