"""The hand-history store: SQLAlchemy 2.x async over SQLite (aiosqlite) or PostgreSQL
(asyncpg).

Open it with ``async with Store.open(url) as store:``. A finished hand is written in one
transaction, rows inserted with SQLAlchemy Core (the ORM's unit of work costs several
times the CPU for these plain inserts); reads use the typed models.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import logging
import os
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import asyncpg
import orjson
from sqlalchemy import Connection, Select, Table, delete, event, func, insert, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from engine import EngineError, HistoryError, UnsupportedHistoryError, history
from server.export import HandInfo
from server.store import migrate
from server.store.models import (
    Action,
    Deployment,
    Hand,
    HandPlayer,
    HandVoid,
    LedgerEntry,
    Player,
    TableLease,
    TableRecord,
    TournamentRecord,
)
from server.store.records import HandRows, hand_rows

__all__ = [
    "HandSummary",
    "HandWriter",
    "ImportReport",
    "Lease",
    "Store",
    "StoreError",
    "StoredHand",
    "UnknownHandError",
]

UTC = dt.UTC
log = logging.getLogger("pokerroom")
# The tables behind the models, for Core inserts.
PLAYERS = cast(Table, Player.__table__)
HANDS = cast(Table, Hand.__table__)
HAND_PLAYERS = cast(Table, HandPlayer.__table__)
ACTIONS = cast(Table, Action.__table__)
LEDGER = cast(Table, LedgerEntry.__table__)
LEASES = cast(Table, TableLease.__table__)
VOIDS = cast(Table, HandVoid.__table__)
_Select = TypeVar("_Select", bound=Select[*tuple[Any, ...]])


class _LeaseLost(Exception):
    """A write for a table this process no longer hosts (another took it over)."""


# Errors a write can meet: the database refusing these rows (retrying is no use), and the
# database being unreachable, locked or restarting (retrying is).
_REFUSED = (
    IntegrityError, asyncpg.IntegrityConstraintViolationError, sqlite3.IntegrityError, _LeaseLost
)  # fmt: skip
_UNAVAILABLE = (
    OperationalError, InterfaceError, OSError, sqlite3.OperationalError,
    asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.OperatorInterventionError,
    asyncpg.InternalClientError,  # a connection the server ended mid-protocol
)  # fmt: skip


class StoreError(Exception):
    """A store operation that cannot be done: an unknown hand, a database not migrated."""


class UnknownHandError(StoreError):
    """No stored hand has this id (or none that fits what was asked for)."""


@dataclass(frozen=True)
class HandSummary:
    """A stored hand in brief: a line of ``pokerroom hands list``, an item of the
    protocol's ``hands``."""

    id: int
    table: str
    hand_number: int
    started_at: dt.datetime
    pot: int
    board: str
    scale: int
    currency: str | None
    players: tuple[tuple[str, int], ...]
    """(name, net) for each player, in position order."""
    engine_seats: tuple[int, ...]
    """Each player's seat at the table as the engine and the protocol number them (from 0),
    in position order."""


@dataclass(frozen=True)
class StoredHand:
    """A stored hand: its history and context for the exporters (with the table's seats,
    button and small blind, which PHH does not record), and what else its row in
    ``hands`` keeps."""

    info: HandInfo
    hand_number: int
    big_blind: int
    ante: int


@dataclass
class ImportReport:
    """What an import did, hand by hand: ``(source, status, message)`` per hand."""

    imported: int = 0
    duplicates: int = 0
    unsupported: int = 0
    errors: int = 0
    lines: list[tuple[str, str, str]] = field(default_factory=list)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Foreign keys are off by default in SQLite. WAL keeps readers and the writer apart
    # and, with synchronous=NORMAL, loses no committed transaction when the process dies.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


@dataclass(frozen=True)
class Lease:
    """A table this process now hosts (:meth:`Store.take_table`)."""

    table_id: int
    name: str
    config: dict[str, Any]
    last_hand_number: int
    """Hands from here on are numbered after this one (a voided hand's number included:
    a number is never dealt twice)."""
    voided: int | None
    """The hand number voided because the table's last host stopped without cashing its
    players out, if it did."""
    refunds: dict[int, int]
    """Player id -> the chips the ledger said they had at the table, given back."""


LedgerRow = dict[str, Any]
"""A balance change outside a hand (a buy-in, a cash-out): a row of the ledger."""


