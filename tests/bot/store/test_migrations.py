"""The migrations build exactly the tables the models describe, and ``gregario db`` reports honestly."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bot.cli import main
from bot.store import league_tables, migrate, schema, tables
from bot.store.database import connect


async def test_the_migrated_database_matches_the_models(database_url: str) -> None:
    """After ``upgrade``, Alembic finds no difference between the database and the SQLModel tables."""
    db = connect(database_url)
    try:
        status = await migrate.upgrade(db)
        assert status.up_to_date and status.current == migrate.head()

        def diff(connection: Connection) -> list[object]:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, schema.metadata))

        def names(connection: Connection) -> set[str]:
            return set(inspect(connection).get_table_names())

        async with db.engine.connect() as conn:
            assert await conn.run_sync(diff) == []
            every = set(schema.metadata.tables)
            assert {tables.RaceRow.__tablename__, league_tables.LeagueSeason.__tablename__} <= every
            assert await conn.run_sync(names) >= every
    finally:
        await db.close()


async def test_upgrading_twice_changes_nothing(database_url: str) -> None:
    """A second ``upgrade`` (every start-up runs one) is a no-op."""
    db = connect(database_url)
    try:
        first = await migrate.upgrade(db)
        second = await migrate.upgrade(db)
        assert first == second and second.up_to_date
    finally:
        await db.close()


async def test_sqlite_runs_with_wal_a_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    """The SQLite file is opened in WAL mode, waits for a busy writer, and enforces foreign keys."""
    db = connect(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        async with db.engine.connect() as conn:
            mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
            timeout = (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar()
            keys = (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar()
        assert (mode, keys) == ("wal", 1) and timeout is not None and timeout >= 1000
    finally:
        await db.close()


def test_db_check_says_when_the_database_needs_an_upgrade(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``db check`` exits 1 on an empty database, ``db upgrade`` fixes it, then ``db check`` exits 0."""
    (tmp_path / "g.sqlite3").write_bytes(b"")  # an empty file is an empty SQLite database
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    assert main(["db", "check", "--url", url]) == 1
    assert "gregario db upgrade" in capsys.readouterr().out
    assert main(["db", "upgrade", "--url", url]) == 0
    assert f"revision {migrate.head()}" in capsys.readouterr().out
    assert main(["db", "check", "--url", url]) == 0
    assert "is current" in capsys.readouterr().out


def test_db_check_on_an_unreachable_database_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A closed port gives one line naming the database (without a password) and exit status 2."""
    assert main(["db", "check", "--url", "postgresql://gregario:secret@127.0.0.1:1/gregario"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "127.0.0.1:1" in err[0] and "secret" not in err[0]


def test_the_migrations_ship_inside_the_package() -> None:
    """The Alembic scripts live in the ``bot.store`` package, so an installed wheel can migrate."""
    assert migrate.MIGRATIONS.is_dir() and (migrate.MIGRATIONS / "env.py").is_file()
    assert any(p.name.startswith(migrate.head()) for p in (migrate.MIGRATIONS / "versions").glob("*.py"))


async def test_an_upgrade_that_alters_races_keeps_every_race_s_rows(database_url: str) -> None:
    """A database at 0008 with a race and its seats: the upgrade to the newest revision (0009 alters ``races``,
    which SQLite does by copying the table and dropping the old one) keeps the seats, and foreign keys are
    enforced again afterwards. With foreign keys on during the copy, the drop deleted them."""
    db = connect(database_url)
    try:
        await migrate.upgrade(db, "0008")
        async with db.engine.begin() as conn:
            await conn.execute(text("INSERT INTO servers (id, created_at) VALUES (1000, CURRENT_TIMESTAMP)"))
            await conn.execute(
                text(
                    "INSERT INTO races (id, server_id, channel_id, opener_id, owner, ruleset, options, status, pace,"
                    " pace_seconds, step, orders_rev, created_at) VALUES (1, 1000, 2000, 1, 'main', 'wyscig', '{}',"
                    " 'running', 'fast', 60, 3, 0, CURRENT_TIMESTAMP)"
                )
            )
            for position, entrant in enumerate(("u7", "bot1")):
                await conn.execute(
                    text("INSERT INTO seats (race_id, position, entrant, name) VALUES (1, :p, :e, :e)"),
                    {"p": position, "e": entrant},
                )
        assert (await migrate.upgrade(db)).up_to_date
        async with db.engine.connect() as conn:
            seats = (await conn.execute(text("SELECT entrant FROM seats ORDER BY position"))).scalars().all()
            if conn.dialect.name == "sqlite":
                assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        assert seats == ["u7", "bot1"]
    finally:
        await db.close()


async def test_an_upgrade_that_would_leave_dangling_rows_is_undone(tmp_path: Path) -> None:
    """SQLite migrates with foreign keys off, so the upgrade checks them before it commits: a seat whose race
    is gone (written here behind the database's back) makes the upgrade fail and leaves the database at 0008."""
    import sqlite3

    path = tmp_path / "g.sqlite3"
    db = connect(f"sqlite:///{path}")
    try:
        await migrate.upgrade(db, "0008")
        with sqlite3.connect(path) as raw:  # foreign keys are off on a plain connection
            raw.execute("INSERT INTO seats (race_id, position, entrant, name) VALUES (99, 0, 'u7', 'u7')")
        with pytest.raises(RuntimeError, match="references are gone"):
            await migrate.upgrade(db)
        assert (await migrate.status(db)).current == "0008"
    finally:
        await db.close()
