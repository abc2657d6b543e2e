"""What waits to go to the broker: bounded, and fair between tables.

Messages go out in the order they were published, with two rules for when the broker is
slow or away:

- A retained message (a table's state, its lobby line, a tournament's standings) is
  never dropped: each topic keeps only its latest, and the latest of every topic is sent
  again after each reconnection (a broker that restarted without persistence has lost
  them; one on its way when the connection broke was lost too).
- Other messages (events, finished hands) wait up to ``size`` in all, shared fairly
  between their sources, a topic's parent (``tables/{id}`` for a table's events,
  ``hands`` for every finished hand): when the queue is full, a message from a source
  with fewer waiting than the source with most takes the place of that one's oldest,
  and a message from the source with most is dropped. So a table at full speed through
  an outage never pushes out another table's events: each keeps at least its share
  (``size`` / the sources waiting), and a table alone may use all of it.

Order between a table's events and its state is kept: a state goes out after the events
it covers (server/remote.py relies on it). A state replaces the one still waiting in its
place only when no event of its table came after that one; otherwise it goes at the end,
behind them, and (while the broker is away) the waiting one is dropped, since the new one
says everything it said (while it is there, the waiting one stays in its place: a state
moved back each time a table publishes would never go out behind a busy table).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from itertools import count

__all__ = ["Outbox"]

Message = tuple[str, bytes, bool]
"""A topic, its payload, and whether it is retained."""


class Outbox:
    """The queue between publishing and the task that sends to the broker."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._waiting: OrderedDict[int, Message] = OrderedDict()  # in the order published
        self._keys = count()
        self._plain: dict[str, deque[int]] = {}  # keys of the others waiting, by source
        self._plain_count = 0  # bounded by size
        self._retained: dict[str, deque[int]] = {}  # keys of the retained waiting, by topic
        self._latest: dict[str, bytes] = {}  # the latest retained payload of each topic
        self._more = asyncio.Event()

    def __len__(self) -> int:
        return len(self._waiting)

    def put(self, topic: str, payload: bytes, retain: bool, *, connected: bool) -> int:
        """Queue a message; the number of messages dropped for it (0 or 1: this one, or
        the oldest of the source with most waiting; never a retained one).
        ``connected``: whether the broker is there now."""
        source = topic.rpartition("/")[0]
        dropped = 0
        if retain:
            if payload:
                self._latest[topic] = payload
            else:  # the topic is cleared: nothing to send again later
                self._latest.pop(topic, None)
            keys = self._retained.get(topic)
            if keys:
                events = self._plain.get(source)
                if not events or events[-1] < keys[-1]:  # no event of its source since
                    self._waiting[keys[-1]] = (topic, payload, True)
                    return 0
                if not connected:  # superseded, and nothing is being sent meanwhile
                    for key in keys:
                        del self._waiting[key]
                    keys.clear()
        elif self._plain_count >= self.size:
            # The source with most waiting: the number of sources is the number of
            # tables publishing (and the finished hands), and this runs only when full.
            name = max(self._plain, key=lambda s: len(self._plain[s]))
            most = self._plain[name]
            if len(self._plain.get(source, ())) >= len(most):
                return 1  # this one: its source has most waiting already
            del self._waiting[most.popleft()]
            self._plain_count -= 1
            dropped = 1
            if not most:
                del self._plain[name]
        key = next(self._keys)
        self._waiting[key] = (topic, payload, retain)
        if retain:
            self._retained.setdefault(topic, deque()).append(key)
        else:
            self._plain.setdefault(source, deque()).append(key)
            self._plain_count += 1
        self._more.set()
        return dropped

    def again(self) -> None:
        """After a reconnection: send the latest retained message of every topic again
        (those still waiting go as they are)."""
        for topic, payload in self._latest.items():
            if topic not in self._retained:
                self.put(topic, payload, True, connected=True)

    async def get(self) -> Message:
        """The next message to send, waiting for one."""
        while not self._waiting:
            self._more.clear()
            await self._more.wait()
        _, message = self._waiting.popitem(last=False)
        topic, _, retain = message
        waiting = self._retained if retain else self._plain
        name = topic if retain else topic.rpartition("/")[0]
        keys = waiting[name]
        keys.popleft()
        if not keys:
            del waiting[name]
        if not retain:
            self._plain_count -= 1
        return message
