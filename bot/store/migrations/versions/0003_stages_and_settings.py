"""saved stages and per-server settings

Revision ID: 0003
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_settings",
        sa.Column("server_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("server_id", name=op.f("pk_server_settings")),
    )
    op.create_table(
        "saved_stages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("folded", sa.String(), nullable=False),
        sa.Column("stage", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_stages")),
        sa.UniqueConstraint("server_id", "ruleset", "folded", name=op.f("uq_saved_stages_server_id_ruleset_folded")),
    )


def downgrade() -> None:
    op.drop_table("saved_stages")
    op.drop_table("server_settings")
