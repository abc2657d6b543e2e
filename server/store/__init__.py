"""The hand-history store (SQLAlchemy 2.x async; SQLite by default, PostgreSQL in
production) and its Alembic migrations. See docs/operations.md."""

from server.store.errors import UNAVAILABLE, StoreError, UnknownHandError
from server.store.hands import HandSummary, StoredHand
from server.store.imports import ImportReport
from server.store.leases import Lease
from server.store.migrate import MigrationError
from server.store.records import HandRows, hand_rows
from server.store.store import Store
from server.store.writer import HandWriter

__all__ = [
    "UNAVAILABLE",
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
