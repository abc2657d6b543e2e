"""The hand writer against a PostgreSQL that goes away, through a proxy of the test's own
(tests/faults.py; the shared server is never touched): a commit whose reply is lost is
stored once (issue 29, item 1), and a network that goes silent is noticed and retried
however long it lasts (item 2)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from server.app import PokerServer, ServerSettings
from server.store import HandWriter, Store
from tests.faults import Proxy, proxy
from tests.helpers import ask
from tests.server.clients import connect
from tests.server.conftest import create_pg_database, drop_pg_database, play_hands
from tests.server.test_store import NAMES, rows_of

PG = ("127.0.0.1", 5432)


def through(url: str, px: Proxy) -> str:
    """``url`` (a database on the shared server) reached through ``px``."""
    return url.replace("127.0.0.1:5432", px.address)


def direct(url: str) -> str:
    """``url`` for asyncpg itself, straight to the server (no proxy)."""
    return url.replace("postgresql+asyncpg://", "postgresql://")


@contextlib.asynccontextmanager
async def database() -> AsyncIterator[tuple[str, Proxy]]:
    """A database of the test's own, and a proxy to the server it is on."""
    url = await create_pg_database()
    try:
        async with proxy(*PG) as px:
            yield url, px
    finally:
        await drop_pg_database(url)


async def count(url: str, sql: str, *args: object) -> int:
    conn = await asyncpg.connect(direct(url))
    try:
        return int(await conn.fetchval(sql, *args))
    finally:
        await conn.close()


async def until(url: str, sql: str, *args: object, at_least: int = 1) -> None:
    """Wait until ``sql`` counts ``at_least`` (the server has committed it)."""
    async with asyncio.timeout(10):
        while await count(url, sql, *args) < at_least:
            await asyncio.sleep(0.02)


async def lose_the_reply(px: Proxy, url: str, write: asyncio.Future[Any], sql: str,
                         *args: object) -> None:  # fmt: skip
    """While ``write`` is under way with replies being thrown away: wait until the server
    has committed it (``sql`` counts it), then cut the connection and let new ones in.
    The writer cannot know whether its commit happened."""
    await until(url, sql, *args)
    assert not write.done(), "the reply was to be lost"
    px.set("cut")
    px.set("up")


