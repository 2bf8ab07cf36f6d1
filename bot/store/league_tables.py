"""The league's tables (issue 18): seasons, credited results, ratings, points tables, solo bests, forgettings.

Registered on the same ``metadata`` as :mod:`bot.store.tables` (both build on :mod:`bot.store.schema`);
migration ``0004`` creates exactly these. A player is a key: ``u<user id>`` for a member, ``bot:<strategy>`` for a
bot strategy (each strategy is one player), ``x<n>`` for a member who used ``/league forget-me``
(no link back to the person is kept). The standings read ``league_tallies`` (one row per player, season
and rule system, kept with every credit); indexes serve the profile (server + player, newest first), a
season's rule systems, forget-me (server + player) and a race's own lines.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Float, ForeignKey, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel

from bot.store.schema import time_column as _time


def _server_fk(primary_key: bool = False) -> Any:
    return Field(
        sa_column=Column(
            BigInteger,
            ForeignKey("servers.id", ondelete="CASCADE"),
            nullable=False,
            primary_key=primary_key,
            autoincrement=False,
        )
    )


class LeagueSeason(SQLModel, table=True):
    """A season of a server's league; at most one is open (``ended_at`` empty) at a time."""

    __tablename__ = "league_seasons"
    __table_args__ = (UniqueConstraint("server_id", "number"), Index(None, "server_id", "ended_at"))

    id: int | None = Field(default=None, primary_key=True)
    server_id: int = _server_fk()
    number: int
    started_at: datetime = _time()
    ended_at: datetime | None = _time(nullable=True)


class LeagueResult(SQLModel, table=True):
    """One entrant's line of a credited multiplayer race: place, points, and the rating it moved."""

    __tablename__ = "league_results"
    __table_args__ = (
        UniqueConstraint("race_id", "entrant"),
        Index(None, "season_id", "ruleset"),
        Index(None, "server_id", "player", "finished_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(
        sa_column=Column(Integer, ForeignKey("league_seasons.id", ondelete="CASCADE"), nullable=False)
    )
    server_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    race_id: int = Field(sa_column=Column(Integer, ForeignKey("races.id", ondelete="CASCADE"), nullable=False))
    ruleset: str
    stage: str
    entrant: str
    player: str
    """``u<user id>``, ``bot:<strategy>`` or ``x<n>`` (forgotten)."""
    name: str | None = None
    """The name shown; empty once forgotten."""
    place: int
    points: int
    provisional: bool = False
    provisional_place: int | None = None
    """The place while the result was provisional (kept, so a correction can be announced later)."""
    provisional_points: int | None = None
    rated: bool = False
    """The rating moved for this line (only final results are rated)."""
    rating_before: float | None = Field(default=None, sa_column=Column(Float, nullable=True))
    rating_after: float | None = Field(default=None, sa_column=Column(Float, nullable=True))
    finished_at: datetime = _time()


class LeagueRating(SQLModel, table=True):
    """A player's openskill rating on one server for one rule system (across seasons)."""

    __tablename__ = "league_ratings"

    server_id: int = _server_fk(primary_key=True)
    ruleset: str = Field(primary_key=True)
    player: str = Field(primary_key=True)
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    races: int = 0
    trend: float = Field(default=0.0, sa_column=Column(Float, nullable=False))
    """The change of the displayed rating at the player's last rated race."""
    updated_at: datetime = _time()


class LeaguePoints(SQLModel, table=True):
    """A server's own points table for one rule system (absent: the default)."""

    __tablename__ = "league_points"

    server_id: int = _server_fk(primary_key=True)
    ruleset: str = Field(primary_key=True)
    points: list[int] = Field(sa_column=Column(JSON, nullable=False))
    rest: int = 0
    """Points for every place below the listed ones."""
    updated_at: datetime = _time()


class LeagueSoloBest(SQLModel, table=True):
    """A member's best solo ride on a stage: the fewest steps to the finish."""

    __tablename__ = "league_solo_bests"
    __table_args__ = (Index(None, "server_id", "ruleset", "stage", "steps"),)

    server_id: int = _server_fk(primary_key=True)
    ruleset: str = Field(primary_key=True)
    stage: str = Field(primary_key=True)
    player: str = Field(primary_key=True)
    name: str | None = None
    steps: int
    race_id: int = Field(sa_column=Column(Integer, ForeignKey("races.id", ondelete="CASCADE"), nullable=False))
    achieved_at: datetime = _time()


class LeagueForgotten(SQLModel, table=True):
    """A member who asked to be forgotten: numbers the anonymous player (``x<id>``); holds no user id."""

    __tablename__ = "league_forgotten"

    id: int | None = Field(default=None, primary_key=True)
    server_id: int = Field(sa_column=Column(BigInteger, ForeignKey("servers.id", ondelete="CASCADE"), nullable=False))
    forgotten_at: datetime = _time()


class LeagueTally(SQLModel, table=True):
    """A player's running totals in one season and rule system, kept with every credit, so the standings
    read one short row per player instead of grouping every result (bench/league.py)."""

    __tablename__ = "league_tallies"
    __table_args__ = (Index(None, "server_id", "player"),)

    season_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("league_seasons.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    ruleset: str = Field(primary_key=True)
    player: str = Field(primary_key=True)
    server_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    name: str | None = None
    """The name of the player's latest credited line (empty once forgotten)."""
    races: int = 0
    points: int = 0
    places: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    """How many times the player finished 1st, 2nd, 3rd... (index 0 = wins)."""
    provisional: int = 0
    """Lines still provisional (their points may change when the announcement is published)."""
