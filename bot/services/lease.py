"""One owner per shard range: a lease for each `gregario run`'s name (``main``, or ``shards 0-1 of 4``).

Two processes with the same owner name on one database would both resolve, remind and post: steps told
twice, clicks answered twice. So a process takes its owner's lease before it connects to Discord (a row
in ``process_leases``: who holds it, where, since when, until when), renews it with a heartbeat, and
releases it when it stops. A second process with the same name finds the lease held and refuses to
start, naming the holder; processes with other shard ranges each hold their own. A lease whose holder
stopped renewing (killed, its machine gone) expires after :data:`TTL_SECONDS` and may be taken over; on
the same host a holder whose pid is gone is known dead at once, so a restart after a crash does not wait.

A dead owner's races are not left waiting for it: :func:`adopt` gives every live process the running
races and pending jobs of an owner whose lease expired (or that holds none), in one transaction under
the lease row's lock, so exactly one process adopts them (its scheduler then runs their jobs, it resolves
them on news). Resolving stays safe whoever does it (the compare-and-set of
:mod:`bot.services.resolution`); the outbox is any process's (:mod:`bot.services.dispatch`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from bot.services import supervision
from bot.services.queries import rowcount, utc
from bot.store.database import Database
from bot.store.tables import Job, ProcessLease, RaceRow

_log = logging.getLogger(__name__)

TTL_SECONDS = 30.0
"""How long a lease lasts without a heartbeat."""
HEARTBEAT_SECONDS = 10.0
"""How often the holder renews it (three heartbeats may fail before it expires)."""
ADOPT_SECONDS = 5.0
"""How often a process looks for owners that are gone (their races wait at most this past the lease)."""
LIVE = ("lobby", "running")
"""Race statuses that have an owner's work left (jobs, resolutions)."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Holder:
    """Who holds a lease, as an operator reads it."""

    host: str
    pid: int
    since: datetime

    def __str__(self) -> str:
        return f"process {self.pid} on {self.host}, since {utc(self.since):%Y-%m-%d %H:%M:%S} UTC"


class LeaseHeld(Exception):
    """Another process holds the lease (and it has not expired)."""

    def __init__(self, holder: Holder) -> None:
        super().__init__(str(holder))
        self.holder = holder


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except OSError:
        return True
    return True


@dataclass
class Lease:
    """This process's claim on the database ``db`` under ``name`` (the owner name, ``main``)."""

    db: Database
    name: str = "main"
    holder: str = field(default_factory=lambda: uuid.uuid4().hex)
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    now: Callable[[], datetime] = _now
    ttl: float = TTL_SECONDS

    async def acquire(self) -> None:
        """Take the lease, or raise :class:`LeaseHeld` naming the process that holds it."""
        for _attempt in range(3):
            try:
                await self._acquire_once()
                return
            except IntegrityError:  # another process inserted the row first (PostgreSQL): look again
                continue
        await self._acquire_once()

    async def _acquire_once(self) -> None:
        now = self.now()
        expires = now + timedelta(seconds=self.ttl)
        async with self.db.sessions() as session, session.begin():  # SQLite: BEGIN IMMEDIATE, one writer
            row = await session.get(ProcessLease, self.name, with_for_update=True)
            if row is None:
                session.add(
                    ProcessLease(
                        name=self.name,
                        holder=self.holder,
                        host=self.host,
                        pid=self.pid,
                        since=now,
                        heartbeat_at=now,
                        expires_at=expires,
                    )
                )
                return
            if row.holder != self.holder and utc(row.expires_at) > now and not self._dead(row):
                raise LeaseHeld(Holder(row.host, row.pid, row.since))
            if row.holder != self.holder:
                gone = Holder(row.host, row.pid, row.since)
                _log.info("taking over the database from %s (it stopped renewing its lease)", gone)
                row.since = now
            row.holder, row.host, row.pid = self.holder, self.host, self.pid
            row.heartbeat_at, row.expires_at = now, expires

    def _dead(self, row: ProcessLease) -> bool:
        """A holder on this host whose process is gone (killed, crashed) is dead, whatever its lease says."""
        return row.host == self.host and row.pid != self.pid and not _pid_alive(row.pid)

    async def renew(self) -> bool:
        """Extend the lease; False if it is no longer ours (it expired and another process took it)."""
        now = self.now()
        async with self.db.sessions() as session, session.begin():
            renewed = await session.execute(
                update(ProcessLease)
                .where(col(ProcessLease.name) == self.name, col(ProcessLease.holder) == self.holder)
                .values(heartbeat_at=now, expires_at=now + timedelta(seconds=self.ttl))
            )
        return rowcount(renewed) == 1

    async def release(self) -> None:
        """Give the lease up (a clean stop): the next process starts at once."""
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                delete(ProcessLease).where(col(ProcessLease.name) == self.name, col(ProcessLease.holder) == self.holder)
            )

    async def holder_now(self) -> Holder | None:
        """Who holds the lease now (None: nobody)."""
        async with self.db.sessions() as session:
            row = await session.get(ProcessLease, self.name)
            return None if row is None else Holder(row.host, row.pid, row.since)

    async def keep(self, stop: asyncio.Event, lost: Callable[[Holder | None], None]) -> None:
        """Renew every :data:`HEARTBEAT_SECONDS` until ``stop``; an outage is retried (logged once). If
        the lease turns out to be another's, call ``lost`` with the new holder once, set ``stop`` (the
        heartbeat's own event) and stop renewing."""

        async def beat() -> float:
            if not await self.renew():
                holder = await self.holder_now()
                stop.set()
                lost(holder)
            return HEARTBEAT_SECONDS

        await supervision.repeat("the lease heartbeat", beat, stop, logger=_log)


