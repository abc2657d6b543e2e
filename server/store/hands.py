"""Hands: writing finished hands (one at a time through a :class:`HandWriter`, or in
batches), and reading them back as summaries and as histories for the exporters."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Select, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine import EngineError, history
from server.export import HandInfo
from server.store.base import StoreBase, aware
from server.store.errors import StoreError, UnknownHandError
from server.store.models import (
    ACTIONS,
    HAND_PLAYERS,
    HANDS,
    LEDGER,
    Hand,
    HandPlayer,
    Player,
    TableRecord,
)
from server.store.records import HandRows
from server.store.writer import HandWriter

__all__ = ["HandSummary", "Hands", "StoredHand", "insert_hands", "last_stored_number"]

_Select = TypeVar("_Select", bound=Select[*tuple[Any, ...]])


@dataclass(frozen=True)
class HandSummary:
    """A stored hand in brief: a line of ``pokerroom hands list``, an item of the
    protocol's ``hands``."""

    id: int
    table: str
    hand_number: int
    started_at: dt.datetime
    pot: int
    board: str
    scale: int
    currency: str | None
    players: tuple[tuple[str, int], ...]
    """(name, net) for each player, in position order."""
    engine_seats: tuple[int, ...]
    """Each player's seat at the table as the engine and the protocol number them (from 0),
    in position order."""
    game: str = "nlhe"
    """The game's key (``nlhe``, ``plo8``, ``stud``)."""


@dataclass(frozen=True)
class StoredHand:
    """A stored hand: its history and context for the exporters (with the table's seats,
    button and small blind, which PHH does not record), and what else its row in
    ``hands`` keeps."""

    info: HandInfo
    hand_number: int
    big_blind: int
    ante: int


