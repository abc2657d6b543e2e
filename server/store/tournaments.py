"""Tournaments between bots: format, seed and settings (enough to play one again), and
the results once it is over."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import insert, select, update

from server.store.base import UTC, StoreBase
from server.store.errors import StoreError
from server.store.models import TournamentRecord

__all__ = ["Tournaments"]


class Tournaments(StoreBase):
    """The ``tournaments`` table: :class:`server.store.Store`'s queries about tournaments."""

    async def create_tournament(self, format_: str, seed: str, config: dict[str, Any]) -> int:
        """A tournament about to be played; its id."""
        async with self.engine.begin() as conn:
            row = await conn.execute(
                insert(TournamentRecord).returning(TournamentRecord.id),
                {"format": format_, "seed": seed, "config": config,
                 "started_at": dt.datetime.now(UTC)},
            )  # fmt: skip
            return int(row.scalar_one())

    async def finish_tournament(self, tournament_id: int, results: dict[str, Any]) -> None:
        """Record a tournament's results."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(TournamentRecord)
                .where(TournamentRecord.id == tournament_id)
                .values(results=results, ended_at=dt.datetime.now(UTC))
            )

    async def tournament(self, tournament_id: int) -> dict[str, Any]:
        """A tournament's record: format, seed, config, results (None until over)."""
        async with self.engine.connect() as conn:
            columns = (TournamentRecord.format, TournamentRecord.seed, TournamentRecord.config)
            query = select(*columns, TournamentRecord.results)
            found = await conn.execute(query.where(TournamentRecord.id == tournament_id))
            row = found.first()
        if row is None:
            raise StoreError(f"no tournament {tournament_id}")
        return dict(row._mapping)
