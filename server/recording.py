"""One pipeline for every finished hand, whatever dealt it (a cash table, a tournament,
the Slumbot-style API): its PHH history with the deck's seed (kept where only
``pokerroom verify`` and the store read it), its rows, the write, and, once committed,
its summary on the bus's ``hands/{id}`` (no hole card: the events topic has the cards
that were shown). A private table's bus is one where nothing goes (server/hosting.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Hand, history
from server import protocol
from server.bus import EventBus
from server.export.phh import SEED_FIELD
from server.store import HandRows, HandWriter, hand_rows

__all__ = ["FinishedHand", "HandRecord", "summary"]


@dataclass(frozen=True)
class FinishedHand:
    """A hand that is over, with what the store needs that the engine does not know."""

    hand: Hand
    table: str
    """The stored table's name (the history's ``table`` field too)."""
    table_id: int
    player_ids: Sequence[int]
    names: Sequence[str]
    """The players', in position order (``hand.seats``)."""
    started_at: dt.datetime
    seed: str
    """The deck's secret seed, hex."""
    commitment: str | None = None
    """The deck's commitment, published before the hand (None: a tournament's decks,
    which its own seed decides)."""
    fields: Mapping[str, str | int] = field(default_factory=dict)
    """More fields for the PHH history (a shuffle's identity and commitment)."""
    history_text: str | None = None
    """The PHH text, when the dealer wrote it already (the API settles hands in a worker
    process); otherwise written here."""
    balances: bool = True
    """Whether the hand's nets are its players' balances (ledger entries): a cash
    table's are; a tournament's chips and the API's, whose stacks reset each hand, not."""


class HandRecord:
    """Stores finished hands through ``writer`` and announces each on ``bus``."""

    def __init__(self, writer: HandWriter, bus: EventBus | None = None) -> None:
        self.writer, self.bus = writer, bus

    async def __call__(self, finished: FinishedHand) -> int:
        """Store ``finished`` (once, whatever the retries: the writer is idempotent) and
        publish its summary; the stored hand's id."""
        rows = _rows(finished)
        hand_id = await self.writer.write(rows)
        if self.bus is not None and self.bus.active:
            text = protocol.dumps(summary(hand_id, finished, rows))
            self.bus.publish(self.bus.topics.hand(hand_id), text.encode())
        return hand_id


def _rows(f: FinishedHand) -> HandRows:
    text = f.history_text
    if text is None:
        written = history.from_hand(f.hand, players=list(f.names))
        written.fields["table"] = f.table
        written.fields[SEED_FIELD] = f.seed
        written.fields.update(f.fields)
        text = history.dump(written)
    rows = hand_rows(
        f.hand, table_id=f.table_id, player_ids=list(f.player_ids), names=list(f.names),
        started_at=f.started_at, ended_at=dt.datetime.now(dt.UTC), history_text=text,
        deck_commitment=f.commitment, seed=f.seed,
    )  # fmt: skip
    if not f.balances:
        rows.ledger.clear()
    return rows


def summary(hand_id: int, f: FinishedHand, rows: HandRows) -> dict[str, Any]:
    """The ``hands/{id}`` message (docs/protocol.md, "MQTT topics")."""
    hand = f.hand
    return {
        "id": hand_id, "table": f.table, "hand_number": hand.setup.hand_number,
        "game": hand.setup.game.key, "started_at": f.started_at.isoformat(),
        "ended_at": rows.hand["ended_at"].isoformat(),
        "pot": rows.hand["pot"], "board": [str(c) for c in hand.board],
        "deck_commitment": f.commitment,
        "players": [
            {"seat": p["seat"], "name": name, "net": p["net"]}
            for p, name in zip(rows.players, f.names, strict=True)
        ],
    }  # fmt: skip
