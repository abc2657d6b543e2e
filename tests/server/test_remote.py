"""Following a table another process hosts (server/remote.py), on the in-process bus:
the state to start from, events in order, a gap repaired, the table stopping or moving."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from server.bus import LocalBus, Topics
from server.remote import RemoteTable
from server.tables import TableError

TABLE = "far"
TOPICS = Topics()


class Watcher:
    """A session as a table sees it, keeping what it is sent."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.ended: list[int] = []
        self.hands: list[int] = []  # the hand each message was sent with

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        self.got += [json.loads(t) for t in texts]
        self.hands += [hand_number] * len(texts)

    def send(self, text: str, *, urgent: bool = False) -> None:
        self.got.append(json.loads(text))

    def hand_ended(self, table_id: str, hand_number: int) -> None:
        self.ended.append(hand_number)

    def stop_delay(self, table_id: str) -> None:
        pass


def state(seq: int, address: str = "ws://a/ws", hand: int = 1) -> bytes:
    view = {"hand_number": hand, "hand_in_progress": True}
    return json.dumps(
        {"type": "snapshot", "table": TABLE, "seq": seq, "view": view,
         "summary": {"id": TABLE, "address": address}}
    ).encode()  # fmt: skip


def event(seq: int, kind: str = "action_taken", hand: int = 1) -> bytes:
    return json.dumps(
        {"type": "event", "table": TABLE, "seq": seq, "hand_number": hand,
         "event": {"type": kind}}
    ).encode()  # fmt: skip


@dataclass
class Following:
    bus: LocalBus
    watcher: Watcher
    snapshot: dict[str, Any]
    task: asyncio.Task[None]


@contextlib.asynccontextmanager
async def following(first_state: int) -> AsyncIterator[Following]:
    """A table whose retained state is at seq ``first_state``, followed, with one
    spectator who has had the snapshot."""
    bus = LocalBus()
    bus.publish(TOPICS.table_state(TABLE), state(first_state), retain=True)
    remote = RemoteTable(TABLE, bus)
    task = asyncio.create_task(remote.follow())
    watcher = Watcher()
    try:
        yield Following(bus, watcher, await remote.watch(watcher), task)
    finally:
        task.cancel()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_spectator_gets_the_state_then_each_later_event_once() -> None:
    async with following(10) as f:
        assert f.snapshot["seq"] == 10
        for seq in (9, 10, 11, 12):  # older events are in the state already
            f.bus.publish(TOPICS.table_events(TABLE), event(seq))
        f.bus.publish(TOPICS.table_state(TABLE), state(12), retain=True)  # after the batch
        f.bus.publish(TOPICS.table_events(TABLE), event(13, "hand_ended"))
        await settle()
    assert [m["seq"] for m in f.watcher.got] == [11, 12, 13]
    assert f.watcher.ended == [1]


async def test_a_lost_event_is_repaired_by_the_next_state() -> None:
    async with following(1) as f:
        f.bus.publish(TOPICS.table_events(TABLE), event(2))
        f.bus.publish(TOPICS.table_events(TABLE), event(4))  # 3 was lost
        f.bus.publish(TOPICS.table_events(TABLE), event(5))  # not passed on: behind
        f.bus.publish(TOPICS.table_state(TABLE), state(5), retain=True)
        f.bus.publish(TOPICS.table_events(TABLE), event(6))
        await settle()
    assert [(m["type"], m["seq"]) for m in f.watcher.got] == [
        ("event", 2), ("snapshot", 5), ("event", 6),
    ]  # fmt: skip
    assert f.watcher.got[1]["missed_events"] == 3  # 3, 4 and 5: the spectator is told


async def test_a_newer_state_after_a_lost_subscription_is_sent_marked() -> None:
    """The follower's subscription came back (a broker cut): the retained state is ahead
    of what the spectators got, with no event in between. Before: it was taken in
    silently, and the spectators went on from event 10 with 6 to 9 missing."""
    async with following(5) as f:
        f.bus.publish(TOPICS.table_state(TABLE), state(9, hand=2), retain=True)
        f.bus.publish(TOPICS.table_events(TABLE), event(10, hand=2))
        await settle()
    assert [(m["type"], m["seq"]) for m in f.watcher.got] == [("snapshot", 9), ("event", 10)]
    assert f.watcher.got[0]["missed_events"] == 4 and f.watcher.hands[0] == 2
    assert "missed_events" not in f.snapshot  # a newcomer's snapshot misses nothing