class HandWriter:
    """The one connection through which a server writes every table's hands and ledger
    entries (open it with :meth:`Store.writer`).

    A table hands over what to write and waits until it is committed. Writes go in rounds
    (group commit): a round starts in the turn of the event loop after the first write
    arrives, and takes everything handed over until then; what arrives while it is
    written goes into the next. One connection and one commit per round however many
    tables there are, and on SQLite a single writer, so no table waits on the database
    lock. A database that goes away is retried for ``retry_seconds`` (tables wait) before
    the writes fail."""

    def __init__(self, store: Store, retry_seconds: float, holder: str | None) -> None:
        self.store = store
        self.retry_seconds = retry_seconds
        # A server process's id: then no row for a table is written while another process
        # holds the table's lease, checked in the same transaction (fencing: a process
        # another has taken a table from cannot write a late hand into it).
        self.holder = holder
        self._pending: list[tuple[HandRows | LedgerRow, asyncio.Future[int | None]]] = []
        self._idle = asyncio.Event()  # no round is being written
        self._idle.set()
        self._closing = False
        self._rounds: set[asyncio.Task[None]] = set()  # rounds written in the background
        # PostgreSQL: asyncpg's connection, in the event loop (one round trip a hand).
        self._conn: AsyncConnection | None = None
        self._driver: Any = None
        # SQLite: a plain sqlite3 connection, used in the event loop's thread. A hand is
        # a third of a millisecond (WAL: no fsync at commit; plain executemany, at half
        # SQLAlchemy's CPU), while a hop to another thread (aiosqlite's, say) waits for
        # the GIL at every statement when the loop is busy: 80 ms a round at 50 tables.
        # It never waits for the lock (busy timeout 0): a locked database is retried like
        # an unavailable one, without blocking the loop.
        self._sqlite: sqlite3.Connection | None = None
        self._checkpoint: asyncio.Future[None] | None = None  # SQLite: the one under way

    async def write(self, rows: HandRows) -> int:
        """Write one hand; returns its id. All of it is stored, or none of it:
        :class:`StoreError` if the database refuses it (e.g. the hand is stored already)."""
        hand_id = await self._submit(rows)
        assert hand_id is not None
        return hand_id

    async def record(self, player_id: int, table_id: int, amount: int, reason: str) -> None:
        """A balance change outside a hand (a buy-in, a cash-out)."""
        await self._submit(
            {"player_id": player_id, "table_id": table_id, "amount": amount, "reason": reason,
             "created_at": dt.datetime.now(UTC), "hand_id": None}
        )  # fmt: skip

    async def _submit(self, item: HandRows | LedgerRow) -> int | None:
        if self._closing:
            raise StoreError("the hand writer is closed")
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, done))
        if self._idle.is_set():
            self._start_round()
        return await done

    def _start_round(self) -> None:
        """A round begins in the next turn of the event loop: whatever the tables hand over
        in this one goes in with it (tables whose hands end together share a commit)."""
        self._idle.clear()
        task = asyncio.get_running_loop().create_task(self._round())
        self._rounds.add(task)
        task.add_done_callback(self._rounds.discard)

    async def _round(self) -> None:
        """Commit everything pending: the hands in one transaction, the ledger entries in
        another. What arrives meanwhile is the next round's."""
        batch, self._pending = self._pending, []
        try:
            hands = [b for b in batch if isinstance(b[0], HandRows)]
            entries = [b for b in batch if not isinstance(b[0], HandRows)]
            for group in (hands, entries):
                if group:
                    await self._commit(group)
        except asyncio.CancelledError:
            _settle(batch, StoreError("the write was interrupted"))
            raise
        finally:
            if self._pending:
                self._start_round()
            else:
                self._idle.set()

    async def aclose(self) -> None:
        """Refuse new writes, wait for those under way, and close the connection."""
        self._closing = True
        await self._idle.wait()
        if self._checkpoint is not None:
            await self._checkpoint
        await self._disconnect()

    async def _commit(
        self, batch: list[tuple[HandRows | LedgerRow, asyncio.Future[int | None]]]
    ) -> None:
        try:
            ids = await self._write_retrying([item for item, _ in batch])
        except StoreError as exc:
            if len(batch) > 1 and isinstance(exc.__cause__, _REFUSED):
                for one in batch:  # one refused write must not fail the others
                    await self._commit([one])
                return
            failure: BaseException = exc
        except asyncio.CancelledError:  # the writing task is being stopped: say so, go on
            failure = StoreError("the write was interrupted")
            _settle(batch, failure)
            raise
        except Exception as exc:  # a bug: the waiting tables hear of it, the writer goes on
            failure = exc
        else:
            for (_, done), result in zip(batch, ids, strict=True):
                if not done.done():
                    done.set_result(result)
            return
        _settle(batch, failure)

    async def _write_retrying(self, items: list[HandRows | LedgerRow]) -> list[int | None]:
        deadline = time.monotonic() + self.retry_seconds
        # Quick retries first: SQLite is often only locked for a millisecond by another
        # connection's transaction (a lease renewed); 0.1 s at once would stall every
        # table's next hand (lockstep latency p99 15 -> 55 ms).
        pause = 0.002
        waited, warned = 0.0, False
        while True:
            try:
                await self._connect()
                return await self._write(items)
            except _REFUSED as exc:
                rows = next((i for i in items if isinstance(i, HandRows)), None)
                what = (
                    f"hand {rows.hand['hand_number']} of table {rows.hand['table_id']}"
                    if rows is not None and len(items) == 1 else "a batch"
                )  # fmt: skip
                reason = str(getattr(exc, "orig", exc)).splitlines()[0]
                raise StoreError(f"{what} was not stored: {reason}") from exc
            except _UNAVAILABLE as exc:
                await self._disconnect()
                if time.monotonic() + pause > deadline:
                    raise StoreError(f"the database is unavailable: {exc}") from exc
                if waited >= 1.0 and not warned:  # not a moment's lock: say so, once
                    log.warning("writing to the database failed for %.1f s (%s); retrying",
                                waited, exc)  # fmt: skip
                    warned = True
                await asyncio.sleep(pause)
                waited += pause
                pause = min(2 * pause, 2.0)

    async def _connect(self) -> None:
        if self.store.is_sqlite:
            if self._sqlite is None:
                path = self.store.engine.url.database
                if not path or path == ":memory:":
                    raise StoreError("the hand writer needs an SQLite file, not a memory database")
                self._sqlite = sqlite3.connect(path, timeout=0, isolation_level=None)
                _sqlite_pragmas(self._sqlite, None)
                self._sqlite.execute("PRAGMA wal_autocheckpoint=0")  # see _checkpoint_later
        elif self._conn is None:  # autocommit: the hot path opens its own transactions
            self._conn = await self.store._autocommit.connect()
            self._driver = (await self._conn.get_raw_connection()).driver_connection

    async def _disconnect(self) -> None:
        conn, self._conn, self._driver = self._conn, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()
        lite, self._sqlite = self._sqlite, None
        if lite is not None:
            lite.close()

    async def _write(self, items: list[HandRows | LedgerRow]) -> list[int | None]:
        """Items of one kind, hands or ledger entries, in one transaction; the hands' ids
        in order (None for an entry)."""
        hands = [i for i in items if isinstance(i, HandRows)]
        entries = [i for i in items if not isinstance(i, HandRows)]
        if self._driver is None:
            ids = self._write_sqlite(hands, entries)
            self._checkpoint_later()
            return [*ids] if hands else [None] * len(entries)
        # PostgreSQL: a hand is one statement sent straight through asyncpg (SQLAlchemy's
        # execution layer costs three times the driver's CPU); several are pipelined in
        # one implicit transaction (executemany): one round trip either way.
        if entries:
            columns = _CHILD_COLUMNS[LEDGER.name]
            rows = [[e[c] for c in columns] for e in entries]
            if self.holder is None:
                await self._driver.executemany(_PG_WRITE_LEDGER, rows)
            else:  # one row back per entry written: fewer means a lease was lost
                written = await self._driver.fetchmany(
                    _PG_WRITE_LEDGER_LEASED, [[*r, self.holder] for r in rows]
                )
                if len(written) != len(entries):
                    raise _LeaseLost("this server no longer hosts the table")
            return [None] * len(entries)
        if self.holder is None:
            statement, arguments = _PG_WRITE_HAND, [_pg_arguments(r) for r in hands]
        else:
            statement = _PG_WRITE_HAND_LEASED
            arguments = [[*_pg_arguments(r), self.holder] for r in hands]
        if len(hands) == 1:
            hand_id = await self._driver.fetchval(statement, *arguments[0])
            records = [] if hand_id is None else [(hand_id,)]
        else:
            records = await self._driver.fetchmany(statement, arguments)
        if len(records) != len(hands):  # a hand of a table this server no longer hosts
            raise _LeaseLost("this server no longer hosts the table")
        return [int(r[0]) for r in records]

    def _checkpoint_later(self) -> None:
        """SQLite: once the write-ahead log has grown, copy it back into the database in a
        worker thread (sqlite3 lets go of the GIL while it copies and syncs). Left to a
        commit in the event loop, as SQLite does by default, it stalls every table for
        milliseconds (lockstep latency p99 ~22 -> ~13 ms)."""
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        path = self.store.engine.url.database
        assert path is not None
        with contextlib.suppress(OSError):  # no log file yet: nothing to copy
            if os.stat(f"{path}-wal").st_size >= _CHECKPOINT_BYTES:
                loop = asyncio.get_running_loop()
                self._checkpoint = loop.run_in_executor(None, _checkpoint, path)

    def _write_sqlite(self, hands: list[HandRows], entries: list[LedgerRow]) -> list[int]:
        conn = self._sqlite
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self.holder is not None:
                for table_id in {r.hand["table_id"] for r in hands} | {
                    e["table_id"] for e in entries if e["table_id"] is not None
                }:
                    if conn.execute(_SQLITE_TAKEN, (table_id, self.holder)).fetchone():
                        raise _LeaseLost(f"this server no longer hosts table {table_id}")
            ids = []
            for rows in hands:
                hand = _sqlite_row(rows.hand, _HAND_COLUMNS, None)
                (hand_id,) = conn.execute(_SQLITE_WRITE[HANDS.name], hand).fetchone()
                ids.append(hand_id)
                for table, children in (
                    (HAND_PLAYERS, rows.players), (ACTIONS, rows.actions), (LEDGER, rows.ledger)
                ):  # fmt: skip
                    columns = _CHILD_COLUMNS[table.name]
                    conn.executemany(
                        _SQLITE_WRITE[table.name],
                        [_sqlite_row(row, columns, hand_id) for row in children],
                    )
            conn.executemany(
                _SQLITE_WRITE[LEDGER.name],
                [_sqlite_row(row, _CHILD_COLUMNS[LEDGER.name], None) for row in entries],
            )
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return ids


