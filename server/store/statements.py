"""The SQL the hand writer sends past SQLAlchemy (its hot path): a whole hand in one
PostgreSQL statement for asyncpg, plain inserts for sqlite3, and the lease checks that
fence a server out of a table another has taken (:mod:`server.store.writer`)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import orjson
from sqlalchemy import Table
from sqlalchemy.dialects import postgresql

from server.store.models import ACTIONS, HAND_PLAYERS, HANDS, LEDGER
from server.store.records import HandRows

__all__ = [
    "CHILD_COLUMNS",
    "HAND_COLUMNS",
    "PG_STORED_ENTRIES",
    "PG_STORED_HANDS",
    "PG_WRITE_HAND",
    "PG_WRITE_HAND_LEASED",
    "PG_WRITE_LEDGER",
    "PG_WRITE_LEDGER_LEASED",
    "SQLITE_STORED",
    "SQLITE_TAKEN",
    "SQLITE_WRITE",
    "pg_arguments",
    "sqlite_row",
]


def _columns(table: Table, skip: tuple[str, ...]) -> list[str]:
    return [c.name for c in table.columns if c.name not in skip]


HAND_COLUMNS = _columns(HANDS, ("id",))
CHILD_COLUMNS = {t.name: _columns(t, ("id",)) for t in (HAND_PLAYERS, ACTIONS, LEDGER)}
_N = len(HAND_COLUMNS)


def _json_insert(table: Table, parameter: int) -> str:
    """``INSERT INTO table SELECT h.id, ... FROM h, json_populate_recordset(...)``: the
    rows arrive as one JSON array parameter, which the server unpacks by the table's own
    row type. (Arrays per column cost us a Python type check per element to encode.)"""
    columns = _columns(table, ("hand_id", "id", "created_at"))
    picked = ", ".join(f"x.{c}" for c in columns)
    stamp = ", created_at" if "created_at" in table.c else ""
    stamp_value = f", ${HAND_COLUMNS.index('ended_at') + 1}::timestamptz" if stamp else ""
    return (
        f"INSERT INTO {table.name} (hand_id, {', '.join(columns)}{stamp}) "
        f"SELECT h.id, {picked}{stamp_value} FROM h, "
        f"json_populate_recordset(NULL::{table.name}, ${parameter}::json) AS x"
    )


def pg_arguments(rows: HandRows) -> list[Any]:
    """:data:`PG_WRITE_HAND`'s arguments for one hand."""
    hand = rows.hand
    return [
        *(hand[c] for c in HAND_COLUMNS),
        orjson.dumps(rows.players).decode(),
        orjson.dumps(rows.actions).decode(),
        orjson.dumps(
            [{k: v for k, v in r.items() if k != "created_at"} for r in rows.ledger]
        ).decode(),
    ]


def _pg_type(table: Table, column: str) -> str:
    """A column's type for a cast, without a length: a cast to VARCHAR(n) would cut a
    value short where the insert refuses it."""
    return re.sub(r"\(\d+\)", "", table.c[column].type.compile(dialect=postgresql.dialect()))


# A whole hand in one PostgreSQL statement (asyncpg's $n parameters): the hand row, then
# its players, actions and ledger entries, all in the statement's own transaction. A
# hand whose digest is stored already (written again: its commit's reply was lost)
# inserts nothing and returns no id: the writer then finds it by its digest
# (PG_STORED_HANDS), in a statement of its own, which sees a commit made meanwhile.
PG_WRITE_HAND = (
    f"WITH h AS (INSERT INTO hands ({', '.join(HAND_COLUMNS)}) "
    f"VALUES ({', '.join(f'${i}' for i in range(1, _N + 1))}) "
    "ON CONFLICT (digest) DO NOTHING RETURNING id), "
    f"p AS ({_json_insert(HAND_PLAYERS, _N + 1)}), "
    f"a AS ({_json_insert(ACTIONS, _N + 2)}), "
    f"l AS ({_json_insert(LEDGER, _N + 3)}) "
    "SELECT id FROM h"
)
PG_STORED_HANDS = "SELECT digest, id FROM hands WHERE digest = ANY($1::text[])"

