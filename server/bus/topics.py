"""The bus's topics (docs/protocol.md, "Events on MQTT"), built here and nowhere else.

Every topic starts with a root, ``pokerroom/v1`` unless the operator sets another
(``--mqtt-prefix``): deployments sharing a broker each take their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

DEFAULT_PREFIX = "pokerroom/v1"


@dataclass(frozen=True)
class Topics:
    """The topics under one root.

    >>> Topics("club/a").lobby("demo")
    'club/a/lobby/tables/demo'
    >>> Topics("club/+")
    Traceback (most recent call last):
    ...
    ValueError: MQTT prefix 'club/+': give topic levels without +, # or empty levels
    """

    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        levels = self.prefix.split("/")
        if (
            not self.prefix
            or len(self.prefix.encode()) > 200
            or any(not level or "+" in level or "#" in level for level in levels)
            or "\0" in self.prefix
            or self.prefix.startswith("$")
        ):
            raise ValueError(
                f"MQTT prefix {self.prefix!r}: give topic levels without +, # or empty levels"
            )

    def table_events(self, table_id: str) -> str:
        """A table's public events (no hole card that was not shown)."""
        return f"{self.prefix}/tables/{table_id}/events"

    def table_state(self, table_id: str) -> str:
        """A table as a spectator sees it now (a ``snapshot`` message), retained and
        renewed after every batch of events: where a spectator in another process starts
        from."""
        return f"{self.prefix}/tables/{table_id}/state"

    def table(self, table_id: str) -> str:
        """A pattern for a table's state and events, which arrive in the order published."""
        return f"{self.prefix}/tables/{table_id}/+"

    def lobby(self, table_id: str) -> str:
        """A table's summary, retained; empty when the table has closed."""
        return f"{self.prefix}/lobby/tables/{table_id}"

    def hand(self, hand_id: int) -> str:
        """A finished hand's summary, once it is committed."""
        return f"{self.prefix}/hands/{hand_id}"

    def tournament(self, tournament_id: int) -> str:
        """A tournament's standings, retained: renewed after every hand, final when over."""
        return f"{self.prefix}/tournaments/{tournament_id}/standings"


Subscription = tuple[str, asyncio.Queue[tuple[str, bytes]]]
"""A pattern, and the queue of ``(topic, payload)`` for what matches it."""


def deliver(subscriptions: Iterable[Subscription], topic: str, payload: bytes) -> int:
    """Put a message on the queue of each subscription whose pattern matches ``topic``,
    never waiting; the number of full queues it was dropped from."""
    dropped = 0
    for pattern, queue in subscriptions:
        if topic_matches(pattern, topic):
            try:
                queue.put_nowait((topic, payload))
            except asyncio.QueueFull:
                dropped += 1
    return dropped


def topic_matches(pattern: str, topic: str) -> bool:
    """MQTT matching: ``+`` is one level, a final ``#`` any number (zero included)."""
    want, have = pattern.split("/"), topic.split("/")
    for i, part in enumerate(want):
        if part == "#":
            return True
        if i >= len(have) or (part != "+" and part != have[i]):
            return False
    return len(want) == len(have)
