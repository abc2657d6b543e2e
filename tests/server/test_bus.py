"""The event bus: the in-process one, and MQTT against the real Mosquitto (127.0.0.1:1883,
under a topic root of each test's own, with another deployment's retained messages on the
default topics), and a broker of the test's own that it stops and starts again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import socket
import subprocess
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

import engine
from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.bus import LocalBus, Topics, open_bus, topic_matches
from server.bus.mqtt import MqttBus
from server.bus.outbox import Outbox
from server.hosting import house_config
from server.store import Store
from server.tables import TableRunner
from tests.faults import proxy
from tests.helpers import ask
from tests.server.mqtt import (
    FOREIGN,
    MOSQUITTO,
    Heard,
    clear_retained,
    listening,
    own_prefix,
    plant_foreign,
    retained,
    test_bus,
)

pytestmark = pytest.mark.usefixtures("foreign_deployment")


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
            async with open_bus(url, deployment="d"):
                pass


@contextlib.asynccontextmanager
async def table_on(
    db: Path, prefix: str, url: str = MOSQUITTO, config: TableConfig | None = None
) -> AsyncIterator[tuple[PokerServer, TableRunner]]:
    """A server publishing to the broker at ``url`` under ``prefix``, with a table of
    three calling stations (no-limit hold'em at 50/100, or ``config``)."""
    async with (
        Store.open(f"sqlite+aiosqlite:///{db}") as store,
        test_bus(await store.deployment(), url, prefix) as bus,
    ):
        # Bots think 2 ms: a table at a realistic pace (at none, it outruns the broker).
        settings = ServerSettings(port=0, house_think_seconds=0.002)
        server = PokerServer(store, settings, bus=bus)
        async with server.running():
            runner = await server.hosting.create_table(
                f"bus {uuid.uuid4().hex[:8]}",
                config or TableConfig(small_blind=50, big_blind=100, seats=3),
            )
            bots = {s: (f"house-{s}", load_bot("calling-station")) for s in range(3)}
            await server.hosting.add_house_bots(runner, bots, stack=10_000)
            yield server, runner


async def hands_played(runner: TableRunner, count: int, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while runner.finished_through < count:
            await asyncio.sleep(0.01)


async def test_table_events_lobby_summaries_and_hands_go_to_their_topics(
    tmp_path: Path,
) -> None:
    topics = Topics(own_prefix())
    async with (
        listening(MOSQUITTO, f"{topics.prefix}/#") as heard,
        table_on(tmp_path / "bus.db", topics.prefix) as (server, runner),
    ):
        table = runner.settings.table_id
        await hands_played(runner, 3)
        async with asyncio.timeout(10):  # the bus sends in the background
            while len(mine := [h for h in _hands(heard, topics) if h["table"] == table]) < 3:
                await asyncio.sleep(0.01)
        server.hosting.close_table(table, "idle")
        lobby_topic = topics.lobby(table)
        async with asyncio.timeout(10):  # the table is gone from the lobby
            while [p for t, p, _ in heard.messages if t == lobby_topic][-1:] != [b""]:
                await asyncio.sleep(0.01)
        ids = set(await server.store.hand_ids())  # every hand the bus told of is stored
    told = heard.json(topics.table_events(table))
    # The table's notices (who sat, chat) are about the table now: no hand, no seq.
    published = [m for m in told if m["type"] != "player_joined"]
    assert len(published) < len(told)  # the house bots who sat
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
        if topic.startswith(f"{topics.prefix}/tables/{table}/") or f'"{table}"' in payload.decode():
            assert not hole_cards_in(payload) - shown - boards, topic
    # The lobby summary is retained while the table runs, and cleared when it closes.
    lobby = [p for t, p, _ in heard.messages if t == lobby_topic]
    assert any(json.loads(p)["hands_played"] >= 3 for p in lobby if p)
    # Each finished hand, once committed: its id is in the database, its chips add up.
    assert {h["id"] for h in mine} <= ids
    assert all(sum(p["net"] for p in h["players"]) == 0 for h in mine)
    # Nothing stays retained under the test's root once it is over.
    assert await retained(MOSQUITTO, topics.prefix) == {}


async def test_a_stud_tables_messages_carry_its_game_and_hide_its_down_cards(
    tmp_path: Path,
) -> None:
    topics = Topics(own_prefix())
    stud = house_config(engine.game("stud"), seats=3)
    async with (
        listening(MOSQUITTO, f"{topics.prefix}/#") as heard,
        table_on(tmp_path / "stud.db", topics.prefix, config=stud) as (server, runner),
    ):
        table = runner.settings.table_id
        await hands_played(runner, 3)
        async with asyncio.timeout(10):
            while len(mine := [h for h in _hands(heard, topics) if h["table"] == table]) < 3:
                await asyncio.sleep(0.01)
        server.hosting.close_table(table, "idle")
        async with asyncio.timeout(10):  # everything the table sent has come
            while [p for t, p, _ in heard.messages if t == topics.lobby(table)][-1:] != [b""]:
                await asyncio.sleep(0.01)
    assert {h["game"] for h in mine} == {"stud"}
    lobby = [json.loads(p) for t, p, _ in heard.messages if t == topics.lobby(table) and p]
    assert lobby and all(line["game"]["key"] == "stud" for line in lobby)
    events = [m["event"] for m in heard.json(topics.table_events(table)) if m["type"] == "event"]
    down = [e for e in events if e["type"] == "hole_cards_dealt"]
    up = [e for e in events if e["type"] == "up_cards_dealt"]
    assert down and all(e["cards"] is None for e in down)
    assert up and all(e["cards"] for e in up)
    seen = {c for e in up for c in e["cards"]}
    seen |= {c for e in events if e["type"] == "cards_shown" for c in e["cards"]}
    for topic, payload, _ in heard.messages:  # events, states, lobby lines, hands
        if payload and topic.startswith(f"{topics.prefix}/tables/{table}/"):
            assert not hole_cards_in(payload) - seen, topic


def _hands(heard: Heard, topics: Topics) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p, _ in heard.messages if t.startswith(f"{topics.prefix}/hands/")]


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
        async with table_on(tmp_path / "restart.db", own_prefix(), url) as (server, runner):
            bus = server.bus
            assert isinstance(bus, MqttBus)
            events = bus.topics.table_events(runner.settings.table_id)
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


async def test_a_server_never_acts_on_another_deployments_messages(tmp_path: Path) -> None:
    """Lobby lines and table states another deployment left retained under the same root
    (stamped with its id, or with none, from an MQTT 3 client) are ignored: nothing is
    listed, nothing can be watched."""
    prefix = own_prefix()
    await plant_foreign(MOSQUITTO, prefix)
    try:
        async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'own.db'}") as store:
            deployment = await store.deployment()
            assert deployment != FOREIGN
            async with test_bus(deployment, prefix=prefix) as bus:
                server = PokerServer(store, ServerSettings(port=0), bus=bus)
                async with server.running(), connect(server.hosting.address) as ws:
                    await ask(ws, {"type": "hello", "name": "local"})
                    async with asyncio.timeout(10):  # the lobby's follower had them all
                        while bus.foreign < 2:
                            await asyncio.sleep(0.01)
                    assert server.lobby.elsewhere == {}
                    assert (await ask(ws, {"type": "list_tables"}))["tables"] == []
                    watch = await ask(ws, {"type": "spectate", "table": "ghost"})
                    assert watch["code"] == "no_table"
    finally:
        await clear_retained(MOSQUITTO, prefix)


