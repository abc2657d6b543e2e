"""Storing a table's finished hands: :func:`store_with` records a hand, with its seed,
through the one pipeline every finished hand takes (:mod:`server.recording`). The runner
stores each hand before the next is dealt (:meth:`TableRunner._store`)."""

from __future__ import annotations

import datetime as dt

from engine import Table
from server.bus import EventBus
from server.fairness import Shuffle
from server.recording import FinishedHand, HandRecord
from server.store import HandWriter
from server.tables.base import HandStore, Player


def store_with(
    writer: HandWriter, table_id: int, table_name: str, bus: EventBus | None = None
) -> HandStore:
    """A :data:`HandStore` recording finished hands, with their seeds, through ``writer``
    and announcing them on ``bus`` (:mod:`server.recording`)."""
    record = HandRecord(writer, bus)

    async def store(
        table: Table, players: dict[int, Player], started: dt.datetime, shuffle: Shuffle
    ) -> None:
        hand = table.hand
        assert hand is not None
        who = [players[s] for s in hand.seats]
        await record(FinishedHand(
            hand, table_name, table_id, [p.id for p in who], [p.name for p in who], started,
            seed=shuffle.seed.hex(), commitment=shuffle.commitment, fields=shuffle.phh_fields(),
        ))  # fmt: skip

    return store
