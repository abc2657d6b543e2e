"""The MQTT bus: what the server publishes goes to a broker, through aiomqtt.

Publishing puts the message in a bounded queue (:class:`server.bus.outbox.Outbox`) and
returns; one task sends the queue to the broker. When the broker goes away the task
reconnects (0.5 s, doubling to 5 s) and the queue holds what is published meanwhile:
the latest retained message of each topic (a table's state and lobby line are never
dropped), and other messages up to ``queue_size``, shared fairly between tables; past
that, messages are dropped (the busiest table's) and counted in ``dropped``. The outage is
logged once when it starts, and once when it ends with what was dropped meanwhile.
Messages go at QoS 0: one the broker had not received when the connection broke is
lost; retained ones are sent again after every reconnection.

Subscribing (:meth:`MqttBus.subscribe`) gives a bounded queue of what the broker sends on
the matching topics; subscriptions are renewed on every reconnection (retained messages
then arrive again).

Deployments sharing a broker: every message goes out (MQTT 5) with a user property
``deployment``, the id of the database behind this server (``Store.deployment``), and a
message that does not carry this server's own id is dropped on arrival (counted in
``foreign``). Payloads stay exactly what a websocket client gets; topics stay as
documented. So a server never acts on what another deployment publishes under the same
root, nor on what an earlier life of its own database left retained (a database created
anew draws a new id).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from server.bus.outbox import Outbox
from server.bus.topics import DEFAULT_PREFIX, Topics, deliver

log = logging.getLogger("pokerroom")

__all__ = ["MqttBus"]


class MqttBus:
    """An :class:`server.bus.EventBus` publishing to an MQTT broker."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        deployment: str,
        prefix: str = DEFAULT_PREFIX,
        queue_size: int = 10_000,
    ) -> None:
        self.host, self.port = host, port
        self.topics = Topics(prefix)
        self.deployment = deployment
        # One set of properties for every message: built once, read-only afterwards.
        self._stamp = Properties(PacketTypes.PUBLISH)
        self._stamp.UserProperty = (DEPLOYMENT, deployment)
        self.dropped = 0
        self.foreign = 0
        """Messages ignored: they did not carry this deployment's id."""
        self.connected = asyncio.Event()
        self.queue_size = queue_size
        self._queue = Outbox(queue_size)  # one table at full speed cannot fill it for all
        self._subscriptions: list[tuple[str, asyncio.Queue[tuple[str, bytes]]]] = []
        self._client: aiomqtt.Client | None = None  # while connected

    @property
    def active(self) -> bool:
        return True  # subscribers are elsewhere: always publish

    @property
    def shared(self) -> bool:
        return True  # other server processes publish here too

    @contextlib.asynccontextmanager
    async def subscribe(self, pattern: str) -> AsyncIterator[asyncio.Queue[tuple[str, bytes]]]:
        """A queue of ``(topic, payload)`` the broker sends on topics matching
        ``pattern``, for the duration of the block. A subscriber that does not keep up
        loses messages (counted in ``dropped``)."""
        queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(self.queue_size)
        entry = (pattern, queue)
        self._subscriptions.append(entry)
        await self._tell_broker(lambda client: client.subscribe(pattern))
        try:
            yield queue
        finally:
            self._subscriptions.remove(entry)
            if all(p != pattern for p, _ in self._subscriptions):
                await self._tell_broker(lambda client: client.unsubscribe(pattern))

    async def _tell_broker(self, call: Callable[[aiomqtt.Client], Any]) -> None:
        """(Un)subscribe now if connected; if not, the reconnection subscribes anew. A
        broker that has just gone away gets a second, not aiomqtt's ten: this runs when a
        subscriber leaves, a server shutting down among them."""
        if self._client is not None:
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                async with asyncio.timeout(1.0):
                    await call(self._client)

    @classmethod
    @contextlib.asynccontextmanager
    async def connect(
        cls,
        url: str,
        *,
        deployment: str,
        prefix: str = DEFAULT_PREFIX,
        queue_size: int = 10_000,
    ) -> AsyncIterator[MqttBus]:
        """A bus sending to the broker at ``mqtt://host[:port]`` until the block ends,
        under ``prefix``, as ``deployment``; ``queue_size`` messages (not retained) may
        wait."""
        host, port = cls.address(url)
        bus = cls(host, port, deployment=deployment, prefix=prefix, queue_size=queue_size)
        sender = asyncio.create_task(bus._send_forever(), name="mqtt bus")
        try:
            yield bus
        finally:
            await bus._drain(timeout=2.0)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    @staticmethod
    def address(url: str) -> tuple[str, int]:
        """The broker's host and port; :class:`ValueError` for anything but
        ``mqtt://host[:port]``."""
        try:
            parts = urlsplit(url)
            port = parts.port or 1883
        except ValueError:
            port = 0
        if parts.scheme != "mqtt" or not parts.hostname or not port:
            raise ValueError(f"unknown bus {url!r}: give local or mqtt://host:port")
        return parts.hostname, port

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.dropped += self._queue.put(topic, payload, retain, connected=self.connected.is_set())

    async def _drain(self, timeout: float) -> None:
        """At shutdown: give the queue a moment to reach a connected broker."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._queue and self.connected.is_set():
                    await asyncio.sleep(0.01)

    async def _send_forever(self) -> None:
        pause = 0.5
        down: tuple[float, int] | None = None  # since when, and what was dropped by then
        loop = asyncio.get_running_loop()
        while True:
            try:
                async with (
                    aiomqtt.Client(
                        self.host, self.port, protocol=aiomqtt.ProtocolVersion.V5
                    ) as client,
                    asyncio.TaskGroup() as tg,
                ):
                    for pattern in {p for p, _ in self._subscriptions}:
                        await client.subscribe(pattern)
                    self._client = client
                    self.connected.set()
                    self._queue.again()  # the retained: the broker may have lost them
                    pause = 0.5
                    if down is not None:
                        since, dropped = down
                        log.warning(
                            "MQTT broker %s:%d is back after %.1f s: %d messages dropped "
                            "meanwhile, %d waiting to go", self.host, self.port,
                            loop.time() - since, self.dropped - dropped, len(self._queue),
                        )  # fmt: skip
                        down = None
                    tg.create_task(self._watch(client))
                    tg.create_task(self._send(client))
            except* aiomqtt.MqttError as failed:
                self._client = None
                self.connected.clear()
                if down is None:  # an outage is logged once, not at every retry
                    log.warning(
                        "MQTT broker %s:%d unreachable (%s); tables play on, messages wait "
                        "(up to %d, shared fairly between tables; their states and lobby "
                        "lines always) and publishing resumes when it is back",
                        self.host, self.port, failed.exceptions[0], self._queue.size,
                    )  # fmt: skip
                    down = (loop.time(), self.dropped)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 5.0)

    async def _send(self, client: aiomqtt.Client) -> None:
        while True:
            topic, payload, retain = await self._queue.get()
            await client.publish(topic, payload, retain=retain, properties=self._stamp, timeout=2.0)

    async def _watch(self, client: aiomqtt.Client) -> None:
        """Hand what the broker sends to the subscribers, and notice a lost connection at
        once, not at the next publish's timeout: the message iterator raises."""
        async for message in client.messages:
            if not self._ours(message.properties):
                self.foreign += 1
                continue
            topic = message.topic.value
            payload = message.payload if isinstance(message.payload, bytes) else b""
            self.dropped += deliver(self._subscriptions, topic, payload)
        raise aiomqtt.MqttError("the connection ended")

    def _ours(self, properties: Properties | None) -> bool:
        """Whether a message carries this deployment's id."""
        stamped = getattr(properties, "UserProperty", None) or ()
        return (DEPLOYMENT, self.deployment) in stamped


DEPLOYMENT = "deployment"
"""The MQTT 5 user property naming the deployment a message is from."""
