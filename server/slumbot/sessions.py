"""The API's sessions: made by ``login`` or an anonymous ``new_hand``, found by token,
capped in number, paced, and ended when idle or when room is needed.

The cap in all cannot lock a newcomer out: at the cap, a new session takes the place of
the longest idle one not serving a request, one whose token was never used first (a
flood of anonymous ``new_hand`` calls only ever replaces its own sessions while any are
left), else the longest idle of all. At the cap per address, a new session from there
takes the place of that address's session whose token was never used, or of one unused
for ``unused_seconds``; else it is refused (429). A session whose token was never used ends after
``unused_seconds`` (a minute); any other after ``idle_seconds`` unused (an hour). An
ended session's hand is played out and stored as at ``new_hand`` (or dropped, for a
session whose token was never used: nothing of it is stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator

from server import compute
from server.slumbot.errors import ApiError
from server.slumbot.limits import HOLD, RateLimit
from server.slumbot.recording import Recorder
from server.slumbot.session import UNKNOWN, ApiSession
from server.store import Store
from server.tables import Player

__all__ = ["Sessions"]

log = logging.getLogger("pokerroom")


class Sessions:
    """Every live session of this process, by token."""

    def __init__(
        self, store: Store, recorder: Recorder, *, opponent: str, limit: int,
        per_address: int, idle_seconds: float, unused_seconds: float = 60.0,
        pace: RateLimit | None = None, settling: compute.Slots | None = None,
    ) -> None:  # fmt: skip
        self.store, self.recorder = store, recorder
        self.opponent, self.limit, self.idle_seconds = opponent, limit, idle_seconds
        self.per_address, self.unused_seconds = per_address, unused_seconds
        self.pace = pace or RateLimit(10.0, 20, "for this session")
        """Requests one session may send (its token the key)."""
        self.settling = settling or compute.Slots(in_all=1, per_key=1, share=0.3)
        self.by_token: OrderedDict[str, ApiSession] = OrderedDict()
        """Every session, the one whose last request began longest ago first."""
        self.unused: OrderedDict[str, ApiSession] = OrderedDict()
        """The sessions whose token was never used, the oldest first."""
        self.from_address: dict[str, int] = {}  # address -> its live sessions
        self.replaced = 0
        """Sessions ended to make room for new ones, so far."""
        self._ending: set[asyncio.Task[None]] = set()

    def get(self, token: object) -> ApiSession:
        """The session ``token`` names; :class:`ApiError` if none does (now)."""
        if not isinstance(token, str):
            raise ApiError(f"token must be a string, got {token!r}")
        found = self.by_token.get(token)
        if found is None:
            raise ApiError(UNKNOWN)
        self.by_token.move_to_end(token)
        found.token_used = True
        self.unused.pop(token, None)
        return found

    @contextlib.asynccontextmanager
    async def serving(self, session: ApiSession) -> AsyncIterator[None]:
        """Serve one request for ``session`` (409 if one is under way), at its pace: one
        past its rate waits its turn (up to a second) or is refused (429)."""
        with session.serving():
            try:
                wait = self.pace.wait(session.token, time.monotonic())
            except ApiError:
                await asyncio.sleep(HOLD)
                raise
            if wait:
                await asyncio.sleep(wait)
            yield

    async def login(self, username: object, password: object, address: str) -> ApiSession:
        """A new session for the account ``username`` whose access token is ``password``."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise ApiError("login: give username (an account's name) and password (its token)")
        self._make_room(address)
        found = await self.store.player_by_token(password)
        if found is None or found[1] != username:
            raise ApiError("login: wrong username or password (the account's access token)")
        return self._open(Player(*found), address)

    def anonymous(self, address: str) -> ApiSession:
        """A new session for a guest of its own (``api-guest-<id>``, stored with the
        session's first stored hand)."""
        return self._open(None, address)

    def _make_room(self, address: str) -> None:
        """Room for another session from ``address``: :class:`ApiError` past the cap per
        address, and at the cap in all, the longest idle session ended (module docs)."""
        while self.from_address.get(address, 0) >= self.per_address:
            # The address's own: one whose token it never used, else one it left for a
            # minute (a client that lost its tokens is not locked out for an hour).
            now = time.monotonic()
            mine = [s for s in self.by_token.values() if s.address == address and not s.busy]
            victim = next((s for s in mine if not s.token_used), None) or next(
                (s for s in mine if now - s.used >= self.unused_seconds), None
            )
            if victim is None:
                raise ApiError(
                    f"too many sessions from your address ({self.per_address}): reuse your "
                    "tokens (a session plays any number of hands)",
                    status=429, retry_after=math.ceil(self.unused_seconds),
                )  # fmt: skip
            self.replaced += 1
            self._end(victim)
        while len(self.by_token) >= self.limit:
            victim = next((s for s in self.unused.values() if not s.busy), None)
            if victim is None:
                victim = next((s for s in self.by_token.values() if not s.busy), None)
            if victim is None:  # every session is serving a request right now
                raise ApiError(
                    f"too many sessions ({self.limit}), all of them busy: try again shortly",
                    status=503, retry_after=1,
                )  # fmt: skip
            self.replaced += 1
            self._end(victim)

    def _open(self, player: Player | None, address: str) -> ApiSession:
        self._make_room(address)  # again: others may have opened sessions meanwhile
        # The token is secret (it plays the session); the table's name is public.
        token = str(uuid.uuid4())
        session = ApiSession(
            token, f"api-{secrets.token_hex(6)}", player, self.opponent, self.recorder,
            self.settling, address=address,
        )  # fmt: skip
        self.by_token[token] = session
        self.unused[token] = session
        self.from_address[address] = self.from_address.get(address, 0) + 1
        return session

    def _end(self, session: ApiSession) -> None:
        """Forget ``session`` at once (its token is unknown from now on) and end it in
        the background: its hand played out and stored, or dropped."""
        session.ended = True  # a request that found it before is refused
        self.by_token.pop(session.token, None)
        self.unused.pop(session.token, None)
        self.pace.forget(session.token)
        left = self.from_address.get(session.address, 0) - 1
        if left > 0:
            self.from_address[session.address] = left
        else:
            self.from_address.pop(session.address, None)
        task = asyncio.create_task(self._close(session), name=f"api session {session.table}")
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def _close(self, session: ApiSession) -> None:
        try:
            await session.close()
        except Exception:  # one session's failure ends no other
            log.exception("api session %s: its last hand could not be stored", session.table)
        self.recorder.forget(session.table)

    async def expire(self, now: float | None = None) -> int:
        """End the sessions idle too long: ``unused_seconds`` for one whose token was never
        used, else ``idle_seconds``; how many ended (they finish in the background:
        :meth:`settled`)."""
        now = time.monotonic() if now is None else now
        idle = [
            s for s in self.by_token.values()
            # A session serving a request is not idle, whenever its last one came.
            if not s.busy and now - s.used >= (
                self.idle_seconds if s.token_used else min(self.idle_seconds, self.unused_seconds)
            )
        ]  # fmt: skip
        for session in idle:
            self._end(session)
        return len(idle)

    async def settled(self) -> None:
        """Wait until every session ended so far has finished ending (its hand stored)."""
        while self._ending:
            await asyncio.wait(set(self._ending))

    async def expire_forever(self) -> None:
        """Expire idle sessions, every tenth of the idle time and every quarter of the
        unused time (a minute at most)."""
        every = min(60.0, self.idle_seconds / 10, self.unused_seconds / 4)
        while True:
            await asyncio.sleep(every)
            await self.expire()