def _gone(row: ProcessLease | None, now: datetime, host: str) -> bool:
    """Whether an owner's lease says nobody runs it: no lease, an expired one, or a dead pid on this host."""
    if row is None:
        return True
    if utc(row.expires_at) <= now:
        return True
    return row.host == host and row.pid != os.getpid() and not _pid_alive(row.pid)


async def orphans(db: Database, me: str, now: datetime | None = None, host: str | None = None) -> list[str]:
    """The owners other than ``me`` with races or jobs left whom no live process holds."""
    now = now or _now()
    host = host or socket.gethostname()
    async with db.sessions() as session:
        racing = await session.execute(select(col(RaceRow.owner)).where(col(RaceRow.status).in_(LIVE)).distinct())
        waiting = await session.execute(select(col(Job.owner)).where(col(Job.done_at).is_(None)).distinct())
        owners = {o for o in [*racing.scalars(), *waiting.scalars()] if o and o != me}
        found = []
        for owner in sorted(owners):
            if _gone(await session.get(ProcessLease, owner), now, host):
                found.append(owner)
    return found


async def adopt(db: Database, me: str, owner: str, now: datetime | None = None, host: str | None = None) -> list[int]:
    """Make ``me`` the owner of ``owner``'s live races and pending jobs if ``owner`` is gone (checked again
    under its lease row's lock, so two adopters never both take them); returns the races adopted."""
    now = now or _now()
    host = host or socket.gethostname()
    async with db.sessions() as session, session.begin():
        row = await session.get(ProcessLease, owner, with_for_update=True)
        if not _gone(row, now, host):
            return []  # it came back (or another process adopted and a new holder started)
        ids = await session.execute(
            select(col(RaceRow.id)).where(col(RaceRow.owner) == owner, col(RaceRow.status).in_(LIVE))
        )
        races = [int(r) for r in ids.scalars() if r is not None]
        await session.execute(
            update(RaceRow)
            .where(col(RaceRow.owner) == owner, col(RaceRow.status).in_(LIVE))
            .values(owner=me)
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            update(Job)
            .where(col(Job.owner) == owner, col(Job.done_at).is_(None))
            .values(owner=me)
            .execution_options(synchronize_session=False)
        )
        if row is not None:
            await session.delete(row)
    if races:
        _log.info("%s took over %s races of %s, which is gone: %s", me, len(races), owner, races)
    return races