async def test_a_state_the_events_told_already_is_not_sent_again() -> None:
    async with following(5) as f:
        for seq in (6, 7):
            f.bus.publish(TOPICS.table_events(TABLE), event(seq))
        for seq in (6, 7, 4):  # after each batch, and an old one retained again
            f.bus.publish(TOPICS.table_state(TABLE), state(seq), retain=True)
        await settle()
    assert [(m["type"], m["seq"]) for m in f.watcher.got] == [("event", 6), ("event", 7)]


async def test_a_table_that_stops_or_moves_is_closed_for_its_spectators() -> None:
    for last, reason in ((b"", "closed"), (state(3, address="ws://b/ws"), "moved")):
        async with following(2) as f:
            f.bus.publish(TOPICS.table_state(TABLE), last, retain=True)
            await asyncio.wait_for(f.task, 1)  # following ends
        assert f.watcher.got == [{"type": "table_closed", "table": TABLE, "reason": reason}]


async def test_a_table_whose_state_never_comes_is_unreachable() -> None:
    remote = RemoteTable(TABLE, LocalBus(), ready_seconds=0.05)
    task = asyncio.create_task(remote.follow())
    with pytest.raises(TableError, match="not reachable") as refused:
        await remote.watch(Watcher())
    assert refused.value.code == "unreachable"
    task.cancel()


async def test_malformed_messages_are_skipped() -> None:
    bus = LocalBus()
    remote = RemoteTable(TABLE, bus)
    task = asyncio.create_task(remote.follow())
    bus.publish(TOPICS.table_state(TABLE), b"not json", retain=True)
    bus.publish(TOPICS.table_state(TABLE), b'{"seq": 1}', retain=True)  # no summary
    bus.publish(TOPICS.table_state(TABLE), state(1), retain=True)
    watcher = Watcher()
    assert (await remote.watch(watcher))["seq"] == 1
    bus.publish(TOPICS.table_events(TABLE), b"[1, 2]")
    bus.publish(TOPICS.table_events(TABLE), event(2))
    await settle()
    assert [m["seq"] for m in watcher.got] == [2]
    task.cancel()


async def test_the_tables_notices_reach_its_spectators_here_with_the_hand_they_are_in() -> None:
    async with following(5) as f:
        chat = {"type": "chat", "table": TABLE, "name": "ann", "seat": 2, "text": "gg", "at": "t"}
        f.bus.publish(TOPICS.table_events(TABLE), event(6, hand=2))
        f.bus.publish(TOPICS.table_events(TABLE), json.dumps(chat).encode())
        await settle()
    assert f.watcher.got[-1] == chat and f.watcher.got[-2]["seq"] == 6
    assert f.watcher.hands[-2:] == [2, 2]


async def test_a_table_gone_while_its_state_could_not_come_is_closed_by_its_lease() -> None:
    """The table stopped (or moved) while this process's subscription was down: the empty
    state it left is not retained, so nothing comes; the leases say where it is. Before:
    its spectators here waited for ever."""
    for where, reason in ((None, "closed"), ("ws://b/ws", "moved")):
        assert await told_when_hosted(where) == [
            {"type": "table_closed", "table": TABLE, "reason": reason}
        ]


async def told_when_hosted(where: str | None) -> list[dict[str, Any]]:
    """What a spectator is sent once the leases say the table is hosted at ``where``."""
    host: list[str | None] = ["ws://a/ws"]
    bus = LocalBus()
    bus.publish(TOPICS.table_state(TABLE), state(3), retain=True)
    remote = RemoteTable(TABLE, bus, host=lambda: host[0], check_seconds=0.02)
    task = asyncio.create_task(remote.follow())
    watcher = Watcher()
    await remote.watch(watcher)
    await asyncio.sleep(0.1)  # quiet, and still hosted where it was: nothing happens
    assert not task.done() and watcher.got == []
    host[0] = where
    await asyncio.wait_for(task, 1)
    return watcher.got
