"""Every hand says its game: ``hands.game`` (a preset's key, e.g. ``plo8``); hands stored
before are no-limit hold'em. Hole cards and boards of any game fit their columns (seven
stud cards, six Omaha cards).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # batch_alter_table: SQLite alters a column's type by copying the table.
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("game", sa.String(length=40), nullable=False,
                                   server_default="nlhe"))  # fmt: skip
        batch.alter_column("board", type_=sa.String(length=32), existing_nullable=False)
        batch.create_index("ix_hands_game", ["game"])
    with op.batch_alter_table("hand_players") as batch:
        batch.alter_column("hole_cards", type_=sa.String(length=32), existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("hand_players") as batch:
        batch.alter_column("hole_cards", type_=sa.String(length=4), existing_nullable=True)
    with op.batch_alter_table("hands") as batch:
        batch.drop_index("ix_hands_game")
        batch.alter_column("board", type_=sa.String(length=10), existing_nullable=False)
        batch.drop_column("game")
