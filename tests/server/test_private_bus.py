"""A private table publishes nothing on the bus (issue 29, item 5): no event, state,
lobby line or finished hand, while it plays, chats, makes host changes, is
taken over by another process and is closed; a public table beside it publishes all of
that. A real ``pokerroom serve`` (killed with SIGKILL mid-play) and a server in this
process, sharing a PostgreSQL database of the test's own, on the shared Mosquitto
under a topic root of the test's own, with a subscriber to all of it (``#``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from server.app import PokerServer, ServerSettings
from server.store import Store
from tests.server.conftest import create_pg_database, drop_pg_database
from tests.server.mqtt import MOSQUITTO, Heard, clear_retained, listening, own_prefix, test_bus
from tests.server.test_private_tables import Client, client, open_table
from tests.server.test_processes import LEASE_SECONDS, serve


def hands_ended(c: Client) -> int:
    return sum(m["type"] == "event" and m["event"]["type"] == "hand_ended" for m in c.messages)


async def hands_more(c: Client, count: int, timeout: float = 60.0) -> None:
    """Wait until ``c`` has seen ``count`` more hands end."""
    goal = hands_ended(c) + count
    async with asyncio.timeout(timeout):
        while hands_ended(c) < goal:
            await asyncio.sleep(0.02)


async def a_night(host: Client, table: str) -> None:
    """The host's chat and changes (blinds, chips), and a hand played after them."""
    said = await host.ask(type="chat", table=table, text="nice hand")
    assert said["type"] == "chat_sent", said
    reacted = await host.ask(type="react", table=table, emoji="👏")
    assert reacted["type"] == "chat_sent", reacted
    for action, fields in (("blinds", {"small_blind": 2, "big_blind": 4}),
                           ("chips", {"player": "hana", "amount": 50})):  # fmt: skip
        done = await host.host(action, **fields)
        assert done["type"] == "host_done", done
    await hands_more(host, 2)


def of_the_table(heard: Heard, table: str) -> list[tuple[str, bytes]]:
    """Every message on the broker that is about ``table``: on its topics, or naming it."""
    return [
        (topic, payload)
        for topic, payload, _ in heard.messages
        if f"/{table}/" in f"{topic}/" or f'"{table}"' in payload.decode(errors="replace")
    ]


def by_kind(messages: list[tuple[str, bytes]], prefix: str) -> dict[str, int]:
    """How many messages went on each kind of topic: events, state, lobby, hands."""
    kinds: dict[str, int] = {}
    for topic, _ in messages:
        levels = topic.removeprefix(f"{prefix}/").split("/")
        kind = levels[-1] if levels[0] == "tables" else levels[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


async def play_at_a(db: str, log: Path, prefix: str) -> str:
    """Process A: the demo table (public, house bots) and hana's private table, where she
    plays a house bot she added, chats and changes things; then A dies mid-play (SIGKILL).
    The private table's id."""
    async with serve(db, log, prefix, "--demo", "--demo-games", "nlhe") as a:
        address = a.address.removeprefix("ws://").removesuffix("/ws")
        async with client(address, "hana") as host:
            table, _ = await open_table(host, show_seconds=0)
            await sit_with_a_bot(host, table)
            await hands_more(host, 3)
            await a_night(host, table)
            a.proc.kill()
            await a.proc.wait()
    return table


async def sit_with_a_bot(host: Client, table: str) -> None:
    """The host sits in seat 0, a house bot of hers in seat 1, and she plays on."""
    host.table = table
    sat = await host.ask(type="sit", table=table, seat=0, buy_in=200)
    assert sat["type"] == "seated", sat
    added = await host.host("house_bot", seat=1, strategy="calling-station")
    assert added["type"] == "host_done", added
    await host.autoplay()


async def take_over_at_b(url: str, prefix: str, table: str) -> None:
    """Process B (this one) takes both tables over; hana plays on there (her house bot is
    not seated again by the taker: she adds it again) and closes hers; the demo table
    plays on."""
    async with Store.open(url) as store, test_bus(await store.deployment(), prefix=prefix) as bus:
        settings = ServerSettings(port=0, lease_seconds=LEASE_SECONDS, house_think_seconds=0.01)
        b = PokerServer(store, settings, bus=bus)
        async with b.running():
            async with asyncio.timeout(30):
                while not {"demo", table} <= b.hosting.tables.keys():
                    await asyncio.sleep(0.05)
            address = b.hosting.address.removeprefix("ws://").removesuffix("/ws")
            async with client(address, "hana") as host:
                await sit_with_a_bot(host, table)
                await hands_more(host, 2)
                await a_night(host, table)
                closed = await host.host("close")
                assert closed["type"] == "host_done", closed
                async with asyncio.timeout(20):
                    while table in b.hosting.tables:
                        await asyncio.sleep(0.05)
            demo = b.hosting.tables["demo"]
            played = demo.finished_through
            async with asyncio.timeout(30):  # the public table goes on publishing
                while demo.finished_through < played + 2:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # what the bus had queued has gone out


async def test_a_private_table_publishes_nothing_on_the_bus(tmp_path: Path) -> None:
    """Before: 241 events, 12 states, 11 finished hands and 1 lobby line of the private
    table went on the broker in this test."""
    url = await create_pg_database()
    prefix = own_prefix()
    try:
        async with Store.open(url, upgrade=True):
            pass
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        async with listening(MOSQUITTO, f"{prefix}/#") as heard:
            table = await play_at_a(plain, tmp_path / "a.log", prefix)
            await take_over_at_b(url, prefix, table)
    finally:
        await drop_pg_database(url)
        with contextlib.suppress(Exception):
            await clear_retained(MOSQUITTO, prefix)
    leaked = of_the_table(heard, table)
    public = of_the_table(heard, "demo")
    print(f"\nthe private table's messages on the bus: {by_kind(leaked, prefix)}; "
          f"the public table's: {by_kind(public, prefix)}")  # fmt: skip
    assert {"events", "state", "lobby", "hands"} <= by_kind(public, prefix).keys()
    assert sum(json.loads(p).get("type") == "event" for t, p in public if p and "events" in t) > 20
    assert leaked == [], leaked[:5]
