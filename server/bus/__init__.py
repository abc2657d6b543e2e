"""Publishing table events, lobby summaries and finished hands beyond the process.

One small seam, :class:`EventBus`, with two implementations: :class:`LocalBus` (the
default: in the process, for whoever subscribes here) and ``server.bus.mqtt.MqttBus``
(an MQTT broker, through aiomqtt; the only module that imports it); and :class:`NoBus`,
where nothing goes (a private table's: it publishes nothing). Publishing never
waits and never raises: a table never waits on the bus, and a bus that cannot keep up
drops messages and counts them (``dropped``). Each bus has its :class:`Topics`: the
topics (docs/protocol.md, "Events on MQTT") under the root the operator chose.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Protocol

from server.bus.mqtt import MqttBus  # the only module that imports aiomqtt
from server.bus.topics import DEFAULT_PREFIX, Topics, deliver, topic_matches

__all__ = [
    "DEFAULT_PREFIX",
    "EventBus",
    "LocalBus",
    "NoBus",
    "Topics",
    "check_bus",
    "open_bus",
    "topic_matches",
]


class EventBus(Protocol):
    """Where a server publishes what others may follow."""

    dropped: int
    """Messages given up on: a full queue, a subscriber that does not keep up."""

    topics: Topics
    """The topics under this bus's root."""

    @property
    def active(self) -> bool:
        """Whether anyone may receive what is published: when not, publishers may skip
        the work of building messages."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other server processes publish here too (their tables' lobby lines and
        events arrive through :meth:`subscribe`)."""
        ...

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Hand a message over, at once: never waits, never raises. ``retain``: the last
        such message on the topic is kept for whoever subscribes later."""
        ...

    def subscribe(
        self, pattern: str
    ) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[tuple[str, bytes]]]:
        """A bounded queue of ``(topic, payload)`` for the topics matching ``pattern``
        (``+`` one level, a final ``#`` any), retained messages first, for the duration
        of the block."""
        ...


class LocalBus:
    """The in-process bus: subscribers in this process get what is published, each
    through a bounded queue (a subscriber that does not read loses messages, counted in
    ``dropped``, and never holds a table up). Retained messages are kept as MQTT keeps
    them: the last one per topic, delivered to each new subscriber first."""

    def __init__(self, queue_size: int = 10_000, topics: Topics | None = None) -> None:
        self.queue_size = queue_size
        self.topics = topics or Topics()
        self.dropped = 0
        self._subscribers: list[tuple[str, asyncio.Queue[tuple[str, bytes]]]] = []
        self._retained: dict[str, bytes] = {}

    @property
    def active(self) -> bool:
        return bool(self._subscribers)

    @property
    def shared(self) -> bool:
        return False

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        if retain:
            if payload:
                self._retained[topic] = payload
            else:  # an empty retained message clears the topic, as in MQTT
                self._retained.pop(topic, None)
        self.dropped += deliver(self._subscribers, topic, payload)

    @contextlib.asynccontextmanager
    async def subscribe(self, pattern: str) -> AsyncIterator[asyncio.Queue[tuple[str, bytes]]]:
        """A queue of ``(topic, payload)`` for the topics matching ``pattern``, for the
        duration of the block; retained messages first."""
        queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(self.queue_size)
        for topic, payload in self._retained.items():
            if topic_matches(pattern, topic):
                queue.put_nowait((topic, payload))
        entry = (pattern, queue)
        self._subscribers.append(entry)
        try:
            yield queue
        finally:
            self._subscribers.remove(entry)


class NoBus:
    """A bus where nothing goes: a private table's (docs/protocol.md, "Events on MQTT":
    a private table publishes nothing, whatever bus the server has). Nobody subscribes to
    it, and whatever is published is forgotten at once."""

    def __init__(self, topics: Topics | None = None) -> None:
        self.topics = topics or Topics()
        self.dropped = 0

    @property
    def active(self) -> bool:
        return False  # so publishers build nothing

    @property
    def shared(self) -> bool:
        return False

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        pass

    @contextlib.asynccontextmanager
    async def subscribe(self, pattern: str) -> AsyncIterator[asyncio.Queue[tuple[str, bytes]]]:
        """A queue nothing ever arrives on."""
        yield asyncio.Queue(1)


def check_bus(url: str, prefix: str = DEFAULT_PREFIX) -> None:
    """:class:`ValueError` unless ``url`` names a bus (``local`` or ``mqtt://host[:port]``)
    and ``prefix`` is a topic root."""
    if url != "local":
        MqttBus.address(url)
    Topics(prefix)


@contextlib.asynccontextmanager
async def open_bus(
    url: str, *, deployment: str, prefix: str = DEFAULT_PREFIX
) -> AsyncIterator[EventBus]:
    """The bus a URL names (see :func:`check_bus`), its topics under ``prefix``. On MQTT
    every message carries ``deployment`` (the database's id), and messages without it are
    ignored. A broker is connected to in the background: one that is down now is retried,
    and the server starts anyway."""
    check_bus(url, prefix)
    if url == "local":
        yield LocalBus(topics=Topics(prefix))
    else:
        async with MqttBus.connect(url, deployment=deployment, prefix=prefix) as bus:
            yield bus
