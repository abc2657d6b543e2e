"""The store's tables, as typed SQLAlchemy 2.x models.

A hand is stored twice over, on purpose: ``hands.history`` is the PHH text, enough to
replay the hand exactly (the event log is the hand history); ``hand_players`` and
``actions`` are the same facts normalized for queries. Chips are ``BigInteger``.
Migrations in ``migrations/`` create exactly this schema (a test checks they agree).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "ACTIONS",
    "HANDS",
    "HAND_PLAYERS",
    "HOST_ACTIONS",
    "LEASES",
    "LEDGER",
    "PLAYERS",
    "VOIDS",
    "Action",
    "Base",
    "Deployment",
    "Hand",
    "HandPlayer",
    "HandVoid",
    "HostAction",
    "LedgerEntry",
    "Player",
    "TableLease",
    "TableRecord",
    "TournamentRecord",
]

# Constraint names that are the same on every database, so migrations can name them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only autoincrements INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit id.
Id = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """Someone who plays: a name, and a hash of their access token (never the token)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str | None] = mapped_column(String(128), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    """A guest's: their last ``hello``, or the last time a server held them (connected,
    seated, waiting). A guest unseen for a day who never played is forgotten
    (server/store/pruning.py). Accounts, bots and imported players have none."""


class TableRecord(Base):
    """A table and its configuration (an ``engine.TableConfig`` as JSON)."""

    __tablename__ = "tables"
    # A live table and the table that hands imported under its name go to are two: an
    # import never takes a hand number the live table is about to deal.
    __table_args__ = (UniqueConstraint("name", "imported"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    imported: Mapped[bool] = mapped_column(Boolean, server_default=false())
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Hand(Base):
    """One finished hand: where and when, the stakes, and its full history."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "hand_number"),
        Index("ix_hands_started_at", "started_at"),
        Index("ix_hands_game", "game"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hand_number: Mapped[int] = mapped_column(BigInteger)
    variant: Mapped[str] = mapped_column(String(16))
    """The PHH variant code (``NT``, ``F7S/8``; ours where PHH has none)."""
    game: Mapped[str] = mapped_column(String(40), server_default="nlhe")
    """The game's key (``nlhe``, ``plo8``, ``5cd-bug``): what ``hands list --game`` finds."""
    small_blind: Mapped[int] = mapped_column(BigInteger)
    big_blind: Mapped[int] = mapped_column(BigInteger)
    ante: Mapped[int] = mapped_column(BigInteger)
    # Money hands (imported) store amounts in units of 1/scale of the currency.
    scale: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str | None] = mapped_column(String(8))
    button_seat: Mapped[int] = mapped_column(SmallInteger)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    board: Mapped[str] = mapped_column(String(32))
    pot: Mapped[int] = mapped_column(BigInteger)
    deck_commitment: Mapped[str | None] = mapped_column(String(64))
    seed: Mapped[str | None] = mapped_column(String(128))
    history: Mapped[str] = mapped_column(Text)
    # SHA-256 of the history: importing the same hand twice is noticed, and a write
    # retried after its commit's reply was lost finds the hand stored (server/store/writer.py).
    digest: Mapped[str | None] = mapped_column(String(64), unique=True)


class HandPlayer(Base):
    """A player in a hand: seat, stacks, cards and result."""

    __tablename__ = "hand_players"

    hand_id: Mapped[int] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    """PHH order: 0 is the first seat left of the button."""
    seat: Mapped[int] = mapped_column(SmallInteger)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    starting_stack: Mapped[int] = mapped_column(BigInteger)
    final_stack: Mapped[int] = mapped_column(BigInteger)
    hole_cards: Mapped[str | None] = mapped_column(String(32))
    """None where a history records them as unknown (``????``)."""
    net: Mapped[int] = mapped_column(BigInteger)


class Action(Base):
    """A forced bet or a player action; amounts as in ``engine.events``."""

    __tablename__ = "actions"

    hand_id: Mapped[int] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    street: Mapped[int] = mapped_column(SmallInteger)
    seat: Mapped[int] = mapped_column(SmallInteger)
    kind: Mapped[str] = mapped_column(String(16))
    increment: Mapped[int] = mapped_column(BigInteger)
    street_total: Mapped[int] = mapped_column(BigInteger)
    hand_total: Mapped[int] = mapped_column(BigInteger)


class LedgerEntry(Base):
    """A change to a player's balance, why, and the hand it belongs to (if any)."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    write_id: Mapped[str | None] = mapped_column(String(32), unique=True)
    """An entry outside a hand: a random id drawn when it was made, so that writing it
    again (its commit's reply was lost) stores it once. A hand's entries have none."""


class TableLease(Base):
    """Which server process hosts a live table, until when, and where its clients
    connect. The holder renews it; once it has expired, any process may take the table
    over (docs/operations.md, "Several server processes")."""

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    holder: Mapped[str] = mapped_column(String(64))
    """The hosting process's id (random, new at every start)."""
    address: Mapped[str] = mapped_column(String(256))
    """The websocket URL where the holder's clients connect."""
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class HandVoid(Base):
    """A table that stopped without cashing its players out (its process died): the hand
    it may have been playing is void, never dealt again under that number, and each
    player got back what the ledger says they had at the table."""

    __tablename__ = "hand_voids"
    __table_args__ = (UniqueConstraint("table_id", "hand_number"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hand_number: Mapped[int] = mapped_column(BigInteger)
    holder: Mapped[str] = mapped_column(String(64))
    """The process that was hosting the table."""
    refunds: Mapped[dict[str, int]] = mapped_column(JSON)
    """Player id (as text) -> the chips they got back."""
    voided_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HostAction(Base):
    """A private table's host's control (docs/home-games.md): who did what, about whom,
    when; ``details`` as the table's ``host_action`` message says them."""

    __tablename__ = "host_actions"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    """The host who did it."""
    action: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    """The player it was about (a seat request's, a stack's), if any."""
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentRecord(Base):
    """A tournament between bots: its format, seed and settings (enough to play it again)
    and, once it is over, its results. Its hands are at tables named
    ``tournament-{id}-{table}``."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    format: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(128))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    results: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Deployment(Base):
    """This database's deployment id, one row drawn when the schema is created: server
    processes sharing the database share it, and every message they put on an MQTT broker
    carries it, so that a server never acts on another deployment's messages, nor on those
    an earlier life of its own database left retained (docs/operations.md)."""

    __tablename__ = "deployment"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# The tables behind the models, for Core statements (the hot paths insert plain rows).
PLAYERS = cast(Table, Player.__table__)
TABLES = cast(Table, TableRecord.__table__)
HANDS = cast(Table, Hand.__table__)
HAND_PLAYERS = cast(Table, HandPlayer.__table__)
ACTIONS = cast(Table, Action.__table__)
LEDGER = cast(Table, LedgerEntry.__table__)
LEASES = cast(Table, TableLease.__table__)
VOIDS = cast(Table, HandVoid.__table__)
HOST_ACTIONS = cast(Table, HostAction.__table__)
