"""Writes stored once across lost replies (issue 29): ``ledger.write_id``, a random id
for each entry outside a hand, unique, so an entry written again after its commit's
reply was lost is not stored twice. (Hands need nothing new: from now on every hand
stored carries its history's digest, already unique, which only imported hands had; the
hands stored before keep none, and need none: they are stored.)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ledger") as batch:  # SQLite alters a table by copying it
        batch.add_column(sa.Column("write_id", sa.String(length=32), nullable=True))
        batch.create_unique_constraint(op.f("uq_ledger_write_id"), ["write_id"])


def downgrade() -> None:
    with op.batch_alter_table("ledger") as batch:
        batch.drop_constraint(op.f("uq_ledger_write_id"), type_="unique")
        batch.drop_column("write_id")
