"""Storing a tournament's hands as they are played (the command line and the server)."""

from __future__ import annotations

import datetime as dt

from engine import history
from server.export.phh import SEED_FIELD
from server.store import HandWriter, Store, hand_rows
from server.tournaments.director import HandPlayed

__all__ = ["HandRecorder"]


class HandRecorder:
    """Stores each hand as it is played (tables ``tournament-{id}-{table}``)."""

    def __init__(self, store: Store, writer: HandWriter, tournament_id: int) -> None:
        self.store, self.writer, self.tournament_id = store, writer, tournament_id
        self.tables: dict[str, int] = {}
        self.players: dict[str, int] = {}

    async def __call__(self, played: HandPlayed) -> None:
        name = f"tournament-{self.tournament_id}-{played.table}"
        if name not in self.tables:
            self.tables[name] = await self.store.ensure_table(name, {"name": name})
        missing = [p for p in played.players if p not in self.players]
        if missing:
            self.players.update(await self.store.ensure_players(missing))
        written = history.from_hand(played.hand, players=list(played.players))
        written.fields["table"] = name
        # Where a live hand keeps its seed: the server never shows it to a player (a
        # tournament's deal seeds name the tournament's seed, which decides every deck).
        written.fields[SEED_FIELD] = played.seed
        now = dt.datetime.now(dt.UTC)
        rows = hand_rows(
            played.hand, table_id=self.tables[name], names=list(played.players),
            player_ids=[self.players[p] for p in played.players], started_at=now, ended_at=now,
            history_text=history.dump(written), seed=played.seed,
        )  # fmt: skip
        rows.ledger.clear()  # tournament chips are not anyone's balance
        await self.writer.write(rows)
