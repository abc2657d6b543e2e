"""The API's sessions: made by ``login`` or an anonymous ``new_hand``, found by token,
capped in number, and expired when idle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid

from server.slumbot.errors import ApiError
from server.slumbot.recording import Recorder
from server.slumbot.session import ApiSession
from server.store import Store, StoreError
from server.tables import Player

__all__ = ["Sessions"]

log = logging.getLogger("pokerroom")


class Sessions:
    """Every live session of this process, by token."""

    def __init__(
        self, store: Store, recorder: Recorder, *, opponent: str, limit: int,
        per_address: int, idle_seconds: float,
    ) -> None:  # fmt: skip
        self.store, self.recorder = store, recorder
        self.opponent, self.limit, self.idle_seconds = opponent, limit, idle_seconds
        self.per_address = per_address
        self.by_token: dict[str, ApiSession] = {}
        self.from_address: dict[str, int] = {}  # address -> its live sessions

    def get(self, token: object) -> ApiSession:
        """The session ``token`` names; :class:`ApiError` if none does (now)."""
        if not isinstance(token, str):
            raise ApiError(f"token must be a string, got {token!r}")
        found = self.by_token.get(token)
        if found is None:
            raise ApiError("unknown token: it expired or was never given; log in again or "
                           "call new_hand without a token")  # fmt: skip
        return found

    async def login(self, username: object, password: object, address: str) -> ApiSession:
        """A new session for the account ``username`` whose access token is ``password``."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise ApiError("login: give username (an account's name) and password (its token)")
        self._check_room(address)
        found = await self.store.player_by_token(password)
        if found is None or found[1] != username:
            raise ApiError("login: wrong username or password (the account's access token)")
        return self._open(Player(*found), address)

    async def anonymous(self, address: str) -> ApiSession:
        """A new session for a guest of its own (``api-guest-<id>``)."""
        self._check_room(address)  # before a guest is stored: a refused flood stores none
        for _ in range(3):  # a name an account took is tried again, with another id
            with contextlib.suppress(StoreError):
                name = f"api-guest-{secrets.token_hex(4)}"
                return self._open(Player(await self.store.guest(name), name), address)
        raise ApiError("no guest name is free: try again", status=503)

    def _check_room(self, address: str) -> None:
        """:class:`ApiError` unless the caps leave room for another session from there."""
        if len(self.by_token) >= self.limit:
            raise ApiError(
                f"too many sessions ({self.limit}): try again later, or reuse your token",
                status=503,
            )
        if self.from_address.get(address, 0) >= self.per_address:
            raise ApiError(
                f"too many sessions from your address ({self.per_address}): reuse your "
                "tokens (a session plays any number of hands)",
                status=429,
            )

    def _open(self, player: Player, address: str) -> ApiSession:
        self._check_room(address)  # again: others may have opened sessions meanwhile
        # The token is secret (it plays the session); the table's name is public.
        token = str(uuid.uuid4())
        session = ApiSession(token, f"api-{secrets.token_hex(6)}", player, self.opponent,
                             self.recorder, address=address)  # fmt: skip
        self.by_token[token] = session
        self.from_address[address] = self.from_address.get(address, 0) + 1
        return session

    def _forget(self, session: ApiSession) -> None:
        self.by_token.pop(session.token, None)
        left = self.from_address.get(session.address, 0) - 1
        if left > 0:
            self.from_address[session.address] = left
        else:
            self.from_address.pop(session.address, None)

    async def expire(self, now: float | None = None) -> int:
        """End the sessions idle for ``idle_seconds`` (their unfinished hands played out and
        stored); how many ended."""
        now = time.monotonic() if now is None else now
        idle = [
            s for s in self.by_token.values()
            # A session serving a request is not idle, whenever its last one came.
            if now - s.used >= self.idle_seconds and not s.lock.locked()
        ]  # fmt: skip
        for session in idle:
            self._forget(session)
            try:
                await session.close()
            except Exception:  # one session's failure ends no other
                log.exception("api session %s: its last hand could not be stored", session.table)
            self.recorder.forget(session.table)
        return len(idle)

    async def expire_forever(self) -> None:
        """Expire idle sessions, every tenth of the idle time (a minute at most)."""
        while True:
            await asyncio.sleep(min(60.0, self.idle_seconds / 10))
            await self.expire()
