"""Migration 0007 and the host's controls it stores (``host_actions``): upgraded from
0006 with tables and players already there, read back by table name, and gone again on
the way down. On SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from server.store import Store, migrate
from tests.server.test_store import table_names

NOW = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC)


async def test_migration_0007_adds_host_actions_to_a_database_in_use(db_url: str) -> None:
    engine = create_async_engine(db_url)
    try:
        await migrate.upgrade(engine, "0006")
        assert "host_actions" not in await table_names(engine)
        meta = sa.MetaData()
        async with engine.begin() as conn:
            await conn.run_sync(meta.reflect)
            await conn.execute(
                meta.tables["players"].insert(),
                [{"id": 1, "name": "hana", "created_at": NOW},
                 {"id": 2, "name": "bob", "created_at": NOW}],
            )  # fmt: skip
            await conn.execute(
                meta.tables["tables"].insert(),
                {"id": 1, "name": "friday", "imported": False, "config": {}, "created_at": NOW},
            )
        await migrate.upgrade(engine)
    finally:
        await engine.dispose()
    async with Store.open(db_url) as store:
        await store.record_host_action(1, 1, "approve", 2, details={"player": "bob"}, at=NOW)
        await store.record_host_action(1, 1, "pause", None, details={}, at=NOW)
        records = await store.host_actions("friday")
        assert [(r.host, r.action, r.player, r.details) for r in records] == [
            ("hana", "approve", "bob", {"player": "bob"}),
            ("hana", "pause", None, {}),
        ]
        assert records[0].at.replace(tzinfo=dt.UTC) == NOW
        assert await store.host_actions("another") == []
    engine = create_async_engine(db_url)
    try:
        await migrate.downgrade(engine, "0006")
        assert "host_actions" not in await table_names(engine)
    finally:
        await engine.dispose()
