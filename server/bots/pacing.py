"""Pacing what a bot client sends, under the server's rate limit (docs/protocol.md, Limits):
a message over that limit is not read, and a fast table can ask for more actions than it
allows.

>>> import asyncio
>>> pacer = SendPacer(rate=15.0, burst=40)
>>> asyncio.run(pacer.wait())  # a full bucket: at once
>>> pacer.slow_down(); pacer.rate
7.5
"""

from __future__ import annotations

import asyncio

__all__ = ["SendPacer"]


class SendPacer:
    """A token bucket: bursts of ``burst`` messages, refilled at ``rate`` a second.
    :meth:`slow_down` halves the rate (down to one message every two seconds) for a server
    stricter than its documented limit; :meth:`reset` starts afresh, for a new connection."""

    def __init__(self, rate: float, burst: int) -> None:
        self._lock = asyncio.Lock()  # one sender at a time takes its token
        self.reset(rate, burst)

    def reset(self, rate: float, burst: int) -> None:
        """A full bucket at ``rate``."""
        self.rate, self.burst = rate, burst
        self._tokens, self._stamp = float(burst), 0.0

    async def wait(self) -> None:
        """Return when one more message may go (take its token)."""
        async with self._lock:
            loop = asyncio.get_running_loop()
            now = loop.time()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                self._tokens, self._stamp = 1.0, loop.time()
            self._tokens -= 1

    def slow_down(self) -> None:
        """The server found us too fast: half the rate, and an empty bucket."""
        self.rate = max(0.5, self.rate / 2)
        self._tokens = 0.0
