"""A spectator in another process through broker cuts (issue 29, item 3): two servers in
this process sharing a PostgreSQL database of the test's own, each with its own MQTT bus
reaching the shared Mosquitto through a proxy of the test's own (the broker itself is
never touched). Server A hosts a table of house bots at full pace; a spectator watches it
from server B. The broker is cut for both, then for B alone, and every message the
spectator got is checked: each event's ``seq`` follows the one before, or a snapshot
marked ``missed_events`` (exactly how many it missed) comes first. Nothing is missed
silently. Last, the table closes while B's link is cut: its spectator is told.

CI cuts for 10 s; ``make stress`` for 60 (``POKERROOM_STRESS_BROKER_CUT_SECONDS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection

from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.bus.mqtt import MqttBus
from server.store import Store
from tests.faults import Proxy, proxy
from tests.helpers import ask
from tests.server.clients import connect
from tests.server.conftest import create_pg_database, drop_pg_database
from tests.server.mqtt import MOSQUITTO, clear_retained, own_prefix, test_bus
from tests.server.test_protocol_doc import check_server_message

CUT_SECONDS = float(os.environ.get("POKERROOM_STRESS_BROKER_CUT_SECONDS", "10"))


@dataclass
class Spectator:
    """A websocket spectator on B, keeping every snapshot and event it gets."""

    ws: ClientConnection
    got: list[dict[str, Any]] = field(default_factory=list)

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] in ("snapshot", "event", "table_closed"):
                self.got.append(message)

    async def more(self, events: int, timeout: float = 60.0) -> None:
        """Wait until ``events`` more events have come."""
        goal = self.events() + events
        async with asyncio.timeout(timeout):
            while self.events() < goal:
                await asyncio.sleep(0.02)

    def events(self) -> int:
        return sum(m["type"] == "event" for m in self.got)


@dataclass
class Two:
    a: PokerServer
    b: PokerServer
    to_a: Proxy  # between A's bus and the broker
    to_b: Proxy
    table: str


@contextlib.asynccontextmanager
async def two_servers() -> AsyncIterator[Two]:
    """A hosting a table of three calling stations (bots think 2 ms), B knowing of it."""
    url = await create_pg_database()
    prefix = own_prefix()
    host, port = MqttBus.address(MOSQUITTO)
    # The table is the server's own, of bots alone: it must not close as unused.
    settings = ServerSettings(port=0, house_think_seconds=0.002, lease_seconds=3.0,
                              unused_table_seconds=3600.0, idle_table_seconds=3600.0)  # fmt: skip
    try:
        async with Store.open(url, upgrade=True):
            pass
        async with (
            proxy(host, port) as to_a,
            proxy(host, port) as to_b,
            Store.open(url) as store_a,
            Store.open(url) as store_b,
            test_bus(await store_a.deployment(), f"mqtt://{to_a.address}", prefix) as bus_a,
            test_bus(await store_b.deployment(), f"mqtt://{to_b.address}", prefix) as bus_b,
        ):
            a = PokerServer(store_a, settings, bus=bus_a)
            async with a.running():
                config = TableConfig(small_blind=50, big_blind=100, seats=3)
                runner = await a.hosting.create_table(f"cuts {uuid.uuid4().hex[:8]}", config)
                bots = {s: (f"house-{s}", load_bot("calling-station")) for s in range(3)}
                await a.hosting.add_house_bots(runner, bots, stack=10_000)
                table = runner.settings.table_id
                b = PokerServer(store_b, settings, bus=bus_b)
                async with b.running():
                    async with asyncio.timeout(20):  # B's lobby learns of A's table
                        while not b.lobby.is_elsewhere(table) or table not in b.lobby.elsewhere:
                            await asyncio.sleep(0.05)
                    yield Two(a, b, to_a, to_b, table)
    finally:
        await drop_pg_database(url)
        with contextlib.suppress(Exception):
            await clear_retained(MOSQUITTO, prefix)


async def cut(two: Two, *proxies: Proxy, seconds: float = CUT_SECONDS) -> None:
    """Cut ``proxies`` for ``seconds``, then let them through again and wait until both
    buses are connected."""
    for px in proxies:
        px.set("cut")
    await asyncio.sleep(seconds)
    for px in proxies:
        px.set("up")
    for server in (two.a, two.b):
        assert isinstance(server.bus, MqttBus)
        async with asyncio.timeout(30):
            await server.bus.connected.wait()


@dataclass
class Tally:
    events: int = 0
    marked: int = 0  # snapshots sent again, marked missed_events
    missed: int = 0  # events those said were missed
    silent: int = 0  # events missed with no word: a jump in seq, an unmarked snapshot
    wrong: int = 0  # marked snapshots whose count was not what was missed


def check(got: list[dict[str, Any]]) -> Tally:
    """Every event should follow the one before it, or a snapshot saying how many events
    were missed."""
    assert got and got[0]["type"] == "snapshot" and "missed_events" not in got[0]
    tally, last = Tally(), got[0]["seq"]
    for message in got[1:]:
        if message["type"] == "table_closed":
            continue
        jump = message["seq"] - last
        if message["type"] == "event":
            tally.events += 1
            tally.silent += max(0, jump - 1)
            tally.wrong += jump < 1  # twice, or back in time
        elif "missed_events" in message:
            check_server_message(message, "a snapshot sent again")  # as documented
            tally.marked += 1
            tally.missed += message["missed_events"]
            tally.wrong += message["missed_events"] != jump
        else:
            tally.silent += jump
        last = message["seq"]
    return tally


async def test_a_spectator_elsewhere_misses_no_event_silently_through_broker_cuts() -> None:
    async with two_servers() as two:
        async with connect(two.b.hosting.address) as ws:
            spectator = Spectator(ws)
            snapshot = await ask(ws, {"type": "spectate", "table": two.table})
            assert snapshot["type"] == "snapshot", snapshot
            spectator.got.append(snapshot)
            reading = asyncio.create_task(spectator.read())
            await spectator.more(100)
            await cut(two, two.to_a, two.to_b)  # the broker, for everyone
            await spectator.more(100)
            await cut(two, two.to_b)  # B's link alone: A publishes on meanwhile
            await spectator.more(100)
            # The table closes while B's link is cut: the empty state it leaves is not
            # retained, and the leases tell B.
            two.to_b.set("cut")
            two.a.hosting.close_table(two.table, "idle")
            await cut(two, two.to_b, seconds=2.0)
            async with asyncio.timeout(30):
                while spectator.got[-1]["type"] != "table_closed":
                    await asyncio.sleep(0.05)
            reading.cancel()
        assert isinstance(two.a.bus, MqttBus) and isinstance(two.b.bus, MqttBus)
        dropped = two.a.bus.dropped
    tally = check(spectator.got)
    print(f"\ntwo {CUT_SECONDS:.0f} s cuts: the spectator on B got {tally.events} events "
          f"and {tally.marked} snapshots marked missed_events ({tally.missed} events missed); "
          f"{tally.silent} events missed silently, {tally.wrong} miscounted; A's bus "
          f"dropped {dropped} messages")  # fmt: skip
    assert tally.silent == tally.wrong == 0
    assert spectator.got[-1] == {"type": "table_closed", "table": two.table, "reason": "closed"}
    assert tally.marked >= 1  # B's own cut: A played on, and B was told so
