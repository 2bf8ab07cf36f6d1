"""the outbox (what the bot owes to Discord), and the post ledger typed

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02

``posted_messages.kind`` held strings parsed by slicing ("p<user>", "nodm<user>", "lap:<n>:<lap>",
"lapx:<next lap>"); the member and the lap key get columns of their own and the kind becomes one of
:class:`bot.store.ledger.PostKind`'s values. Existing rows are carried over.

What an older version still owed when it stopped (it kept that in memory, and told untold steps after a
start) becomes outbox rows: every resolved step of a running or finished race that no message tells, and
a finished race's final post and lobby edit when no final post was recorded (the result is read from the
race when delivered).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

LEGACY = (
    (re.compile(r"^p(\d+)$"), "panel", "member"),
    (re.compile(r"^nodm(\d+)$"), "dms_closed", "member"),
    (re.compile(r"^lapx:(.*)$"), "lap_done", "lap"),
    (re.compile(r"^lap:(.*)$"), "lap", "lap"),
)
"""Old kinds -> (new kind, which column takes the rest). ``step``, ``lobby``, ``final``, ``news`` stay."""


def typed(kind: str) -> tuple[str, int | None, str | None]:
    """An old-style kind as (kind, member, lap)."""
    for pattern, new, column in LEGACY:
        found = pattern.match(kind)
        if found:
            rest = found.group(1)
            return (new, int(rest), None) if column == "member" else (new, None, rest)
    return kind, None, None


def untyped(kind: str, member: int | None, lap: str | None) -> str:
    """The old-style kind of a typed row (for the downgrade)."""
    return {
        "panel": f"p{member}",
        "dms_closed": f"nodm{member}",
        "lap": f"lap:{lap}",
        "lap_done": f"lapx:{lap}",
    }.get(kind, kind)


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("recipient", sa.BigInteger(), nullable=True),
        sa.Column("nonce", sa.String(length=25), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["race_id"], ["races.id"], name=op.f("fk_outbox_race_id_races"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index(op.f("ix_outbox_race_id_done_at"), "outbox", ["race_id", "done_at"])
    op.create_index(op.f("ix_outbox_done_at_id"), "outbox", ["done_at", "id"])

    with op.batch_alter_table("posted_messages") as batch:
        batch.add_column(sa.Column("member", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("lap", sa.String(), nullable=True))
        batch.drop_constraint("uq_posted_messages_race_id_step_kind", type_="unique")
        batch.create_index(batch.f("ix_posted_messages_race_id_step"), ["race_id", "step"])

    bind = op.get_bind()
    posts = sa.table(
        "posted_messages",
        sa.column("id", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("member", sa.BigInteger()),
        sa.column("lap", sa.String()),
    )
    for row_id, kind in bind.execute(sa.select(posts.c.id, posts.c.kind)).all():
        new, member, lap = typed(kind)
        if (new, member, lap) != (kind, None, None):
            bind.execute(sa.update(posts).where(posts.c.id == row_id).values(kind=new, member=member, lap=lap))
    _owed_by_older_versions(bind)


def _owed_by_older_versions(bind: sa.engine.Connection) -> None:
    """Outbox rows for what the version before the outbox had not delivered yet."""
    races = sa.table("races", sa.column("id", sa.Integer()), sa.column("status", sa.String()))
    events = sa.table("step_events", sa.column("race_id", sa.Integer()), sa.column("step", sa.Integer()))
    posts = sa.table(
        "posted_messages",
        sa.column("race_id", sa.Integer()),
        sa.column("step", sa.Integer()),
        sa.column("kind", sa.String()),
    )
    owed = sa.table(
        "outbox",
        sa.column("race_id", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("step", sa.Integer()),
        sa.column("nonce", sa.String()),
        sa.column("payload", sa.JSON()),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("delivered", sa.Boolean()),
        sa.column("attempts", sa.Integer()),
    )
    now = datetime.now(UTC)
    rows = []
    live = bind.execute(
        sa.select(races.c.id, races.c.status).where(races.c.status.in_(("running", "finished"))).order_by(races.c.id)
    ).all()
    for race_id, status in live:
        told = set(
            bind.execute(sa.select(posts.c.step).where(posts.c.race_id == race_id, posts.c.kind == "step")).scalars()
        )
        kinds = set(bind.execute(sa.select(posts.c.kind).where(posts.c.race_id == race_id)).scalars())
        steps = bind.execute(
            sa.select(events.c.step).where(events.c.race_id == race_id).order_by(events.c.step)
        ).scalars()
        for step in steps:
            if step not in told:
                rows.append((race_id, "step_post", step, f"g{race_id}-step-{step}"[:25]))
        if status == "finished" and "final" not in kinds:
            rows.append((race_id, "final_post", 0, f"g{race_id}-fina-0"[:25]))
            rows.append((race_id, "lobby_edit", 0, f"g{race_id}-lobby-0"[:25]))
    for race_id, kind, step, nonce in rows:
        bind.execute(
            sa.insert(owed).values(
                race_id=race_id,
                kind=kind,
                step=step,
                nonce=nonce,
                payload={},
                created_at=now,
                delivered=False,
                attempts=0,
            )
        )


def downgrade() -> None:
    bind = op.get_bind()
    posts = sa.table(
        "posted_messages",
        sa.column("id", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("member", sa.BigInteger()),
        sa.column("lap", sa.String()),
    )
    for row_id, kind, member, lap in bind.execute(
        sa.select(posts.c.id, posts.c.kind, posts.c.member, posts.c.lap)
    ).all():
        bind.execute(sa.update(posts).where(posts.c.id == row_id).values(kind=untyped(kind, member, lap)))
    with op.batch_alter_table("posted_messages") as batch:
        batch.drop_index(batch.f("ix_posted_messages_race_id_step"))
        batch.drop_column("lap")
        batch.drop_column("member")
        batch.create_unique_constraint("uq_posted_messages_race_id_step_kind", ["race_id", "step", "kind"])
    op.drop_index(op.f("ix_outbox_done_at_id"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_race_id_done_at"), table_name="outbox")
    op.drop_table("outbox")
