"""The bus's topics (docs/protocol.md, "Events on MQTT"), built here and nowhere else."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

PREFIX = "pokerroom/v1"


def table_events_topic(table_id: str) -> str:
    """A table's public events (no hole card that was not shown)."""
    return f"{PREFIX}/tables/{table_id}/events"


def table_state_topic(table_id: str) -> str:
    """A table as a spectator sees it now (a ``snapshot`` message), retained and renewed
    after every batch of events: where a spectator in another process starts from."""
    return f"{PREFIX}/tables/{table_id}/state"


def table_topics(table_id: str) -> str:
    """A pattern for a table's state and events, which arrive in the order published."""
    return f"{PREFIX}/tables/{table_id}/+"


def lobby_topic(table_id: str) -> str:
    """A table's summary, retained; empty when the table has closed."""
    return f"{PREFIX}/lobby/tables/{table_id}"


def hand_topic(hand_id: int) -> str:
    """A finished hand's summary, once it is committed."""
    return f"{PREFIX}/hands/{hand_id}"


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


def tournament_topic(tournament_id: int) -> str:
    """A tournament's standings, retained: renewed after every hand, final when over."""
    return f"{PREFIX}/tournaments/{tournament_id}/standings"