async def test_each_database_has_its_own_deployment_id(tmp_path: Path) -> None:
    """A database created again (an earlier life's messages may linger on the broker)
    draws a new id; the same database keeps its own."""
    ids = []
    for name in ("a.db", "a.db", "b.db"):
        async with Store.open(f"sqlite+aiosqlite:///{tmp_path / name}") as store:
            ids.append(await store.deployment())
    assert ids[0] == ids[1] != ids[2]
    assert all(len(i) == 32 for i in ids)


def flood(publish: Callable[[str, bytes, bool], object], topics: Topics) -> None:
    """A fast table's 1,000 events (a state and a lobby line after every 100) and
    three finished hands, then a slow table's 10 events, state and lobby line."""
    for n in range(1, 1001):
        publish(topics.table_events("fast"), json.dumps({"seq": n}).encode(), False)
        if n % 100 == 0:
            publish(topics.table_state("fast"), json.dumps({"seq": n}).encode(), True)
            publish(topics.lobby("fast"), json.dumps({"hands": n // 100}).encode(), True)
    for hand in range(1, 4):
        publish(topics.hand(hand), json.dumps({"id": hand}).encode(), False)
    for n in range(1, 11):
        publish(topics.table_events("slow"), json.dumps({"seq": n}).encode(), False)
    publish(topics.table_state("slow"), json.dumps({"seq": 10}).encode(), True)
    publish(topics.lobby("slow"), json.dumps({"hands": 1}).encode(), True)


async def test_the_outbox_shares_itself_fairly_and_keeps_every_latest_state() -> None:
    topics = Topics()
    outbox = Outbox(size=500)
    dropped = []
    flood(lambda t, p, r: dropped.append(outbox.put(t, p, r, connected=False)), topics)
    sent = [await outbox.get() for _ in range(len(outbox))]
    # The fast table filled the queue: its events past 500 were dropped, then its oldest
    # made room for the finished hands and the slow table's events.
    assert sum(dropped) == 500 + 3 + 10
    seqs = {t: [json.loads(p)["seq"] for t2, p, _ in sent if t2 == t] for t in
            (topics.table_events("fast"), topics.table_events("slow"))}  # fmt: skip
    assert seqs[topics.table_events("fast")] == list(range(14, 501))
    assert seqs[topics.table_events("slow")] == list(range(1, 11))
    assert [t for t, _, _ in sent if "/hands/" in t] == [topics.hand(h) for h in (1, 2, 3)]
    retained = [(t, json.loads(p)) for t, p, r in sent if r]  # one each, the latest
    assert sorted(retained) == sorted([
        (topics.table_state("fast"), {"seq": 1000}), (topics.lobby("fast"), {"hands": 10}),
        (topics.table_state("slow"), {"seq": 10}), (topics.lobby("slow"), {"hands": 1}),
    ])  # fmt: skip
    # Each table's state comes after its events: it covers them.
    where = [t for t, _, _ in sent]
    for table in ("fast", "slow"):
        last_event = len(where) - 1 - where[::-1].index(topics.table_events(table))
        assert where.index(topics.table_state(table)) > last_event
    outbox.again()  # after a reconnection: every topic's latest retained, once more
    again = [await outbox.get() for _ in range(len(outbox))]
    assert sorted(t for t, _, _ in again) == sorted(t for t, _ in retained)


async def test_a_state_waiting_behind_a_busy_table_keeps_its_place() -> None:
    """While the broker is there but slow: a state replaces the one waiting only if no
    event of its table came since; otherwise both wait, in order."""
    topics = Topics()
    outbox = Outbox(size=100)
    put = outbox.put
    put(topics.table_events("t"), b"1", False, connected=True)
    put(topics.table_state("t"), b"s1", True, connected=True)
    put(topics.table_state("t"), b"s1b", True, connected=True)  # in place: nothing since
    put(topics.table_events("t"), b"2", False, connected=True)
    put(topics.table_state("t"), b"s2", True, connected=True)  # behind event 2
    sent = [(await outbox.get())[1] for _ in range(len(outbox))]
    assert sent == [b"1", b"s1b", b"2", b"s2"]


async def quiet(heard: Heard, seconds: float) -> bool:
    """Whether nothing more comes for ``seconds``."""
    before = len(heard.messages)
    await asyncio.sleep(seconds)
    return len(heard.messages) == before


async def test_a_fast_table_through_a_broker_cut_leaves_room_for_every_other(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Through a cut of the bus's own connection (a proxy of the test's own, the shared
    Mosquitto untouched): a table publishing fast keeps its share of the queue, another
    table's events all go once the broker is back, and each table's latest state and
    lobby line are never dropped. Before: one queue of 10,000 for everyone, and a fast
    table filled it."""
    caplog.set_level(logging.WARNING, logger="pokerroom")
    topics = Topics(own_prefix())
    host, port = MqttBus.address(MOSQUITTO)
    async with (
        proxy(host, port) as px,
        listening(MOSQUITTO, f"{topics.prefix}/#") as heard,
        test_bus("d" * 32, f"mqtt://{px.address}", topics.prefix, queue_size=500) as bus,
    ):
        async with asyncio.timeout(10):
            await bus.connected.wait()
        px.set("cut")
        async with asyncio.timeout(10):
            while bus.connected.is_set():
                await asyncio.sleep(0.01)
        flood(lambda t, p, r: bus.publish(t, p, retain=r), topics)
        px.set("up")
        async with asyncio.timeout(20):  # everything has come, the slow table's last
            while not heard.json(topics.lobby("slow")) and not await quiet(heard, 2.0):
                pass
        dropped = bus.dropped
    await clear_retained(MOSQUITTO, topics.prefix)
    fast = [m["seq"] for m in heard.json(topics.table_events("fast"))]
    slow = [m["seq"] for m in heard.json(topics.table_events("slow"))]
    print(f"\nthrough the cut, with a queue of 500: fast table {len(fast)} of 1000 events, "
          f"slow table {len(slow)} of 10; {dropped} dropped")  # fmt: skip
    assert slow == list(range(1, 11))
    assert fast == list(range(14, 501)) and dropped == 513
    assert heard.json(topics.table_state("fast"))[-1] == {"seq": 1000}
    assert heard.json(topics.lobby("fast"))[-1] == {"hands": 10}
    assert len(heard.json(topics.hand(3))) == 1
    outage = [r.getMessage() for r in caplog.records if "MQTT broker" in r.getMessage()]
    assert len(outage) == 2, outage  # once when it starts, once when it ends
    assert "unreachable" in outage[0] and "is back after" in outage[1]
    assert "513 messages dropped meanwhile" in outage[1]
