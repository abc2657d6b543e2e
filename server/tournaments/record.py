"""Storing a tournament's hands as they are played (the command line and the server),
through the pipeline every finished hand takes (:mod:`server.recording`)."""

from __future__ import annotations

import datetime as dt

from server.bus import EventBus
from server.recording import FinishedHand, HandRecord
from server.store import HandWriter, Store
from server.tournaments.director import HandPlayed

__all__ = ["HandRecorder"]


class HandRecorder:
    """Stores each hand as it is played (tables ``tournament-{id}-{table}``)."""

    def __init__(
        self, store: Store, writer: HandWriter, tournament_id: int, bus: EventBus | None = None
    ) -> None:
        self.store, self.tournament_id = store, tournament_id
        self.record = HandRecord(writer, bus)
        self.tables: dict[str, int] = {}
        self.players: dict[str, int] = {}

    async def __call__(self, played: HandPlayed) -> None:
        name = f"tournament-{self.tournament_id}-{played.table}"
        if name not in self.tables:
            self.tables[name] = await self.store.ensure_table(name, {"name": name})
        missing = [p for p in played.players if p not in self.players]
        if missing:
            self.players.update(await self.store.ensure_players(missing))
        # A tournament's deal seeds name the tournament's seed, which decides every deck:
        # no commitment of its own; its chips are not anyone's balance.
        await self.record(FinishedHand(
            played.hand, name, self.tables[name], [self.players[p] for p in played.players],
            list(played.players), dt.datetime.now(dt.UTC), seed=played.seed, balances=False,
        ))  # fmt: skip
