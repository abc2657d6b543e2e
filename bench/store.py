"""Hands written per second, and our process's CPU per hand, on SQLite and PostgreSQL.

    make bench                       # or: python -m bench.store [--hands N]

Every row writes the same played hands (6-max, random legal actions). "ours" builds the
rows from the engine's finished hand (PHH history included) and writes them with
a ``HandWriter`` (one table: a transaction per hand) or ``Store.write_hands`` (batches
of 100).
The baseline is a plain SQLAlchemy Core insert of the same, already built, rows, one
transaction per hand; the ORM row adds the same rows as ORM objects through a session,
for reference. "50 tables" runs 50 tables writing at once through one ``HandWriter``,
which commits whatever they handed over together (group commit), as the server does.
CPU is ``time.process_time()`` of this process only (the database server's is not ours).
PostgreSQL is the one at 127.0.0.1:5432 (``POKERROOM_TEST_PG`` to change); a scratch
database is created and dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.store needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import asyncpg  # noqa: E402
from sqlalchemy import insert  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncSession  # noqa: E402

from engine import BetOrRaiseTo, CheckOrCall, Deck, Fold, Hand, Table, TableConfig  # noqa: E402
from server.store import HandRows, HandWriter, Store, hand_rows  # noqa: E402
from server.store.models import (  # noqa: E402
    ACTIONS,
    HAND_PLAYERS,
    HANDS,
    LEDGER,
    Action,
    HandPlayer,
    LedgerEntry,
)
from server.store.models import Hand as HandRow  # noqa: E402

PG_ADMIN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
NOW = dt.datetime(2026, 11, 21, tzinfo=dt.UTC)
NAMES = [f"bench{i}" for i in range(6)]


def play(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=6))
    hands = []
    for _ in range(count):
        for chair in range(6):
            if chair not in table.occupied():
                table.sit_down(chair, 10_000)
        table.start_hand(Deck.shuffled(rng))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            r = rng.random()
            if menu.can_raise and r < 0.2:
                table.apply(BetOrRaiseTo(seat, menu.min_raise_to))
            elif menu.can_fold and r < 0.5:
                table.apply(Fold(seat))
            else:
                table.apply(CheckOrCall(seat))
        assert table.hand is not None
        hands.append(table.hand)
    return hands


class Context:
    """Ids the rows refer to, and hand numbers that never repeat across runs."""

    def __init__(self, player_ids: dict[str, int], table_ids: list[int]) -> None:
        self.player_ids = player_ids
        self.table_ids = table_ids
        self.number = 0

    def rows(self, hand: Hand, table: int = 0) -> HandRows:
        self.number += 1
        rows = hand_rows(
            hand,
            table_id=self.table_ids[table],
            player_ids=[self.player_ids[NAMES[s]] for s in hand.seats],
            names=[NAMES[s] for s in hand.seats],
            started_at=NOW,
            ended_at=NOW,
        )
        rows.hand["hand_number"] = self.number
        return rows


async def measure(hands: int, work: Callable[[], Awaitable[None]]) -> tuple[float, float]:
    """(hands per second, CPU milliseconds per hand) for ``work``."""
    cpu, wall = time.process_time(), time.perf_counter()
    await work()
    return hands / (time.perf_counter() - wall), (time.process_time() - cpu) * 1000 / hands


async def core_each(store: Store, prebuilt: list[HandRows]) -> None:
    """The baseline: plain SQLAlchemy Core inserts of rows built already, a transaction
    per hand."""
    for rows in prebuilt:
        async with store.engine.begin() as conn:
            hand_id = (
                await conn.execute(insert(HANDS).returning(HANDS.c.id), rows.hand)
            ).scalar_one()
            await conn.execute(
                insert(HAND_PLAYERS), [{**r, "hand_id": hand_id} for r in rows.players]
            )
            await conn.execute(insert(ACTIONS), [{**r, "hand_id": hand_id} for r in rows.actions])
            if rows.ledger:
                await conn.execute(insert(LEDGER), [{**r, "hand_id": hand_id} for r in rows.ledger])


async def orm_each(store: Store, orm_rows: list[HandRows]) -> None:
    """For reference: the same rows as ORM objects through a session."""
    async with AsyncSession(store.engine, expire_on_commit=False) as session:
        for rows in orm_rows:
            async with session.begin():
                hand = HandRow(**rows.hand)
                session.add(hand)
                await session.flush()
                session.add_all(HandPlayer(**r, hand_id=hand.id) for r in rows.players)
                session.add_all(Action(**r, hand_id=hand.id) for r in rows.actions)
                session.add_all(LedgerEntry(**r, hand_id=hand.id) for r in rows.ledger)


async def bench(
    url: str, label: str, hands: list[Hand], concurrent: bool
) -> list[tuple[str, float, float]]:
    results = []
    async with Store.open(url, upgrade=True, pool_size=25) as store:
        ids = await store.ensure_players(NAMES)
        tables = [await store.ensure_table(f"bench {i}", {}) for i in range(50)]
        ctx = Context(ids, tables)
        n = len(hands)

        async def ours_each() -> None:
            async with store.writer() as writer:
                for hand in hands:
                    await writer.write(ctx.rows(hand))

        async def ours_batched() -> None:
            for start in range(0, n, 100):
                await store.write_hands([ctx.rows(h) for h in hands[start : start + 100]])

        prebuilt = [ctx.rows(h) for h in hands]
        orm_rows = [ctx.rows(h) for h in hands]

        for name, work in (
            ("ours, a transaction per hand", ours_each),
            ("ours, batches of 100", ours_batched),
            ("Core insert (baseline)", lambda: core_each(store, prebuilt)),
            ("ORM session (reference)", lambda: orm_each(store, orm_rows)),
        ):
            results.append((f"{label}: {name}", *await measure(n, work)))

        if concurrent:
            per_table = max(1, n // 50)

            async def table_writer(writer: HandWriter, table: int) -> None:
                for hand in hands[table * per_table : (table + 1) * per_table]:
                    await writer.write(ctx.rows(hand, table))

            async def fifty() -> None:  # as a server does: one writer for every table
                async with store.writer() as writer:
                    await asyncio.gather(*(table_writer(writer, t) for t in range(50)))

            results.append(
                (f"{label}: ours, 50 tables at once", *await measure(per_table * 50, fifty))
            )
    return results


async def main() -> int:
    parser = argparse.ArgumentParser(description="store write speed")
    parser.add_argument("--hands", type=int, default=2000, help="hands per row")
    args = parser.parse_args()
    hands = play(args.hands, seed=1)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        results += await bench(f"sqlite+aiosqlite:///{folder}/bench.db", "SQLite", hands, False)
    name = f"pokerroom_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        results += await bench(f"{base}/{name}", "PostgreSQL", hands, True)
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()

    print(f"python {sys.version.split()[0]}; {len(hands):,} 6-max hands per row")
    header = f"{'what':<52} {'hands/s':>9} {'CPU ms/hand':>12}"
    print(header)
    print("-" * len(header))
    for what, rate, cpu in results:
        print(f"{what:<52} {rate:>9,.0f} {cpu:>12.3f}")
    fifty = next(r for r in results if "50 tables" in r[0])
    pg_each = next(r for r in results if r[0] == "PostgreSQL: ours, a transaction per hand")
    goals = [
        ("PostgreSQL, 50 tables: >= 1,000 hands/s", fifty[1] >= 1000),
        ("PostgreSQL, a written hand < 0.5 ms CPU", pg_each[2] < 0.5),
    ]
    for goal, ok in goals:
        print(f"goal: {goal}: {'yes' if ok else 'NO'}")
    return 0 if all(ok for _, ok in goals) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
