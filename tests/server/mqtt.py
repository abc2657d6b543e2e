"""The shared Mosquitto at 127.0.0.1:1883, for the tests about MQTT.

Other runs use the same broker at the same time, and earlier runs left messages on it.
So every test takes a topic root of its own (:func:`own_prefix`), waits for its own
messages, and clears what it left retained when it ends (:func:`test_bus` does both).
The broker tests also run with another deployment's retained messages planted on the
default topics (:func:`foreign_messages`), as a deployment sharing the broker leaves them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from server.bus import DEFAULT_PREFIX, Topics
from server.bus.mqtt import DEPLOYMENT, MqttBus

MOSQUITTO = "mqtt://127.0.0.1:1883"
FOREIGN = "f0" * 16
"""Another deployment's id, on the messages :func:`plant_foreign` leaves."""


def own_prefix() -> str:
    """A topic root nobody else uses."""
    return f"pokerroom-test/{uuid.uuid4().hex[:16]}"


@contextlib.asynccontextmanager
async def test_bus(
    deployment: str, url: str = MOSQUITTO, prefix: str | None = None, **options: int
) -> AsyncIterator[MqttBus]:
    """An MQTT bus under a root of its own (or ``prefix``), whose retained messages are
    cleared when the block ends (on the shared broker: a broker of the test's own keeps
    nothing once stopped); ``options``: :meth:`MqttBus.connect`'s queue sizes."""
    prefix = prefix or own_prefix()
    try:
        async with MqttBus.connect(url, deployment=deployment, prefix=prefix, **options) as bus:
            yield bus
    finally:
        if url == MOSQUITTO:
            await clear_retained(url, prefix)


test_bus.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


async def retained(url: str, prefix: str) -> dict[str, bytes]:
    """Every message retained under ``prefix``, by topic. After subscribing we publish a
    marker of our own: the broker sends the retained messages before it."""
    host, port = MqttBus.address(url)
    marker = f"{prefix}/marker/{uuid.uuid4().hex}"
    found: dict[str, bytes] = {}
    async with aiomqtt.Client(host, port) as client, asyncio.timeout(10):
        await client.subscribe(f"{prefix}/#")
        await client.publish(marker, b"end")
        async for message in client.messages:
            if message.topic.value == marker:
                break
            if message.retain and isinstance(message.payload, bytes) and message.payload:
                found[message.topic.value] = message.payload
    return found


async def clear_retained(url: str, prefix: str) -> None:
    """Clear every message retained under ``prefix``."""
    host, port = MqttBus.address(url)
    topics = await retained(url, prefix)
    async with aiomqtt.Client(host, port) as client:
        for topic in topics:
            await client.publish(topic, b"", retain=True)


@dataclass
class Heard:
    """What a subscriber got: (topic, payload, retained)."""

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


def foreign_lines(prefix: str = DEFAULT_PREFIX) -> dict[str, bytes]:
    """What another deployment leaves retained under ``prefix``: a lobby line and a state
    for a table "demo" (and one "ghost") at its own address, finished tournaments 1 to 5,
    and hand 1's summary."""
    topics = Topics(prefix)
    lines: dict[str, bytes] = {}
    for table in ("demo", "ghost"):
        summary: dict[str, Any] = {"id": table, "name": table, "players": [], "address": "ws://foreign:1/ws",
                   "hands_played": 7}  # fmt: skip
        lines[topics.lobby(table)] = json.dumps(summary).encode()
        view = {"hand_number": 7, "hand_in_progress": False}
        state = {"type": "snapshot", "table": table, "seq": 99, "view": view, "summary": summary}
        lines[topics.table_state(table)] = json.dumps(state).encode()
    for tournament in range(1, 6):
        standings = {"type": "tournament_finished", "tournament": tournament,
                     "state": "finished", "standings": []}  # fmt: skip
        lines[topics.tournament(tournament)] = json.dumps(standings).encode()
    lines[topics.hand(1)] = json.dumps({"id": 1, "table": "demo", "players": []}).encode()
    return lines


async def plant_foreign(url: str = MOSQUITTO, prefix: str = DEFAULT_PREFIX) -> None:
    """Leave :func:`foreign_lines` retained under ``prefix``: as MQTT 5 messages from the
    :data:`FOREIGN` deployment, and the lobby lines once more from an MQTT 3 client,
    with no deployment at all (its messages come last: they are what is retained)."""
    host, port = MqttBus.address(url)
    stamp = Properties(PacketTypes.PUBLISH)
    stamp.UserProperty = (DEPLOYMENT, FOREIGN)
    lines = foreign_lines(prefix)
    v5 = aiomqtt.ProtocolVersion.V5
    async with aiomqtt.Client(host, port, protocol=v5) as client:
        for topic, payload in lines.items():
            await client.publish(topic, payload, retain=True, properties=stamp)
    async with aiomqtt.Client(host, port) as client:
        for topic, payload in lines.items():
            if "/lobby/" in topic:
                await client.publish(topic, payload, retain=True)


async def hands_published(heard: Heard, prefix: str, ids: set[int], timeout: float = 10) -> None:
    """Wait until ``hands/{id}`` of every hand in ``ids`` has come; then check that each
    summary names its own id and that its chips add up."""
    topics = Topics(prefix)
    async with asyncio.timeout(timeout):
        while not ids <= {int(t.rsplit("/", 1)[1]) for t, p, _ in heard.messages if p}:
            await asyncio.sleep(0.02)
    for hand_id in ids:
        (summary,) = heard.json(topics.hand(hand_id))
        assert summary["id"] == hand_id
        assert sum(p["net"] for p in summary["players"]) == 0, summary
