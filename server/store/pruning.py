"""Forgetting what never mattered: guests who said hello and never played, and tables
where nothing happened (issue 29, item 12: 3,000 guest hellos left 3,000 players rows
for ever, a soak +1,723 players and +520 tables).

Only what nothing refers to goes, and only once it has been unused for ``older_than``
seconds (a day by default): a guest (a ``seen_at``, no token) with no hand, ledger entry
or host control, unseen that long (every server marks the guests it holds:
:meth:`server.store.accounts.Accounts.mark_seen`); a table played here (not imported)
with no hand, ledger entry, lease, void or host control, opened that long ago. So a
history, a balance or a host's record is never lost, and nothing a live server uses.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists, or_, select
from sqlalchemy.sql.elements import ColumnElement

from server.store.base import UTC, StoreBase
from server.store.models import (
    HAND_PLAYERS,
    HANDS,
    HOST_ACTIONS,
    LEASES,
    LEDGER,
    PLAYERS,
    TABLES,
    VOIDS,
)

__all__ = ["Pruned", "Pruning"]


@dataclass(frozen=True)
class Pruned:
    """How many rows one round forgot."""

    players: int
    tables: int


class Pruning(StoreBase):
    """The store's housekeeping (:meth:`prune`)."""

    async def prune(self, older_than: float) -> Pruned:
        """Delete guests and tables unused for ``older_than`` seconds that nothing
        refers to; how many of each."""
        cutoff = dt.datetime.now(UTC) - dt.timedelta(seconds=older_than)
        async with self.engine.begin() as conn:
            gone_players = await conn.execute(
                delete(PLAYERS).where(
                    PLAYERS.c.token_hash.is_(None),
                    PLAYERS.c.seen_at.is_not(None),
                    PLAYERS.c.seen_at < cutoff,
                    ~_used(PLAYERS.c.id, _NAMING_A_PLAYER),
                )
            )
            gone_tables = await conn.execute(
                delete(TABLES).where(
                    ~TABLES.c.imported,
                    TABLES.c.created_at < cutoff,
                    ~_used(TABLES.c.id, _NAMING_A_TABLE),
                )
            )
        return Pruned(gone_players.rowcount, gone_tables.rowcount)


_NAMING_A_PLAYER = (
    HAND_PLAYERS.c.player_id, LEDGER.c.player_id, HOST_ACTIONS.c.host_id,
    HOST_ACTIONS.c.player_id,
)  # fmt: skip
_NAMING_A_TABLE = (
    HANDS.c.table_id, LEDGER.c.table_id, LEASES.c.table_id, VOIDS.c.table_id,
    HOST_ACTIONS.c.table_id,
)  # fmt: skip


def _used(
    key: ColumnElement[int], references: tuple[ColumnElement[Any], ...]
) -> ColumnElement[bool]:
    """Whether any of ``references`` (columns of other tables) names ``key``."""
    return or_(*(exists(select(1).where(ref == key)) for ref in references))
