"""Storing the API's hands like any other: a table per session (``api-<id>``), the
client's and the house bot's names, the deck's seed and commitment, so that
``pokerroom hands``, the exports and ``pokerroom verify`` work on them."""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets

from engine import Hand
from server.fairness import Shuffle
from server.store import HandWriter, Store, StoreError, hand_rows
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
        self._bots: dict[str, Player] = {}  # house players are never pruned: kept here

    async def bot(self, strategy: str) -> Player:
        """The stored player a house bot's hands go under, ``house-<strategy>`` (created on
        first use): not the strategy's own name, which `pokerroom bot run` gives bots."""
        if strategy not in self._bots:
            name = player_name(strategy)
            ids = await self.store.ensure_players([name])
            self._bots[strategy] = Player(ids[name], name)
        return self._bots[strategy]

    async def guest(self) -> Player:
        """A new guest, ``api-guest-<id>``, stored: made when a session's first hand is
        stored, so a session that stores nothing leaves no player behind."""
        for _ in range(3):  # a name an account took is tried again, with another id
            with contextlib.suppress(StoreError):
                name = f"api-guest-{secrets.token_hex(4)}"
                return Player(await self.store.guest(name), name)
        raise StoreError("no guest name is free")

    async def write(
        self, table: str, hand: Hand, players: tuple[Player, ...], shuffle: Shuffle,
        started: dt.datetime, *, history_text: str,
    ) -> int:  # fmt: skip
        """Store the finished ``hand`` (``players`` in position order; its PHH text from
        :func:`server.slumbot.play.settle`); its id."""
        if table not in self._tables:
            self._tables[table] = await self.store.ensure_table(table, {"name": table})
        rows = hand_rows(
            hand, table_id=self._tables[table], player_ids=[p.id for p in players],
            names=[p.name for p in players], started_at=started,
            ended_at=dt.datetime.now(dt.UTC), history_text=history_text,
            deck_commitment=shuffle.commitment, seed=shuffle.seed.hex(),
        )  # fmt: skip
        rows.ledger.clear()  # the API's chips are no one's balance: stacks reset every hand
        return await self.writer.write(rows)

    def forget(self, table: str) -> None:
        """A session's table is done with (the session expired)."""
        self._tables.pop(table, None)