async def test_a_hand_whose_commit_reply_is_lost_is_stored_once() -> None:
    """Before: the retry sent the hand again, the unique (table, hand number) refused it,
    and the write failed (the table stopped, its players cashed out from the stacks
    before a hand that is stored)."""
    async with database() as (url, px), Store.open(through(url, px), upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("t", {})
        first, second = (rows_of(h, table, ids) for h in play_hands(2, seed=29))
        async with store.writer() as writer:
            stored = await writer.write(first)
            px.set("lose_replies")
            write = asyncio.ensure_future(writer.write(second))
            digest = second.hand["digest"]
            await lose_the_reply(px, url, write, "SELECT count(*) FROM hands WHERE digest = $1",
                                 digest)  # fmt: skip
            again = await write
        assert px.replies_lost >= 1
        assert again != stored
        assert await count(url, "SELECT count(*) FROM hands") == 2
        assert await count(url, "SELECT id FROM hands WHERE digest = $1", digest) == again
        players = len(second.players)
        assert await count(url, "SELECT count(*) FROM hand_players WHERE hand_id = $1",
                           again) == players  # fmt: skip
        nets = sum(1 for p in second.players if p["net"])
        assert await count(url, "SELECT count(*) FROM ledger WHERE hand_id = $1", again) == nets


async def test_a_ledger_entry_whose_commit_reply_is_lost_is_stored_once() -> None:
    """A buy-in written again after a lost reply would count twice in the player's
    balance: its write_id stores it once. Both with and without a lease holder (the
    server's writer has one; the CLI's has none)."""
    for holder in (None, "server-a"):
        async with database() as (url, px), Store.open(through(url, px), upgrade=True) as store:
            ids = await store.ensure_players(NAMES)
            table = await store.ensure_table("t", {})
            if holder is not None:
                assert await store.take_table(table, holder, "ws://x", 60.0) is not None
            player = ids[NAMES[0]]
            async with store.writer(holder=holder) as writer:
                await writer.record(player, table, 100, "buy_in")
                px.set("lose_replies")
                write = asyncio.ensure_future(writer.record(player, table, 500, "buy_in"))
                await lose_the_reply(
                    px, url, write, "SELECT count(*) FROM ledger WHERE amount = 500"
                )
                await write
            assert await count(url, "SELECT sum(amount) FROM ledger WHERE player_id = $1",
                               player) == 600, holder  # fmt: skip


async def test_a_silent_network_is_noticed_and_retried_until_it_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A blackhole answers nothing, not even an error: the attempt is given up after
    ``attempt_seconds``, said in the log, and retried on a new connection until the
    network is back, past the 30 s a write used to wait before failing."""
    async with database() as (url, px), Store.open(through(url, px), upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("t", {})
        first, second = (rows_of(h, table, ids) for h in play_hands(2, seed=30))
        writer = HandWriter(store, None, None, attempt_seconds=1.0)
        try:
            await writer.write(first)
            px.set("blackhole")
            caplog.set_level(logging.WARNING, logger="pokerroom")
            started = time.monotonic()
            write = asyncio.ensure_future(writer.write(second))
            async with asyncio.timeout(10):  # said once, not at every attempt
                while not any("no answer" in r.getMessage() for r in caplog.records):
                    await asyncio.sleep(0.05)
            await asyncio.sleep(2.0)
            assert not write.done()
            px.set("up")
            hand_id = await asyncio.wait_for(write, 30)
            waited = time.monotonic() - started
        finally:
            await writer.aclose()
        assert waited >= 3.0
        said = [r.getMessage() for r in caplog.records]
        assert sum("failed for" in m for m in said) == 1, said
        assert sum("works again" in m for m in said) == 1, said
        assert await count(url, "SELECT count(*) FROM hands") == 2
        assert await count(url, "SELECT id FROM hands WHERE digest = $1",
                           second.hand["digest"]) == hand_id  # fmt: skip


async def test_a_stopping_server_stops_waiting_for_the_database() -> None:
    """Tables wait for the database as long as it takes, but a server told to stop
    gives the writes under way ``grace`` seconds: then they fail, and the next start
    settles (a hand not stored is void)."""
    async with database() as (url, px), Store.open(through(url, px), upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("t", {})
        (rows,) = (rows_of(h, table, ids) for h in play_hands(1, seed=31))
        writer = HandWriter(store, None, None, attempt_seconds=0.5)
        px.set("cut")
        write = asyncio.ensure_future(writer.write(rows))
        await asyncio.sleep(1.0)
        assert not write.done()
        writer.stop_retrying(0.5)
        with pytest.raises(Exception, match="unavailable"):
            await asyncio.wait_for(write, 5)
        px.set("up")
        await writer.aclose()


async def test_a_message_that_needs_the_database_while_it_is_away_gets_a_clear_error() -> None:
    """A new guest's hello needs the database: while it is cut off, the answer is
    ``unavailable`` at once (not ``internal``, not a reply that never comes), and the
    same hello works once it is back."""
    async with database() as (url, px), Store.open(through(url, px), upgrade=True) as store:
        server = PokerServer(store, ServerSettings(port=0, api=False))
        async with server.running():
            px.set("cut")
            async with connect(server.hosting.address) as ws:
                asked = time.monotonic()
                reply = await ask(ws, {"type": "hello", "name": "early"})
                waited = time.monotonic() - asked
                assert reply["type"] == "error" and reply["code"] == "unavailable", reply
                assert waited < 5.0
                px.set("up")
                reply = await ask(ws, {"type": "hello", "name": "early"})
                assert reply["type"] == "welcome", reply
