"""races, seats, orders and the scheduler

Revision ID: 0001
Revises: (none)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "servers",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_servers")),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("locale", sa.String(), nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_members_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_members")),
        sa.UniqueConstraint("server_id", "user_id", name=op.f("uq_members_server_id_user_id")),
    )
    op.create_table(
        "races",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("opener_id", sa.BigInteger(), nullable=False),
        sa.Column("owner", sa.String(), nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("stage", sa.JSON(), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("pace", sa.String(), nullable=False),
        sa.Column("pace_seconds", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("awaiting", sa.JSON(), nullable=True),
        sa.Column("orders_rev", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("state_format", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_races_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_races")),
    )
    with op.batch_alter_table("races", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_races_server_id_status"), ["server_id", "status"], unique=False)
        batch_op.create_index(batch_op.f("ix_races_status_owner"), ["status", "owner"], unique=False)

    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("events", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name=op.f("fk_announcements_race_id_races"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_announcements")),
        sa.UniqueConstraint("race_id", "kind", name=op.f("uq_announcements_race_id_kind")),
    )
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["race_id"], ["races.id"], name=op.f("fk_jobs_race_id_races"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jobs")),
        sa.UniqueConstraint("race_id", "kind", "step", name=op.f("uq_jobs_race_id_kind_step")),
    )
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_jobs_owner_done_at_due_at"), ["owner", "done_at", "due_at"], unique=False)

    op.create_table(
        "orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("entrant", sa.String(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("by", sa.String(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["race_id"], ["races.id"], name=op.f("fk_orders_race_id_races"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_orders")),
        sa.UniqueConstraint("race_id", "step", "entrant", name=op.f("uq_orders_race_id_step_entrant")),
    )
    op.create_table(
        "posted_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name=op.f("fk_posted_messages_race_id_races"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_posted_messages")),
        sa.UniqueConstraint("race_id", "step", "kind", name=op.f("uq_posted_messages_race_id_step_kind")),
    )
    op.create_table(
        "results",
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("standings", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["race_id"], ["races.id"], name=op.f("fk_results_race_id_races"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("race_id", name=op.f("pk_results")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entrant", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("bot", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(["race_id"], ["races.id"], name=op.f("fk_seats_race_id_races"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("race_id", "entrant", name=op.f("uq_seats_race_id_entrant")),
        sa.UniqueConstraint("race_id", "user_id", name=op.f("uq_seats_race_id_user_id")),
    )
    op.create_table(
        "step_events",
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name=op.f("fk_step_events_race_id_races"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("race_id", "step", name=op.f("pk_step_events")),
    )


def downgrade() -> None:

    op.drop_table("step_events")
    op.drop_table("seats")
    op.drop_table("results")
    op.drop_table("posted_messages")
    op.drop_table("orders")
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_jobs_owner_done_at_due_at"))

    op.drop_table("jobs")
    op.drop_table("announcements")
    with op.batch_alter_table("races", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_races_status_owner"))
        batch_op.drop_index(batch_op.f("ix_races_server_id_status"))

    op.drop_table("races")
    op.drop_table("members")
    op.drop_table("servers")
