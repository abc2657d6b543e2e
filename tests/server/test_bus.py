"""The event bus: the in-process one, and MQTT against the real Mosquitto (127.0.0.1:1883,
and a broker of the test's own that it stops and starts again)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.bus import EventBus, LocalBus, open_bus, topic_matches
from server.bus.mqtt import MqttBus
from server.store import Store
from server.tables import TableRunner

MOSQUITTO = "mqtt://127.0.0.1:1883"


def test_topics_match_as_in_mqtt() -> None:
    assert topic_matches("pokerroom/v1/tables/+/events", "pokerroom/v1/tables/demo/events")
    assert not topic_matches("pokerroom/v1/tables/+/events", "pokerroom/v1/tables/a/b/events")
    assert topic_matches("pokerroom/v1/#", "pokerroom/v1/hands/7")
    assert topic_matches("pokerroom/v1/#", "pokerroom/v1")
    assert not topic_matches("pokerroom/v1/hands/+", "pokerroom/v1/hands")


async def test_the_local_bus_keeps_retained_messages_and_never_blocks() -> None:
    bus = LocalBus(queue_size=2)
    assert not bus.active  # nobody listens: publishers may skip building messages
    bus.publish("a/lobby", b"old", retain=True)
    bus.publish("a/lobby", b"new", retain=True)
    async with bus.subscribe("a/#") as queue:
        assert bus.active
        assert queue.get_nowait() == ("a/lobby", b"new")  # the last retained, first
        for n in range(5):  # a subscriber that does not read loses messages, counted
            bus.publish("a/events", str(n).encode())
        assert queue.qsize() == 2 and bus.dropped == 3
        bus.publish("a/lobby", b"", retain=True)  # cleared
    async with bus.subscribe("a/#") as queue:
        assert queue.empty()


async def test_a_bad_bus_url_is_refused() -> None:
    for url in ("nonsense", "mqtt://", "mqtt://host:notaport", "http://host"):
        with pytest.raises(ValueError, match="give local or mqtt://host:port"):
            async with open_bus(url):
                pass


@dataclass
class Heard:
    """What a subscriber got, by topic."""

    messages: list[tuple[str, bytes, bool]] = field(default_factory=list)

    def json(self, topic: str) -> list[Any]:
        return [json.loads(p) for t, p, _ in self.messages if t == topic and p]


@contextlib.asynccontextmanager
async def listening(url: str, *patterns: str) -> AsyncIterator[Heard]:
    """A subscriber of our own, on the broker at ``url``, reconnecting if it goes away."""
    heard = Heard()
    host, port = MqttBus.address(url)
    subscribed = asyncio.Event()

    async def listen() -> None:
        while True:
            try:
                async with aiomqtt.Client(host, port) as client:
                    for pattern in patterns:
                        await client.subscribe(pattern)
                    subscribed.set()
                    async for m in client.messages:
                        payload = m.payload if isinstance(m.payload, bytes) else b""
                        heard.messages.append((m.topic.value, payload, m.retain))
            except aiomqtt.MqttError:
                await asyncio.sleep(0.2)

    task = asyncio.create_task(listen())
    try:
        async with asyncio.timeout(10):
            await subscribed.wait()
        yield heard
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@contextlib.asynccontextmanager
async def table_on(bus: EventBus, db: Path) -> AsyncIterator[tuple[PokerServer, TableRunner]]:
    """A server publishing to ``bus``, with a table of three calling stations under a
    name of its own (the broker is shared with whoever else runs tests)."""
    async with Store.open(f"sqlite+aiosqlite:///{db}") as store:
        # Bots think 2 ms: a table at a realistic pace (at none, it outruns the broker).
        settings = ServerSettings(port=0, house_think_seconds=0.002)
        server = PokerServer(store, settings, bus=bus)
        async with server.running():
            runner = await server.create_table(
                f"bus {uuid.uuid4().hex[:8]}", TableConfig(small_blind=50, big_blind=100, seats=3)
            )
            bots = {s: (f"house-{s}", load_bot("calling-station")) for s in range(3)}
            await server.add_house_bots(runner, bots, stack=10_000)
            yield server, runner


async def hands_played(runner: TableRunner, count: int, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while runner.finished_through < count:
            await asyncio.sleep(0.01)


async def test_table_events_lobby_summaries_and_hands_go_to_their_topics(
    tmp_path: Path,
) -> None:
    async with (
        listening(MOSQUITTO, "pokerroom/v1/#") as heard,
        MqttBus.connect(MOSQUITTO) as bus,
        table_on(bus, tmp_path / "bus.db") as (server, runner),
    ):
        table = runner.settings.table_id
        await hands_played(runner, 3)
        async with asyncio.timeout(10):  # the bus sends in the background
            while len(mine := [h for h in _hands(heard) if h["table"] == table]) < 3:
                await asyncio.sleep(0.01)
        server.close_table(table, "idle")
        lobby_topic = f"pokerroom/v1/lobby/tables/{table}"
        async with asyncio.timeout(10):  # the table is gone from the lobby
            while [p for t, p, _ in heard.messages if t == lobby_topic][-1:] != [b""]:
                await asyncio.sleep(0.01)
        ids = set(await server.store.hand_ids())  # every hand the bus told of is stored
    published = heard.json(f"pokerroom/v1/tables/{table}/events")
    events = [m for m in published if m["type"] == "event"]
    # Each hand's deck commitment comes before its first event, as spectators get it.
    commitments = [m for m in published if m["type"] == "deck_commitment"]
    dealt = [e["hand_number"] for e in events if e["event"]["type"] == "hand_started"]
    assert [c["hand_number"] for c in commitments] == dealt
    first: dict[int, int] = {}  # hand number -> where its first message is
    for i, m in enumerate(published):
        first.setdefault(m["hand_number"], i)
    assert all(published[first[c["hand_number"]]] == c for c in commitments)
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs)) > 20
    kinds = {e["event"]["type"] for e in events}
    assert {"hand_started", "hole_cards_dealt", "action_taken", "hand_ended"} <= kinds
    # No hole card but those shown at a showdown, in any payload on any topic.
    assert all(e["event"]["cards"] is None for e in events
               if e["event"]["type"] == "hole_cards_dealt")  # fmt: skip
    shown = {c for e in events if e["event"]["type"] == "cards_shown" for c in e["event"]["cards"]}
    boards = {c for e in events if e["event"]["type"] == "board_dealt" for c in e["event"]["cards"]}
    for topic, payload, _ in heard.messages:  # events, states, lobby lines, hands
        if not payload:
            continue  # a cleared retained topic
        if topic.startswith(f"pokerroom/v1/tables/{table}/") or f'"{table}"' in payload.decode():
            assert not hole_cards_in(payload) - shown - boards, topic
    # The lobby summary is retained while the table runs, and cleared when it closes.
    lobby = [p for t, p, _ in heard.messages if t == lobby_topic]
    assert any(json.loads(p)["hands_played"] >= 3 for p in lobby if p)
    # Each finished hand, once committed: its id is in the database, its chips add up.
    assert {h["id"] for h in mine} <= ids
    assert all(sum(p["net"] for p in h["players"]) == 0 for h in mine)


def _hands(heard: Heard) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p, _ in heard.messages if t.startswith("pokerroom/v1/hands/")]


CARD = frozenset(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs")


def hole_cards_in(payload: bytes) -> set[str]:
    """Every card named anywhere in a JSON payload."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and value in CARD:
            found.add(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    walk(json.loads(payload))
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def broker(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A Mosquitto of our own on ``port`` (Debian's, as CI has it)."""
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-p", str(port)], stderr=subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(5)


async def test_a_table_plays_on_through_a_broker_restart(tmp_path: Path) -> None:
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    with broker(port) as first:
        async with (
            MqttBus.connect(url) as bus,
            table_on(bus, tmp_path / "restart.db") as (_, runner),
        ):
            events = f"pokerroom/v1/tables/{runner.settings.table_id}/events"
            async with asyncio.timeout(10):
                await bus.connected.wait()
            await hands_played(runner, 2)
            first.terminate()
            first.wait(5)
            # The broker is gone: the table does not wait for it.
            down = runner.finished_through
            await hands_played(runner, down + 5)
            assert bus.dropped == 0  # what could not go waits, within the bound
            with broker(port):
                async with listening(url, events) as heard, asyncio.timeout(30):
                    await bus.connected.wait()  # reconnected: publishing goes on
                    seen = runner.finished_through
                    while not any(e["hand_number"] > seen for e in heard.json(events)):
                        await asyncio.sleep(0.02)
