"""The store's errors.

- :class:`StoreError`: an operation that cannot be done.
    - :class:`UnknownHandError`: no such hand.

(:class:`server.store.MigrationError`, a schema not at the newest migration, is the
migrations' own.) :data:`UNAVAILABLE` are the drivers' errors that mean the database is
away (unreachable, silent, locked, restarting): worth trying again later.
"""

from __future__ import annotations

import sqlite3

import asyncpg
from sqlalchemy.exc import InterfaceError, OperationalError

from server.errors import Code, Refusal

__all__ = ["UNAVAILABLE", "StoreError", "UnknownHandError"]

UNAVAILABLE = (
    OperationalError, InterfaceError, OSError, sqlite3.OperationalError,
    asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.OperatorInterventionError,
    asyncpg.InternalClientError,  # a connection the server ended mid-protocol
)  # fmt: skip
"""Errors that mean the database is unavailable (TimeoutError, a silent connection's,
is an OSError)."""


class StoreError(Refusal):
    """A store operation that cannot be done: an unknown hand, a name taken. A client
    who asked for it is told ``refused``."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.REFUSED, message)


class UnknownHandError(StoreError):
    """No stored hand has this id (or none that fits what was asked for)."""
