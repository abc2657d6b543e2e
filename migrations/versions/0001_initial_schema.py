"""Initial schema: players, tables, hands, hand players, actions and the chip ledger.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name", name=op.f("uq_players_name")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("name", name=op.f("uq_tables_name")),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("hand_number", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("small_blind", sa.BigInteger(), nullable=False),
        sa.Column("big_blind", sa.BigInteger(), nullable=False),
        sa.Column("ante", sa.BigInteger(), nullable=False),
        sa.Column("scale", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=True),
        sa.Column("button_seat", sa.SmallInteger(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("board", sa.String(length=10), nullable=False),
        sa.Column("pot", sa.BigInteger(), nullable=False),
        sa.Column("deck_commitment", sa.String(length=64), nullable=True),
        sa.Column("seed", sa.String(length=128), nullable=True),
        sa.Column("history", sa.Text(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_hands_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("digest", name=op.f("uq_hands_digest")),
        sa.UniqueConstraint("table_id", "hand_number", name=op.f("uq_hands_table_id")),
    )
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index("ix_hands_started_at", ["started_at"], unique=False)

    op.create_table(
        "actions",
        sa.Column("hand_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seq", sa.SmallInteger(), nullable=False),
        sa.Column("street", sa.SmallInteger(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("increment", sa.BigInteger(), nullable=False),
        sa.Column("street_total", sa.BigInteger(), nullable=False),
        sa.Column("hand_total", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_actions_hand_id_hands"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("hand_id", "seq", name=op.f("pk_actions")),
    )
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("position", sa.SmallInteger(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column(
            "player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("starting_stack", sa.BigInteger(), nullable=False),
        sa.Column("final_stack", sa.BigInteger(), nullable=False),
        sa.Column("hole_cards", sa.String(length=4), nullable=True),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"],
            ["hands.id"],
            name=op.f("fk_hand_players_hand_id_hands"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_hand_players_player_id_players")
        ),
        sa.PrimaryKeyConstraint("hand_id", "position", name=op.f("pk_hand_players")),
    )
    with op.batch_alter_table("hand_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_players_player_id"), ["player_id"], unique=False)

    op.create_table(
        "ledger",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("hand_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_ledger_hand_id_hands"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ledger_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_ledger_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger")),
    )
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_hand_id"), ["hand_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_player_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_hand_id"))

    op.drop_table("ledger")
    with op.batch_alter_table("hand_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_players_player_id"))

    op.drop_table("hand_players")
    op.drop_table("actions")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index("ix_hands_started_at")

    op.drop_table("hands")
    op.drop_table("tables")
    op.drop_table("players")
