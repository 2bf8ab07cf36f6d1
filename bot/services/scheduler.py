"""The scheduler: deadlines, the one reminder, announcements and lobby timeouts, kept in the database.

Jobs are rows (:class:`~bot.store.tables.Job`), written in the same transaction as the step they
belong to, so a restart finds them all: :meth:`Scheduler.start_up` resolves every step whose orders
are all in, then runs every job that fell due while the process was down. Time comes from the
injected clock: tests move it and call :meth:`Scheduler.run_due`; the bot runs :meth:`Scheduler.run`.

Each job runs at most once where running twice would show (a reminder is marked done before it is
sent) and at least once where it must happen (a deadline is marked done only after its resolution
committed; the resolution's own guard makes a second run harmless).

Any process runs any due job, whichever process owns its race: a scheduler *claims* the due jobs nobody
holds (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two never take the same job) under a lease of
:data:`LEASE_SECONDS`, runs them and marks them done. A busy process leaves the rest to a free one; the
jobs of a process that died are taken once its claims lapse. The lease runs on the real time (it is about
processes, not the race's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services import league, lobby, owed, resolution, supervision
from bot.services.context import Context
from bot.services.dispatch import claimer_name, dead
from bot.services.outcomes import Happening, ReminderDue
from bot.services.queries import load, rowcount, step_orders, utc
from bot.store import outbox
from bot.store.database import unreachable
from bot.store.tables import Job, RaceRow

_log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""How often :meth:`Scheduler.run` looks for due jobs and, on SQLite, for orders stored elsewhere."""
LEASE_SECONDS = 60.0
"""How long a claim holds a job: longer than a resolution takes under load; a dead process's jobs wait
at most this long."""
BATCH = 50
"""Jobs claimed at once (the rest stay free for another process)."""


def _now() -> datetime:
    return datetime.now(UTC)


