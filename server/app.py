"""The websocket server: sessions, the lobby, and one task per table under one TaskGroup.

``/ws`` speaks the JSON protocol (docs/protocol.md); ``/healthz`` answers plain HTTP for
load balancers. Everything a client sends is validated before it reaches a table; errors
go to that client only; abuse closes that one connection with a policy close code.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import functools
import ipaddress
import itertools
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import orjson
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State

from engine import AnteKind, ButtonRule, EngineError, TableConfig
from server import protocol, web
from server.bots import load_bot
from server.bus import EventBus, LocalBus
from server.export.seat import seen_from
from server.remote import RemoteTable, run_followed
from server.store import HandWriter, Lease, Store, StoreError, UnknownHandError
from server.tables import Player, TableError, TableRunner, TableSettings, store_with
from server.tournaments.director import (
    Format,
    TournamentConfig,
    TournamentError,
    check_field,
    config_json,
)
from server.tournaments.host import TournamentHost
from server.tournaments.structures import BLIND_STRUCTURES, PAYOUTS, Level

log = logging.getLogger("pokerroom")

POLICY_VIOLATION = 1008  # RFC 6455: the close code for a client that breaks the rules
OPEN = State.OPEN  # looked up once: an enum member costs a descriptor call per access


@dataclass(frozen=True)
class ServerSettings:
    host: str = "127.0.0.1"
    port: int = 8765
    max_message_bytes: int = 16 * 1024
    messages_per_second: float = 20.0
    burst: int = 60
    errors_before_close: int = 100
    """Malformed or refused messages a connection may send in a minute before it is
    closed."""
    outbox_bytes: int = 1 << 20
    """Bytes waiting for a client that does not read (beyond what the kernel's socket
    buffers hold) before its connection is closed."""
    reconnect_grace_seconds: float = 60.0
    house_think_seconds: float = 0.2
    tables_per_player: int = 10
    """Tables (and tournaments) one player may have open: a client cannot fill the server
    with tables."""
    tables_per_address: int = 20
    """Tables the players connecting from one IP address may have open between them:
    guests are free to make, so the cap per player alone is not enough."""
    max_tables: int = 1_000
    """Tables players may have open in all."""
    idle_table_seconds: float = 300.0
    """A table a player created closes after this long with nobody seated or waiting."""
    unused_table_seconds: float = 60.0
    """A table a player created closes after this long if nobody has sat at it yet."""
    accounts_per_address: int = 10
    """Accounts one IP address may create an hour."""
    lease_seconds: float = 15.0
    """How long a table's lease lasts unless renewed (a third of it apart): how soon
    another process takes over the tables of one that died."""
    advertise: str | None = None
    """The websocket URL clients reach this process at, which the lobby gives players of
    its tables (default ``ws://host:port/ws``)."""
    demo: bool = False
    """Host the demo table (or take it back after a restart): :meth:`PokerServer.host_demo`."""
    forwarded_allow_ips: str = ""
    """Reverse proxies (IP addresses, comma-separated) whose ``X-Forwarded-For`` header
    says where their clients connect from: behind a proxy, the caps per address count
    the clients, not the proxy."""

    def __post_init__(self) -> None:
        """:class:`ValueError` naming a setting no server can run with."""
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port}: give 0 to 65535")
        for f in dataclasses.fields(self):
            value, name = getattr(self, f.name), f.name.replace("_", "-")
            if f.type == "int" and f.name != "port" and value < 1:
                raise ValueError(f"{name} {value}: give at least 1")
            if f.type == "float" and not (value > 0 or (value == 0 and f.name in _MAY_BE_0)):
                raise ValueError(f"{name} {value:g}: give a positive number")
        url = self.advertise
        if url is not None and not re.fullmatch(r"wss?://[^\s/]+(/\S*)?", url):
            raise ValueError(f"advertise {url!r}: give a ws:// or wss:// URL")


class ListenError(Exception):
    """The server cannot listen where it was told to (the message says why)."""


_MAY_BE_0 = {"house_think_seconds", "reconnect_grace_seconds"}
DEMO_CONFIG = TableConfig(small_blind=50, big_blind=100, seats=6)
DEMO_BOTS = {  # seat -> strategy; the sixth seat is for a person
    0: "tight-aggressive",
    1: "calling-station",
    2: "tight-aggressive",
    3: "random",
    4: "tight-aggressive",
}


