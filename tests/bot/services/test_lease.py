"""One process at a time per database: the lease is held, renewed, released, and taken over only when it lapsed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.services.lease import Lease, LeaseHeld
from bot.store import migrate
from bot.store.database import Database, connect


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = connect(database_url)
    await migrate.upgrade(database)
    yield database
    await database.close()


def _lease(db: Database, clock: Clock, pid: int, host: str = "velodrome") -> Lease:
    return Lease(db, "main", host=host, pid=pid, now=clock)


async def test_a_second_process_is_refused_with_the_holders_name(db: Database) -> None:
    """The first process holds the lease; the second is told who holds it: host, pid and since when."""
    clock = Clock()
    first, second = _lease(db, clock, 101, "alpe"), _lease(db, clock, 202, "stelvio")
    await first.acquire()
    clock.at += timedelta(seconds=5)
    with pytest.raises(LeaseHeld) as refused:
        await second.acquire()
    assert str(refused.value) == "process 101 on alpe, since 2026-12-02 09:00:00 UTC"


async def test_a_heartbeat_keeps_it_and_a_lapsed_lease_is_taken_over(db: Database) -> None:
    """Renewed, the lease outlives its first 30 s; unrenewed for 30 s more it lapses and another process takes
    it; the old holder's next heartbeat learns it lost the lease."""
    clock = Clock()
    first, second = _lease(db, clock, 101, "alpe"), _lease(db, clock, 202, "stelvio")
    await first.acquire()
    clock.at += timedelta(seconds=25)
    assert await first.renew()
    clock.at += timedelta(seconds=25)  # 50 s after the start, 25 s after the heartbeat
    with pytest.raises(LeaseHeld):
        await second.acquire()
    clock.at += timedelta(seconds=6)  # 31 s without a heartbeat
    await second.acquire()
    assert not await first.renew()
    holder = await first.holder_now()
    assert holder is not None and (holder.host, holder.pid) == ("stelvio", 202)


async def test_a_released_lease_is_free_at_once(db: Database) -> None:
    """A clean stop releases the lease: the next process starts without waiting for it to lapse."""
    clock = Clock()
    first, second = _lease(db, clock, 101, "alpe"), _lease(db, clock, 202, "stelvio")
    await first.acquire()
    await first.release()
    await second.acquire()
    assert await second.renew()


async def test_a_dead_holder_on_this_host_is_taken_over_at_once(db: Database) -> None:
    """A crash on this machine: the holder's pid is gone, so a restart need not wait 30 s."""
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = int(finished.stdout)
    clock = Clock()
    crashed, restarted = Lease(db, "main", pid=gone, now=clock), Lease(db, "main", now=clock)
    await crashed.acquire()
    await restarted.acquire()
    holder = await restarted.holder_now()
    assert holder is not None and holder.pid == restarted.pid


async def test_the_heartbeat_stops_and_says_so_when_the_lease_is_lost(db: Database) -> None:
    """keep(): once another process holds the lease, ``lost`` is called with it and the heartbeat ends."""
    clock = Clock()
    first, second = _lease(db, clock, 101, "alpe"), _lease(db, clock, 202, "stelvio")
    await first.acquire()
    clock.at += timedelta(seconds=31)
    await second.acquire()
    told: list[object] = []
    await asyncio.wait_for(first.keep(asyncio.Event(), told.append), 10)
    assert [(h.host, h.pid) for h in told] == [("stelvio", 202)]  # type: ignore[attr-defined]
