"""Alembic's environment: migrate the connection :mod:`bot.store.migrate` hands over.

Run through ``gregario db upgrade`` (or at start-up); the ``alembic`` command works too for writing
new revisions (``alembic -c bot/store/migrations/alembic.ini revision --autogenerate``), reading the
URL from ``GREGARIO_DATABASE_URL``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from bot.store import league_tables, tables  # noqa: F401  (importing them registers every table on the metadata)
from bot.store.schema import metadata

target_metadata = metadata


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            # The migrations ran with foreign keys off (migrate.unconstrained): what they copied must still
            # hold together, or the whole upgrade is undone rather than committed with dangling rows.
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the migration left rows whose references are gone: {broken[:5]}")


def _run_online() -> None:
    connection: Any = context.config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
        return
    from bot.settings import Settings
    from bot.store.database import connect
    from bot.store.migrate import unconstrained

    async def run() -> None:
        db = connect(context.config.get_main_option("sqlalchemy.url") or Settings().database_url)
        async with unconstrained(db) as conn:
            await conn.run_sync(_configure_and_run)
            await conn.commit()
        await db.close()

    asyncio.run(run())


_run_online()
