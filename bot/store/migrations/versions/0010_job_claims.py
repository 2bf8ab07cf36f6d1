"""a scheduled job is claimed by whichever process runs it, under a lease (any process runs any job)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02

Columns that may be null are added in place (SQLite's ``ALTER TABLE ADD COLUMN``: no copy of the table).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("jobs", sa.Column("claimed_by", sa.String(), nullable=True))
    op.add_column("jobs", sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_jobs_done_at_due_at", "jobs", ["done_at", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_jobs_done_at_due_at", table_name="jobs")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
