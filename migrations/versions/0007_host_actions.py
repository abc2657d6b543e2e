"""Private tables' host controls (docs/home-games.md): ``host_actions``, one row per
control a host used (who, what, about whom, when).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "host_actions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("host_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_host_actions_table_id_tables")
        ),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name=op.f("fk_host_actions_host_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_host_actions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_host_actions")),
    )
    op.create_index(op.f("ix_host_actions_table_id"), "host_actions", ["table_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_host_actions_table_id"), table_name="host_actions")
    op.drop_table("host_actions")
