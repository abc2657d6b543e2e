"""The tournaments a server runs for bots that register over the websocket.

Each plays in its own task (:class:`server.tournaments.host.TournamentHost`); this
module creates them within the caps, finds them by id, and stops them with the server.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from server import protocol
from server.bus import EventBus
from server.connections import Session
from server.errors import Code
from server.settings import ServerSettings
from server.store import HandWriter, Store
from server.tables import Player, TableError
from server.tournaments.director import (
    Format,
    TournamentConfig,
    check_field,
    config_json,
)
from server.tournaments.host import TournamentHost
from server.tournaments.structures import BLIND_STRUCTURES, PAYOUTS, Level

RING_BIG_BLIND = 100  # a tournament's ring matches on the server: 50/100
TOURNAMENT_TABLE = re.compile(r"^t\d{1,18}-")  # a tournament's tables: t{id}-{table}


class Tournaments:
    """This process's tournaments, by id."""

    def __init__(self, store: Store, settings: ServerSettings, bus: EventBus) -> None:
        self.store, self.settings, self.bus = store, settings, bus
        self.hosts: dict[int, TournamentHost] = {}
        self.group: asyncio.TaskGroup | None = None  # set while the server runs
        self.writer: HandWriter | None = None

    def get(self, tournament_id: int) -> TournamentHost:
        host = self.hosts.get(tournament_id)
        if host is None:
            raise TableError(Code.NO_TOURNAMENT, f"no tournament {tournament_id}")
        return host

    def table_of(self, table_id: str) -> TournamentHost | None:
        """The tournament whose table ``table_id`` is (``t{id}-{table}``), if any."""
        if not TOURNAMENT_TABLE.match(table_id):
            return None
        return self.get(int(table_id[1:].split("-", 1)[0]))

    def summaries(self) -> list[dict[str, Any]]:
        return [h.summary() for h in self.hosts.values()]

    def disconnected(self, session: Session) -> None:
        for host in self.hosts.values():
            host.disconnected(session)

    def stop(self) -> None:
        """Stop the unfinished ones: the server is stopping."""
        for host in self.hosts.values():
            if host.task is not None:
                host.task.cancel()

    async def create(self, creator: Player, m: protocol.CreateTournament) -> TournamentHost:
        """A tournament for bots to register for; it plays in its own task."""
        mine = [
            h for h in self.hosts.values()
            if h.creator == creator.id and h.state in ("registering", "running")
        ]  # fmt: skip
        if len(mine) >= self.settings.tables_per_player:
            raise protocol.ProtocolError(
                Code.TOO_MANY_TABLES,
                f"a player may have {self.settings.tables_per_player} tournaments going",
            )
        fmt = Format(m.format)
        ring = fmt in (Format.RING, Format.ROUND_ROBIN)
        config = TournamentConfig(
            format=fmt, seed=m.seed or secrets.token_hex(8),
            starting_stack=m.stack or (100 * RING_BIG_BLIND if ring else 1_500),
            blinds=BLIND_STRUCTURES[m.blinds], stakes=Level(RING_BIG_BLIND // 2, RING_BIG_BLIND),
            buy_in=m.buy_in, payouts=PAYOUTS[m.payouts], seats=m.seats, hands=m.hands,
            duplicate=m.duplicate, game=m.game, mix=m.mix,
        )  # fmt: skip
        check_field(config, m.field)  # what the director would refuse when it starts, now
        settings = config_json(config)
        tournament_id = await self.store.create_tournament(str(fmt), config.seed, settings)
        host = TournamentHost(
            id=tournament_id, name=m.name, config=config, settings=settings,
            creator=creator.id, field_size=m.field, start_seconds=m.start_seconds,
            decision_seconds=m.decision_seconds, store=self.store, bus=self.bus,
        )  # fmt: skip
        self.hosts[tournament_id] = host
        assert self.group is not None and self.writer is not None
        host.task = self.group.create_task(
            host.run(self.writer), name=f"tournament {tournament_id}"
        )
        return host
