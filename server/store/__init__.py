"""The hand-history store (SQLAlchemy 2.x async; SQLite by default, PostgreSQL in
production) and its Alembic migrations. See docs/operations.md."""

from server.store.migrate import MigrationError
from server.store.records import HandRows, hand_rows
from server.store.store import (
    HandSummary,
    HandWriter,
    ImportReport,
    Lease,
    Store,
    StoredHand,
    StoreError,
    UnknownHandError,
)

__all__ = [
    "HandRows",
    "HandSummary",
    "HandWriter",
    "ImportReport",
    "Lease",
    "MigrationError",
    "Store",
    "StoreError",
    "StoredHand",
    "UnknownHandError",
    "hand_rows",
]
