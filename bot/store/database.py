"""The connection to the database: an async engine and its session factory.

SQLite gets WAL (readers never wait for the writer), a busy timeout (a writer waits for another
instead of failing), foreign keys, and ``BEGIN IMMEDIATE`` for a session that writes (one opened with
``session.begin()``, the services' only way to write): it takes the write lock when it starts, so two
writers never deadlock upgrading a read lock. A session that only reads (no ``begin()``: its transaction
is rolled back at its end) begins deferred: it reads a snapshot of the log without queueing for the
writer's lock, so panels and clicks do not wait behind every commit. PostgreSQL runs through
asyncpg at its default isolation (read committed); the services' compare-and-set on the race row keeps
them correct there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session

SQLITE_BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite writer waits for the lock before failing."""
POSTGRES_CONNECT_TIMEOUT_SECONDS = 2.0
"""How long opening a PostgreSQL connection may take before it counts as unreachable."""


def normalise_url(url: str) -> str:
    """The URL with its async driver: ``sqlite:///x`` -> ``sqlite+aiosqlite:///x``,
    ``postgresql://`` or ``postgres://`` -> ``postgresql+asyncpg://``."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    parsed = make_url(url)
    if parsed.drivername == "sqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    parsed = make_url(normalise_url(url))
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def safe_url(url: str) -> str:
    """The URL as an operator may read it in a log: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the configured database URL"


@dataclass
class Database:
    """An engine and the session factory every service uses (``expire_on_commit`` off: rows read in a
    transaction stay readable after it)."""

    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    wakers: list[Callable[[], None]] = field(default_factory=list)
    """Called after every commit that wrote outbox rows (this process's dispatchers wake up)."""

    def on_outbox(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` after each commit that wrote outbox rows."""
        self.wakers.append(wake)

    def wake(self) -> None:
        for wake in list(self.wakers):
            wake()

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=False)

    async def close(self) -> None:
        """Close every connection. SQLite first merges its write-ahead log into the database file
        (``wal_checkpoint(TRUNCATE)``), so the file alone is the whole database after a stop."""
        if self.engine.dialect.name == "sqlite":
            try:
                async with self.engine.connect() as conn:
                    raw = await conn.get_raw_connection()  # outside a transaction: a checkpoint needs that
                    await raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
            except Exception as error:  # a stop goes on: the next start merges the log
                import logging

                logging.getLogger(__name__).warning("could not merge the SQLite write-ahead log: %s", error)
        await self.engine.dispose()


def connect(url: str, *, pool_size: int = 5, echo: bool = False) -> Database:
    """A :class:`Database` for ``url`` (nothing is opened until the first query)."""
    url = normalise_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
    else:
        kwargs["pool_size"] = pool_size
        # After a PostgreSQL restart every pooled connection is dead: test each one as it is taken, so
        # the first query after an outage works instead of failing. And fail fast while it is down, so a
        # click still gets its "try again" answer within Discord's 3 seconds.
        kwargs["pool_pre_ping"] = True
        kwargs["connect_args"] = {"timeout": POSTGRES_CONNECT_TIMEOUT_SECONDS}
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine)
    wakers: list[Callable[[], None]] = []
    sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
        engine.execution_options(**{_READS: True}),
        class_=_Session,
        expire_on_commit=False,
        info={_WAKERS: wakers, _WRITER: engine.sync_engine},
    )
    db = Database(engine, sessions, wakers)
    return db


_WAKERS = "gregario.wakers"
_WRITER = "gregario.writer"
_READS = "gregario_reads"
"""The execution option of a session's connection that only reads (SQLite: a deferred ``BEGIN``)."""


class _Session(AsyncSession):
    """A session that reads unless it is begun: ``begin()`` moves it onto the engine's writing connections
    before it takes one (SQLite: ``BEGIN IMMEDIATE``)."""

    def begin(self) -> Any:
        writer = self.sync_session.info.get(_WRITER)
        if writer is not None:
            self.sync_session.bind = writer
        return super().begin()


_WRITTEN = "gregario.outbox_written"


def outbox_written(session: AsyncSession) -> None:
    """Mark the session's transaction as one that wrote outbox rows: its commit wakes the dispatchers."""
    session.sync_session.info[_WRITTEN] = True


@event.listens_for(Session, "after_commit")
def _wake_after_commit(session: Session) -> None:
    if session.info.pop(_WRITTEN, False):
        for wake in list(session.info.get(_WAKERS) or []):
            wake()


@event.listens_for(Session, "after_rollback")
def _forget_after_rollback(session: Session) -> None:
    session.info.pop(_WRITTEN, None)


def _tune_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" below open transactions itself (pysqlite's own BEGIN is deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged order survives a power cut too
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN" if connection.get_execution_options().get(_READS) else "BEGIN IMMEDIATE")


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached right now (down, restarting, its file gone,
    a connection cut), rather than that the bot asked for something wrong. The whole chain is looked at:
    SQLAlchemy wraps the driver's error (``.orig``) and asyncio wraps OSErrors in its own."""
    import sqlite3

    from sqlalchemy import exc as sa

    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__module__.startswith(("aiohttp", "discord")):
            return False  # Discord's connection, whatever socket error lies under it
        if isinstance(current, sa.DBAPIError) and current.connection_invalidated:
            return True
        if isinstance(current, sa.OperationalError | sa.InterfaceError | sa.TimeoutError | sa.DisconnectionError):
            return True
        if isinstance(current, sqlite3.OperationalError | sqlite3.InterfaceError):
            return True
        if isinstance(current, OSError):  # ConnectionRefusedError, a socket reset, TimeoutError...
            return True
        if _asyncpg_unreachable(current):
            return True
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else (current.__cause__ or current.__context__)
    return False


def _asyncpg_unreachable(error: BaseException) -> bool:
    """asyncpg's own words for a lost or refused connection (only when asyncpg is loaded at all)."""
    import sys

    asyncpg = sys.modules.get("asyncpg")
    if asyncpg is None:
        return False
    lost = (
        asyncpg.exceptions.PostgresConnectionError,  # ConnectionDoesNotExist, ConnectionFailure...
        asyncpg.exceptions.OperatorInterventionError,  # shutting down, starting up, crashed
    )
    if isinstance(error, lost):
        return True
    # "cannot perform operation: connection is closed" (and not a misuse such as two queries at once)
    text = str(error)
    return isinstance(error, asyncpg.exceptions.InterfaceError) and "connection" in text and "closed" in text
