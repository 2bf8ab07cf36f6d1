"""Migrations: bring a database to the tables this version needs, or say whether it is there.

The Alembic scripts ship inside the package (``bot/store/migrations``), so an installed wheel can
migrate without a checkout. ``gregario db upgrade`` and the bot's start-up call :func:`upgrade`;
``gregario db check`` calls :func:`status`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

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


async def upgrade(db: Database) -> Status:
    """Apply every migration the database lacks (a no-op when it is current)."""

    def run(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async with db.engine.begin() as conn:
        await conn.run_sync(run)
    return await status(db)


async def status(db: Database) -> Status:
    """The database's revision and the newest one."""

    def current(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with db.engine.connect() as conn:
        revision = await conn.run_sync(current)
    return Status(current=revision, head=head())
