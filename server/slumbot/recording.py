"""Storing the API's hands like any other: a table per session (``api-<id>``), the
client's and the house bot's names, the deck's seed and commitment, so that
``pokerroom hands``, the exports and ``pokerroom verify`` work on them."""

from __future__ import annotations

import datetime as dt

from engine import Hand, history
from server.fairness import Shuffle
from server.store import HandWriter, Store, hand_rows
from server.tables import Player

__all__ = ["Recorder"]


def player_name(strategy: str) -> str:
    """The name the API's house bot of ``strategy`` plays under."""
    return f"house-{strategy}"


class Recorder:
    """Writes finished API hands through the server's hand writer."""

    def __init__(self, store: Store, writer: HandWriter) -> None:
        self.store, self.writer = store, writer
        self._tables: dict[str, int] = {}

    async def bot(self, strategy: str) -> Player:
        """The stored player a house bot's hands go under, ``house-<strategy>`` (created on
        first use): not the strategy's own name, which `pokerroom bot run` gives bots."""
        name = player_name(strategy)
        ids = await self.store.ensure_players([name])
        return Player(ids[name], name)

    async def write(
        self, table: str, hand: Hand, players: tuple[Player, ...], shuffle: Shuffle,
        started: dt.datetime,
    ) -> int:  # fmt: skip
        """Store the finished ``hand`` (``players`` in position order); its id."""
        if table not in self._tables:
            self._tables[table] = await self.store.ensure_table(table, {"name": table})
        names = [p.name for p in players]
        written = history.from_hand(hand, players=names)
        written.fields["table"] = table
        written.fields.update(shuffle.phh_fields())  # seed and commitment: pokerroom verify
        rows = hand_rows(
            hand, table_id=self._tables[table], player_ids=[p.id for p in players], names=names,
            started_at=started, ended_at=dt.datetime.now(dt.UTC),
            history_text=history.dump(written), deck_commitment=shuffle.commitment,
            seed=shuffle.seed.hex(),
        )  # fmt: skip
        rows.ledger.clear()  # the API's chips are no one's balance: stacks reset every hand
        return await self.writer.write(rows)

    def forget(self, table: str) -> None:
        """A session's table is done with (the session expired)."""
        self._tables.pop(table, None)
