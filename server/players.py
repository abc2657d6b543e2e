"""Who is who: guests, accounts and the session tokens that bring a player back.

A guest's name is theirs alone from their first hello: another connection proves it is
them with the session token the welcome gave them. A guest name is free again once its
guest is gone, or after a restart: whoever takes it next must not see the hands of
whoever had it before.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from server import protocol
from server.connections import Session
from server.errors import Code
from server.settings import ServerSettings
from server.store import Store
from server.tables import Player, TableError


class Players:
    """The identities of this process's connections."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store, self.settings = store, settings
        self.guests: dict[str, str] = {}  # guest (or house bot) name -> its session token
        # Session token -> (player, for a guest when the name became theirs; None for an
        # account).
        self.identities: dict[str, tuple[Player, dt.datetime | None]] = {}
        self.accounts_from: dict[str, deque[float]] = {}  # address -> accounts created when

    @staticmethod
    def of(session: Session) -> Player:
        """The player a connection said hello as."""
        if session.player is None:
            raise TableError(
                Code.HELLO_FIRST, "say hello first (a guest name, an account token or a session)"
            )
        return session.player

    def reserve(self, name: str) -> None:
        """A house bot's name: never anyone else's."""
        self.guests[name] = ""

    async def hello(
        self, session: Session, m: protocol.Hello, seated: Player | None = None
    ) -> dict[str, Any]:
        """Say who ``session`` is; ``seated``: the player a ``seat_token`` names (None if
        it names nobody's seat)."""
        if m.version != protocol.VERSION:
            raise protocol.ProtocolError(
                Code.BAD_VERSION, f"this server speaks version {protocol.VERSION}"
            )
        if sum(x is not None for x in (m.name, m.token, m.session, m.seat_token)) != 1:
            raise protocol.ProtocolError(
                Code.BAD_MESSAGE,
                "hello: give one of a guest name, an account token, a session, a seat token",
            )
        if m.seat_token is not None:
            token = self._seat_identity(session, seated)
        elif m.session is not None:
            if m.session not in self.identities:
                raise TableError(
                    Code.BAD_SESSION, "no such session: say hello with a name or token"
                )
            session.player, since = self.identities[m.session]
            token = m.session
        else:
            if m.token is not None:
                found = await self.store.player_by_token(m.token)
                if found is None:
                    raise TableError(Code.BAD_TOKEN, "no account has this token")
                session.player, since = Player(*found), None
            else:
                assert m.name is not None
                if m.name in self.guests:
                    raise TableError(
                        Code.NAME_TAKEN,
                        f"the name {m.name!r} is in use: to come back, say hello with your session",
                    )
                player_id = await self.store.guest(m.name)
                session.player, since = Player(player_id, m.name), dt.datetime.now(dt.UTC)
            if m.bot:  # a program: marked as one wherever it sits
                session.player = dataclasses.replace(session.player, bot=True)
            token = secrets.token_urlsafe(24)
            self.identities[token] = (session.player, since)
            if since is not None:
                self.guests[session.player.name] = token
        return self._welcome(session, token)

    def _seat_identity(self, session: Session, seated: Player | None) -> str:
        """A new session for the player a seat token names: who they were (a guest since
        when, or an account) as their earlier session says."""
        if seated is None:
            raise TableError(
                Code.BAD_SEAT_TOKEN, "no seat has this token (its player stood up, or the "
                "server restarted): say hello with a name or token",
            )  # fmt: skip
        earlier = [s for p, s in self.identities.values() if p.id == seated.id]
        since = earlier[0] if earlier else dt.datetime.now(dt.UTC)
        token = secrets.token_urlsafe(24)
        self.identities[token] = (seated, since)
        if since is not None:
            self.guests[seated.name] = token
        session.player = seated
        session.since = since
        return token

    def _welcome(self, session: Session, token: str) -> dict[str, Any]:
        player, since = self.identities[token]
        session.player = player
        session.token, session.since = token, since
        return {
            "type": "welcome",
            "version": protocol.VERSION,
            "player": {
                "id": session.player.id,
                "name": session.player.name,
                "guest": since is not None,
            },
            "session": token,
            **protocol.catalogue_body(),
        }

    async def create_account(self, session: Session, name: str) -> dict[str, Any]:
        if self.guests.get(name) == "":  # a house bot's (reserve)
            raise TableError(Code.REFUSED, f"the name {name!r} is taken")
        self.count_account(session.address)
        player_id, token = await self.store.create_account(name)
        return {"type": "account", "name": name, "token": token, "player_id": player_id}

    def count_account(self, address: str) -> None:
        """Refuse an account past the hourly cap for the address, else count it."""
        now = time.monotonic()
        self._forget_old_counts(now)  # the map holds only the last hour's addresses
        made = self.accounts_from.setdefault(address, deque())
        while made and now - made[0] > 3600:
            made.popleft()
        if len(made) >= self.settings.accounts_per_address:
            raise TableError(
                Code.TOO_MANY_ACCOUNTS,
                f"an address may create {self.settings.accounts_per_address} accounts an hour",
            )
        made.append(now)

    def _forget_old_counts(self, now: float) -> None:
        """Forget the addresses that created no account for an hour."""
        for address, made in list(self.accounts_from.items()):
            if not made or now - made[-1] > 3600:
                del self.accounts_from[address]

    def forget(self, session: Session, *, seated: bool, sessions: Iterable[Session]) -> None:
        """Drop a gone connection's identity unless its player still holds a seat
        (``seated``) and so may come back with the session, or another connection uses it:
        the maps stay as small as the live tables."""
        player, token = session.player, session.token
        if player is None or token is None or seated:
            return
        if any(s.token == token for s in sessions):
            return
        self.identities.pop(token, None)
        if self.guests.get(player.name) == token:
            del self.guests[player.name]
