"""One process at a time per database: the lease is held, renewed, released, and taken over only when it lapsed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services.lease import Lease, LeaseHeld
from bot.store import migrate
from bot.store.database import Database, connect
from tests.bot.services.conftest import Harness


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


# --- one owner per shard range, and the races of an owner that is gone ------------------------------


async def test_each_shard_range_holds_its_own_lease_and_a_range_twice_is_refused(db: Database) -> None:
    """Two processes with different shard ranges both run; a third with the first's range is refused."""
    clock = Clock()
    low = Lease(db, "shards 0-0 of 2", host="alpe", pid=101, now=clock)
    high = Lease(db, "shards 1-1 of 2", host="stelvio", pid=202, now=clock)
    await low.acquire()
    await high.acquire()
    again = Lease(db, "shards 0-0 of 2", host="mortirolo", pid=303, now=clock)
    with pytest.raises(LeaseHeld) as refused:
        await again.acquire()
    assert refused.value.holder.pid == 101


async def test_the_races_and_jobs_of_a_gone_owner_are_adopted_once(harness: Harness) -> None:
    """A race of the owner ``shards 1-1 of 2`` whose lease lapsed: the first live process to look adopts it
    with its deadline (its scheduler now runs it) and its ready step is resolved; a second adopter finds
    nothing left; an owner whose lease is live keeps its races."""
    from bot.services import lease as leases
    from bot.store.tables import Job, RaceRow

    assert harness.ctx is not None
    gone = "shards 1-1 of 2"
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    kept_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    async with harness.ctx.db.sessions() as session, session.begin():
        for rid, owner in ((race_id, gone), (kept_id, "shards 2-2 of 3")):
            row = await session.get(RaceRow, rid)
            assert row is not None
            row.owner = owner
            for job in (await session.execute(select(Job).where(col(Job.race_id) == rid))).scalars():
                job.owner = owner
    live = Lease(harness.ctx.db, "shards 2-2 of 3", host="elsewhere", pid=1)
    await live.acquire()
    dead = Lease(harness.ctx.db, gone, host="elsewhere", pid=2, now=lambda: datetime.now(UTC) - timedelta(minutes=5))
    await dead.acquire()  # its heartbeat stopped five minutes ago
    assert await leases.orphans(harness.ctx.db, "main") == [gone]
    await harness.order_all(race_id)  # stored meanwhile by shard 0; the owner is gone: nobody resolves
    assert (await harness.race(race_id)).step == 1

    assert await leases.adopt(harness.ctx.db, "main", gone) == [race_id]
    assert await leases.adopt(harness.ctx.db, "shards 0-0 of 3", gone) == []
    assert (await harness.race(race_id)).owner == "main" and (await harness.race(kept_id)).owner != "main"
    async with harness.ctx.db.sessions() as session:
        owners = (await session.execute(select(col(Job.owner)).where(col(Job.race_id) == race_id))).scalars().all()
    assert owners and set(owners) == {"main"}
    assert await leases.orphans(harness.ctx.db, "main") == []
    from bot.services import resolution

    await resolution.resolve_if_ready(harness.ctx, race_id)
    assert (await harness.race(race_id)).step == 2
