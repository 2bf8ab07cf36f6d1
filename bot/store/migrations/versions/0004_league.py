"""the league: seasons, credited results, ratings, points tables, solo bests, forgotten members

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "league_forgotten",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("forgotten_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_league_forgotten_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_forgotten")),
    )
    op.create_table(
        "league_points",
        sa.Column("server_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("rest", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_league_points_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("server_id", "ruleset", name=op.f("pk_league_points")),
    )
    op.create_table(
        "league_ratings",
        sa.Column("server_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("races", sa.Integer(), nullable=False),
        sa.Column("trend", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_league_ratings_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("server_id", "ruleset", "player", name=op.f("pk_league_ratings")),
    )
    op.create_table(
        "league_seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_league_seasons_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_seasons")),
        sa.UniqueConstraint("server_id", "number", name=op.f("uq_league_seasons_server_id_number")),
    )
    with op.batch_alter_table("league_seasons", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_league_seasons_server_id_ended_at"), ["server_id", "ended_at"], unique=False
        )

    op.create_table(
        "league_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("stage", sa.String(), nullable=False),
        sa.Column("entrant", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("provisional_place", sa.Integer(), nullable=True),
        sa.Column("provisional_points", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name=op.f("fk_league_results_race_id_races"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_results_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_results")),
        sa.UniqueConstraint("race_id", "entrant", name=op.f("uq_league_results_race_id_entrant")),
    )
    with op.batch_alter_table("league_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_results_season_id_ruleset"), ["season_id", "ruleset"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_league_results_server_id_player_finished_at"),
            ["server_id", "player", "finished_at"],
            unique=False,
        )

    op.create_table(
        "league_tallies",
        sa.Column("season_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("server_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(), nullable=True),
        sa.Column("races", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("provisional", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_tallies_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("season_id", "ruleset", "player", name=op.f("pk_league_tallies")),
    )
    with op.batch_alter_table("league_tallies", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_tallies_server_id_player"), ["server_id", "player"], unique=False)

    op.create_table(
        "league_solo_bests",
        sa.Column("server_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("stage", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=True),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("achieved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name=op.f("fk_league_solo_bests_race_id_races"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["server_id"], ["servers.id"], name=op.f("fk_league_solo_bests_server_id_servers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("server_id", "ruleset", "stage", "player", name=op.f("pk_league_solo_bests")),
    )
    with op.batch_alter_table("league_solo_bests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_league_solo_bests_server_id_ruleset_stage_steps"),
            ["server_id", "ruleset", "stage", "steps"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("league_tallies", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_tallies_server_id_player"))

    op.drop_table("league_tallies")

    with op.batch_alter_table("league_solo_bests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_solo_bests_server_id_ruleset_stage_steps"))

    op.drop_table("league_solo_bests")
    with op.batch_alter_table("league_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_results_server_id_player_finished_at"))
        batch_op.drop_index(batch_op.f("ix_league_results_season_id_ruleset"))

    op.drop_table("league_results")
    with op.batch_alter_table("league_seasons", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_seasons_server_id_ended_at"))

    op.drop_table("league_seasons")
    op.drop_table("league_ratings")
    op.drop_table("league_points")
    op.drop_table("league_forgotten")
