"""The store's errors.

- :class:`StoreError`: an operation that cannot be done.
    - :class:`UnknownHandError`: no such hand.

(:class:`server.store.MigrationError`, a schema not at the newest migration, is the
migrations' own.)
"""

from __future__ import annotations

__all__ = ["StoreError", "UnknownHandError"]


class StoreError(Exception):
    """A store operation that cannot be done: an unknown hand, a database not migrated."""


class UnknownHandError(StoreError):
    """No stored hand has this id (or none that fits what was asked for)."""
