"""Rows that never mattered go (issue 29, item 12): before, every guest hello left a
``players`` row for ever (3,000 hellos, 3,000 rows) and every table opened a ``tables``
row, played at or not. Now a guest unseen for ``forget_after_seconds`` who never played
is forgotten, and a table where nothing happened; nothing anyone played, owes, hosted or
holds now is touched."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from server.app import PokerServer, ServerSettings
from server.store import Store
from server.store.models import LedgerEntry, Player, TableRecord
from tests.helpers import ask
from tests.server.clients import connect

HELLOS = 300


async def names(store: Store) -> set[str]:
    async with store.engine.connect() as conn:
        return set((await conn.execute(select(Player.name))).scalars())


async def table_names(store: Store) -> set[str]:
    async with store.engine.connect() as conn:
        return set((await conn.execute(select(TableRecord.name))).scalars())


async def test_guests_who_never_played_and_tables_where_nothing_happened_go(
    db_url: str,
) -> None:
    settings = ServerSettings(
        port=0, forget_after_seconds=1.0, housekeeping_seconds=0.25, unused_table_seconds=0.3,
        demo=True, demo_games="nlhe", api=False, house_think_seconds=0.0,
    )  # fmt: skip
    async with Store.open(db_url, upgrade=True) as store:
        server = PokerServer(store, settings)
        async with server.running():
            address = server.hosting.address
            for n in range(HELLOS):  # throwaway guests: hello, and gone
                async with connect(address) as ws:
                    await ask(ws, {"type": "hello", "name": f"drive-by-{n}"})
                if n == 0:  # a hello makes a row (its id is in the welcome)
                    assert "drive-by-0" in await names(store)
            stays = await connect(address)  # a guest who stays, and never plays
            await ask(stays, {"type": "hello", "name": "lurker"})
            async with connect(address) as ws:  # a guest who bought in, and left
                await ask(ws, {"type": "hello", "name": "player"})
                sat = await ask(ws, {"type": "sit", "table": "demo", "seat": 5, "buy_in": 5_000})
                assert sat["type"] == "seated", sat
                await ask(ws, {"type": "leave", "table": "demo"})
            async with connect(address) as ws:  # an account, and a table nobody sat at
                await ask(ws, {"type": "create_account", "name": "regular"})
                await ask(ws, {"type": "hello", "name": "opener"})
                made = await ask(ws, {"type": "create_table", "name": "Empty",
                                      "small_blind": 1, "big_blind": 2})  # fmt: skip
                assert made["type"] == "table_created", made
            async with asyncio.timeout(20):  # forgotten once a second has gone
                while any(n.startswith("drive-by-") for n in await names(store)) or (
                    "empty" in await table_names(store)
                ):
                    await asyncio.sleep(0.1)
            kept = await names(store)
            assert {"lurker", "player", "regular"} <= kept, kept  # held, played, an account
            assert {f"house-{s + 1}" for s in range(5)} <= kept  # the demo's bots
            assert "opener" not in kept and "demo" in await table_names(store)
            # The guest who stayed is still whole: he sits, and his buy-in is stored.
            sat = await ask(stays, {"type": "sit", "table": "demo", "seat": 5, "buy_in": 6_000})
            assert sat["type"] == "seated", sat
            # A forgotten name said again is a guest like any other.
            async with connect(address) as ws:
                welcome = await ask(ws, {"type": "hello", "name": "drive-by-0"})
                assert welcome["type"] == "welcome", welcome
            await stays.close()
        async with store.engine.connect() as conn:
            buy_ins = await conn.execute(
                select(func.count()).where(
                    LedgerEntry.reason == "buy_in", LedgerEntry.amount == 6_000
                )
            )
            assert buy_ins.scalar_one() == 1
