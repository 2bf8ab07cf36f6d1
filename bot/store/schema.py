"""What every table of Gregario's database shares: the one ``metadata`` they register on, its naming
convention and the column helpers.

The race tables (:mod:`bot.store.tables`) and the league's (:mod:`bot.store.league_tables`) both build on
this module and on nothing of each other; whoever needs every table at once (the migrations' environment,
the test that compares them with the models) imports both modules.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, DateTime, MetaData
from sqlmodel import Field, SQLModel

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by convention, so migrations name them the same on SQLite and PostgreSQL."""

metadata: MetaData = SQLModel.metadata
metadata.naming_convention = NAMING


def time_column(nullable: bool = False) -> Any:
    """A UTC time column (timezone-aware on PostgreSQL)."""
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable))
