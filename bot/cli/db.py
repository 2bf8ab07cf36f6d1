"""``gregario db upgrade`` and ``gregario db check``: the database's tables, for operators.

``upgrade`` applies the migrations the database lacks (exit 0). ``check`` prints where the database
stands and exits 0 when it is current, 1 when it needs ``gregario db upgrade``. Either exits 2 with one
line when the database cannot be reached or its URL is wrong.

``check`` only looks: on SQLite it opens the file read-only (a path with no file is "no database there",
never a new empty file) and runs ``PRAGMA quick_check``, so a damaged file is reported as damaged rather
than as current. ``backup FILE`` copies a SQLite database while the bot runs (SQLite's online backup:
a consistent copy, the write-ahead log included); for PostgreSQL, ``pg_dump`` is the tool.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.store.database import Database


def db_command(action: str, url: str | None = None, file: str | None = None) -> int:
    url = url or Settings().database_url
    if action == "backup":
        return backup(url, Path(file or ""))
    try:
        return asyncio.run(_run(action, url))
    except Exception as exc:  # any failure to reach or read the database: one line, no traceback
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"gregario db {action}: cannot use the database at {_safe(url)}: {reason}", file=sys.stderr)
        return 2


async def _run(action: str, url: str) -> int:
    from bot.store import migrate
    from bot.store.database import connect, sqlite_path

    path = sqlite_path(url)
    if action == "check" and path is not None:
        problem = _sqlite_problem(path)
        if problem is not None:
            print(f"gregario db check: {problem}", file=sys.stderr)
            return 2
        url = _read_only(path)
    db = connect(url) if action != "check" or path is None else _plain(url)
    try:
        if action == "upgrade":
            before = await migrate.status(db)
            after = await migrate.upgrade(db)
            if before.current == after.current:
                print(f"The database is already current (revision {after.current}).")
            else:
                print(f"The database was upgraded from {before.current or 'empty'} to revision {after.current}.")
            return 0
        status = await migrate.status(db)
        if status.up_to_date:
            print(f"The database is current (revision {status.current}).")
            return 0
        print(
            f"The database is at revision {status.current or 'none (empty)'}, this version needs {status.head}: "
            "run `gregario db upgrade`."
        )
        return 1
    finally:
        if action == "check":
            await db.engine.dispose()  # only looked: no checkpoint, nothing written
        else:
            await db.close()


def backup(url: str, target: Path) -> int:
    """Copy the SQLite database at ``url`` to ``target`` with SQLite's online backup (safe while the bot
    runs: a consistent copy of every committed change, the write-ahead log's included). Exit 2 with one
    line when it cannot (PostgreSQL: ``pg_dump`` is the tool)."""
    import sqlite3

    from bot.store.database import sqlite_path

    path = sqlite_path(url)
    if path is None:
        print(
            f"gregario db backup: {_safe(url)} is PostgreSQL: back it up with pg_dump, e.g. "
            "pg_dump --format=custom --file=gregario.dump 'postgresql://USER@HOST/NAME' (README: Backups).",
            file=sys.stderr,
        )
        return 2
    problem = _sqlite_problem(path)
    if problem is None and target.exists():
        problem = f"{target} already exists; give a new file name (a backup never overwrites)"
    if problem is None and not target.parent.is_dir():
        problem = f"the folder {target.parent} does not exist"
    if problem is not None:
        print(f"gregario db backup: {problem}", file=sys.stderr)
        return 2
    try:
        with (
            contextlib.closing(sqlite3.connect(_uri(path), uri=True)) as source,
            contextlib.closing(sqlite3.connect(target)) as copy,
        ):
            source.backup(copy)
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        print(f"gregario db backup: could not copy {path} to {target}: {exc}", file=sys.stderr)
        return 2
    print(f"Backed up {path} to {target}.")
    return 0


def _sqlite_problem(path: Path) -> str | None:
    """What is wrong with the SQLite file at ``path``, looked at read-only (None: it is sound)."""
    import sqlite3

    if not path.exists():
        return f"no database at {path} (nothing was created; `gregario db upgrade` makes one)"
    if path.is_dir():
        return f"{path} is a folder, not a database file"
    try:
        with contextlib.closing(sqlite3.connect(_uri(path), uri=True)) as conn:
            rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            return f"{path} is not a SQLite database"
        return f"the database {path} is corrupted ({exc})"
    found = [str(r[0]) for r in rows]
    if found != ["ok"]:
        return f"the database {path} is corrupted: {found[0]}" + (
            f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        )
    return None


def _uri(path: Path) -> str:
    """SQLite's URI for reading ``path`` without writing or creating anything: read-only, and, when no
    write-ahead log is there (no bot has it open), immutable, so SQLite makes no ``-shm``/``-wal`` files
    either. A running bot's log exists already: it is read, not created."""
    from urllib.parse import quote

    live = path.with_name(path.name + "-wal").exists()
    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("" if live else "&immutable=1")


def _read_only(path: Path) -> str:
    """The SQLAlchemy URL of :func:`_uri`."""
    return f"sqlite+aiosqlite:///{_uri(path)}&uri=true"


def _plain(url: str) -> Database:
    """A database handle without the bot's SQLite tuning (which switches the file to WAL: a write)."""
    from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

    from bot.store.database import Database

    engine = create_async_engine(url)
    return Database(engine, async_sessionmaker(engine, expire_on_commit=False))


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the configured URL"
