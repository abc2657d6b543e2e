"""A server's tables on PostgreSQL while the database goes away, through a proxy of the
test's own (tests/faults.py; the shared server is never touched): issue 29, items 1-2.

- Cuts: fast tables (house bots, no thinking time) while every connection to the
  database is cut for two seconds, again and again. Before: the first cut often lost a
  commit's reply, the retry hit the unique hand number, the table stopped and its
  players were cashed out from the stacks before a hand that was stored (+2 / -2).
- Blackhole: the database answers nothing for longer than a write used to wait (30 s).
  Before: every table stopped for good, demo tables included, with no line in the log.

Afterwards, every table is still playing, and the database agrees with itself: hand
numbers run 1..N on each table (nothing voided, nothing twice), each hand's ledger
entries are its players' nets, and once the server stops every balance is 0.

CI runs small counts; ``make stress`` the full ones: ``POKERROOM_STRESS_CUTS`` cuts
(default 5, full 50) and a ``POKERROOM_STRESS_OUTAGE`` second blackhole (default 35,
full 120).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from server.app import PokerServer, ServerSettings
from server.store import Store
from tests.faults import Proxy, proxy
from tests.server.clients import connect, send, until
from tests.server.conftest import create_pg_database, drop_pg_database
from tests.server.test_database_faults import direct, through

CUTS = int(os.environ.get("POKERROOM_STRESS_CUTS", "5"))
OUTAGE = float(os.environ.get("POKERROOM_STRESS_OUTAGE", "35"))
DEMOS = "nlhe,plo,razz"
"""Three tables of house bots playing as fast as they can."""


@contextlib.asynccontextmanager
async def pg_database() -> AsyncIterator[tuple[str, Proxy]]:
    """A database of the test's own, and a proxy to the server it is on."""
    url = await create_pg_database()
    try:
        async with proxy("127.0.0.1", 5432) as px:
            yield url, px
    finally:
        await drop_pg_database(url)


@contextlib.asynccontextmanager
async def serving(url: str, px: Proxy) -> AsyncIterator[tuple[PokerServer, str]]:
    """A server with three fast demo tables on ``url`` through ``px``: the server and
    its websocket address. Stopped (everyone cashed out) when the block ends."""
    async with Store.open(through(url, px), upgrade=True) as store:
        settings = ServerSettings(
            port=0, house_think_seconds=0.0, demo=True, demo_games=DEMOS, api=False
        )
        server = PokerServer(store, settings)
        async with server.running() as ws:
            port = next(iter(ws.sockets)).getsockname()[1]
            yield server, f"ws://127.0.0.1:{port}/ws"


def hands_played(server: PokerServer) -> int:
    return sum(runner.core.hands_played for runner in server.hosting.tables.values())


def all_playing(server: PokerServer) -> None:
    tables = server.hosting.tables
    assert sorted(tables) == sorted(server.hosting.demo_ids()), sorted(tables)
    assert not [t for t, runner in tables.items() if runner.stopped]


async def check_the_books(url: str) -> dict[str, Any]:
    """The database agrees with itself once the server has stopped; what it holds."""
    conn = await asyncpg.connect(direct(url))
    try:
        numbers = await conn.fetch(
            "SELECT table_id, array_agg(hand_number ORDER BY hand_number) AS n "
            "FROM hands GROUP BY table_id"
        )
        for row in numbers:  # each table's hands 1..N: none lost, none twice
            assert list(row["n"]) == list(range(1, len(row["n"]) + 1)), row["table_id"]
        assert await conn.fetchval("SELECT count(*) FROM hand_voids") == 0
        # Each hand's ledger entries are its players' nets, no more and no fewer.
        wrong = await conn.fetchval(
            "SELECT count(*) FROM hands h WHERE "
            "(SELECT coalesce(sum(net), 0) FROM hand_players p WHERE p.hand_id = h.id "
            " AND p.net <> 0) <> (SELECT coalesce(sum(amount), 0) FROM ledger l "
            " WHERE l.hand_id = h.id) OR "
            "(SELECT count(*) FROM hand_players p WHERE p.hand_id = h.id AND p.net <> 0) <> "
            "(SELECT count(*) FROM ledger l WHERE l.hand_id = h.id)"
        )
        assert wrong == 0
        # Everyone was cashed out of what the stored hands left them: balances are 0.
        owed = await conn.fetch(
            "SELECT player_id, table_id, sum(amount) AS chips FROM ledger "
            "GROUP BY player_id, table_id HAVING sum(amount) <> 0"
        )
        assert not owed, [dict(r) for r in owed]
        return {
            "hands": await conn.fetchval("SELECT count(*) FROM hands"),
            "entries": await conn.fetchval("SELECT count(*) FROM ledger"),
        }
    finally:
        await conn.close()


async def test_hands_are_stored_once_through_repeated_cuts() -> None:
    async with pg_database() as (url, px):
        async with serving(url, px) as (server, _):
            await asyncio.sleep(2.0)
            before = hands_played(server)
            for _ in range(CUTS):
                px.set("cut")
                await asyncio.sleep(2.0)
                px.set("up")
                await asyncio.sleep(1.0)
                all_playing(server)
            await asyncio.sleep(2.0)
            played = hands_played(server) - before
            all_playing(server)
        books = await check_the_books(url)
    print(f"\n{CUTS} cuts of 2 s: {played} hands played meanwhile, {books['hands']} stored, "
          f"{px.accepted} connections through the proxy")  # fmt: skip
    assert played > 3 * CUTS  # the tables played on between the cuts


async def watcher(address: str, name: str) -> Any:
    ws = await connect(address)
    await send(ws, type="hello", name=name)
    await until(ws, "welcome")
    return ws


async def test_tables_pause_through_a_long_silence_and_deal_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="pokerroom")
    async with pg_database() as (url, px):
        async with serving(url, px) as (server, address):
            ws = await watcher(address, "ann")
            late = await watcher(address, "bob")  # a guest's hello is stored: before
            await send(ws, type="spectate", table="demo")
            await until(ws, "snapshot")
            await asyncio.sleep(1.0)
            px.set("blackhole")
            started = time.monotonic()
            paused = await until(ws, "table_waiting", timeout=10.0)
            assert paused["waiting_for"] == "database"
            told = time.monotonic() - started
            at_pause = hands_played(server)
            # The table still answers: a newcomer watches, at once.
            asked = time.monotonic()
            await send(late, type="spectate", table="demo")
            snapshot = await until(late, "snapshot", timeout=5.0)
            answered = time.monotonic() - asked
            assert snapshot["view"]["hand_number"] >= 1
            await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - started)))
            assert hands_played(server) <= at_pause + len(server.hosting.tables)  # paused
            all_playing(server)
            px.set("up")
            resumed = await until(ws, "table_waiting", timeout=60.0)
            assert resumed["waiting_for"] is None
            back = time.monotonic() - started - OUTAGE
            await asyncio.sleep(3.0)
            after = hands_played(server)
            assert after > at_pause + 5  # dealing on
            all_playing(server)
            for client in (ws, late):
                await client.close()
        books = await check_the_books(url)
    said = [r.getMessage() for r in caplog.records]
    assert any("writing to the database failed" in m for m in said), said
    assert any("works again" in m for m in said), said
    print(json.dumps({"outage_s": OUTAGE, "told_after_s": round(told, 2),
                      "newcomer_answered_s": round(answered, 3),
                      "dealing_again_after_s": round(back, 2),
                      "hands_after": after - at_pause, **books}))  # fmt: skip