class Scheduler:
    """Runs due jobs, whichever process owns their race (one at a time: a claim)."""

    def __init__(self, ctx: Context, *, lease: float = LEASE_SECONDS) -> None:
        self.ctx = ctx
        self.lease = lease
        self.claimer = claimer_name(ctx.owner)
        """Who holds this scheduler's claims (machine, process and instance, as the dispatcher names its)."""
        self.interrupted: BaseException | None = None
        """Why the last :meth:`run_due` stopped before its last job (the database went away), if it did."""
        self._failing: set[int | None] = set()

    async def start_up(self) -> list[Happening]:
        """After a (re)start: resolve the steps that are ready, then run everything overdue."""
        happened: list[Happening] = []
        async with self.ctx.db.sessions() as session:
            rows = await session.execute(
                select(col(RaceRow.id)).where(col(RaceRow.status) == "running", col(RaceRow.owner) == self.ctx.owner)
            )
            running = [r for r in rows.scalars() if r is not None]
        for race_id in running:
            happened += await resolution.resolve_if_ready(self.ctx, race_id)
        await league.credit_missed(self.ctx)  # league (issue 18): races a crash left uncredited
        await self.take_over()  # a crash left jobs claimed by this machine's dead process
        happened += await self.run_due()
        return happened

    async def next_due(self) -> datetime | None:
        """When the next job falls due that this scheduler may take (None: nothing scheduled). A job another
        process holds is looked at when its claim lapses, not before (else its lateness would be a busy
        loop here while the other runs it)."""
        real = _now()
        async with self.ctx.db.sessions() as session:
            free = await session.execute(
                select(col(Job.due_at))
                .where(
                    col(Job.done_at).is_(None),
                    or_(col(Job.claimed_until).is_(None), col(Job.claimed_until) < real),
                )
                .order_by(col(Job.due_at))
                .limit(1)
            )
            held = await session.execute(
                select(col(Job.claimed_until))
                .where(col(Job.done_at).is_(None), col(Job.claimed_until) >= real)
                .order_by(col(Job.claimed_until))
                .limit(1)
            )
            due, lapse = free.scalar_one_or_none(), held.scalar_one_or_none()
        times = [utc(due)] if due is not None else []
        if lapse is not None:  # on the race's clock: as far from now as the claim's lapse is in real time
            times.append(self.ctx.clock.now() + (utc(lapse) - real))
        return min(times) if times else None

    async def take_over(self) -> int:
        """Free the jobs claimed by processes of this machine that are gone (killed, crashed): a restart
        runs them now rather than when their claims lapse. How many were freed."""
        async with self.ctx.db.sessions() as session:
            rows = await session.execute(
                select(col(Job.claimed_by))
                .where(col(Job.done_at).is_(None), col(Job.claimed_by).is_not(None))
                .distinct()
            )
            gone = [c for c in rows.scalars() if c is not None and c != self.claimer and dead(c)]
        freed = 0
        for claimer in gone:
            async with self.ctx.db.sessions() as session, session.begin():
                done = await session.execute(
                    update(Job)
                    .where(col(Job.claimed_by) == claimer, col(Job.done_at).is_(None))
                    .values(claimed_by=None, claimed_until=None)
                )
                freed += rowcount(done)
            _log.info("took over the jobs claimed by %s, which is gone", claimer)
        return freed

    async def claim(self, limit: int = BATCH) -> list[Job]:
        """Claim up to ``limit`` jobs due by now that nobody holds, oldest first."""
        now = self.ctx.clock.now()
        real = _now()
        query = (
            select(Job)
            .where(
                col(Job.done_at).is_(None),
                col(Job.due_at) <= now,
                or_(col(Job.claimed_until).is_(None), col(Job.claimed_until) < real),
            )
            .order_by(col(Job.due_at), col(Job.id))
            .limit(limit)
        )
        if self.ctx.db.is_postgres:
            query = query.with_for_update(skip_locked=True)
        async with self.ctx.db.sessions() as session, session.begin():
            jobs = list((await session.execute(query)).scalars())
            if not jobs:
                return []
            # The claim holds only where it is still free (another claimer that read the same rows and
            # wrote first wins them): the jobs are the ones this update took.
            taken = await session.execute(
                update(Job)
                .where(
                    col(Job.id).in_([j.id for j in jobs]),
                    col(Job.done_at).is_(None),
                    or_(col(Job.claimed_until).is_(None), col(Job.claimed_until) < real),
                )
                .values(claimed_by=self.claimer, claimed_until=real + timedelta(seconds=self.lease))
                .returning(col(Job.id))
                .execution_options(synchronize_session=False)
            )
            ours = set(taken.scalars())
        return [j for j in jobs if j.id in ours]

    async def _release(self, job: Job) -> None:
        """A job that failed is free again at once (tried at the next look, by whichever process)."""
        async with self.ctx.db.sessions() as session, session.begin():
            await session.execute(
                update(Job)
                .where(col(Job.id) == job.id, col(Job.claimed_by) == self.claimer, col(Job.done_at).is_(None))
                .values(claimed_by=None, claimed_until=None)
            )

    async def run_due(self) -> list[Happening]:
        """Run every job due by now that nobody else holds, oldest first, and return what happened."""
        happened: list[Happening] = []
        seen: set[int | None] = set()
        while True:
            claimed = await self.claim()
            for again in (j for j in claimed if j.id in seen):  # failed in this look: free for the next one
                await self._release(again)
            jobs = [j for j in claimed if j.id not in seen]
            if not jobs:
                break
            for index, job in enumerate(jobs):
                seen.add(job.id)
                try:
                    happened += await self._run(job)
                except Exception as error:
                    if unreachable(error):  # the rest waits for the database; Scheduler.run retries, logged once
                        self.interrupted = error
                        for left in jobs[index:]:
                            with contextlib.suppress(Exception):
                                await self._release(left)
                        return happened
                    with contextlib.suppress(Exception):
                        await self._release(job)
                    if job.id in self._failing:  # its traceback was logged the first time
                        _log.debug("job %s failed again: %s", job.id, supervision.reason(error))
                        continue
                    self._failing.add(job.id)
                    _log.exception(
                        "job %s (%s of race %s) failed; it will be tried again", job.id, job.kind, job.race_id
                    )
        return happened

    async def _run(self, job: Job) -> list[Happening]:
        ctx = self.ctx
        if job.kind == resolution.REMINDER:
            return await self._reminder(job)
        if job.kind == resolution.DEADLINE:
            if ctx.delivering and await self._waits_for_panels(job):
                return []
            happened = await resolution.resolve(ctx, job.race_id, job.step, force=True)
        elif job.kind == resolution.ANNOUNCEMENT:
            happened = await resolution.publish_announcement(ctx, job.race_id)
        elif job.kind == resolution.LOBBY_TIMEOUT:
            happened = await self._lobby_timeout(job)
        else:
            _log.error("unknown job kind %r", job.kind)
            happened = []
        async with self.ctx.db.sessions() as session, session.begin():
            await self._mark_done(session, job)
        return happened

    async def _waits_for_panels(self, job: Job) -> bool:
        """Whether a panel of the deadline's step has not reached its player yet (the outbox is behind): then
        the step is not played for someone who never saw it, and the deadline is looked at again a whole
        pace on. Once the panel arrives, its delivery moves the deadline to a pace from then
        (:func:`bot.services.resolution.fair_deadline`)."""
        async with self.ctx.db.sessions() as session:  # a read: the common answer is no
            race = await session.get(RaceRow, job.race_id)
            if race is None or not await outbox.panels_owed(session, job.race_id, job.step):
                return False
        async with self.ctx.db.sessions() as session, session.begin():
            await session.execute(
                update(Job)
                .where(col(Job.id) == job.id, col(Job.done_at).is_(None))
                .values(
                    due_at=self.ctx.clock.now() + timedelta(seconds=race.pace_seconds),
                    claimed_by=None,
                    claimed_until=None,
                )
            )
        return True

    async def _mark_done(self, session: AsyncSession, job: Job) -> bool:
        done = await session.execute(
            update(Job)
            .where(
                # The job by its key, not only its id: SQLite reuses the id of a deleted row, and a
                # resolution deletes its step's jobs and adds the next step's.
                col(Job.id) == job.id,
                col(Job.race_id) == job.race_id,
                col(Job.kind) == job.kind,
                col(Job.step) == job.step,
                col(Job.done_at).is_(None),
            )
            .values(done_at=self.ctx.clock.now(), claimed_by=None, claimed_until=None)
        )
        return rowcount(done) == 1

    async def _reminder(self, job: Job) -> list[Happening]:
        """Claim the reminder and write its DMs to the outbox in one transaction: it goes out at most
        once, and a crash after the claim loses none of it."""
        async with self.ctx.db.sessions() as session, session.begin():
            if not await self._mark_done(session, job):
                return []
            loaded = await load(session, job.race_id)
            race = loaded.race
            if race.status != "running" or race.step != job.step:
                return []
            orders = await step_orders(session, job.race_id, job.step)
            deadline = await session.execute(
                select(col(Job.due_at)).where(
                    col(Job.race_id) == job.race_id, col(Job.kind) == resolution.DEADLINE, col(Job.step) == job.step
                )
            )
            due = deadline.scalar_one_or_none()
            if due is None:  # the step was resolved meanwhile
                return []
            gone = loaded.gone  # a member who left the race is reminded of nothing
            late = [e for e in race.awaiting or [] if (e not in orders or not orders[e].complete) and e not in gone]
            seats = {s.entrant: s for s in loaded.seats}
            users = [u for u in (seats[e].user_id for e in late if seats[e].bot is None) if u is not None]
            if not late:
                return []
            owed.reminders_due(session, job.race_id, job.step, users, utc(due), self.ctx.clock.now())
        return [ReminderDue(job.race_id, job.step, late, users, utc(due))]

    async def _lobby_timeout(self, job: Job) -> list[Happening]:
        async with self.ctx.db.sessions() as session:
            race = await session.get(RaceRow, job.race_id)
            if race is None or race.status != "lobby":
                return []
        return [await lobby.cancel(self.ctx, job.race_id, None, reason="lobby_timeout")]

    async def run(self, stop: asyncio.Event, *, start_up: bool = True) -> None:
        """Run jobs as they fall due until ``stop`` is set, posting what happened through the context's sink.

        A failure (the database down, a bug) is retried with backoff and logged once; when the database
        is back, every job that fell due meanwhile runs at once (they are rows, and ``run_due`` takes all
        the overdue ones)."""
        pending_start_up = start_up

        async def step() -> float:
            nonlocal pending_start_up
            if pending_start_up:
                await self.ctx.publish(await self.start_up())
                pending_start_up = False
            await self.ctx.publish(await self.run_due())  # what ran is told even if the rest must wait
            if self.interrupted is not None:
                error, self.interrupted = self.interrupted, None
                raise error
            due = await self.next_due()
            if due is None:
                return POLL_SECONDS
            return max(0.0, min(POLL_SECONDS, (due - self.ctx.clock.now()).total_seconds()))

        await supervision.repeat("the scheduler", step, stop, logger=_log)
