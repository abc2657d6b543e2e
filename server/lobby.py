"""The lobby: every process's tables, and watching a table another process hosts.

Each process publishes its tables' lobby lines on the bus (retained); this one keeps the
others' lines and lists them only while the database says their leases live, so stale
lines a dead process left on the broker are never listed.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from server import protocol
from server.bus import EventBus
from server.connections import Session
from server.hosting import Hosting
from server.remote import RemoteTable, run_followed
from server.tables import Caller

log = logging.getLogger("pokerroom")


class Lobby:
    """The tables a client can see, here and elsewhere, and the spectators of both."""

    def __init__(self, hosting: Hosting, bus: EventBus) -> None:
        self.hosting, self.bus = hosting, bus
        self.elsewhere: dict[str, dict[str, Any]] = {}  # table id -> lobby line
        self.followed: dict[str, RemoteTable] = {}  # tables elsewhere watched from here

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
                if (
                    table_id not in self.hosting.tables
                    and summary.get("address") != self.hosting.address
                ):
                    self.elsewhere[table_id] = summary

    def lines(self) -> list[dict[str, Any]]:
        """Every table: this process's, then those other processes host (their lobby
        lines from the bus, with the address their lease gives)."""
        there = [
            {**summary, "address": self.hosting.hosts[table_id]}
            for table_id, summary in self.elsewhere.items()
            if table_id in self.hosting.hosts and table_id not in self.hosting.tables
        ]
        # A private table is nobody's business but its invitees' (docs/home-games.md).
        here = [r.summary() for r in self.hosting.tables.values() if not r.core.host.private]
        return here + there

    def is_elsewhere(self, table_id: str) -> bool:
        return table_id not in self.hosting.tables and table_id in self.hosting.hosts

    async def spectate(self, session: Session, m: protocol.Spectate) -> dict[str, Any] | None:
        """Watch a table, here or (through the bus) in another process, live or with a
        delay: a delayed spectator's snapshot is as late as the rest of what they see."""
        delayed = bool(m.delay_hands or m.delay_seconds)
        if self.is_elsewhere(m.table):
            if m.table not in self.elsewhere:  # private (not on the bus's lobby): go there
                raise self.hosting.hosted_elsewhere(m.table)
            session.tables.add(m.table)
            snapshot = await self._spectate_elsewhere(session, m.table)
            if delayed:  # nothing was awaited since the snapshot: no event is ahead of it
                session.delays[m.table] = (m.delay_hands, m.delay_seconds)
                session.hands_ended[m.table] = RemoteTable.finished_through(snapshot)
        else:
            runner = self.hosting.runner(m.table)
            session.tables.add(m.table)
            seated_here = session.player is not None and (
                runner.core.seats.of_player(session.player) is not None
            )
            if delayed and not seated_here:
                session.delays[m.table] = (m.delay_hands, m.delay_seconds)
                # Hands already over before watching began are history, not delayed.
                session.hands_ended[m.table] = runner.finished_through
            # Who may watch a private table is the table's to say (its invite).
            caller = Caller(session, session.player, session.address)
            snapshot = await runner.submit(m, caller)
        if m.table not in session.delays:
            return snapshot
        reply = {**snapshot, **({"re": m.id} if m.id is not None else {})}
        session.send_table(m.table, snapshot["view"]["hand_number"], [protocol.dumps(reply)])
        return None

    async def _spectate_elsewhere(self, session: Session, table_id: str) -> dict[str, Any]:
        """Watch, through the bus, a table another process hosts."""
        remote = self.followed.get(table_id)
        if remote is None:
            remote = self.followed[table_id] = RemoteTable(
                table_id, self.bus, host=lambda: self._host_of(table_id)
            )
            assert self.hosting.group is not None
            remote.task = self.hosting.group.create_task(
                run_followed(remote), name=f"following {table_id}"
            )
            remote.task.add_done_callback(lambda _: self._unfollow(table_id, remote))
        return await remote.watch(session)

    def _host_of(self, table_id: str) -> str | None:
        """Where a table is hosted, by the leases: this process, another, or nowhere."""
        if table_id in self.hosting.tables:
            return self.hosting.address
        return self.hosting.hosts.get(table_id)

    def unwatch(self, session: Session, table_id: str) -> None:
        remote = self.followed.get(table_id)
        if remote is not None:
            remote.watchers.discard(session)
            if not remote.watchers and remote.task is not None:
                remote.task.cancel()

    def _unfollow(self, table_id: str, remote: RemoteTable) -> None:
        if self.followed.get(table_id) is remote:
            del self.followed[table_id]

    def stop(self) -> None:
        """Stop following tables elsewhere: the server is stopping."""
        for remote in self.followed.values():
            if remote.task is not None:
                remote.task.cancel()