class _Bucket:
    """Token bucket: ``rate`` messages a second on average, bursts of ``burst``; every
    message takes a token. Each of the server's own action requests adds one (up to
    :data:`ANSWERS` beyond the burst), which its answer spends: a bot answering a fast
    table is never refused, and still has the whole rate for its other messages, while a
    client sending more than it is asked for is refused."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        if self.tokens < self.burst:  # the rate refills up to the burst, no further
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def asked(self) -> None:
        """The server has asked the client for an answer (an action request)."""
        self.tokens = min(self.tokens + 1, self.burst + ANSWERS)


ANSWERS = 4
"""Answers to action requests a client may have in hand beyond its burst."""


class Session:
    """One websocket connection: who it is, what it watches, and what it is sent."""

    def __init__(self, app: PokerServer, websocket: ServerConnection, address: str) -> None:
        self.app = app
        self.websocket = websocket
        self.address = address
        """Where the client connects from, for the caps per address (an IPv6 client's
        /64 network: one host often has all of it)."""
        self.player: Player | None = None
        self.token: str | None = None  # the session token its welcome gave
        self.since: dt.datetime | None = None  # a guest's: when their name became theirs
        self.tables: set[str] = set()
        self.delays: dict[str, tuple[int, float]] = {}  # table -> (hands, seconds)
        self.delayed: dict[str, deque[tuple[float, int, str]]] = {}  # (due, hand, text)
        self.hands_ended: dict[str, int] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.closing = False
        self.outgoing: list[bytes] = []  # frames send() queued this turn of the event loop
        self.bucket = _Bucket(app.settings.messages_per_second, app.settings.burst)

    def send(self, text: str, *, urgent: bool = False) -> None:
        """Queue a message on the connection; see :meth:`send_many`."""
        self.send_many((text,), urgent=urgent)

    def send_many(self, texts: Iterable[str], *, urgent: bool = False) -> None:
        """Queue messages on the connection, in order, without waiting: a table never
        waits for a client. What is queued in one turn of the event loop goes to the
        socket in one write (:meth:`flush`): a table's events reach its players together,
        and a syscall per message would cost the server a third of its CPU. ``urgent``
        (an action request) writes at once, with what is queued before it."""
        if self.closing or self.websocket.protocol.state is not OPEN:
            return  # the connection is going: its handler cleans up
        was_empty = not self.outgoing
        self.outgoing.extend(map(_frame, texts))
        if urgent:
            self.bucket.asked()  # an action request: its answer may come past the limit
            self.flush()
        elif was_empty and self.outgoing:
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Write what :meth:`send` queued. A client that does not read is closed, not
        buffered for without end."""
        if not self.outgoing:
            return  # written already, by an urgent send
        data, self.outgoing = b"".join(self.outgoing), []
        websocket = self.websocket
        if websocket.protocol.state is not OPEN:
            return  # closing: nothing may follow the close frame
        if websocket.transport.get_write_buffer_size() > self.app.settings.outbox_bytes:
            self.closing = True
            asyncio.get_running_loop().create_task(
                websocket.close(POLICY_VIOLATION, "too slow: messages are piling up")
            )
            return
        websocket.transport.write(data)

    def hand_ended(self, table_id: str, hand_number: int) -> None:
        """A hand at a table is over: a spectator delayed by hands may see more now."""
        if table_id in self.delays:
            self.hands_ended[table_id] = hand_number
            self._release(table_id)

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        """A table's messages; a spectator watching with a delay gets them late."""
        if table_id not in self.delays:
            self.send_many(texts)
            return
        due = time.monotonic() + self.delays[table_id][1]
        self.delayed.setdefault(table_id, deque()).extend((due, hand_number, t) for t in texts)
        self._release(table_id)

    def _release(self, table_id: str, *, timer: bool = False) -> None:
        """Send what is due: ``delay_seconds`` have passed and, with ``delay_hands = k``,
        hand ``N`` becomes visible once hand ``N + k - 1`` has ended (k = 1: a hand is
        shown when it is over). At most one timer per table waits for the next message;
        while it does, only it releases (the head of the queue is already hand-ready)."""
        if timer:
            self.timers.pop(table_id, None)
        elif table_id in self.timers:
            return
        queue = self.delayed.get(table_id)
        hands, _ = self.delays[table_id]
        ended = self.hands_ended.get(table_id, 0)
        now = time.monotonic()
        while queue and (hands == 0 or queue[0][1] + hands - 1 <= ended):
            due = queue[0][0]
            if due > now:
                self.timers[table_id] = asyncio.get_running_loop().call_later(
                    due - now, lambda: self._release(table_id, timer=True)
                )
                return
            self.send(queue.popleft()[2])

    def stop_delay(self, table_id: str) -> None:
        """Deliver everything held back (the spectator sat down, or left)."""
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self.delays.pop(table_id, None)
        for _, _, text in self.delayed.pop(table_id, deque()):
            self.send(text)


@functools.lru_cache(maxsize=256)
def _frame(text: str) -> bytes:
    """``text`` as a websocket frame. A table sends the same text to every seat: kept, a
    message fanned out is framed once. (No extensions: compression is off, see
    :meth:`PokerServer.running`.)"""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


