"""Databases for the store's tests: a fresh SQLite file, and a fresh PostgreSQL database
on the server at 127.0.0.1:5432 (CI has one; these tests never skip it); played hands; and
a server with a table of house bots.

``POKERROOM_TEST_PG`` names another server's admin database if needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiomqtt
import asyncpg
import pytest

from engine import Deck, Hand, Table, TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.bus import DEFAULT_PREFIX
from server.bus.mqtt import MqttBus
from server.store import Store
from server.tables import TableRunner
from tests.helpers import play_out
from tests.server.mqtt import MOSQUITTO, foreign_lines, plant_foreign

PG_ADMIN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


async def create_pg_database() -> str:
    """A new empty PostgreSQL database; returns its asyncpg SQLAlchemy URL."""
    name = f"pokerroom_test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    return f"{base}/{name}"


async def drop_pg_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"
        return
    url = await create_pg_database()
    try:
        yield url
    finally:
        await drop_pg_database(url)


def play_hands(count: int, seed: int, players: int = 6) -> Iterator[Hand]:
    """Finished hands at one table, random legal actions, all-ins included."""
    rng = random.Random(seed)
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=players, min_buy_in=100))
    for played in range(count):
        for chair in range(players):
            if chair not in table.occupied():
                table.sit_down(chair, rng.choice([300, 2_000, 10_000]))
        table.start_hand(Deck.shuffled(rng))
        play_out(table, rng)
        assert table.hand is not None
        yield table.hand
        assert played < count


@dataclass
class Demo:
    server: PokerServer
    runner: TableRunner
    address: str  # host:port


@contextlib.asynccontextmanager
async def demo_server(
    db: Path, *, seats: int = 6, bots: int = 4, **clock: float
) -> AsyncIterator[Demo]:
    """A server on 127.0.0.1 with table "demo" (blinds 50/100, ``seats`` seats) and
    calling stations "house-0".. in its first ``bots`` seats; ``clock``: the table's
    decision_seconds and time_bank_seconds."""
    async with Store.open(f"sqlite+aiosqlite:///{db}") as store:
        server = PokerServer(store, ServerSettings(port=0, house_think_seconds=0.0))
        async with server.running() as ws_server:
            config = TableConfig(small_blind=50, big_blind=100, seats=seats)
            runner = await server.hosting.create_table("Demo", config, **clock)
            house = {s: (f"house-{s}", load_bot("calling-station")) for s in range(bots)}
            await server.hosting.add_house_bots(runner, house, stack=10_000)
            port = next(iter(ws_server.sockets)).getsockname()[1]
            yield Demo(server, runner, f"127.0.0.1:{port}")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[PokerServer, str]]:
    """A demo server (a 5 s decision clock): the server, and its host:port."""
    async with demo_server(tmp_path / "server.db", decision_seconds=5.0) as demo:
        yield demo.server, demo.address


@pytest.fixture(scope="session")
def foreign_deployment() -> Iterator[None]:
    """Another deployment's retained messages on the default topics of the shared
    Mosquitto for the session, as a deployment sharing the broker would leave them; they
    are cleared at the end."""
    asyncio.run(plant_foreign(MOSQUITTO, DEFAULT_PREFIX))
    try:
        yield
    finally:
        asyncio.run(_unplant())


async def _unplant() -> None:
    host, port = MqttBus.address(MOSQUITTO)
    async with aiomqtt.Client(host, port) as client:
        for topic in foreign_lines(DEFAULT_PREFIX):
            await client.publish(topic, b"", retain=True)
