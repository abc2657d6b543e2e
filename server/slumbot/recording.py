"""Storing the API's hands like any other, through the pipeline every finished hand
takes (:mod:`server.recording`): a table per session (``api-<id>``), the client's and the
house bot's names, the deck's seed and commitment, so that ``pokerroom hands``, the
exports, ``pokerroom verify`` and the bus's ``hands/{id}`` have them."""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets

from engine import Hand
from server.bus import EventBus
from server.fairness import Shuffle
from server.recording import FinishedHand, HandRecord
from server.store import HandWriter, Store, StoreError
from server.tables import Player

__all__ = ["Recorder"]


def player_name(strategy: str) -> str:
    """The name the API's house bot of ``strategy`` plays under."""
    return f"house-{strategy}"


class Recorder:
    """Writes finished API hands through the server's hand writer."""

    def __init__(self, store: Store, writer: HandWriter, bus: EventBus | None = None) -> None:
        self.store, self.record = store, HandRecord(writer, bus)
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
        # The API's chips are no one's balance: its stacks reset every hand.
        return await self.record(FinishedHand(
            hand, table, self._tables[table], [p.id for p in players],
            [p.name for p in players], started, seed=shuffle.seed.hex(),
            commitment=shuffle.commitment, history_text=history_text, balances=False,
        ))  # fmt: skip

    def forget(self, table: str) -> None:
        """A session's table is done with (the session expired)."""
        self._tables.pop(table, None)
