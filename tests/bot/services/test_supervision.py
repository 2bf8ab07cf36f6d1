"""Background work survives outages: retried with backoff, logged once when it fails and once when it recovers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import exc as sa

from bot.services import supervision
from bot.services.outcomes import RaceCancelled, StepResolved
from bot.services.scheduler import Scheduler
from bot.services.supervision import Streak, Supervisor, repeat
from bot.services.watch import OrderWatcher
from bot.store.database import unreachable
from tests.bot.services.conftest import CHANNEL, Harness, member

LOGGER = "gregario.test.supervision"


def outage() -> sa.OperationalError:
    """What SQLAlchemy raises when PostgreSQL refuses the connection."""
    return sa.OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "Connect call failed"))


@contextlib.contextmanager
def database_down(harness: Harness) -> Iterator[Callable[[], None]]:
    """Every new session fails as if the database were gone, until the returned function is called."""
    assert harness.ctx is not None
    db = harness.ctx.db
    real = db.sessions
    down = True

    def sessions(*args: Any, **kwargs: Any) -> Any:
        if down:
            raise outage()
        return real(*args, **kwargs)

    def back() -> None:
        nonlocal down
        down = False

    db.sessions = sessions  # type: ignore[assignment]
    try:
        yield back
    finally:
        db.sessions = real


def test_these_errors_mean_the_database_is_unreachable() -> None:
    """A refused connection, a reset socket, an asyncpg shutdown and a lost SQLite file count; a bug does not."""
    import sqlite3

    import asyncpg

    assert unreachable(outage())
    assert unreachable(ConnectionResetError())
    assert unreachable(asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"))
    assert unreachable(asyncpg.exceptions.CannotConnectNowError("the database system is starting up"))
    assert unreachable(sa.DBAPIError("SELECT 1", {}, sqlite3.OperationalError("unable to open database file")))
    wrapped = RuntimeError("while resolving")
    wrapped.__cause__ = outage()
    assert unreachable(wrapped)
    assert not unreachable(ValueError("no such rider"))
    assert not unreachable(sa.IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed")))


def test_the_backoff_doubles_up_to_its_cap() -> None:
    """Waits after failures in a row: 0.5, 1, 2, 4, then the cap of 5 s; a success starts again from 0.5."""
    streak = Streak("the scheduler")
    assert [streak.failed(outage()) for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    streak.succeeded()
    assert streak.failed(outage()) == 0.5


async def test_an_outage_is_two_lines_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """Ten failures in a row log one WARNING (one line, no traceback) and the recovery one INFO."""
    stop = asyncio.Event()
    runs = 0

    async def step() -> float:
        nonlocal runs
        runs += 1
        if runs <= 10:
            raise outage()
        stop.set()
        return 0.0

    caplog.set_level(logging.DEBUG, logger=LOGGER)
    await asyncio.wait_for(repeat("the scheduler", step, stop, logger=logging.getLogger(LOGGER), cap=0.01), 10)
    records = [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.INFO]
    assert [(r.levelname, r.exc_info is None) for r in records] == [("WARNING", True), ("INFO", True)]
    assert (
        "cannot reach the database" in records[0].getMessage() and "ConnectionRefusedError" in records[0].getMessage()
    )
    assert "\n" not in records[0].getMessage()
    assert "works again" in records[1].getMessage() and "10 failures" in records[1].getMessage()


async def test_a_bug_is_logged_once_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """A step that keeps failing for another reason logs its traceback once (ERROR), then only at DEBUG."""
    stop = asyncio.Event()
    runs = 0

    async def step() -> float:
        nonlocal runs
        runs += 1
        if runs == 5:
            stop.set()
        raise KeyError("rider")

    caplog.set_level(logging.DEBUG, logger=LOGGER)
    await asyncio.wait_for(repeat("the scheduler", step, stop, logger=logging.getLogger(LOGGER), cap=0.01), 10)
    loud = [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.INFO]
    assert len(loud) == 1 and loud[0].levelname == "ERROR" and loud[0].exc_info is not None


async def test_a_task_that_dies_is_restarted(caplog: pytest.LogCaptureFixture) -> None:
    """A supervised task that raises is logged as an ERROR with its reason and started again; close stops it."""
    started = 0
    again = asyncio.Event()
    supervisor = Supervisor(logger=logging.getLogger(LOGGER))

    async def body() -> None:
        nonlocal started
        started += 1
        if started == 1:
            raise RuntimeError("the socket fell over")
        again.set()
        await supervisor.stop.wait()

    caplog.set_level(logging.DEBUG, logger=LOGGER)
    supervisor.keep("the order watcher", body)
    await asyncio.wait_for(again.wait(), 10)
    assert supervisor.names == ["the order watcher"]
    await supervisor.close(timeout=5)
    assert supervisor.names == [] and started == 2
    (error,) = [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.ERROR]
    assert "the order watcher" in error.getMessage() and "the socket fell over" in error.getMessage()


async def test_close_cancels_a_task_that_will_not_stop() -> None:
    """A task deaf to the stop event is cancelled once the bounded wait is over."""
    supervisor = Supervisor(logger=logging.getLogger(LOGGER))
    supervisor.keep("stubborn", lambda: asyncio.sleep(3600))
    await asyncio.sleep(0)
    await asyncio.wait_for(supervisor.close(timeout=0.2), 5)
    assert supervisor.names == []


async def _until(predicate: Callable[[], bool], seconds: float = 15) -> None:
    async with asyncio.timeout(seconds):
        while not predicate():
            await asyncio.sleep(0.02)


async def test_the_scheduler_runs_the_deadlines_that_fell_during_an_outage(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The database goes away, a deadline and a lobby timeout fall due meanwhile; once it is back the
    running scheduler resolves the step and cancels the lobby, having logged the outage once."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    forgotten = await supervision_lobby(harness)
    stop = asyncio.Event()
    scheduler = Scheduler(harness.ctx)
    caplog.set_level(logging.INFO, logger="bot.services.scheduler")
    running = asyncio.create_task(scheduler.run(stop, start_up=False))
    try:
        with database_down(harness) as back:
            await asyncio.sleep(0.3)  # the scheduler fails a few times
            harness.clock.advance(minutes=61)  # past step 1's deadline and the lobby's timeout
            await asyncio.sleep(2.0)
            assert not any(isinstance(h, StepResolved) for h in harness.posted)
            back()
            await _until(lambda: any(isinstance(h, StepResolved) and h.race_id == race_id for h in harness.posted))
            await _until(lambda: RaceCancelled(forgotten, "lobby_timeout") in harness.posted)
    finally:
        stop.set()
        await asyncio.wait_for(running, 10)
    assert not running.cancelled() and running.exception() is None
    logged = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "bot.services.scheduler"]
    assert [level for level, _ in logged] == ["WARNING", "INFO"], logged


async def supervision_lobby(harness: Harness) -> int:
    assert harness.ctx is not None
    from bot.services import lobby

    return (await lobby.open_lobby(harness.ctx, member(9, "Ivo"), CHANNEL, "wyscig")).race_id


async def test_the_order_watcher_keeps_polling_after_an_outage(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher's loop outlives a database outage and polls again once the database is back."""
    assert harness.ctx is not None
    monkeypatch.setattr("bot.services.watch.POSTGRES_POLL_SECONDS", 0.2)
    watcher = OrderWatcher(harness.ctx)
    polls = 0
    real = watcher.poll_once

    async def counted() -> list[Any]:
        nonlocal polls
        polls += 1
        return await real()

    watcher.poll_once = counted  # type: ignore[method-assign]
    stop = asyncio.Event()
    running = asyncio.create_task(watcher.run(stop))
    try:
        with database_down(harness) as back:
            await asyncio.sleep(1.5)
            before = polls
            back()
            await _until(lambda: polls > before + 1)
    finally:
        stop.set()
        await asyncio.wait_for(running, 10)
    assert running.exception() is None


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_the_listen_connection_is_opened_again_when_postgresql_drops_it(harness: Harness) -> None:
    """PostgreSQL ends the LISTEN connection (as a restart does); the watcher opens a new one at once."""
    assert harness.ctx is not None
    watcher = OrderWatcher(harness.ctx)
    stop = asyncio.Event()
    running = asyncio.create_task(watcher.run(stop))
    try:
        await _until(lambda: watcher.listening)
        first = watcher._connection.get_server_pid()
        async with harness.ctx.db.engine.connect() as conn:
            from sqlalchemy import text

            await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        await _until(lambda: watcher.listening and watcher._connection.get_server_pid() != first, 10)
    finally:
        stop.set()
        await asyncio.wait_for(running, 10)


def test_reason_is_one_line() -> None:
    """SQLAlchemy's multi-line text shrinks to the driver's error and its first line."""
    assert supervision.reason(outage()) == "ConnectionRefusedError: [Errno 111] Connect call failed"


def test_discords_connection_errors_are_not_the_databases() -> None:
    """aiohttp's "cannot connect" (to Discord) wraps a refused socket too, and still is not the database."""
    import aiohttp

    refused = ConnectionRefusedError(111, "Connect call failed")
    failure = aiohttp.ClientConnectorError(
        aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None), refused
    )  # type: ignore[arg-type]
    failure.__cause__ = refused
    assert not unreachable(failure)
