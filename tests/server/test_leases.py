"""Table leases on SQLite and PostgreSQL: one host per table, taking over a dead host's
table (the void, and the chips back by the ledger), and fencing a host that lost one."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from server.store import Store, StoreError
from server.store.models import HandVoid, LedgerEntry
from tests.server.conftest import play_hands
from tests.server.test_store import NAMES, rows_of


async def expired(store: Store, name: str) -> None:
    """Wait until the lease on table ``name`` has expired."""
    async with asyncio.timeout(5):
        while name not in await store.expired_leases():
            await asyncio.sleep(0.01)


async def test_a_table_has_one_host_until_its_lease_expires(db_url: str) -> None:
    async with Store.open(db_url, upgrade=True) as store:
        table = await store.ensure_table("demo", {"name": "Demo"})
        first = await store.take_table(table, "a", "ws://a/ws", 60)
        assert first is not None and first.name == "demo" and first.voided is None
        assert await store.take_table(table, "b", "ws://b/ws", 60) is None
        assert await store.hosts(other_than="b") == {"demo": "ws://a/ws"}
        assert await store.hosts(other_than="a") == {}
        assert await store.renew_leases("a", 0.05) == {table}
        await expired(store, "demo")
        assert await store.expired_leases() == ["demo"]
        assert await store.hosts(other_than="b") == {}  # a dead host lists nothing
        second = await store.take_table(table, "b", "ws://b/ws", 60)
        assert second is not None and second.voided is None  # nobody had chips there
        assert await store.renew_leases("a", 60) == set()  # a has lost it
        await store.release_table(table, "a")  # not a's to release: nothing happens
        assert await store.hosts(other_than="a") == {"demo": "ws://b/ws"}
        await store.release_table(table, "b")
        assert await store.hosts(other_than="a") == {}


async def test_a_holder_with_a_live_lease_cannot_take_the_table_again(db_url: str) -> None:
    async with Store.open(db_url, upgrade=True) as store:
        table = await store.ensure_table("demo", {"name": "Demo"})
        assert await store.take_table(table, "a", "ws://a/ws", 60) is not None
        assert await store.take_table(table, "a", "ws://a/ws", 60) is None


async def test_of_two_takers_of_an_expired_lease_one_wins(db_url: str) -> None:
    """Two processes (two stores, two connection pools) take a dead host's table at the
    same moment, many times over: exactly one gets it each time, and one void is
    recorded for its hand."""
    async with Store.open(db_url, upgrade=True) as one, Store.open(db_url) as two:
        ids = await one.ensure_players(NAMES[:2])
        for round_ in range(10):
            table = await one.ensure_table(f"t{round_}", {})
            await two.ensure_table(f"t{round_}", {})
            assert await one.take_table(table, "dead", "ws://d/ws", 0.01) is not None
            async with one.writer(holder="dead") as writer:
                await writer.record(ids[NAMES[0]], table, 500, "buy_in")
            await expired(one, f"t{round_}")
            leases = await asyncio.gather(
                one.take_table(table, "b", "ws://b/ws", 60),
                two.take_table(table, "c", "ws://c/ws", 60),
                one.take_table(table, "b", "ws://b/ws", 60),  # twice in one process too
            )
            won = [lease for lease in leases if lease is not None]
            assert len(won) == 1, leases
            assert won[0].voided == 1 and won[0].refunds == {ids[NAMES[0]]: 500}
            async with one.engine.connect() as conn:
                voids = await conn.execute(
                    select(func.count()).select_from(HandVoid).where(HandVoid.table_id == table)
                )
                assert voids.scalar_one() == 1


async def test_taking_over_a_dead_hosts_table_voids_its_hand_and_returns_the_chips(
    db_url: str,
) -> None:
    hands = list(play_hands(3, seed=5))
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("demo", {})
        assert await store.take_table(table, "a", "ws://a/ws", 0.05) is not None
        async with store.writer(holder="a") as writer:
            for seat in hands[0].seats:  # everyone buys in, as a table records it
                await writer.record(ids[NAMES[seat]], table, hands[0].setup.stacks[
                    hands[0].seats.index(seat)], "buy_in")  # fmt: skip
            await writer.write(rows_of(hands[0], table, ids))
        # The host dies mid-hand: no cash-out, and its lease runs out.
        await expired(store, "demo")
        lease = await store.take_table(table, "b", "ws://b/ws", 60)
        assert lease is not None
        assert lease.voided == 2 and lease.last_hand_number == 2  # hand 2 is never dealt
        first = hands[0]
        assert lease.refunds == {
            ids[NAMES[seat]]: first.stacks[p]
            for p, seat in enumerate(first.seats)
            if first.stacks[p]  # a player who busted has nothing there
        }  # each player's stack after the last stored hand
        async with store.engine.connect() as conn:
            owed = await conn.execute(
                select(func.sum(LedgerEntry.amount)).where(LedgerEntry.table_id == table)
            )
            assert owed.scalar() == 0  # every chip went back
            void = (
                await conn.execute(select(HandVoid.hand_number, HandVoid.holder, HandVoid.refunds))
            ).one()
            assert (void.hand_number, void.holder) == (2, "a")
            assert {int(k): v for k, v in void.refunds.items()} == lease.refunds
        # Nothing is owed now: taking the table again voids nothing more.
        await store.release_table(table, "b")
        again = await store.take_table(table, "c", "ws://c/ws", 60)
        assert again is not None and again.voided is None and again.last_hand_number == 2


async def test_a_host_that_lost_its_lease_cannot_write_to_the_table(db_url: str) -> None:
    hands = list(play_hands(2, seed=6))
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("demo", {})
        assert await store.take_table(table, "a", "ws://a/ws", 0.05) is not None
        await expired(store, "demo")
        assert await store.take_table(table, "b", "ws://b/ws", 60) is not None
        async with store.writer(holder="a") as late:
            with pytest.raises(StoreError, match="no longer hosts"):
                await late.write(rows_of(hands[0], table, ids))
            with pytest.raises(StoreError, match="no longer hosts"):
                await late.record(ids[NAMES[0]], table, -500, "cash_out")
        async with store.writer(holder="b") as host:
            assert await host.write(rows_of(hands[0], table, ids)) > 0
            await host.record(ids[NAMES[0]], table, 500, "buy_in")
        assert await store.last_hand_number(table) == 1
        async with store.engine.connect() as conn:
            entries = await conn.execute(select(LedgerEntry.reason, LedgerEntry.amount))
            assert ("cash_out", -500) not in entries.all()
