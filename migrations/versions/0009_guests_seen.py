"""Guests who never played are forgotten (issue 29, item 12): ``players.seen_at``, a
guest's last hello or the last time a server held them, indexed for the housekeeping
that deletes guests unseen for a day with nothing to their name (server/store/pruning.py).
Players from before have none, and are kept.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_players_seen_at"), "players", ["seen_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_players_seen_at"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("seen_at")
