"""Imported hands get tables of their own: ``tables.imported``, names unique per kind.

Before, hands imported under a live table's name joined that table and took the hand
numbers it was about to deal (its next hand was then refused). Downgrading fails if a
live table and an imported one share a name.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("imported", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.drop_constraint("uq_tables_name", type_="unique")
        batch_op.create_unique_constraint("uq_tables_name", ["name", "imported"])


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_constraint("uq_tables_name", type_="unique")
        batch_op.create_unique_constraint("uq_tables_name", ["name"])
        batch_op.drop_column("imported")
