"""a lobby remembers the finished race it is the rematch of (one rematch lobby per race)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

The race's thread needs no column: its id is in the post ledger (``posted_messages``, kind ``thread``).
``races.rematch_of`` is unique, so two Rematch presses, in one process or two, open one lobby: the second
insert fails in the database and its presser joins the first lobby.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("races") as batch:
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_races_rematch_of_races", "races", ["rematch_of"], ["id"], ondelete="SET NULL")
        batch.create_unique_constraint("uq_races_rematch_of", ["rematch_of"])


def downgrade() -> None:
    with op.batch_alter_table("races") as batch:
        batch.drop_constraint("uq_races_rematch_of", type_="unique")
        batch.drop_constraint("fk_races_rematch_of_races", type_="foreignkey")
        batch.drop_column("rematch_of")
