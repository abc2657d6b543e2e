"""Players: accounts with an access token, guests, and the names hands are stored under."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Iterable

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from server.store.base import UTC, StoreBase
from server.store.errors import StoreError
from server.store.models import PLAYERS, Player

__all__ = ["Accounts", "token_hash"]


class Accounts(StoreBase):
    """The ``players`` table: :class:`server.store.Store`'s queries about players."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine)
        self._players: dict[str, int] = {}

    async def ensure_players(self, names: Iterable[str]) -> dict[str, int]:
        """Ids for these player names, creating players that do not exist yet."""
        wanted = set(names) - self._players.keys()
        if wanted:
            async with self.engine.begin() as conn:
                await self._insert_missing(conn, Player, "name", wanted, {})
                rows = await conn.execute(
                    select(Player.name, Player.id).where(Player.name.in_(wanted))
                )
                self._players.update({name: id_ for name, id_ in rows.all()})  # noqa: C416
        return self._players

    async def create_account(self, name: str) -> tuple[int, str]:
        """A new account: its id and its access token (the store keeps only a hash)."""
        token = secrets.token_urlsafe(32)
        async with self.engine.begin() as conn:
            taken = await conn.execute(select(Player.id).where(Player.name == name))
            if taken.first() is not None:
                raise StoreError(f"the name {name!r} is taken")
            row = await conn.execute(
                insert(PLAYERS).returning(PLAYERS.c.id),
                {"name": name, "token_hash": token_hash(token), "created_at": dt.datetime.now(UTC)},
            )
            return int(row.scalar_one()), token

    async def player_by_token(self, token: str) -> tuple[int, str] | None:
        """The account (id, name) a token belongs to, if any."""
        async with self.engine.connect() as conn:
            row = await conn.execute(
                select(Player.id, Player.name).where(Player.token_hash == token_hash(token))
            )
            found = row.first()
        return (found.id, found.name) if found else None

    async def guest(self, name: str) -> int:
        """The player id for a guest name (made if new), marked seen now;
        :class:`StoreError` if an account has it. Never from :meth:`ensure_players`'s
        cache: a guest that never played may have been forgotten meanwhile, by this
        process or another (server/store/pruning.py)."""
        now = dt.datetime.now(UTC)
        async with self.engine.begin() as conn:
            await self._insert_missing(conn, Player, "name", {name}, {"seen_at": now})
            row = (
                await conn.execute(select(Player.id, Player.token_hash).where(Player.name == name))
            ).one()
            if row.token_hash is not None:
                raise StoreError(f"the name {name!r} belongs to an account: sign in with its token")
            await conn.execute(update(PLAYERS).where(PLAYERS.c.id == row.id).values(seen_at=now))
        return int(row.id)

    async def mark_seen(self, player_ids: Iterable[int]) -> None:
        """The guests among these players are in use now (connected, seated, waiting):
        kept, however long ago their hello was."""
        ids = sorted(set(player_ids))
        now = dt.datetime.now(UTC)
        async with self.engine.begin() as conn:
            for start in range(0, len(ids), 1_000):
                await conn.execute(
                    update(PLAYERS)
                    .where(PLAYERS.c.id.in_(ids[start : start + 1_000]))
                    .where(PLAYERS.c.seen_at.is_not(None))
                    .values(seen_at=now)
                )


def token_hash(token: str) -> str:
    """What the store keeps of an access token: its SHA-256 (tokens are 256-bit random,
    so a fast hash is enough; a slow password hash would add nothing)."""
    return hashlib.sha256(token.encode()).hexdigest()
