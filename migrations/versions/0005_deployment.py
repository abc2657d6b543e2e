"""The deployment id: which database, in which life, a message on a shared broker is from.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    deployment = op.create_table(
        "deployment",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deployment")),
    )
    # Drawn here, once per database: a database created again (or another deployment's)
    # has another id, so its servers never act on what this one left on the broker.
    op.bulk_insert(
        deployment, [{"id": secrets.token_hex(16), "created_at": dt.datetime.now(dt.UTC)}]
    )


def downgrade() -> None:
    op.drop_table("deployment")