@dataclass
class PokerServer:
    """The application: a store, the lobby's tables, and the sessions."""

    store: Store
    settings: ServerSettings = field(default_factory=ServerSettings)
    tables: dict[str, TableRunner] = field(default_factory=dict)
    db_tables: dict[str, int] = field(default_factory=dict)
    bus: EventBus = field(default_factory=LocalBus)
    """Where tables publish their public events, lobby summaries and finished hands."""

    def __post_init__(self) -> None:
        self._group: asyncio.TaskGroup | None = None
        self._writer: HandWriter | None = None  # every table's hands, one connection
        self.sessions: set[Session] = set()
        # Who is who. A guest's name is theirs alone from their first hello: another
        # connection proves it is them with the session token the welcome gave them.
        self.guests: dict[str, str] = {}  # guest (or house bot) name -> its session token
        # Session token -> (player, for a guest when the name became theirs; None for an
        # account). A guest name is free again once its guest is gone, or after a restart:
        # whoever takes it next must not see the hands of whoever had it before.
        self.identities: dict[str, tuple[Player, dt.datetime | None]] = {}
        # Tables players created (and tables taken over that players had created): who
        # created each (None: not known here), from which address, and since when nobody
        # has been at it. Creating tables is one at a time (the caps are counted).
        self.creators: dict[str, int | None] = {}
        self.origins: dict[str, str] = {}
        self.idle_since: dict[str, float] = {}
        self._creating = asyncio.Lock()
        self.accounts_from: dict[str, deque[float]] = {}  # address -> accounts created when
        # Several processes (docs/operations.md): this one's id in the table leases, its
        # address, and the other processes' tables as their lobby lines on the bus.
        self.holder = secrets.token_hex(8)
        self.address = ""  # set once the socket is bound
        self.elsewhere: dict[str, dict[str, Any]] = {}  # table id -> lobby line
        # The tables other processes hold live leases on, and where (by the database, on
        # each renewal): the lobby lists only these, whatever stale lines the bus keeps.
        self.hosts: dict[str, str] = {}
        self.followed: dict[str, RemoteTable] = {}  # tables elsewhere watched from here
        self._claimed: set[str] = set()  # tables this process hosts, or is taking
        self._proxies = frozenset(
            ip.strip() for ip in self.settings.forwarded_allow_ips.split(",") if ip.strip()
        )
        self.tournaments: dict[int, TournamentHost] = {}

    # -- tables -----------------------------------------------------------------------------
    #
    # Hosting a table is one step per table id: claiming its id here (so that a second
    # caller in this process loses at once), then taking its lease in the database (so
    # that a second process loses), then running it. Every table this process runs went
    # through _claim, and leaves it only when its task has ended.

    async def create_table(self, name: str, config: TableConfig, **clock: float) -> TableRunner:
        """A new table, running in its own task from now on. Its id comes from its name,
        and is one no table in this process or another (by the leases) has. ``clock``:
        its ``decision_seconds`` and ``time_bank_seconds``."""
        return await self._create(name, config, None, clock)

    async def _create(
        self, name: str, config: TableConfig, creator: int | None, clock: dict[str, float]
    ) -> TableRunner:
        """:meth:`create_table`, for ``creator`` (a player's id; None: the server's)."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30] or "table"
        for n in itertools.count(1):
            table_id = base if n == 1 else f"{base}-{n}"
            if table_id in self.hosts:
                continue
            settings = TableSettings(
                table_id=table_id,
                name=name,
                config=config,
                reconnect_grace_seconds=self.settings.reconnect_grace_seconds,
                **clock,  # type: ignore[arg-type]
            )
            stored = {**_table_json(settings), "kind": "player", "creator": creator}
            lease = await self._claim(table_id, stored)
            if lease is not None:
                return await self._host(lease)
        raise AssertionError("unreachable")

    async def host_demo(self) -> TableRunner | None:
        """Host the demo table ("demo": five house bots and a free seat), or take it back
        after a restart. None when another live process hosts it: then this one takes it
        over if that one stops renewing its lease (docs/operations.md)."""
        settings = TableSettings(
            table_id="demo", name="Demo", config=DEMO_CONFIG,
            reconnect_grace_seconds=self.settings.reconnect_grace_seconds,
        )  # fmt: skip
        house = {str(seat): [f"house-{seat + 1}", kind] for seat, kind in DEMO_BOTS.items()}
        stored = {**_table_json(settings), "kind": "demo", "house": house, "house_stack": 10_000}
        lease = await self._claim("demo", stored)
        return None if lease is None else await self._host(lease)

    async def _claim(self, table_id: str, config: dict[str, Any] | None) -> Lease | None:
        """The lease of table ``table_id``, or None if this process hosts it or is taking
        it already, or another live process holds it. ``config`` replaces the table's
        stored configuration (a new table's; None when taking one over as it was)."""
        if table_id in self._claimed:
            return None
        self._claimed.add(table_id)  # before any await: a second caller here loses
        lease = None
        try:
            db_id = await self.store.ensure_table(table_id, config or {})
            lease = await self.store.take_table(
                db_id, self.holder, self.address, self.settings.lease_seconds, config
            )
        finally:
            if lease is None:
                self._claimed.discard(table_id)
        if lease is None:
            return None
        if lease.voided is not None:
            log.warning(
                "table %s: hand %d voided (its server stopped without settling it); %d "
                "players got their chips back", lease.name, lease.voided, len(lease.refunds),
            )  # fmt: skip
        return lease

    async def _host(self, lease: Lease) -> TableRunner:
        """Run a table this process has just taken the lease on, as its stored
        configuration says (house bots too). It numbers its hands on from the last stored
        (or voided) one: hand numbers are unique per table."""
        table_id = lease.name
        assert table_id in self._claimed and table_id not in self.tables, table_id
        runner = TableRunner(
            _table_settings(lease, self.settings),
            house_think_seconds=self.settings.house_think_seconds,
            bus=self.bus,
            address=self.address,
        )
        runner.number_hands_after(lease.last_hand_number)
        self.tables[table_id] = runner
        self.db_tables[table_id] = lease.table_id
        self.elsewhere.pop(table_id, None)
        creator = lease.config.get("creator")
        if lease.config.get("kind", "demo" if table_id == "demo" else "player") == "player":
            self._adopt(table_id, creator)
        assert self._group is not None
        self._group.create_task(self._run_table(runner, lease.table_id), name=f"table {table_id}")
        house = lease.config.get("house", {})
        if house:
            bots = {int(seat): (name, kind) for seat, (name, kind) in house.items()}
            await self.add_house_bots(runner, bots, stack=lease.config["house_stack"])
        return runner

    async def add_house_bots(
        self, runner: TableRunner, bots: dict[int, tuple[str, Any]], stack: int
    ) -> None:
        """Seat bots that play inside the server: ``{seat: (name, bot)}``, a bot being a
        strategy or the name :func:`server.bots.load_bot` knows it by. Named ones are
        stored with the table: a process taking the table over seats them again."""
        loaded = {
            seat: (name, load_bot(bot) if isinstance(bot, str) else bot)
            for seat, (name, bot) in bots.items()
        }
        ids = await self.store.ensure_players(name for name, _ in loaded.values())
        players = {seat: (Player(ids[name], name), bot) for seat, (name, bot) in loaded.items()}
        for name, _ in loaded.values():
            self.guests[name] = ""  # house bots' names are never anyone else's
        named = {str(s): [name, b] for s, (name, b) in bots.items() if isinstance(b, str)}
        if named:
            db_id = self.db_tables[runner.settings.table_id]
            stored = await self.store.table_config(db_id)
            house = {**stored.get("house", {}), **named}
            await self.store.set_table_config(
                db_id, {**stored, "house": house, "house_stack": stack}
            )
        await runner.request("house_sit", None, bots=players, stack=stack)

    async def _run_table(self, runner: TableRunner, db_id: int) -> None:
        table_id = runner.settings.table_id
        try:
            await self._play_table(runner, db_id)
        except Exception:  # one table failing never takes the server down
            log.exception("table %s could not run", table_id)
            runner.halt()
        try:
            if not runner.abandoned:  # another process holds the lease if it is
                # Everyone is cashed out: the table is free for any process.
                await self.store.release_table(db_id, self.holder)
        except Exception as exc:  # it expires by itself, and the taker finds nothing owed
            log.warning("table %s: its lease was not released (%s)", table_id, exc)
        finally:
            if self.tables.get(table_id) is runner:
                self._drop_table(table_id, "closed")
            self._claimed.discard(table_id)

    async def _play_table(self, runner: TableRunner, db_id: int) -> None:
        assert self._writer is not None
        writer = self._writer
        runner.store_hand = store_with(writer, db_id, runner.settings.table_id, self.bus)
        runner.publish_summary()  # in the lobby of whoever follows the bus

        async def record(player_id: int, amount: int, reason: str) -> None:
            await writer.record(player_id, db_id, amount, reason)

        runner.record_ledger = record
        await runner.run()

    # -- several processes ------------------------------------------------------------------

    async def keep_leases(self) -> None:
        """Renew this process's leases a third of a lease apart; stop a table whose lease
        another process has taken (this one was cut off from the database for longer than
        a lease); take over the tables whose host stopped renewing (it died)."""
        while True:
            try:
                held = await self.store.renew_leases(self.holder, self.settings.lease_seconds)
                for table_id, db_id in list(self.db_tables.items()):
                    if db_id not in held and not self.tables[table_id].stopped:
                        log.error("table %s: another server has taken it over", table_id)
                        self._drop_table(table_id, "moved").abandon()
                for name in await self.store.expired_leases():
                    lease = await self._claim(name, None)
                    if lease is not None:
                        await self._take_over(lease)
                self.hosts = await self.store.hosts(other_than=self.holder)
            except Exception as exc:  # the database is away: try again next time
                log.warning("renewing table leases failed: %s", exc)
            await asyncio.sleep(self.settings.lease_seconds / 3)

    async def _take_over(self, lease: Lease) -> None:
        """Host a table another process hosted, as it was configured."""
        try:
            _table_settings(lease, self.settings)
        except (KeyError, TypeError, ValueError, EngineError) as exc:  # not ours to fix here
            log.error("table %s cannot be taken over: its stored configuration is bad (%s)",
                      lease.name, exc)  # fmt: skip
            await self.store.release_table(lease.table_id, self.holder)
            self._claimed.discard(lease.name)
            return
        await self._host(lease)
        log.warning("table %s: taken over from a server that stopped renewing it", lease.name)

    async def follow_lobby(self) -> None:
        """Keep the other processes' lobby lines (retained on the bus) for the lobby here."""
        async with self.bus.subscribe(self.bus.topics.lobby("+")) as queue:
            while True:
                topic, payload = await queue.get()
                table_id = topic.rsplit("/", 1)[1]
                if not payload:
                    self.elsewhere.pop(table_id, None)
                    continue
                try:
                    summary = orjson.loads(payload)
                except orjson.JSONDecodeError:
                    log.warning("a malformed lobby line on %s", topic)
                    continue
                if table_id not in self.tables and summary.get("address") != self.address:
                    self.elsewhere[table_id] = summary

    def _lobby(self) -> list[dict[str, Any]]:
        """Every table: this process's, then those other processes host (their lobby
        lines from the bus, with the address their lease gives)."""
        there = [
            {**summary, "address": self.hosts[table_id]}
            for table_id, summary in self.elsewhere.items()
            if table_id in self.hosts and table_id not in self.tables
        ]
        return [r.summary() for r in self.tables.values()] + there

    def _is_elsewhere(self, table_id: str) -> bool:
        return table_id not in self.tables and table_id in self.hosts

    def _hosted_elsewhere(self, table_id: str) -> TableError:
        """What a player asking to play at another process's table is told: its address."""
        address = self.hosts[table_id]
        return TableError(
            "elsewhere",
            f"table {table_id!r} is hosted by another server: connect to {address} to play",
            address=address,
        )

    async def _spectate_elsewhere(self, session: Session, table_id: str) -> dict[str, Any]:
        """Watch, through the bus, a table another process hosts."""
        remote = self.followed.get(table_id)
        if remote is None:
            remote = self.followed[table_id] = RemoteTable(table_id, self.bus)
            assert self._group is not None
            remote.task = self._group.create_task(
                run_followed(remote), name=f"following {table_id}"
            )
            remote.task.add_done_callback(lambda _: self._unfollow(table_id, remote))
        return await remote.watch(session)

    def _unwatch(self, session: Session, table_id: str) -> None:
        remote = self.followed.get(table_id)
        if remote is not None:
            remote.watchers.discard(session)
            if not remote.watchers and remote.task is not None:
                remote.task.cancel()

    def _unfollow(self, table_id: str, remote: RemoteTable) -> None:
        if self.followed.get(table_id) is remote:
            del self.followed[table_id]

    # -- connections -----------------------------------------------------------------------

    async def handler(self, websocket: ServerConnection) -> None:
        session = Session(self, websocket, client_address(websocket, self._proxies))
        self.sessions.add(session)
        errors, window = 0, time.monotonic()
        try:
            async for raw in websocket:
                if time.monotonic() - window > 60:  # count bad messages a minute at a time
                    errors, window = 0, time.monotonic()
                if not session.bucket.take():
                    errors += 1
                    session.send(protocol.error("rate_limited", "too many messages: slow down"))
                else:
                    reply = await self._answer(session, raw)
                    if reply is not None:
                        session.send(reply)
                        errors += reply.startswith('{"type":"error"')
                if errors >= self.settings.errors_before_close:
                    session.flush()  # the replies so far first: they say what went wrong
                    await websocket.close(POLICY_VIOLATION, "too many bad messages")
                    break
        except ConnectionClosed:
            pass
        finally:
            for timer in session.timers.values():
                timer.cancel()
            self.sessions.discard(session)
            for table_id in session.tables:
                runner = self.tables.get(table_id)
                if runner is not None:
                    with contextlib.suppress(TableError):
                        await runner.request("disconnect", session)
                else:
                    self._unwatch(session, table_id)
            for host in self.tournaments.values():
                host.disconnected(session)
            self._forget(session)

    async def _answer(self, session: Session, raw: str | bytes) -> str | None:
        """The reply to one message; never raises, whatever the client sent."""
        re_: str | None = None
        try:
            message = protocol.parse(raw)
            re_ = message.id
            body = await self._dispatch(session, message)
        except protocol.ProtocolError as exc:
            return protocol.error(exc.code, str(exc), re_ if re_ is not None else exc.re)
        except TableError as exc:
            return protocol.error(exc.code, str(exc), re_, **exc.details)
        except (StoreError, EngineError) as exc:
            return protocol.error("refused", str(exc), re_)
        except Exception:  # a bug must cost this one reply, not the connection or a table
            log.exception("error answering a message")
            return protocol.error("internal", "the server failed to answer this message", re_)
        if body is None:
            return None
        if re_ is not None:
            body = {**body, "re": re_}  # a copy: the table may keep the reply (action ids)
        return protocol.dumps(body)

    def _runner(self, table_id: str) -> TableRunner:
        runner = self.tables.get(table_id)
        if runner is None:
            if self._is_elsewhere(table_id):
                raise self._hosted_elsewhere(table_id)
            raise TableError("no_table", f"no table {table_id!r}")
        return runner

    def _player(self, session: Session) -> Player:
        if session.player is None:
            raise TableError(
                "hello_first", "say hello first (a guest name, an account token or a session)"
            )
        return session.player

    async def _create_for(
        self, creator: Player, address: str, m: protocol.CreateTable
    ) -> TableRunner:
        """A table a player asked for, within the caps on open tables per player, per
        address and in all (docs/operations.md): nobody can stop everyone else creating
        tables. One at a time, so that the caps hold however many ask at once."""
        settings = self.settings
        async with self._creating:
            mine = sum(c == creator.id for c in self.creators.values())
            theirs = sum(a == address for a in self.origins.values())
            if mine >= settings.tables_per_player:
                raise TableError(
                    "too_many_tables", f"a player may have {settings.tables_per_player} tables "
                    "open: close one (leave it, and it closes once idle)",
                )  # fmt: skip
            if theirs >= settings.tables_per_address:
                raise TableError(
                    "too_many_tables", f"players at one address may have "
                    f"{settings.tables_per_address} tables open: join one",
                )  # fmt: skip
            if len(self.creators) >= settings.max_tables:
                raise TableError(
                    "too_many_tables", f"players have opened the most tables this server "
                    f"holds ({settings.max_tables}): join one",
                )  # fmt: skip
            runner = await self._create(
                m.name,
                TableConfig(
                    small_blind=m.small_blind, big_blind=m.big_blind, seats=m.seats,
                    ante=m.ante, ante_kind=AnteKind(m.ante_kind), min_buy_in=m.min_buy_in,
                    max_buy_in=m.max_buy_in, button_rule=ButtonRule(m.button_rule),
                ),
                creator.id,
                {"decision_seconds": m.decision_seconds,
                 "time_bank_seconds": m.time_bank_seconds},
            )  # fmt: skip
            self.origins[runner.settings.table_id] = address
            return runner

    def _adopt(self, table_id: str, creator: int | None) -> None:
        """Count a player's table (created here, or taken over): for the caps, and to
        close it once nobody uses it."""
        self.creators[table_id] = creator
        self.idle_since[table_id] = time.monotonic()

    def _count_account(self, address: str) -> None:
        """Refuse an account past the hourly cap for the address, else count it."""
        now = time.monotonic()
        made = self.accounts_from.setdefault(address, deque())
        while made and now - made[0] > 3600:
            made.popleft()
        if len(made) >= self.settings.accounts_per_address:
            raise TableError(
                "too_many_accounts",
                f"an address may create {self.settings.accounts_per_address} accounts an hour",
            )
        made.append(now)

    async def _dispatch(self, session: Session, m: Any) -> dict[str, Any] | None:
        match m:
            case protocol.Ping():
                return {"type": "pong"}
            case protocol.Hello():
                return await self._hello(session, m)
            case protocol.CreateAccount():
                self._count_account(session.address)
                player_id, token = await self.store.create_account(m.name)
                return {"type": "account", "name": m.name, "token": token, "player_id": player_id}
            case protocol.ListTables():
                return {"type": "tables", "tables": self._lobby()}
            case protocol.CreateTable():
                runner = await self._create_for(self._player(session), session.address, m)
                return {"type": "table_created", "table": runner.summary()}
            case protocol.Sit():
                player = self._player(session)
                runner = self._runner(m.table)
                session.tables.add(m.table)
                return await runner.request(
                    "sit", session, player=player, seat=m.seat, buy_in=m.buy_in,
                    wait=m.wait_for_big_blind,
                )  # fmt: skip
            case protocol.Spectate():
                return await self._spectate(session, m)
            case protocol.Leave() if m.table in self.followed:
                self._unwatch(session, m.table)
                session.stop_delay(m.table)
                session.tables.discard(m.table)
                return {"type": "left", "table": m.table}
            case protocol.Leave():
                reply = await self._runner(m.table).request("leave", session)
                session.stop_delay(m.table)
                if reply["type"] == "left":
                    session.tables.discard(m.table)
                return reply
            case protocol.SitOut():
                return await self._runner(m.table).request("sit_out", session)
            case protocol.SitIn():
                return await self._runner(m.table).request("sit_in", session, post=m.post)
            case protocol.Act() if m.table not in self.tables and _TOURNAMENT_TABLE.match(m.table):
                player = self._player(session)
                return self._tournament(int(m.table[1:].split("-", 1)[0])).act(player, m)
            case protocol.Act():
                return await self._runner(m.table).request(
                    "act", session, player=self._player(session), action_id=m.action_id,
                    action=m.action, amount=m.amount, seq=m.seq,
                )  # fmt: skip
            case protocol.Resume():
                session.tables.add(m.table)
                return await self._runner(m.table).request(
                    "resume", session, player=self._player(session), last_seq=m.last_seq
                )
            case protocol.Hands():
                player = self._player(session)
                hands = await self.store.list_hands(
                    player=player.name, since=session.since, before=m.before, imported=False,
                    limit=m.limit,
                )  # fmt: skip
                return protocol.hands_body(hands, player.name)
            case protocol.Hand():
                return await self._hand(session, m.hand_id)
            case protocol.CreateTournament():
                host = await self._create_tournament(self._player(session), m)
                return {"type": "tournament_created", "tournament": host.summary()}
            case protocol.ListTournaments():
                summaries = [h.summary() for h in self.tournaments.values()]
                return {"type": "tournaments", "tournaments": summaries}
            case protocol.Register():
                player = self._player(session)
                return self._tournament(m.tournament).register(player, session)
            case protocol.Unregister():
                player = self._player(session)
                return self._tournament(m.tournament).unregister(player)
        raise protocol.ProtocolError("unknown_type", "unknown message")

    def _tournament(self, tournament_id: int) -> TournamentHost:
        host = self.tournaments.get(tournament_id)
        if host is None:
            raise TableError("no_tournament", f"no tournament {tournament_id}")
        return host

    async def _create_tournament(
        self, creator: Player, m: protocol.CreateTournament
    ) -> TournamentHost:
        """A tournament for bots to register for; it plays in its own task."""
        mine = [
            h for h in self.tournaments.values()
            if h.creator == creator.id and h.state in ("registering", "running")
        ]  # fmt: skip
        if len(mine) >= self.settings.tables_per_player:
            raise protocol.ProtocolError(
                "too_many_tables",
                f"a player may have {self.settings.tables_per_player} tournaments going",
            )
        fmt = Format(m.format)
        ring = fmt in (Format.RING, Format.ROUND_ROBIN)
        config = TournamentConfig(
            format=fmt, seed=m.seed or secrets.token_hex(8),
            starting_stack=m.stack or (100 * RING_BIG_BLIND if ring else 1_500),
            blinds=BLIND_STRUCTURES[m.blinds], stakes=Level(RING_BIG_BLIND // 2, RING_BIG_BLIND),
            buy_in=m.buy_in, payouts=PAYOUTS[m.payouts], seats=m.seats, hands=m.hands,
            duplicate=m.duplicate,
        )  # fmt: skip
        try:  # what the director would refuse when it starts, refused now
            check_field(config, m.field)
        except TournamentError as exc:
            raise TableError("refused", str(exc)) from None
        settings = config_json(config)
        tournament_id = await self.store.create_tournament(str(fmt), config.seed, settings)
        host = TournamentHost(
            id=tournament_id, name=m.name, config=config, settings=settings,
            creator=creator.id, field_size=m.field, start_seconds=m.start_seconds,
            decision_seconds=m.decision_seconds, store=self.store, bus=self.bus,
        )  # fmt: skip
        self.tournaments[tournament_id] = host
        assert self._group is not None and self._writer is not None
        host.task = self._group.create_task(
            host.run(self._writer), name=f"tournament {tournament_id}"
        )
        return host

    async def _spectate(self, session: Session, m: protocol.Spectate) -> dict[str, Any] | None:
        """Watch a table, here or (through the bus) in another process, live or with a
        delay: a delayed spectator's snapshot is as late as the rest of what they see."""
        delayed = bool(m.delay_hands or m.delay_seconds)
        if self._is_elsewhere(m.table):
            session.tables.add(m.table)
            snapshot = await self._spectate_elsewhere(session, m.table)
            if delayed:  # nothing was awaited since the snapshot: no event is ahead of it
                session.delays[m.table] = (m.delay_hands, m.delay_seconds)
                session.hands_ended[m.table] = RemoteTable.finished_through(snapshot)
        else:
            runner = self._runner(m.table)
            session.tables.add(m.table)
            seated_here = session.player is not None and (
                runner.seat_of_player(session.player) is not None
            )
            if delayed and not seated_here:
                session.delays[m.table] = (m.delay_hands, m.delay_seconds)
                # Hands already over before watching began are history, not delayed.
                session.hands_ended[m.table] = runner.finished_through
            snapshot = await runner.request("spectate", session)
        if m.table not in session.delays:
            return snapshot
        reply = {**snapshot, **({"re": m.id} if m.id is not None else {})}
        session.send_table(m.table, snapshot["view"]["hand_number"], [protocol.dumps(reply)])
        return None

    async def _hand(self, session: Session, hand_id: int) -> dict[str, Any]:
        """One of the player's hands as their seat saw it. A hand they did not play, one
        imported, and one that does not exist get the same answer: nobody learns anything
        of other people's hands by asking."""
        player = self._player(session)
        try:
            stored = await self.store.stored_hand(
                hand_id, player=player.name, since=session.since, imported=False
            )
        except UnknownHandError:
            raise TableError("no_hand", f"no hand {hand_id} that you played") from None
        position = stored.info.players.index(player.name)
        # About a millisecond of replaying and rendering: less than a hop to a thread.
        seen = seen_from(stored.info, position)
        return protocol.hand_body(stored, stored.info.engine_seats[position], seen)

    def _forget(self, session: Session) -> None:
        """Drop a gone connection's identity unless its player still holds a seat (and so
        may come back with the session): the maps stay as small as the live tables."""
        player, token = session.player, session.token
        if player is None or token is None:
            return
        if any(r.seat_of_player(player) is not None for r in self.tables.values()):
            return
        if any(s.token == token for s in self.sessions):
            return
        self.identities.pop(token, None)
        if self.guests.get(player.name) == token:
            del self.guests[player.name]

    async def _hello(self, session: Session, m: protocol.Hello) -> dict[str, Any]:
        if m.version != protocol.VERSION:
            raise protocol.ProtocolError(
                "bad_version", f"this server speaks version {protocol.VERSION}"
            )
        if sum(x is not None for x in (m.name, m.token, m.session)) != 1:
            raise protocol.ProtocolError(
                "bad_message", "hello: give one of a guest name, an account token, a session"
            )
        if m.session is not None:
            if m.session not in self.identities:
                raise TableError("bad_session", "no such session: say hello with a name or token")
            session.player, since = self.identities[m.session]
            token = m.session
        else:
            if m.token is not None:
                found = await self.store.player_by_token(m.token)
                if found is None:
                    raise TableError("bad_token", "no account has this token")
                session.player, since = Player(*found), None
            else:
                assert m.name is not None
                if m.name in self.guests:
                    raise TableError(
                        "name_taken",
                        f"the name {m.name!r} is in use: to come back, say hello with your session",
                    )
                player_id = await self.store.guest(m.name)
                session.player, since = Player(player_id, m.name), dt.datetime.now(dt.UTC)
            token = secrets.token_urlsafe(24)
            self.identities[token] = (session.player, since)
            if since is not None:
                self.guests[session.player.name] = token
        session.token, session.since = token, since
        return {
            "type": "welcome",
            "version": protocol.VERSION,
            "player": {
                "id": session.player.id,
                "name": session.player.name,
                "guest": since is not None,
            },
            "session": token,
        }

    # -- idle tables ------------------------------------------------------------------------

    async def close_idle_tables(self) -> None:
        """Close, every so often, the tables players created that nobody uses: nobody has
        sat at it for ``unused_table_seconds`` since it opened, or nobody has been seated
        or waiting (house bots aside) for ``idle_table_seconds``. Each costs memory, a
        task and a lobby line, and counts against its creator's caps."""
        idle, unused = self.settings.idle_table_seconds, self.settings.unused_table_seconds
        while True:
            await asyncio.sleep(min(30.0, idle / 4, unused / 4))
            now = time.monotonic()
            for table_id in list(self.creators):
                runner = self.tables.get(table_id)
                if runner is None:
                    continue
                if runner.has_people:
                    self.idle_since.pop(table_id, None)
                    continue
                since = self.idle_since.setdefault(table_id, now)
                if now - since >= (idle if runner.ever_seated else min(idle, unused)):
                    self.close_table(table_id, "idle")
            for address, made in list(self.accounts_from.items()):  # forget old counts
                if not made or now - made[-1] > 3600:
                    del self.accounts_from[address]

    def close_table(self, table_id: str, reason: str) -> None:
        """Take a table out of the lobby and stop it; whoever watches it is told."""
        self._drop_table(table_id, reason).close()

    def _drop_table(self, table_id: str, reason: str) -> TableRunner:
        """Take a table out of the lobby and tell whoever watches it; the caller stops it."""
        runner = self.tables.pop(table_id)
        self.db_tables.pop(table_id, None)
        self.idle_since.pop(table_id, None)
        self.creators.pop(table_id, None)
        self.origins.pop(table_id, None)
        closed = protocol.dumps({"type": "table_closed", "table": table_id, "reason": reason})
        for session in list(runner.subscribers):
            session.stop_delay(table_id)  # what a delay held back first, then the news
            session.send(closed)
        for session in self.sessions:
            session.tables.discard(table_id)
        return runner

    # -- running -----------------------------------------------------------------------------

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP: ``/healthz`` for load balancers, the browser client at ``/``; only
        ``/ws`` upgrades."""
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        if (response := web.page(path)) is not None:
            return response
        if path != "/ws":
            return connection.respond(
                HTTPStatus.NOT_FOUND, "pokerroom: connect a websocket to /ws\n"
            )
        return None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Server]:
        """Serve until the block ends, then close the connections and stop the tables."""
        # The writer outlives the tables: the last hands they play are committed.
        async with (
            self.store.writer(holder=self.holder) as self._writer,
            asyncio.TaskGroup() as group,
        ):
            self._group = group
            host, port = self.settings.host, self.settings.port
            try:
                server = await serve(
                    self.handler,
                    host,
                    port,
                    process_request=self.process_request,
                    compression=None,  # deflate costs more CPU than it saves on small messages
                    max_size=self.settings.max_message_bytes,
                )
            except OSError as exc:  # a port in use, an address not ours: one line, no trace
                reason = exc.strerror or str(exc)
                if "address already in use" in str(exc).lower():
                    reason = "address already in use (another server is running there?)"
                raise ListenError(f"cannot listen on {host}:{port}: {reason}") from None
            port = next(iter(server.sockets)).getsockname()[1]
            self.address = self.settings.advertise or f"ws://{self.settings.host}:{port}/ws"
            if self.settings.demo:  # before the lease task looks for tables to take over
                await self.host_demo()
            chores = [
                group.create_task(self.close_idle_tables(), name="idle tables"),
                group.create_task(self.keep_leases(), name="table leases"),
            ]
            if self.bus.shared:
                chores.append(group.create_task(self.follow_lobby(), name="lobby"))
            try:
                yield server
            finally:
                for chore in chores:
                    chore.cancel()
                for remote in self.followed.values():
                    if remote.task is not None:
                        remote.task.cancel()
                for tournament in self.tournaments.values():  # stops unfinished
                    if tournament.task is not None:
                        tournament.task.cancel()
                server.close()
                await server.wait_closed()
                for runner in self.tables.values():
                    runner.close()


def client_address(websocket: ServerConnection, proxies: frozenset[str]) -> str:
    """Where a client connects from: the peer's address or, from a trusted proxy, the
    last address its ``X-Forwarded-For`` names; an IPv6 address as its /64 network (one
    host often has all of it), an IPv4-mapped one as IPv4."""
    peer = websocket.remote_address[0] if websocket.remote_address else "unknown"
    if peer in proxies and websocket.request is not None:
        forwarded = websocket.request.headers.get("X-Forwarded-For", "")
        peer = forwarded.rsplit(",", 1)[-1].strip() or peer
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]  # not an address (a Unix socket): one bucket for all of them
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


RING_BIG_BLIND = 100  # a tournament's ring matches on the server: 50/100
_TOURNAMENT_TABLE = re.compile(r"^t\d{1,18}-")  # a tournament's tables: t{id}-{table}


def _table_settings(lease: Lease, server: ServerSettings) -> TableSettings:
    """A table as :func:`_table_json` stored it, for a process taking it over."""
    stored = lease.config
    config = TableConfig(
        small_blind=stored["small_blind"], big_blind=stored["big_blind"], seats=stored["seats"],
        ante=stored["ante"], ante_kind=AnteKind(stored["ante_kind"]),
        min_buy_in=stored["min_buy_in"], max_buy_in=stored["max_buy_in"],
        button_rule=ButtonRule(stored["button_rule"]),
    )  # fmt: skip
    return TableSettings(
        table_id=lease.name,
        name=stored["name"],
        config=config,
        reconnect_grace_seconds=server.reconnect_grace_seconds,
        # Tables stored before the clock was: the defaults.
        **{k: stored[k] for k in ("decision_seconds", "time_bank_seconds") if k in stored},
    )


def _table_json(settings: TableSettings) -> dict[str, Any]:
    """A table as stored (``tables.config``): what a process taking it over runs."""
    config = settings.config
    return {
        "name": settings.name,
        "decision_seconds": settings.decision_seconds,
        "time_bank_seconds": settings.time_bank_seconds,
        "small_blind": config.small_blind,
        "big_blind": config.big_blind,
        "seats": config.seats,
        "ante": config.ante,
        "ante_kind": config.ante_kind.value,
        "min_buy_in": config.min_buy_in,
        "max_buy_in": config.max_buy_in,
        "button_rule": config.button_rule.value,
    }
