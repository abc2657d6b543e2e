"""A player left alone at a table, and gone: issue 29, item 11. No hand is dealt, so no
hand's end stands them up; before, the table stayed open for ever, held the address's
table cap (``too_many_tables`` for every new guest there) and the player's chips."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import func, select

from server.app import PokerServer, ServerSettings
from server.store import Store
from server.store.models import LedgerEntry
from tests.helpers import ask
from tests.server.clients import connect


async def test_a_player_left_alone_and_gone_stands_up_and_the_table_closes(
    tmp_path: Path,
) -> None:
    settings = ServerSettings(
        port=0, tables_per_address=1, reconnect_grace_seconds=0.5, idle_table_seconds=1.0,
        api=False,
    )  # fmt: skip
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'alone.db'}") as store:
        server = PokerServer(store, settings)
        async with server.running():
            async with connect(server.hosting.address) as ws:
                await ask(ws, {"type": "hello", "name": "ann"})
                made = await ask(ws, {"type": "create_table", "name": "Ann's",
                                      "small_blind": 1, "big_blind": 2})  # fmt: skip
                table = made["table"]["id"]
                sat = await ask(ws, {"type": "sit", "table": table, "seat": 0, "buy_in": 200})
                assert sat["type"] == "seated", sat
            # Ann's connection is gone, and nobody else ever came.
            runner = server.hosting.tables[table]
            async with asyncio.timeout(10):
                while runner.core.seats.occupants:  # stood up once her grace period ran out
                    await asyncio.sleep(0.05)
            async with asyncio.timeout(10):
                while table in server.hosting.tables:  # then closed, as any idle table
                    await asyncio.sleep(0.05)
            # The address's cap is free again: a new guest there opens a table.
            async with connect(server.hosting.address) as ws:
                await ask(ws, {"type": "hello", "name": "bob"})
                again = await ask(ws, {"type": "create_table", "name": "Bob's",
                                       "small_blind": 1, "big_blind": 2})  # fmt: skip
                assert again["type"] == "table_created", again
        async with store.engine.connect() as conn:  # her chips went back to her
            found = await conn.execute(
                select(LedgerEntry.reason, func.sum(LedgerEntry.amount)).group_by(
                    LedgerEntry.reason
                )
            )
            assert dict(found.all()) == {"buy_in": 200, "cash_out": -200}
