"""The hand writer: the one connection through which a server writes every table's hands
and ledger entries, in rounds (group commit), retrying a database that goes away."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import sqlite3
import time
from typing import Any

import asyncpg
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store import ledger
from server.store.base import UTC, StoreBase, sqlite_pragmas
from server.store.errors import UNAVAILABLE, StoreError
from server.store.models import ACTIONS, HAND_PLAYERS, HANDS, LEDGER
from server.store.records import HandRows
from server.store.statements import (
    CHILD_COLUMNS,
    HAND_COLUMNS,
    PG_STORED_ENTRIES,
    PG_STORED_HANDS,
    PG_WRITE_HAND,
    PG_WRITE_HAND_LEASED,
    PG_WRITE_LEDGER,
    PG_WRITE_LEDGER_LEASED,
    SQLITE_STORED,
    SQLITE_TAKEN,
    SQLITE_WRITE,
    pg_arguments,
    sqlite_row,
)

__all__ = ["HandWriter"]

log = logging.getLogger("pokerroom")


class _LeaseLost(Exception):
    """A write for a table this process no longer hosts (another took it over)."""


# Errors a write can meet: the database refusing these rows (retrying is no use), and the
# database being unreachable, locked or restarting (retrying is: errors.UNAVAILABLE).
_REFUSED = (
    IntegrityError, asyncpg.IntegrityConstraintViolationError, sqlite3.IntegrityError, _LeaseLost
)  # fmt: skip


class HandWriter:
    """The one connection through which a server writes every table's hands and ledger
    entries (open it with :meth:`server.store.Store.writer`).

    A table hands over what to write and waits until it is committed. Writes go in rounds
    (group commit): a round starts in the turn of the event loop after the first write
    arrives, and takes everything handed over until then; what arrives while it is
    written goes into the next. One connection and one commit per round however many
    tables there are, and on SQLite a single writer, so no table waits on the database
    lock. A database that goes away is retried for ``retry_seconds`` (tables wait) before
    the writes fail (None: until it is back). Every write is idempotent, so a retry
    after a lost reply stores nothing twice."""

    def __init__(
        self, store: StoreBase, retry_seconds: float | None, holder: str | None,
        attempt_seconds: float = 10.0,
    ) -> None:  # fmt: skip
        self.store = store
        self.retry_seconds = retry_seconds
        self.attempt_seconds = attempt_seconds
        self._give_up_at: float | None = None  # set by stop_retrying
        # A server process's id: then no row for a table is written while another process
        # holds the table's lease, checked in the same transaction (fencing: a process
        # another has taken a table from cannot write a late hand into it).
        self.holder = holder
        self._pending: list[tuple[HandRows | ledger.LedgerRow, asyncio.Future[int | None]]] = []
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
        await self._submit(ledger.entry(player_id, table_id, amount, reason, dt.datetime.now(UTC)))

    async def _submit(self, item: HandRows | ledger.LedgerRow) -> int | None:
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
        """Refuse new writes, wait for those under way, and close the connection. A
        writer that waits for the database without end gives up 5 s from now, if
        :meth:`stop_retrying` has not said otherwise."""
        self._closing = True
        if self.retry_seconds is None and self._give_up_at is None:
            self.stop_retrying(5.0)
        await self._idle.wait()
        if self._checkpoint is not None:
            await self._checkpoint
        await self._disconnect()

    async def _commit(
        self, batch: list[tuple[HandRows | ledger.LedgerRow, asyncio.Future[int | None]]]
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

    async def _write_retrying(self, items: list[HandRows | ledger.LedgerRow]) -> list[int | None]:
        """Write ``items``, retrying while the database is unavailable: for
        ``retry_seconds`` (None: until it is back, or until :meth:`stop_retrying`). Each
        attempt has ``attempt_seconds``: a connection that went silent (a network dropping
        packets) is given up and a new one tried. Sending the same rows again is safe:
        every write is idempotent (a hand's digest, an entry's write_id), so a commit whose
        reply was lost is stored once."""
        started = time.monotonic()
        # Quick retries first: SQLite is often only locked for a millisecond by another
        # connection's transaction (a lease renewed); 0.1 s at once would stall every
        # table's next hand (lockstep latency p99 15 -> 55 ms).
        pause = 0.002
        warned = False
        while True:
            try:
                async with asyncio.timeout(self.attempt_seconds):
                    await self._connect()
                    ids = await self._write(items)
                if warned:
                    log.warning("writing to the database works again, after %.1f s",
                                time.monotonic() - started)  # fmt: skip
                return ids
            except _REFUSED as exc:
                rows = next((i for i in items if isinstance(i, HandRows)), None)
                what = (
                    f"hand {rows.hand['hand_number']} of table {rows.hand['table_id']}"
                    if rows is not None and len(items) == 1 else "a batch"
                )  # fmt: skip
                reason = str(getattr(exc, "orig", exc)).splitlines()[0]
                raise StoreError(f"{what} was not stored: {reason}") from exc
            except UNAVAILABLE as exc:  # TimeoutError is an OSError: a silent connection
                await self._disconnect()
                waited = time.monotonic() - started
                deadline = self._deadline(started)
                if deadline is not None and time.monotonic() + pause > deadline:
                    raise StoreError(f"the database is unavailable: {_why(exc)}") from exc
                if waited >= 1.0 and not warned:  # not a moment's lock: say so, once
                    log.warning("writing to the database failed for %.1f s (%s); retrying "
                                "until it is back", waited, _why(exc))  # fmt: skip
                    warned = True
                await asyncio.sleep(pause)
                pause = min(2 * pause, 2.0)

    def _deadline(self, started: float) -> float | None:
        """When retries give up: ``retry_seconds`` after the first attempt, or the moment
        :meth:`stop_retrying` set, whichever is first."""
        ends = [] if self.retry_seconds is None else [started + self.retry_seconds]
        if self._give_up_at is not None:
            ends.append(self._give_up_at)
        return min(ends, default=None)

    def stop_retrying(self, grace: float) -> None:
        """The server is stopping: writes waiting for the database give up ``grace``
        seconds from now (what they were to store is then the next start's to settle:
        a hand not stored is void, as after a crash)."""
        self._give_up_at = time.monotonic() + grace

    async def _connect(self) -> None:
        if self.store.is_sqlite:
            if self._sqlite is None:
                path = self.store.engine.url.database
                if not path or path == ":memory:":
                    raise StoreError("the hand writer needs an SQLite file, not a memory database")
                self._sqlite = sqlite3.connect(path, timeout=0, isolation_level=None)
                sqlite_pragmas(self._sqlite, None)
                self._sqlite.execute("PRAGMA wal_autocheckpoint=0")  # see _checkpoint_later
        elif self._conn is None:  # autocommit: the hot path opens its own transactions
            self._conn = await self.store.autocommit.connect()
            self._driver = (await self._conn.get_raw_connection()).driver_connection

    async def _disconnect(self) -> None:
        conn, self._conn, self._driver = self._conn, None, None
        if conn is not None:  # bounded: a silent network never answers a goodbye
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5.0):
                    await conn.invalidate()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5.0):
                    await conn.close()
        lite, self._sqlite = self._sqlite, None
        if lite is not None:
            lite.close()

    async def _write(self, items: list[HandRows | ledger.LedgerRow]) -> list[int | None]:
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
            await self._write_entries_pg(entries)
            return [None] * len(entries)
        return await self._write_hands_pg(hands)

    async def _write_hands_pg(self, hands: list[HandRows]) -> list[int | None]:
        if self.holder is None:
            statement, arguments = PG_WRITE_HAND, [pg_arguments(r) for r in hands]
        else:
            statement = PG_WRITE_HAND_LEASED
            arguments = [[*pg_arguments(r), self.holder] for r in hands]
        if len(hands) == 1:
            hand_id = await self._driver.fetchval(statement, *arguments[0])
            records = [] if hand_id is None else [(hand_id,)]
        else:
            records = await self._driver.fetchmany(statement, arguments)
        if len(records) == len(hands):
            return [int(r[0]) for r in records]
        # Some hand inserted nothing: stored already (written again after a lost reply),
        # or its table is another server's now. Its digest says which (this statement
        # sees every commit, this round's included).
        digests = [r.hand["digest"] for r in hands]
        stored = dict(await self._driver.fetch(PG_STORED_HANDS, digests))
        if all(d in stored for d in digests):
            return [int(stored[d]) for d in digests]
        # (A batch is then written again one hand at a time, each getting its own answer.)
        raise _LeaseLost("this server no longer hosts the table")

    async def _write_entries_pg(self, entries: list[ledger.LedgerRow]) -> None:
        columns = CHILD_COLUMNS[LEDGER.name]
        rows = [[e[c] for c in columns] for e in entries]
        if self.holder is None:  # an entry stored already is skipped (its write_id)
            await self._driver.executemany(PG_WRITE_LEDGER, rows)
            return
        written = await self._driver.fetchmany(
            PG_WRITE_LEDGER_LEASED, [[*r, self.holder] for r in rows]
        )
        if len(written) == len(entries):
            return
        ids = [e["write_id"] for e in entries]  # stored already, or not ours to store?
        stored = {r[0] for r in await self._driver.fetch(PG_STORED_ENTRIES, ids)}
        if not all(i in stored for i in ids):
            raise _LeaseLost("this server no longer hosts the table")

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

    def _write_sqlite(self, hands: list[HandRows], entries: list[ledger.LedgerRow]) -> list[int]:
        conn = self._sqlite
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self.holder is not None:
                for table_id in {r.hand["table_id"] for r in hands} | {
                    e["table_id"] for e in entries if e["table_id"] is not None
                }:
                    if conn.execute(SQLITE_TAKEN, (table_id, self.holder)).fetchone():
                        raise _LeaseLost(f"this server no longer hosts table {table_id}")
            ids = []
            for rows in hands:
                hand = sqlite_row(rows.hand, HAND_COLUMNS, None)
                inserted = conn.execute(SQLITE_WRITE[HANDS.name], hand).fetchone()
                if inserted is None:  # stored already (written again): its id, no more
                    (stored,) = conn.execute(SQLITE_STORED, (rows.hand["digest"],)).fetchone()
                    ids.append(stored)
                    continue
                (hand_id,) = inserted
                ids.append(hand_id)
                for table, children in (
                    (HAND_PLAYERS, rows.players), (ACTIONS, rows.actions), (LEDGER, rows.ledger)
                ):  # fmt: skip
                    columns = CHILD_COLUMNS[table.name]
                    conn.executemany(
                        SQLITE_WRITE[table.name],
                        [sqlite_row(row, columns, hand_id) for row in children],
                    )
            conn.executemany(
                SQLITE_WRITE[LEDGER.name],
                [sqlite_row(row, CHILD_COLUMNS[LEDGER.name], None) for row in entries],
            )
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return ids


_CHECKPOINT_BYTES = 4 << 20  # about SQLite's own threshold (1,000 pages)


def _checkpoint(path: str) -> None:
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error as exc:  # the next round's check tries again
        log.warning("checkpointing the SQLite log failed: %s", exc)
    finally:
        conn.close()


def _why(exc: BaseException) -> str:
    """A failure in a few words (a timeout has no message of its own)."""
    if isinstance(exc, TimeoutError):
        return "no answer: the connection went silent"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _settle(batch: list[tuple[Any, asyncio.Future[int | None]]], failure: BaseException) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(failure)
