"""Alembic environment for pokerroom's store (async; see server/store/migrate.py).

pokerroom runs migrations through ``pokerroom db upgrade`` / ``downgrade``, which pass a
connection in ``config.attributes["connection"]``. Run through the ``alembic`` command
itself, the URL comes from ``-x db=URL`` or the ``POKERROOM_DB`` environment variable.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from server.config import database_url
from server.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things: rebuild tables in batch mode there.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = create_async_engine(database_url(context.get_x_argument(as_dictionary=True).get("db")))
    async with engine.connect() as connection:
        await connection.run_sync(run_migrations)
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported; connect to a database")

connection = config.attributes.get("connection")
if connection is None:
    asyncio.run(run_async_migrations())
else:
    run_migrations(connection)
