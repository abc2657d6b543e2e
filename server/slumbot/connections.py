"""The API's sockets, bounded: how many are open, how long a request may take to arrive,
how long a connection may sit idle.

aiohttp bounds none of this on its own (its keep-alive timer does not start until a
connection's first answer is sent, and counts nothing), so every connection the API's
listener accepts goes through a :class:`Gate`'s protocol, :class:`_Guarded`, before
aiohttp's own:

- **At most ``in_all`` connections open, ``per_address`` from one address.** One past
  either is answered at once (503, or 429 for the address's cap) and closed: API sockets
  can never take the file descriptors that the websocket, ``/healthz`` and the database
  need. A trusted proxy's connections count against the cap in all only (its clients'
  addresses are in their requests, and their requests' limits count them).
- **A request's line, headers and body within ``request_seconds`` of its first byte**
  (the headers are timed here; the body by the request's reader, against
  :meth:`Gate.deadline`). One too slow is answered 408 and closed: a slowloris client
  holds a socket for seconds, not for ever.
- **An idle connection closed after ``idle_seconds``**: one that sends nothing, from its
  opening or from its last answer.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import math
from collections.abc import Callable
from typing import Any

__all__ = ["Gate", "normal_address"]


@functools.lru_cache(maxsize=4096)
def normal_address(peer: str) -> str:
    """An address as the caps count it (server.connections.client_address): IPv6 by its
    /64, IPv4-mapped as IPv4, anything else as it is (cut to 64 characters)."""
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def http_error(status: int, reason: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP answer ``{"error_msg": message}`` that closes the connection."""
    body = json.dumps({"error_msg": message}).encode()
    head = [
        f"HTTP/1.1 {status} {reason}", "Content-Type: application/json; charset=utf-8",
        f"Content-Length: {len(body)}", "Connection: close",
    ]  # fmt: skip
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Gate:
    """The API listener's caps and timers (module docstring); :meth:`protocol` wraps
    aiohttp's protocol factory for ``loop.create_server``."""

    def __init__(
        self, *, in_all: int, per_address: int, request_seconds: float, idle_seconds: float,
        proxies: frozenset[str] = frozenset(),
    ) -> None:  # fmt: skip
        self.in_all, self.per_address = in_all, per_address
        self.request_seconds, self.idle_seconds = request_seconds, idle_seconds
        self.proxies = proxies
        self.from_address: dict[str, int] = {}
        self.refused = 0
        """Connections refused at a cap so far."""
        self.timed_out = 0
        """Connections closed for a request too slow to arrive, so far."""
        self._open: dict[Any, _Guarded] = {}  # transport: its guard

    @property
    def open(self) -> int:
        """Connections open now."""
        return len(self._open)

    def protocol(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """The protocol factory to listen with: ``inner``'s protocols, guarded."""
        return lambda: _Guarded(self, inner)

    def started(self, transport: Any) -> float:
        """A request's headers have arrived on ``transport`` (the API's middleware says
        so): its header timer stops. When its body must have arrived (loop time)."""
        guard = self._open.get(transport)
        if guard is None:
            return math.inf
        return guard.request_started()

    def finished(self, transport: Any) -> None:
        """The request on ``transport`` is answered: the connection is idle again."""
        guard = self._open.get(transport)
        if guard is not None:
            guard.request_finished()

    def _admit(self, guard: _Guarded) -> bytes | None:
        """Count ``guard``'s connection in, or the answer refusing it."""
        address = guard.address
        if len(self._open) >= self.in_all:
            self.refused += 1
            return http_error(
                503, "Service Unavailable",
                f"the API has too many connections open ({self.in_all}): try again shortly",
                retry_after=1,
            )  # fmt: skip
        mine = self.from_address.get(address, 0)
        if address not in self.proxies and mine >= self.per_address:
            self.refused += 1
            return http_error(
                429, "Too Many Requests",
                f"too many connections from your address ({self.per_address}): close some, "
                "or send your requests one after another on fewer",
                retry_after=1,
            )  # fmt: skip
        self._open[guard.transport] = guard
        self.from_address[address] = mine + 1
        return None

    def _gone(self, guard: _Guarded) -> None:
        if self._open.pop(guard.transport, None) is None:
            return
        left = self.from_address.get(guard.address, 1) - 1
        if left > 0:
            self.from_address[guard.address] = left
        else:
            self.from_address.pop(guard.address, None)


class _Guarded(asyncio.Protocol):
    """One accepted connection: counted by its gate, timed, and passed on to aiohttp's
    protocol once admitted."""

    def __init__(self, gate: Gate, inner: Callable[[], asyncio.Protocol]) -> None:
        self.gate, self._make = gate, inner
        self.inner: asyncio.Protocol | None = None
        self.transport: Any = None
        self.address = ""
        self.in_request = False
        self.deadline = math.inf  # when the request under way must have arrived
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = normal_address(peer[0] if isinstance(peer, tuple) else str(peer))
        refusal = self.gate._admit(self)
        if refusal is not None:
            self.transport.write(refusal)  # any loop's TCP transport (uvloop's too)
            transport.close()
            return
        self.inner = self._make()
        self.inner.connection_made(transport)
        self._wait(self.gate.idle_seconds, self._idle)

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if not self.in_request and self.deadline == math.inf:  # a request begins
            self.deadline = asyncio.get_running_loop().time() + self.gate.request_seconds
            self._wait(self.gate.request_seconds, self._too_slow)
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.inner is None else self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        if self.inner is not None:
            self.gate._gone(self)
            self.inner.connection_lost(exc)
            self.inner = None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def request_started(self) -> float:
        self.in_request = True
        self._stop_timer()
        if self.deadline == math.inf:  # its bytes came with the last request's
            self.deadline = asyncio.get_running_loop().time() + self.gate.request_seconds
        return self.deadline

    def request_finished(self) -> None:
        self.in_request, self.deadline = False, math.inf
        self._wait(self.gate.idle_seconds, self._idle)

    def _wait(self, seconds: float, then: Callable[[], None]) -> None:
        self._stop_timer()
        self.timer = asyncio.get_running_loop().call_later(seconds, then)

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _idle(self) -> None:
        self.timer = None
        self.transport.abort()  # nothing to say, nothing waiting to be sent

    def _too_slow(self) -> None:
        self.timer = None
        self.gate.timed_out += 1
        seconds = f"{self.gate.request_seconds:g}"
        self.transport.write(http_error(
            408, "Request Timeout",
            f"request too slow: send its line, headers and body within {seconds} s",
        ))  # fmt: skip
        self.transport.close()
        # A client that does not read either: gone in a second, its answer or not.
        asyncio.get_running_loop().call_later(1.0, self.transport.abort)
