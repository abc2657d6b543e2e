"""Where things live: the database URL and other settings read from the environment.

The database is, in order: the ``--db`` option, the ``POKERROOM_DB`` environment
variable, then an SQLite file ``pokerroom.db`` in the working directory. Plain
``postgresql://`` and ``sqlite:///`` URLs get their async drivers (asyncpg, aiosqlite).

The event bus is the ``--bus`` option, else ``POKERROOM_BUS``, else ``local`` (in the
process); ``mqtt://host:port`` publishes to an MQTT broker.
"""

from __future__ import annotations

import os

DEFAULT_DB = "sqlite+aiosqlite:///pokerroom.db"
DB_ENV = "POKERROOM_DB"
DEFAULT_BUS = "local"
BUS_ENV = "POKERROOM_BUS"
ADVERTISE_ENV = "POKERROOM_ADVERTISE"
"""The websocket URL clients reach a server at (``pokerroom serve --advertise``)."""


def database_url(option: str | None = None) -> str:
    """The database URL to use, with an async driver."""
    url = option or os.environ.get(DB_ENV) or DEFAULT_DB
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def bus_url(option: str | None = None) -> str:
    """The event bus to use: ``local`` or ``mqtt://host:port``."""
    return option or os.environ.get(BUS_ENV) or DEFAULT_BUS
