"""Several server processes: table leases (who hosts a live table) and voided hands.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=256), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_table_leases_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_leases")),
    )
    op.create_index(
        op.f("ix_table_leases_expires_at"), "table_leases", ["expires_at"], unique=False
    )
    op.create_table(
        "hand_voids",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("hand_number", sa.BigInteger(), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("refunds", sa.JSON(), nullable=False),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_hand_voids_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_voids")),
        sa.UniqueConstraint("table_id", "hand_number", name=op.f("uq_hand_voids_table_id")),
    )


def downgrade() -> None:
    op.drop_table("hand_voids")
    op.drop_index(op.f("ix_table_leases_expires_at"), table_name="table_leases")
    op.drop_table("table_leases")
