"""The connection to the database: an async engine and its session factory.

SQLite gets WAL (readers never wait for the writer), a busy timeout (a writer waits for another
instead of failing), foreign keys, and ``BEGIN IMMEDIATE`` transactions: a transaction takes the write
lock when it starts, so two writers never deadlock upgrading a read lock. PostgreSQL runs through
asyncpg at its default isolation (read committed); the services' compare-and-set on the race row keeps
them correct there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session

SQLITE_BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite writer waits for the lock before failing."""


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
        await self.engine.dispose()


def connect(url: str, *, pool_size: int = 5, echo: bool = False) -> Database:
    """A :class:`Database` for ``url`` (nothing is opened until the first query)."""
    url = normalise_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
    else:
        kwargs["pool_size"] = pool_size
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine)
    wakers: list[Callable[[], None]] = []
    db = Database(engine, async_sessionmaker(engine, expire_on_commit=False, info={_WAKERS: wakers}), wakers)
    return db


_WAKERS = "gregario.wakers"
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
        connection.exec_driver_sql("BEGIN IMMEDIATE")