class Hands(StoreBase):
    """The ``hands`` table and its children (``hand_players``, ``actions``, a hand's
    ledger entries): :class:`server.store.Store`'s queries about hands."""

    # -- writing -----------------------------------------------------------------------

    async def write_hand(self, rows: HandRows) -> int:
        """Write one finished hand, its players, actions and ledger entries in one
        transaction; returns its id. A server writing many tables' hands should hold a
        :meth:`writer` instead."""
        async with self.writer() as writer:
            return await writer.write(rows)

    @contextlib.asynccontextmanager
    async def writer(
        self, *, retry_seconds: float | None = 30.0, holder: str | None = None
    ) -> AsyncIterator[HandWriter]:
        """A :class:`HandWriter` with its own connection; everything it was given is
        committed when the block ends. A database that goes away is waited for
        ``retry_seconds`` (None: until it is back), then the writes fail. With
        ``holder``, no row of a table is written while another process holds its lease
        (:meth:`take_table`)."""
        writer = HandWriter(self, retry_seconds, holder)
        try:
            yield writer
        finally:
            await writer.aclose()

    async def write_hands(self, batch: Sequence[HandRows]) -> list[int]:
        """Write several hands in one transaction (all or none); returns their ids."""
        async with self.engine.begin() as conn:
            return await conn.run_sync(insert_hands, batch)

    # -- reading -----------------------------------------------------------------------

    async def last_hand_number(self, table_id: int) -> int:
        """The highest hand number stored for a table (0 if none): a table that plays on
        after a restart numbers its hands from the next one."""
        async with self.engine.connect() as conn:
            return await last_stored_number(conn, table_id)

    async def hand_histories(self, ids: Sequence[int]) -> dict[int, str]:
        """Hand id -> its stored PHH text, for the ids stored, in one query
        (:meth:`stored_hand` reads one hand at a time)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(Hand.id, Hand.history).where(Hand.id.in_(ids)))
            return {int(id_): str(text) for id_, text in rows.all()}

    async def list_hands(
        self,
        *,
        player: str | Sequence[str] | None = None,
        table: str | None = None,
        since: dt.datetime | None = None,
        before: int | None = None,
        imported: bool | None = None,
        game: str | None = None,
        limit: int = 20,
    ) -> list[HandSummary]:
        """The latest hands, newest first: optionally only one player's (or those any of
        several names played), one table's, those started ``since``, those with an id
        below ``before`` (the next page), only hands imported (``imported=True``) or only
        hands played here (``False``), and only one ``game``'s (its key, e.g. ``plo8``)."""
        statement = (
            select(Hand.id, TableRecord.name, Hand.hand_number, Hand.started_at, Hand.pot,
                   Hand.board, Hand.scale, Hand.currency, Hand.game)
            .join(TableRecord, Hand.table_id == TableRecord.id)
            .order_by(Hand.id.desc())
            .limit(limit)
        )  # fmt: skip
        statement = _narrowed(
            statement, player=player, table=table, since=since, before=before,
            imported=imported, game=game,
        )  # fmt: skip
        async with self.engine.connect() as conn:
            hands = (await conn.execute(statement)).all()
            ids = [h.id for h in hands]
            rows = await conn.execute(
                select(HandPlayer.hand_id, Player.name, HandPlayer.net, HandPlayer.seat)
                .join(Player)
                .where(HandPlayer.hand_id.in_(ids))
                .order_by(HandPlayer.hand_id, HandPlayer.position)
            )
            players: dict[int, list[tuple[str, int, int]]] = {}
            for hand_id, name, net, seat in rows:
                players.setdefault(hand_id, []).append((name, net, seat))
        return [
            HandSummary(h.id, h.name, h.hand_number, aware(h.started_at), h.pot, h.board,
                        h.scale, h.currency,
                        tuple((name, net) for name, net, _ in players.get(h.id, ())),
                        tuple(seat for _, _, seat in players.get(h.id, ())), h.game)
            for h in hands
        ]  # fmt: skip

    async def hand_ids(self) -> list[int]:
        """Every stored hand's id, oldest first."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(Hand.id).order_by(Hand.id))).scalars())

    async def count_hands(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(Hand))).scalar_one())

    async def hand_info(self, hand_id: int) -> HandInfo:
        """A stored hand with what the exporters need; :class:`StoreError` if unknown."""
        return (await self.hand_infos([hand_id]))[0]

    async def hand_infos(
        self, ids: Sequence[int], advance: Callable[[int], object] | None = None
    ) -> list[HandInfo]:
        """Stored hands with what the exporters need, in the order of ``ids``, read
        :data:`INFO_PAGE` at a time (a query a hand took 9 ms a hand on SQLite, most of
        it the queries), calling ``advance(count)`` after each page (a progress bar);
        :class:`UnknownHandError` naming the first one unknown."""
        infos: list[HandInfo] = []
        for start in range(0, len(ids), INFO_PAGE):
            page = list(ids[start : start + INFO_PAGE])
            async with self.engine.connect() as conn:
                stored = await _stored(conn, _STORED.where(Hand.id.in_(page)))
            for hand_id in page:
                if hand_id not in stored:
                    raise UnknownHandError(f"no hand with id {hand_id}")
                infos.append(stored[hand_id].info)
            if advance is not None:
                advance(len(page))
        return infos

    async def stored_hand(
        self,
        hand_id: int,
        *,
        player: str | None = None,
        since: dt.datetime | None = None,
        imported: bool | None = None,
    ) -> StoredHand:
        """A stored hand; :class:`UnknownHandError` if unknown, or if it is not one that
        :meth:`list_hands` would list with the same ``player``, ``since`` and ``imported``."""
        statement = _STORED.where(Hand.id == hand_id)
        statement = _narrowed(statement, player=player, since=since, imported=imported)
        async with self.engine.connect() as conn:
            stored = await _stored(conn, statement)
        if hand_id not in stored:
            raise UnknownHandError(f"no hand with id {hand_id}")
        return stored[hand_id]


INFO_PAGE = 500
"""Hands :meth:`Hands.hand_infos` reads per query."""

_STORED = (
    select(Hand.id, Hand.history, Hand.started_at, Hand.currency, Hand.hand_number,
           Hand.button_seat, Hand.small_blind, Hand.big_blind, Hand.ante,
           TableRecord.name, TableRecord.config)
    .join(TableRecord, Hand.table_id == TableRecord.id)
)  # fmt: skip
"""What a stored hand is read from (narrowed to the hands wanted)."""


async def _stored(
    conn: AsyncConnection, statement: Select[*tuple[Any, ...]]
) -> dict[int, StoredHand]:
    """The hands ``statement`` (:data:`_STORED`, narrowed) selects, with their players,
    by id."""
    rows = (await conn.execute(statement)).all()
    if not rows:
        return {}
    players: dict[int, list[tuple[str, int]]] = {}
    listed = await conn.execute(
        select(HandPlayer.hand_id, Player.name, HandPlayer.seat)
        .join(Player)
        .where(HandPlayer.hand_id.in_([row.id for row in rows]))
        .order_by(HandPlayer.hand_id, HandPlayer.position)
    )
    for hand_id, name, seat in listed:
        players.setdefault(hand_id, []).append((name, seat))
    stored: dict[int, StoredHand] = {}
    for row in rows:
        try:
            hh = history.load(row.history)
        except EngineError as exc:  # stored by us, so this is a bug or a broken database
            raise StoreError(f"hand {row.id} has an unreadable history: {exc}") from exc
        seated = players.get(row.id, [])
        info = HandInfo(
            hand_id=row.id,
            table_name=row.name,
            started_at=aware(row.started_at),
            players=tuple(name for name, _ in seated),
            seats=tuple(seat + 1 for _, seat in seated),
            history=hh,
            currency=row.currency,
            max_seats=int(row.config.get("seats", 6)),
            button=row.button_seat + 1,
            small_blind=row.small_blind,
        )
        stored[row.id] = StoredHand(info, row.hand_number, row.big_blind, row.ante)
    return stored


async def last_stored_number(conn: AsyncConnection, table_id: int) -> int:
    """The highest hand number stored for a table, 0 if none (in the caller's connection)."""
    top = await conn.execute(select(func.max(Hand.hand_number)).where(Hand.table_id == table_id))
    return int(top.scalar() or 0)


def _narrowed(
    statement: _Select,
    *,
    player: str | Sequence[str] | None = None,
    table: str | None = None,
    since: dt.datetime | None = None,
    before: int | None = None,
    imported: bool | None = None,
    game: str | None = None,
) -> _Select:
    """A select from ``hands`` joined with ``tables``, narrowed to the hands asked for:
    the one place :meth:`Store.list_hands` and :meth:`Store.stored_hand` filter."""
    if player is not None:
        names = [player] if isinstance(player, str) else list(player)
        mine = select(HandPlayer.hand_id).join(Player).where(Player.name.in_(names))
        statement = statement.where(Hand.id.in_(mine))
    if table is not None:
        statement = statement.where(TableRecord.name == table)
    if since is not None:
        statement = statement.where(Hand.started_at >= since)
    if before is not None:
        statement = statement.where(Hand.id < before)
    if imported is not None:
        statement = statement.where(TableRecord.imported == imported)
    if game is not None:
        statement = statement.where(Hand.game == game)
    return statement


def insert_hands(conn: Connection, batch: Sequence[HandRows]) -> list[int]:
    """Insert hands and their child rows (in the caller's transaction); their ids."""
    if len(batch) == 1:
        ids = [conn.execute(insert(HANDS).returning(HANDS.c.id), batch[0].hand).scalar_one()]
    else:
        statement = insert(HANDS).returning(HANDS.c.id, sort_by_parameter_order=True)
        ids = list(conn.execute(statement, [rows.hand for rows in batch]).scalars())
    players, actions, ledger = [], [], []
    for hand_id, rows in zip(ids, batch, strict=True):
        for row in rows.players:
            row["hand_id"] = hand_id
        for row in rows.actions:
            row["hand_id"] = hand_id
        for row in rows.ledger:
            row["hand_id"] = hand_id
        players += rows.players
        actions += rows.actions
        ledger += rows.ledger
    conn.execute(insert(HAND_PLAYERS), players)
    if actions:
        conn.execute(insert(ACTIONS), actions)
    if ledger:
        conn.execute(insert(LEDGER), ledger)
    return ids
