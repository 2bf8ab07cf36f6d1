"""Migrations: bring a database to the tables this version needs, or say whether it is there.

The Alembic scripts ship inside the package (``bot/store/migrations``), so an installed wheel can
migrate without a checkout. ``gregario db upgrade`` and the bot's start-up call :func:`upgrade`;
``gregario db check`` calls :func:`status`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.database import Database

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    """Alembic's configuration, pointing at the packaged scripts (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    """The newest revision this version of Gregario knows."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


@dataclass(frozen=True)
class Status:
    """Where a database stands: its revision (None = empty) against the newest one."""

    current: str | None
    head: str

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head


async def upgrade(db: Database, revision: str = "head") -> Status:
    """Apply every migration the database lacks up to ``revision`` (the newest by default; an older one lets a
    test build a database as an earlier version left it). A no-op when it is there."""

    def run(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with unconstrained(db) as conn, conn.begin():
        await conn.run_sync(run)
    return await status(db)


@asynccontextmanager
async def unconstrained(db: Database) -> AsyncIterator[AsyncConnection]:
    """A connection for migrating, with SQLite's foreign keys off while it is held.

    SQLite alters a table by copying it and dropping the old one (Alembic's batch mode); with foreign keys
    on, that drop cascades and deletes every row that refers to the table (altering ``races`` would empty a
    race's seats, orders and ledger). The pragma only takes effect outside a transaction, so it is set on the
    driver's connection before the migration's transaction begins, and set back before the connection
    returns to the pool."""
    async with db.engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            yield conn
            return
        raw = (await conn.get_raw_connection()).driver_connection
        await raw.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        try:
            yield conn
        finally:
            await raw.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]


async def status(db: Database) -> Status:
    """The database's revision and the newest one."""

    def current(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with db.engine.connect() as conn:
        revision = await conn.run_sync(current)
    return Status(current=revision, head=head())
