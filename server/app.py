"""The websocket server: sessions, the lobby, and one task per table under one TaskGroup.

``/ws`` speaks the JSON protocol (docs/protocol.md); ``/healthz`` answers plain HTTP for
load balancers. Everything a client sends is validated before it reaches a table; errors
go to that client only; abuse closes that one connection with a policy close code.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State

from engine import AnteKind, ButtonRule, EngineError, TableConfig
from server import protocol, web
from server.bus import EventBus, LocalBus
from server.export.seat import seen_from
from server.store import HandWriter, Store, StoreError, UnknownHandError
from server.tables import Player, TableError, TableRunner, TableSettings, store_with

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
    """Tables one player may create: a client cannot fill the server with tables."""
    max_tables: int = 1_000
    """Tables players may create in all (guests are free to make: the cap per player is
    not enough)."""
    idle_table_seconds: float = 300.0
    """A table a player created closes after this long with nobody seated or waiting."""


class _Bucket:
    """Token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Session:
    """One websocket connection: who it is, what it watches, and what it is sent."""

    def __init__(self, app: PokerServer, websocket: ServerConnection) -> None:
        self.app = app
        self.websocket = websocket
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

    def send(self, text: str, *, urgent: bool = False) -> None:
        """Queue a message on the connection; see :meth:`send_many`."""
        self.send_many((text,), urgent=urgent)

    def send_many(self, texts: Iterable[str], *, urgent: bool = False) -> None:
        """Queue messages on the connection, in order, without waiting: a table never
        waits for a client. What is queued in one turn of the event loop goes to the
        socket in one write (:meth:`_flush`): a table's events reach its players together,
        and a syscall per message would cost the server a third of its CPU. ``urgent``
        (an action request) writes at once, with what is queued before it."""
        if self.closing or self.websocket.protocol.state is not OPEN:
            return  # the connection is going: its handler cleans up
        was_empty = not self.outgoing
        self.outgoing.extend(map(_frame, texts))
        if urgent:
            self._flush()
        elif was_empty and self.outgoing:
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
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
        self.created: Counter[int] = Counter()  # player id -> tables they created
        self.creators: dict[str, int] = {}  # table a player created -> who
        self.idle_since: dict[str, float] = {}  # such a table, empty since (monotonic)

    # -- tables -----------------------------------------------------------------------------

    async def create_table(self, name: str, config: TableConfig, **clock: float) -> TableRunner:
        """A new table, running in its own task from now on."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30] or "table"
        table_id, n = base, 1
        while table_id in self.tables:
            n += 1
            table_id = f"{base}-{n}"
        settings = TableSettings(
            table_id=table_id,
            name=name,
            config=config,
            reconnect_grace_seconds=self.settings.reconnect_grace_seconds,
            **clock,  # type: ignore[arg-type]
        )
        runner = TableRunner(
            settings, house_think_seconds=self.settings.house_think_seconds, bus=self.bus
        )
        # The id is taken before the database is awaited: another table created meanwhile
        # with the same name gets the next one, not this one.
        self.tables[table_id] = runner
        try:
            db_id = await self.store.ensure_table(table_id, _config_json(config, name))
            # A table the database knows (the server restarted) numbers on from its last
            # stored hand: hand numbers are unique per table.
            runner.number_hands_after(await self.store.last_hand_number(db_id))
        except BaseException:
            del self.tables[table_id]
            raise
        self.db_tables[table_id] = db_id
        assert self._group is not None
        self._group.create_task(self._run_table(runner, db_id), name=f"table {table_id}")
        return runner

    async def add_house_bots(
        self, runner: TableRunner, bots: dict[int, tuple[str, Any]], stack: int
    ) -> None:
        """Seat bots that play inside the server: ``{seat: (name, strategy)}``."""
        ids = await self.store.ensure_players(name for name, _ in bots.values())
        players = {seat: (Player(ids[name], name), bot) for seat, (name, bot) in bots.items()}
        for name, _ in bots.values():
            self.guests[name] = ""  # house bots' names are never anyone else's
        await runner.request("house_sit", None, bots=players, stack=stack)

    async def _run_table(self, runner: TableRunner, db_id: int) -> None:
        try:
            await self._play_table(runner, db_id)
        except Exception:  # one table failing never takes the server down
            log.exception("table %s could not run", runner.settings.table_id)
            runner.halt()

    async def _play_table(self, runner: TableRunner, db_id: int) -> None:
        assert self._writer is not None
        writer = self._writer
        runner.store_hand = store_with(writer, db_id, runner.settings.table_id, self.bus)
        runner.publish_summary()  # in the lobby of whoever follows the bus

        async def record(player_id: int, amount: int, reason: str) -> None:
            await writer.record(player_id, db_id, amount, reason)

        runner.record_ledger = record
        await runner.run()

    # -- connections -----------------------------------------------------------------------

    async def handler(self, websocket: ServerConnection) -> None:
        session = Session(self, websocket)
        self.sessions.add(session)
        bucket = _Bucket(self.settings.messages_per_second, self.settings.burst)
        errors, window = 0, time.monotonic()
        try:
            async for raw in websocket:
                if time.monotonic() - window > 60:  # count bad messages a minute at a time
                    errors, window = 0, time.monotonic()
                if not bucket.take():
                    errors += 1
                    session.send(protocol.error("rate_limited", "too many messages: slow down"))
                else:
                    reply = await self._answer(session, raw)
                    if reply is not None:
                        session.send(reply)
                        errors += reply.startswith('{"type":"error"')
                if errors >= self.settings.errors_before_close:
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
            return protocol.error(exc.code, str(exc), re_)
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
            raise TableError("no_table", f"no table {table_id!r}")
        return runner

    def _player(self, session: Session) -> Player:
        if session.player is None:
            raise TableError(
                "hello_first", "say hello first (a guest name, an account token or a session)"
            )
        return session.player

    async def _dispatch(self, session: Session, m: Any) -> dict[str, Any] | None:
        match m:
            case protocol.Ping():
                return {"type": "pong"}
            case protocol.Hello():
                return await self._hello(session, m)
            case protocol.CreateAccount():
                player_id, token = await self.store.create_account(m.name)
                return {"type": "account", "name": m.name, "token": token, "player_id": player_id}
            case protocol.ListTables():
                return {"type": "tables", "tables": [r.summary() for r in self.tables.values()]}
            case protocol.CreateTable():
                creator = self._player(session)
                if self.created[creator.id] >= self.settings.tables_per_player:
                    raise protocol.ProtocolError(
                        "too_many_tables",
                        f"a player may create {self.settings.tables_per_player} tables",
                    )
                if len(self.creators) >= self.settings.max_tables:
                    raise protocol.ProtocolError(
                        "too_many_tables",
                        f"players have created the most tables this server holds "
                        f"({self.settings.max_tables}): join one",
                    )
                runner = await self.create_table(
                    m.name,
                    TableConfig(
                        small_blind=m.small_blind, big_blind=m.big_blind, seats=m.seats,
                        ante=m.ante, ante_kind=AnteKind(m.ante_kind), min_buy_in=m.min_buy_in,
                        max_buy_in=m.max_buy_in, button_rule=ButtonRule(m.button_rule),
                    ),
                    decision_seconds=m.decision_seconds,
                    time_bank_seconds=m.time_bank_seconds,
                )  # fmt: skip
                self.created[creator.id] += 1
                self.creators[runner.settings.table_id] = creator.id
                self.idle_since[runner.settings.table_id] = time.monotonic()
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
                runner = self._runner(m.table)
                session.tables.add(m.table)
                seated_here = session.player is not None and (
                    runner.seat_of_player(session.player) is not None
                )
                if (m.delay_hands or m.delay_seconds) and not seated_here:
                    session.delays[m.table] = (m.delay_hands, m.delay_seconds)
                    # Hands already over before watching began are history, not delayed.
                    session.hands_ended[m.table] = runner.finished_through
                snapshot = await runner.request("spectate", session)
                if m.table not in session.delays:
                    return snapshot
                # A delayed spectator's snapshot is as late as the rest of what they see.
                reply = {**snapshot, **({"re": m.id} if m.id is not None else {})}
                session.send_table(m.table, runner.table.hand_number, [protocol.dumps(reply)])
                return None
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
        raise protocol.ProtocolError("unknown_type", "unknown message")

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
        """Close, every so often, the tables players created that have had nobody seated or
        waiting for ``idle_table_seconds``: they cost memory, a task and a lobby line."""
        idle = self.settings.idle_table_seconds
        while True:
            await asyncio.sleep(min(30.0, idle / 4))
            now = time.monotonic()
            for table_id in list(self.creators):
                runner = self.tables[table_id]
                if runner.seats or runner.waiting:
                    self.idle_since.pop(table_id, None)
                elif now - self.idle_since.setdefault(table_id, now) >= idle:
                    self.close_table(table_id, "idle")

    def close_table(self, table_id: str, reason: str) -> None:
        """Take a table out of the lobby and stop it; whoever watches it is told."""
        runner = self.tables.pop(table_id)
        self.db_tables.pop(table_id, None)
        self.idle_since.pop(table_id, None)
        creator = self.creators.pop(table_id, None)
        if creator is not None:
            self.created[creator] -= 1
        closed = protocol.dumps({"type": "table_closed", "table": table_id, "reason": reason})
        for session in list(runner.subscribers):
            session.stop_delay(table_id)  # what a delay held back first, then the news
            session.send(closed)
        for session in self.sessions:
            session.tables.discard(table_id)
        runner.close()

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
        async with self.store.writer() as self._writer, asyncio.TaskGroup() as group:
            self._group = group
            server = await serve(
                self.handler,
                self.settings.host,
                self.settings.port,
                process_request=self.process_request,
                compression=None,  # deflate costs more CPU than it saves on small messages
                max_size=self.settings.max_message_bytes,
            )
            sweeper = group.create_task(self.close_idle_tables(), name="idle tables")
            try:
                yield server
            finally:
                sweeper.cancel()
                server.close()
                await server.wait_closed()
                for runner in self.tables.values():
                    runner.close()


def _config_json(config: TableConfig, name: str) -> dict[str, Any]:
    return {
        "name": name,
        "small_blind": config.small_blind,
        "big_blind": config.big_blind,
        "seats": config.seats,
        "ante": config.ante,
        "ante_kind": config.ante_kind.value,
        "min_buy_in": config.min_buy_in,
        "max_buy_in": config.max_buy_in,
        "button_rule": config.button_rule.value,
    }