# The lease on a table, locked (if there is one) until the commit; then "not another's".
_PG_LEASE = "SELECT holder FROM table_leases WHERE table_id = {table} FOR SHARE"
# The same, for a server holding leases: the hand is inserted unless another server holds
# the lease on its table (a table nobody leases, a tournament's say, is anyone's). The
# lease row stays locked until the commit, so a takeover (which updates it) waits for the
# hand, or the hand for the takeover.
PG_WRITE_HAND_LEASED = PG_WRITE_HAND.replace(
    "WITH h AS (",
    f"WITH lease AS ({_PG_LEASE.format(table='$1')}), h AS (",
).replace(
    f"VALUES ({', '.join(f'${i}' for i in range(1, _N + 1))})",
    "SELECT "
    + ", ".join(f"${i}::{_pg_type(HANDS, c)}" for i, c in enumerate(HAND_COLUMNS, 1))
    + f" WHERE NOT EXISTS (SELECT 1 FROM lease WHERE holder <> ${_N + 4})",
)

# Entries outside a hand, idempotent by their write_id as hands are by their digest.
PG_WRITE_LEDGER = (
    f"INSERT INTO ledger ({', '.join(CHILD_COLUMNS['ledger'])}) "
    f"VALUES ({', '.join(f'${i}' for i in range(1, len(CHILD_COLUMNS['ledger']) + 1))}) "
    "ON CONFLICT (write_id) DO NOTHING"
)
_LEDGER_TABLE = f"${CHILD_COLUMNS['ledger'].index('table_id') + 1}"
# A row back per entry inserted: none when another server holds the lease, or when the
# entry is stored already (PG_STORED_ENTRIES tells which).
PG_WRITE_LEDGER_LEASED = (
    f"INSERT INTO ledger ({', '.join(CHILD_COLUMNS['ledger'])}) SELECT "
    + ", ".join(f"${i}::{_pg_type(LEDGER, c)}" for i, c in enumerate(CHILD_COLUMNS["ledger"], 1))
    + f" WHERE {_LEDGER_TABLE}::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM ("
    + _PG_LEASE.format(table=f"{_LEDGER_TABLE}::bigint")
    + f") AS lease WHERE holder <> ${len(CHILD_COLUMNS['ledger']) + 1}) "
    "ON CONFLICT (write_id) DO NOTHING RETURNING write_id"
)
PG_STORED_ENTRIES = "SELECT write_id FROM ledger WHERE write_id = ANY($1::text[])"

SQLITE_TAKEN = "SELECT 1 FROM table_leases WHERE table_id = ? AND holder <> ?"
# SQLite's statements for the hand writer (plain sqlite3: the hot path), idempotent as
# PostgreSQL's are: a hand (by its digest) or an entry (by its write_id) written again is
# stored once (the hand's id found with SQLITE_STORED).
SQLITE_WRITE = {
    name: f"INSERT INTO {name} ({', '.join(cs)}) VALUES ({', '.join('?' * len(cs))})"
    for name, cs in [(HANDS.name, HAND_COLUMNS), *CHILD_COLUMNS.items()]
}
SQLITE_WRITE[HANDS.name] += " ON CONFLICT (digest) DO NOTHING RETURNING id"
SQLITE_WRITE[LEDGER.name] += " ON CONFLICT (write_id) DO NOTHING"
SQLITE_STORED = "SELECT id FROM hands WHERE digest = ?"


def sqlite_row(row: dict[str, Any], columns: list[str], hand_id: int | None) -> list[Any]:
    """A row's values for sqlite3, times as SQLAlchemy stores them in SQLite."""
    values = [hand_id if c == "hand_id" else row[c] for c in columns]
    return [v.strftime("%Y-%m-%d %H:%M:%S.%f") if isinstance(v, dt.datetime) else v for v in values]
