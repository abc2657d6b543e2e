"""How fast the API's clients may send: a token bucket per address and per session.

A key (an address, a session's token) may send ``rate`` requests a second on average and
``burst`` at once. A request past that waits for its turn, up to :data:`HOLD` seconds;
one whose turn is further off is refused after that wait, with the seconds until its
turn. Waiting first makes a flood cheap to refuse: a client sending requests one after
another on a connection gets at most one refusal a second from it, however fast it
sends, and the number of its connections is capped (server.slumbot.connections).

The bucket is kept as one number per key (the generic cell rate algorithm: the time the
key's next request is due), so a key costs a float, and keys gone quiet are forgotten.
"""

from __future__ import annotations

import math

from server.slumbot.errors import ApiError

__all__ = ["HOLD", "RateLimit"]

HOLD = 1.0
"""The longest a request over the rate waits for its turn before it is refused."""


class RateLimit:
    """``rate`` requests a second per key on average, ``burst`` at once; ``what`` says
    whose requests they are in a refusal (``"from your address"``), ``status`` its HTTP
    status (429: the client's own rate; 503: everyone's)."""

    def __init__(self, rate: float, burst: int, what: str, status: int = 429) -> None:
        self.rate, self.burst, self.what, self.status = rate, burst, what, status
        self.interval = 1.0 / rate
        self.tolerance = (burst - 1) * self.interval
        self._due: dict[str, float] = {}  # key: when its next request is due at the rate

    def wait(self, key: str, now: float) -> float:
        """Seconds the request of ``key`` arriving at ``now`` waits for its turn (0: none),
        the request counted; :class:`ApiError` 429 (not counted) if its turn is over
        :data:`HOLD` away: its ``retry_after`` says when it comes."""
        due = max(self._due.get(key, now), now)
        wait = due - self.tolerance - now
        if wait > HOLD:
            raise ApiError(
                f"too many requests {self.what}: at most {self.rate:g} a second, bursts of "
                f"{self.burst}; slow down (retry after {math.ceil(wait - HOLD)} s)",
                status=self.status, retry_after=max(1, math.ceil(wait - HOLD)),
            )  # fmt: skip
        self._due[key] = due + self.interval
        if len(self._due) > 10_000:  # forget the keys whose bucket is full again
            for quiet in [k for k, d in self._due.items() if d <= now]:
                del self._due[quiet]
        return max(0.0, wait)

    def forget(self, key: str) -> None:
        """``key`` is gone (a session ended)."""
        self._due.pop(key, None)
