"""The composition root: one server process built from its rooms, and its lifetime.

``/ws`` speaks the JSON protocol (docs/protocol.md); ``/healthz`` answers plain HTTP for
load balancers. Each job has its own module (docs/architecture.md):
:mod:`server.connections` reads and writes one connection, :mod:`server.routing` says
what each message does, :mod:`server.players` who is who, :mod:`server.hosting` runs the
tables and their leases, :mod:`server.lobby` lists every process's tables,
:mod:`server.tournaments.registry` the tournaments, :mod:`server.http` the plain HTTP;
:mod:`server.slumbot` serves the Slumbot-style HTTP API on a port of its own (the
websockets library reads no request bodies), sharing the store's writer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from websockets.asyncio.server import Server, ServerConnection, serve

from server import routing
from server.bots import STRATEGIES
from server.bus import EventBus, LocalBus
from server.connections import Session, client_address, read_messages
from server.errors import Code
from server.hosting import Hosting
from server.housekeeping import keep_house
from server.http import process_request
from server.lobby import Lobby
from server.players import Players
from server.settings import ServerSettings
from server.slumbot import ApiLimits, SlumbotApi
from server.slumbot.recording import player_name
from server.stats.service import Limits, StatsService
from server.stats.worker import Records
from server.store import HandWriter, Store
from server.tournaments.registry import Tournaments

__all__ = ["ListenError", "PokerServer", "ServerSettings"]


class ListenError(Exception):
    """The server cannot listen where it was told to (the message says why)."""


@dataclass
class PokerServer:
    """One server process: a store, a bus, and its rooms."""

    store: Store
    settings: ServerSettings = field(default_factory=ServerSettings)
    bus: EventBus = field(default_factory=LocalBus)
    """Where tables publish their public events, lobby summaries and finished hands."""

    def __post_init__(self) -> None:
        self.sessions: set[Session] = set()
        self.players = Players(self.store, self.settings)
        self.hosting = Hosting(self.store, self.settings, self.bus, self.players, self.sessions)
        self.lobby = Lobby(self.hosting, self.bus)
        self.tournaments = Tournaments(self.store, self.settings, self.bus)
        self.records = Records(self.store)  # a worker process reads the hands for these
        self.stats = StatsService(self.records)
        self.exports = Limits(
            per_minute=10, at_once=1, in_all=4, what="export", code=Code.TOO_MANY_EXPORTS
        )
        settings = self.settings
        self._proxies = frozenset(
            ip.strip() for ip in self.settings.forwarded_allow_ips.split(",") if ip.strip()
        )
        limits = ApiLimits(
            sessions=settings.api_sessions, per_address=settings.api_sessions_per_address,
            idle_seconds=settings.api_idle_seconds, body_bytes=settings.api_body_bytes,
            proxies=self._proxies, unused_seconds=settings.api_unused_seconds,
            requests_per_second=settings.api_requests_per_second, burst=settings.api_burst,
            requests_per_second_in_all=settings.api_requests_per_second_in_all,
            session_requests_per_second=settings.api_session_requests_per_second,
            session_burst=settings.api_session_burst, connections=settings.api_connections,
            connections_per_address=settings.api_connections_per_address,
            request_seconds=settings.api_request_seconds,
            keepalive_seconds=settings.api_keepalive_seconds,
            worker_share=settings.api_worker_share,
        )  # fmt: skip
        self.api = SlumbotApi(self.store, opponent=settings.api_bot, limits=limits, bus=self.bus)
        self.api_address: str | None = None
        """The Slumbot-style API's base URL (``http://host:port``) while it serves."""

    async def handler(self, websocket: ServerConnection) -> None:
        """One connection, from its first message to its last."""
        session = Session(self.settings, websocket, client_address(websocket, self._proxies))
        self.sessions.add(session)
        try:
            await read_messages(session, lambda s, raw: routing.answer(self, s, raw))
        finally:
            self.sessions.discard(session)
            await routing.left(self, session)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Server]:
        """Serve until the block ends, then close the connections and stop the tables."""
        hosting = self.hosting
        # The writer outlives the tables: the last hands they play are committed. A
        # database that goes away is waited for as long as it takes (tables pause).
        async with (
            self.store.writer(holder=hosting.holder, retry_seconds=None) as writer,
            asyncio.TaskGroup() as group,
            contextlib.AsyncExitStack() as api,
        ):
            hosting.group = self.tournaments.group = group
            hosting.writer = self.tournaments.writer = writer
            server = await self._listen()
            port = next(iter(server.sockets)).getsockname()[1]
            hosting.address = self.settings.advertise or f"ws://{self.settings.host}:{port}/ws"
            if self.settings.api:  # stopped before the writer: its last hands are committed
                try:
                    await self._serve_api(api, writer)
                except ListenError:
                    server.close()
                    await server.wait_closed()
                    raise
            if self.settings.demo:  # before the lease task looks for tables to take over
                await hosting.host_demos()
            leases = group.create_task(hosting.keep_leases(), name="table leases")
            chores = [
                group.create_task(hosting.close_idle_tables(), name="idle tables"),
                group.create_task(
                    keep_house(self.store, self.settings, self.players_in_use),
                    name="housekeeping",
                ),
            ]
            if self.bus.shared:
                chores.append(group.create_task(self.lobby.follow_lobby(), name="lobby"))
            try:
                yield server
            finally:
                for chore in chores:
                    chore.cancel()
                hosting.stopping.set()  # its round finishes; one stuck is cancelled after 5 s
                writer.stop_retrying(5.0)  # a database still away: the next start settles
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(leases, 5.0)
                self.lobby.stop()
                self.tournaments.stop()
                server.close()
                await server.wait_closed()
                for runner in hosting.tables.values():
                    runner.close()

    def players_in_use(self) -> set[int]:
        """The players this process holds: with a session (connected, or seated and
        free to come back), seated, waiting, asking for a seat, hosting, registered, or
        playing the API (housekeeping keeps them)."""
        held = {player.id for player, _ in self.players.identities.values()}
        for runner in self.hosting.tables.values():
            core = runner.core
            held |= {seat.player.id for seat in core.seats.occupants.values()}
            held |= {player.id for player, _, _ in core.seats.waiting} | set(core.host.requests)
            if core.host.host is not None:
                held.add(core.host.host)
        for tournament in self.tournaments.hosts.values():
            held |= set(tournament.registered)
        if self.api.sessions is not None:
            held |= {s.player.id for s in self.api.sessions.by_token.values() if s.player}
        return held

    async def _serve_api(self, stack: contextlib.AsyncExitStack, writer: HandWriter) -> None:
        """Serve the Slumbot-style API until ``stack`` closes (:class:`ListenError`)."""
        host, port = self.settings.host, self.settings.api_listen_port
        try:
            port = await stack.enter_async_context(self.api.running(writer, host, port))
        except OSError as exc:
            raise ListenError(f"cannot listen on {host}:{port} (the API): {_reason(exc)}") from None
        self.api_address = f"http://{host}:{port}"
        for strategy in STRATEGIES:  # the API's house bots' names: no guest's, no account's
            self.players.reserve(player_name(strategy))

    async def _listen(self) -> Server:
        host, port = self.settings.host, self.settings.port
        try:
            return await serve(
                self.handler,
                host,
                port,
                process_request=process_request,
                compression=None,  # deflate costs more CPU than it saves on small messages
                max_size=self.settings.max_message_bytes,
                # Above what a client may have waiting (Session.flush closes it past
                # outbox_bytes): websockets' own writes (a keepalive ping timing out, a
                # close) never wait for a client that does not read to drain its buffer.
                write_limit=8 * self.settings.outbox_bytes,
            )
        except OSError as exc:  # a port in use, an address not ours: one line, no trace
            raise ListenError(f"cannot listen on {host}:{port}: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    """Why listening failed, in a few words."""
    if "address already in use" in str(exc).lower():
        return "address already in use (another server is running there?)"
    return exc.strerror or str(exc)