SQLITE_WAIT_SECONDS = 30.0
"""How long a connection of the store waits for another process's write to SQLite."""
_CHECKPOINT_BYTES = 4 << 20  # about SQLite's own threshold (1,000 pages)


def _checkpoint(path: str) -> None:
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error as exc:  # the next round's check tries again
        log.warning("checkpointing the SQLite log failed: %s", exc)
    finally:
        conn.close()


def _settle(batch: list[tuple[Any, asyncio.Future[int | None]]], failure: BaseException) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(failure)


class Store:
    """Hands, players, tables and the chip ledger in one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._players: dict[str, int] = {}
        self._tables: dict[tuple[str, bool], int] = {}  # (name, imported): id
        self._next_number: dict[int, int] = {}  # per table, for imported hands

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls, url: str, *, upgrade: bool | None = None, pool_size: int = 10
    ) -> AsyncIterator[Store]:
        """Connect, check the schema, and dispose of the connections on the way out.

        An SQLite database is upgraded to the latest migration (``upgrade=None`` means
        "only for SQLite"); any other must already be at it, or :class:`StoreError` says
        to run ``pokerroom db upgrade``.
        """
        options: dict[str, Any] = {}
        if not url.startswith("sqlite"):
            options = {"pool_size": pool_size, "max_overflow": pool_size}
        else:  # another process (a server, the CLI) writing: wait our turn, quietly
            options = {"connect_args": {"timeout": SQLITE_WAIT_SECONDS}}
        engine = create_async_engine(url, **options)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            if upgrade if upgrade is not None else engine.dialect.name == "sqlite":
                await migrate.upgrade(engine)
            else:
                await migrate.check_current(engine)
            yield cls(engine)
        finally:
            await engine.dispose()

    async def deployment(self) -> str:
        """This database's deployment id, which every message its servers put on a shared
        broker carries (migration 0005 draws it)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(Deployment.id))).scalar()
        if found is None:
            raise StoreError("the database has no deployment id: run pokerroom db upgrade")
        return str(found)

    # -- players and tables -------------------------------------------------------------

    async def ensure_players(self, names: Iterable[str]) -> dict[str, int]:
        """Ids for these player names, creating players that do not exist yet."""
        wanted = set(names) - self._players.keys()
        if wanted:
            async with self.engine.begin() as conn:
                await self._insert_missing(conn, Player, "name", wanted, {})
                rows = await conn.execute(
                    select(Player.name, Player.id).where(Player.name.in_(wanted))
                )
                self._players.update({name: id_ for name, id_ in rows.all()})  # noqa: C416
        return self._players

    async def create_account(self, name: str) -> tuple[int, str]:
        """A new account: its id and its access token (the store keeps only a hash)."""
        token = secrets.token_urlsafe(32)
        async with self.engine.begin() as conn:
            taken = await conn.execute(select(Player.id).where(Player.name == name))
            if taken.first() is not None:
                raise StoreError(f"the name {name!r} is taken")
            row = await conn.execute(
                insert(PLAYERS).returning(PLAYERS.c.id),
                {"name": name, "token_hash": token_hash(token), "created_at": dt.datetime.now(UTC)},
            )
            return int(row.scalar_one()), token

    async def player_by_token(self, token: str) -> tuple[int, str] | None:
        """The account (id, name) a token belongs to, if any."""
        async with self.engine.connect() as conn:
            row = await conn.execute(
                select(Player.id, Player.name).where(Player.token_hash == token_hash(token))
            )
            found = row.first()
        return (found.id, found.name) if found else None

    async def guest(self, name: str) -> int:
        """The player id for a guest name; :class:`StoreError` if an account has it."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(Player.id, Player.token_hash).where(Player.name == name))
            ).first()
        if row is not None and row.token_hash is not None:
            raise StoreError(f"the name {name!r} belongs to an account: sign in with its token")
        return (await self.ensure_players([name]))[name]

    async def ensure_table(
        self, name: str, config: dict[str, Any], *, imported: bool = False
    ) -> int:
        """The id of the table called ``name``, creating it with ``config`` if need be.
        Imported hands go to ``imported`` tables, apart from a live table of that name."""
        key = (name, imported)
        if key not in self._tables:
            async with self.engine.begin() as conn:
                await self._insert_missing(
                    conn, TableRecord, "name", {name}, {"config": config, "imported": imported}
                )
                row = await conn.execute(
                    select(TableRecord.id).where(
                        TableRecord.name == name, TableRecord.imported == imported
                    )
                )
                self._tables[key] = row.scalar_one()
        return self._tables[key]

    # -- table leases ----------------------------------------------------------------------

    async def take_table(
        self,
        table_id: int,
        holder: str,
        address: str,
        seconds: float,
        config: dict[str, Any] | None = None,
    ) -> Lease | None:
        """Lease the table to ``holder`` for ``seconds``, unless another process holds a
        lease on it that has not expired: then None.

        Taking a table whose last host stopped without cashing its players out (it died)
        settles what it left, in the same transaction: each player with chips at the
        table by the ledger (buy-ins, hands stored, cash-outs) gets them back, and the
        hand after the last stored one is recorded as void (``hand_voids``). ``config``
        replaces the table's stored configuration.
        """
        now = dt.datetime.now(UTC)
        until = now + dt.timedelta(seconds=seconds)
        lease = {"holder": holder, "address": address, "expires_at": until}
        async with self.engine.begin() as conn:
            # Locked (PostgreSQL): of two processes taking the same table, one waits and
            # then finds it taken; a hand being written for it finishes first.
            current = (
                await conn.execute(
                    select(TableLease.holder, TableLease.expires_at)
                    .where(TableLease.table_id == table_id)
                    .with_for_update()
                )
            ).first()
            if current is None:
                make = sqlite_insert if self.is_sqlite else pg_insert
                added = await conn.execute(
                    make(LEASES).on_conflict_do_nothing(), {"table_id": table_id, **lease}
                )
                if added.rowcount != 1:
                    return None  # another process took it a moment ago
            elif _aware(current.expires_at) >= now:
                return None  # a live lease, whoever holds it (this holder included)
            else:
                # Compare and set: only if nobody took it since it was read (SQLite locks
                # nothing on reading). Of two takers, the second changes no row.
                taken = await conn.execute(
                    update(LEASES)
                    .where(
                        LEASES.c.table_id == table_id,
                        LEASES.c.holder == current.holder,
                        LEASES.c.expires_at < now,
                    )
                    .values(**lease)
                )
                if taken.rowcount != 1:
                    return None
            if config is not None:
                await conn.execute(
                    update(TableRecord).where(TableRecord.id == table_id).values(config=config)
                )
            record = (
                await conn.execute(
                    select(TableRecord.name, TableRecord.config).where(TableRecord.id == table_id)
                )
            ).one()
            last = max(
                (await conn.execute(
                    select(func.max(Hand.hand_number)).where(Hand.table_id == table_id)
                )).scalar() or 0,
                (await conn.execute(
                    select(func.max(HandVoid.hand_number)).where(HandVoid.table_id == table_id)
                )).scalar() or 0,
            )  # fmt: skip
            owed = await conn.execute(
                select(LedgerEntry.player_id, func.sum(LedgerEntry.amount))
                .where(LedgerEntry.table_id == table_id)
                .group_by(LedgerEntry.player_id)
                .having(func.sum(LedgerEntry.amount) != 0)
            )
            refunds = {int(player): int(chips) for player, chips in owed.all()}
            voided = None
            if refunds:
                voided = last = last + 1
                await conn.execute(
                    insert(LEDGER),
                    [
                        {"player_id": player, "table_id": table_id, "hand_id": None,
                         "amount": -chips, "reason": "void_cash_out", "created_at": now}
                        for player, chips in sorted(refunds.items())
                    ],
                )  # fmt: skip
                await conn.execute(
                    insert(VOIDS),
                    {"table_id": table_id, "hand_number": voided,
                     "holder": current.holder if current is not None else holder,
                     "refunds": {str(p): c for p, c in sorted(refunds.items())},
                     "voided_at": now},
                )  # fmt: skip
        return Lease(table_id, record.name, record.config, last, voided, refunds)

    async def table_config(self, table_id: int) -> dict[str, Any]:
        """A table's stored configuration."""
        async with self.engine.connect() as conn:
            found = await conn.execute(select(TableRecord.config).where(TableRecord.id == table_id))
            return dict(found.scalar_one())

    async def set_table_config(self, table_id: int, config: dict[str, Any]) -> None:
        """Replace a table's stored configuration (what a process taking it over reads)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(TableRecord).where(TableRecord.id == table_id).values(config=config)
            )

    async def renew_leases(self, holder: str, seconds: float) -> set[int]:
        """Extend every lease ``holder`` has; the tables it still holds."""
        until = dt.datetime.now(UTC) + dt.timedelta(seconds=seconds)
        async with self.engine.begin() as conn:
            rows = await conn.execute(
                update(LEASES)
                .where(LEASES.c.holder == holder)
                .values(expires_at=until)
                .returning(LEASES.c.table_id)
            )
            return {int(table_id) for table_id in rows.scalars()}

    async def hosts(self, *, other_than: str) -> dict[str, str]:
        """Tables other processes host now: table id (its name) -> the host's address."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(TableRecord.name, TableLease.address)
                .join(TableLease, TableLease.table_id == TableRecord.id)
                .where(TableLease.holder != other_than)
                .where(TableLease.expires_at >= dt.datetime.now(UTC))
            )
            return {name: address for name, address in rows.all()}  # noqa: C416

    async def expired_leases(self) -> list[str]:
        """Tables (by id, their name) whose host has not renewed its lease in time: free
        to take over."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(TableRecord.name)
                .join(TableLease, TableLease.table_id == TableRecord.id)
                .where(TableLease.expires_at < dt.datetime.now(UTC))
            )
            return list(rows.scalars())

    async def release_table(self, table_id: int, holder: str) -> None:
        """Give a table's lease up (the table has stopped and cashed everyone out)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(LEASES).where(LEASES.c.table_id == table_id, LEASES.c.holder == holder)
            )

    # -- tournaments ------------------------------------------------------------------------

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

    async def _insert_missing(
        self, conn: AsyncConnection, model: Any, key: str, values: set[str], extra: dict[str, Any]
    ) -> None:
        now = dt.datetime.now(UTC)
        rows = [{key: v, "created_at": now, **extra} for v in sorted(values)]
        make = sqlite_insert if self.is_sqlite else pg_insert
        # Another process may create the same name at the same moment: keep theirs.
        await conn.execute(make(model.__table__).on_conflict_do_nothing(), rows)

    # -- writing hands -------------------------------------------------------------------

    async def write_hand(self, rows: HandRows) -> int:
        """Write one finished hand, its players, actions and ledger entries in one
        transaction; returns its id. A server writing many tables' hands should hold a
        :meth:`writer` instead."""
        async with self.writer() as writer:
            return await writer.write(rows)

    @contextlib.asynccontextmanager
    async def writer(
        self, *, retry_seconds: float = 30.0, holder: str | None = None
    ) -> AsyncIterator[HandWriter]:
        """A :class:`HandWriter` with its own connection; everything it was given is
        committed when the block ends. With ``holder``, no row of a table is written
        while another process holds its lease (:meth:`take_table`)."""
        writer = HandWriter(self, retry_seconds, holder)
        try:
            yield writer
        finally:
            await writer.aclose()

    async def write_hands(self, batch: Sequence[HandRows]) -> list[int]:
        """Write several hands in one transaction (all or none); returns their ids."""
        async with self.engine.begin() as conn:
            return await conn.run_sync(_insert_hands, batch)

    # -- importing ---------------------------------------------------------------------------

    async def import_histories(
        self,
        items: Iterable[tuple[str, str, history.HandHistory]],
        *,
        batch_size: int | None = None,
    ) -> ImportReport:
        """Store PHH hands, given as ``(source, table name, history)``. Each is replayed
        first; a hand that does not replay, another variant, or a hand already stored is
        reported and skipped. Hands are written in batches, each in one transaction, so a
        hand is stored whole or not at all. Imported hands are numbered in order on their
        table; the number the history gives stays in the history."""
        report = ImportReport()
        # SQLite has one writer at a time: short transactions keep a server writing to
        # the same file from waiting long (50 hands hold the lock about 50 ms).
        batch_size = batch_size or (50 if self.is_sqlite else 500)
        pending: list[tuple[str, HandRows]] = []
        for source, table_name, hh in items:
            try:
                rows = await self._import_rows(hh, str(hh.fields.get("table", table_name)))
            except UnsupportedHistoryError as exc:
                report.unsupported += 1
                report.lines.append((source, "unsupported", str(exc)))
                continue
            except EngineError as exc:  # a HistoryError, or a hand the engine cannot set up
                report.errors += 1
                report.lines.append((source, "error", str(exc)))
                continue
            pending.append((source, rows))
            if len(pending) >= batch_size:
                await self._flush_import(pending, report)
                pending = []
        if pending:
            await self._flush_import(pending, report)
        return report

    async def _flush_import(
        self, pending: list[tuple[str, HandRows]], report: ImportReport
    ) -> None:
        digests = [rows.hand["digest"] for _, rows in pending]
        async with self.engine.begin() as conn:
            found = await conn.execute(select(Hand.digest).where(Hand.digest.in_(digests)))
            existing = set(found.scalars())
            fresh: list[HandRows] = []
            for source, rows in pending:
                if rows.hand["digest"] in existing:
                    report.duplicates += 1
                    report.lines.append((source, "duplicate", "already stored"))
                else:
                    existing.add(rows.hand["digest"])
                    fresh.append(rows)
                    report.lines.append((source, "imported", ""))
            if fresh:
                ids = await conn.run_sync(_insert_hands, fresh)
                report.imported += len(ids)

    async def _import_rows(self, hh: history.HandHistory, table_name: str) -> HandRows:
        replay = history.replay(hh)
        hand = replay.hand
        n = len(hand.seats)
        names = [str(x) for x in hh.fields.get("players", [f"p{i + 1}" for i in range(n)])]
        if len(names) != n or len(set(names)) != n or any(not 0 < len(x) <= 64 for x in names):
            raise HistoryError(f"players must be {n} distinct names of 1 to 64 characters")
        seat_field = hh.fields.get("seats")
        try:
            seats = [int(s) for s in seat_field] if seat_field else [p + 1 for p in range(n)]
        except (TypeError, ValueError):
            raise HistoryError(f"seats must be {n} seat numbers, got {seat_field!r}") from None
        if len(seats) != n or len(set(seats)) != n or not all(1 <= s <= 100 for s in seats):
            raise HistoryError(f"seats must be {n} distinct numbers from 1 to 100, got {seats!r}")
        currency = hh.fields.get("currency")
        if currency is not None and not (isinstance(currency, str) and 0 < len(currency) <= 8):
            raise HistoryError(f"currency must be a code of up to 8 letters, got {currency!r}")
        ids = await self.ensure_players(names)
        config = {
            "small_blind": hand.setup.small_blind,
            "big_blind": hand.setup.big_blind,
            "seats": int(hh.fields.get("seat_count", max(seats))),
        }
        table_id = await self.ensure_table(table_name, config, imported=True)
        started = _history_time(hh)
        hidden = [p for p in range(n) if not replay.known[p]]
        rows = hand_rows(
            hand,
            table_id=table_id,
            player_ids=[ids[name] for name in names],
            names=names,
            started_at=started,
            ended_at=started,
            history_text=history.dump(hh),
            imported=True,
            scale=replay.scale,
            currency=currency,
            hidden=hidden,
        )
        for row, seat in zip(rows.players, seats, strict=True):
            row["seat"] = seat - 1
        rows.hand["button_seat"] = seats[-1] - 1
        rows.hand["hand_number"] = await self._next_hand_number(table_id)
        for row in rows.actions:
            row["seat"] = seats[row["seat"]] - 1
        return rows

    async def last_hand_number(self, table_id: int) -> int:
        """The highest hand number stored for a table (0 if none): a table that plays on
        after a restart numbers its hands from the next one."""
        async with self.engine.connect() as conn:
            top = await conn.execute(
                select(func.max(Hand.hand_number)).where(Hand.table_id == table_id)
            )
            return int(top.scalar() or 0)

    async def _next_hand_number(self, table_id: int) -> int:
        if table_id not in self._next_number:
            self._next_number[table_id] = await self.last_hand_number(table_id) + 1
        number = self._next_number[table_id]
        self._next_number[table_id] += 1
        return number

    # -- reading --------------------------------------------------------------------------

    async def list_hands(
        self,
        *,
        player: str | None = None,
        table: str | None = None,
        since: dt.datetime | None = None,
        before: int | None = None,
        imported: bool | None = None,
        limit: int = 20,
    ) -> list[HandSummary]:
        """The latest hands, newest first: optionally only one player's, one table's, those
        started ``since``, those with an id below ``before`` (the next page), and only
        hands imported (``imported=True``) or only hands played here (``False``)."""
        statement = (
            select(Hand.id, TableRecord.name, Hand.hand_number, Hand.started_at, Hand.pot,
                   Hand.board, Hand.scale, Hand.currency)
            .join(TableRecord, Hand.table_id == TableRecord.id)
            .order_by(Hand.id.desc())
            .limit(limit)
        )  # fmt: skip
        statement = _narrowed(
            statement, player=player, table=table, since=since, before=before, imported=imported
        )
        async with self.engine.connect() as conn:
            hands = (await conn.execute(statement)).all()
            ids = [h.id for h in hands]
            rows = await conn.execute(
                select(HandPlayer.hand_id, Player.name, HandPlayer.net, HandPlayer.seat)
                .join(Player)
                .where(HandPlayer.hand_id.in_(ids))
                .order_by(HandPlayer.hand_id, HandPlayer.position)
            )
            players: dict[int, list[tuple[str, int, int]]] = {}
            for hand_id, name, net, seat in rows:
                players.setdefault(hand_id, []).append((name, net, seat))
        return [
            HandSummary(h.id, h.name, h.hand_number, _aware(h.started_at), h.pot, h.board,
                        h.scale, h.currency,
                        tuple((name, net) for name, net, _ in players.get(h.id, ())),
                        tuple(seat for _, _, seat in players.get(h.id, ())))
            for h in hands
        ]  # fmt: skip

    async def hand_ids(self) -> list[int]:
        """Every stored hand's id, oldest first."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(Hand.id).order_by(Hand.id))).scalars())

    async def count_hands(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(Hand))).scalar_one())

    async def hand_info(self, hand_id: int) -> HandInfo:
        """A stored hand with what the exporters need; :class:`StoreError` if unknown."""
        return (await self.stored_hand(hand_id)).info

    async def stored_hand(
        self,
        hand_id: int,
        *,
        player: str | None = None,
        since: dt.datetime | None = None,
        imported: bool | None = None,
    ) -> StoredHand:
        """A stored hand; :class:`UnknownHandError` if unknown, or if it is not one that
        :meth:`list_hands` would list with the same ``player``, ``since`` and ``imported``."""
        statement = (
            select(Hand.id, Hand.history, Hand.started_at, Hand.currency, Hand.hand_number,
                   Hand.button_seat, Hand.small_blind, Hand.big_blind, Hand.ante,
                   TableRecord.name, TableRecord.config)
            .join(TableRecord, Hand.table_id == TableRecord.id)
            .where(Hand.id == hand_id)
        )  # fmt: skip
        statement = _narrowed(statement, player=player, since=since, imported=imported)
        async with self.engine.connect() as conn:
            row = (await conn.execute(statement)).first()
            if row is None:
                raise UnknownHandError(f"no hand with id {hand_id}")
            players = (
                await conn.execute(
                    select(Player.name, HandPlayer.seat)
                    .join(Player)
                    .where(HandPlayer.hand_id == hand_id)
                    .order_by(HandPlayer.position)
                )
            ).all()
        try:
            hh = history.load(row.history)
        except EngineError as exc:  # stored by us, so this is a bug or a broken database
            raise StoreError(f"hand {hand_id} has an unreadable history: {exc}") from exc
        info = HandInfo(
            hand_id=row.id,
            table_name=row.name,
            started_at=_aware(row.started_at),
            players=tuple(name for name, _ in players),
            seats=tuple(seat + 1 for _, seat in players),
            history=hh,
            currency=row.currency,
            max_seats=int(row.config.get("seats", 6)),
            button=row.button_seat + 1,
            small_blind=row.small_blind,
        )
        return StoredHand(info, row.hand_number, row.big_blind, row.ante)


def _narrowed(
    statement: _Select,
    *,
    player: str | None = None,
    table: str | None = None,
    since: dt.datetime | None = None,
    before: int | None = None,
    imported: bool | None = None,
) -> _Select:
    """A select from ``hands`` joined with ``tables``, narrowed to the hands asked for:
    the one place :meth:`Store.list_hands` and :meth:`Store.stored_hand` filter."""
    if player is not None:
        mine = select(HandPlayer.hand_id).join(Player).where(Player.name == player)
        statement = statement.where(Hand.id.in_(mine))
    if table is not None:
        statement = statement.where(TableRecord.name == table)
    if since is not None:
        statement = statement.where(Hand.started_at >= since)
    if before is not None:
        statement = statement.where(Hand.id < before)
    if imported is not None:
        statement = statement.where(TableRecord.imported == imported)
    return statement


def _insert_hands(conn: Connection, batch: Sequence[HandRows]) -> list[int]:
    """Insert hands and their child rows (in the caller's transaction); their ids."""
    if len(batch) == 1:
        ids = [conn.execute(insert(HANDS).returning(HANDS.c.id), batch[0].hand).scalar_one()]
    else:
        statement = insert(HANDS).returning(HANDS.c.id, sort_by_parameter_order=True)
        ids = list(conn.execute(statement, [rows.hand for rows in batch]).scalars())
    players, actions, ledger = [], [], []
    for hand_id, rows in zip(ids, batch, strict=True):
        for row in rows.players:
            row["hand_id"] = hand_id
        for row in rows.actions:
            row["hand_id"] = hand_id
        for row in rows.ledger:
            row["hand_id"] = hand_id
        players += rows.players
        actions += rows.actions
        ledger += rows.ledger
    conn.execute(insert(HAND_PLAYERS), players)
    if actions:
        conn.execute(insert(ACTIONS), actions)
    if ledger:
        conn.execute(insert(LEDGER), ledger)
    return ids


def _columns(table: Table, skip: tuple[str, ...]) -> list[str]:
    return [c.name for c in table.columns if c.name not in skip]


def _json_insert(table: Table, parameter: int) -> str:
    """``INSERT INTO table SELECT h.id, ... FROM h, json_populate_recordset(...)``: the
    rows arrive as one JSON array parameter, which the server unpacks by the table's own
    row type. (Arrays per column cost us a Python type check per element to encode.)"""
    columns = _columns(table, ("hand_id", "id", "created_at"))
    picked = ", ".join(f"x.{c}" for c in columns)
    stamp = ", created_at" if "created_at" in table.c else ""
    stamp_value = f", ${_HAND_COLUMNS.index('ended_at') + 1}::timestamptz" if stamp else ""
    return (
        f"INSERT INTO {table.name} (hand_id, {', '.join(columns)}{stamp}) "
        f"SELECT h.id, {picked}{stamp_value} FROM h, "
        f"json_populate_recordset(NULL::{table.name}, ${parameter}::json) AS x"
    )


def _pg_arguments(rows: HandRows) -> list[Any]:
    hand = rows.hand
    return [
        *(hand[c] for c in _HAND_COLUMNS),
        orjson.dumps(rows.players).decode(),
        orjson.dumps(rows.actions).decode(),
        orjson.dumps(
            [{k: v for k, v in r.items() if k != "created_at"} for r in rows.ledger]
        ).decode(),
    ]


_HAND_COLUMNS = _columns(HANDS, ("id",))
_N = len(_HAND_COLUMNS)
# A whole hand in one PostgreSQL statement (asyncpg's $n parameters): the hand row, then
# its players, actions and ledger entries, all in the statement's own transaction.
_PG_WRITE_HAND = (
    f"WITH h AS (INSERT INTO hands ({', '.join(_HAND_COLUMNS)}) "
    f"VALUES ({', '.join(f'${i}' for i in range(1, _N + 1))}) RETURNING id), "
    f"p AS ({_json_insert(HAND_PLAYERS, _N + 1)}), "
    f"a AS ({_json_insert(ACTIONS, _N + 2)}), "
    f"l AS ({_json_insert(LEDGER, _N + 3)}) "
    "SELECT id FROM h"
)


def _pg_type(table: Table, column: str) -> str:
    """A column's type for a cast, without a length: a cast to VARCHAR(n) would cut a
    value short where the insert refuses it."""
    return re.sub(r"\(\d+\)", "", table.c[column].type.compile(dialect=postgresql.dialect()))


# The lease on a table, locked (if there is one) until the commit; then "not another's".
_PG_LEASE = "SELECT holder FROM table_leases WHERE table_id = {table} FOR SHARE"
# The same, for a server holding leases: the hand is inserted unless another server holds
# the lease on its table (a table nobody leases, a tournament's say, is anyone's). The
# lease row stays locked until the commit, so a takeover (which updates it) waits for the
# hand, or the hand for the takeover.
_PG_WRITE_HAND_LEASED = _PG_WRITE_HAND.replace(
    "WITH h AS (",
    f"WITH lease AS ({_PG_LEASE.format(table='$1')}), h AS (",
).replace(
    f"VALUES ({', '.join(f'${i}' for i in range(1, _N + 1))})",
    "SELECT "
    + ", ".join(f"${i}::{_pg_type(HANDS, c)}" for i, c in enumerate(_HAND_COLUMNS, 1))
    + f" WHERE NOT EXISTS (SELECT 1 FROM lease WHERE holder <> ${_N + 4})",
)


_CHILD_COLUMNS = {t.name: _columns(t, ("id",)) for t in (HAND_PLAYERS, ACTIONS, LEDGER)}
_PG_WRITE_LEDGER = (
    f"INSERT INTO ledger ({', '.join(_CHILD_COLUMNS['ledger'])}) "
    f"VALUES ({', '.join(f'${i}' for i in range(1, len(_CHILD_COLUMNS['ledger']) + 1))})"
)
_LEDGER_TABLE = f"${_CHILD_COLUMNS['ledger'].index('table_id') + 1}"
_PG_WRITE_LEDGER_LEASED = (
    f"INSERT INTO ledger ({', '.join(_CHILD_COLUMNS['ledger'])}) SELECT "
    + ", ".join(f"${i}::{_pg_type(LEDGER, c)}" for i, c in enumerate(_CHILD_COLUMNS["ledger"], 1))
    + f" WHERE {_LEDGER_TABLE}::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM ("
    + _PG_LEASE.format(table=f"{_LEDGER_TABLE}::bigint")
    + f") AS lease WHERE holder <> ${len(_CHILD_COLUMNS['ledger']) + 1}) RETURNING 1"
)
_SQLITE_TAKEN = "SELECT 1 FROM table_leases WHERE table_id = ? AND holder <> ?"
# SQLite's statements for the hand writer (plain sqlite3: the hot path).
_SQLITE_WRITE = {
    name: f"INSERT INTO {name} ({', '.join(cs)}) VALUES ({', '.join('?' * len(cs))})"
    for name, cs in [(HANDS.name, _HAND_COLUMNS), *_CHILD_COLUMNS.items()]
}
_SQLITE_WRITE[HANDS.name] += " RETURNING id"


def _sqlite_row(row: dict[str, Any], columns: list[str], hand_id: int | None) -> list[Any]:
    """A row's values for sqlite3, times as SQLAlchemy stores them in SQLite."""
    values = [hand_id if c == "hand_id" else row[c] for c in columns]
    return [v.strftime("%Y-%m-%d %H:%M:%S.%f") if isinstance(v, dt.datetime) else v for v in values]


def token_hash(token: str) -> str:
    """What the store keeps of an access token: its SHA-256 (tokens are 256-bit random,
    so a fast hash is enough; a slow password hash would add nothing)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes; every time we store is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _history_time(hh: history.HandHistory) -> dt.datetime:
    """When a history says its hand was played (PHH year/month/day/time), else now."""
    f = hh.fields
    try:
        day = dt.date(int(f["year"]), int(f.get("month", 1)), int(f.get("day", 1)))
    except (KeyError, ValueError, TypeError):
        return dt.datetime.now(UTC)
    clock = f.get("time")
    moment = dt.datetime.combine(day, clock if isinstance(clock, dt.time) else dt.time())
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
