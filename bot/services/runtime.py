"""The race services of one running process: connect, migrate, start the workers, recover, run.

The Discord layer starts one :class:`Runtime` in its ``setup_hook`` and closes it on shutdown; what
happens in the background (a step resolved by the last order, a deadline, a reminder, the Gazzetta)
reaches it through ``sink``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.services import lease, resolution, supervision
from bot.services.clock import Clock, SystemClock
from bot.services.context import Context, Sink
from bot.services.dispatch import Dispatcher
from bot.services.lag import watch_stalls
from bot.services.outcomes import Happening
from bot.services.paces import parse_pace
from bot.services.scheduler import Scheduler
from bot.services.supervision import Supervisor
from bot.services.watch import OrderWatcher
from bot.services.workers import Workers
from bot.settings import Settings
from bot.store import migrate
from bot.store.database import connect

_log = logging.getLogger(__name__)


@dataclass
class Runtime:
    ctx: Context
    scheduler: Scheduler
    watcher: OrderWatcher
    supervisor: Supervisor = field(default_factory=Supervisor)
    dispatcher: Dispatcher | None = None
    """Delivers the outbox (the Discord layer sets it); closed after the loops, before the database."""

    @classmethod
    async def start(
        cls,
        settings: Settings,
        sink: Sink,
        *,
        owner: str = "main",
        clock: Clock | None = None,
        check: Callable[[Context], Awaitable[object]] | None = None,
    ) -> tuple[Runtime, list[Happening]]:
        """Migrate the database, start the engine workers, resolve what is ready or overdue, and run
        the scheduler and the order watcher in the background. Returns what start-up resolved.
        ``check`` runs before anything is resolved (the Discord layer's look for a restored database)."""
        db = connect(settings.database_url)
        await migrate.upgrade(db)
        workers = Workers(settings.engine_workers)
        await workers.start()
        ctx = Context(
            db=db,
            clock=clock or SystemClock(),
            workers=workers,
            owner=owner,
            default_pace=parse_pace(settings.default_pace),
            lobby_timeout_seconds=settings.lobby_timeout_minutes * 60,
            sink=sink,
        )
        runtime = cls(ctx, Scheduler(ctx), OrderWatcher(ctx))
        if check is not None:
            await check(ctx)
        recovered = await runtime.scheduler.start_up()
        stop = runtime.supervisor.stop
        runtime.supervisor.keep("scheduler", lambda: runtime.scheduler.run(stop, start_up=False))
        runtime.supervisor.keep("order watcher", lambda: runtime.watcher.run(stop))
        runtime.supervisor.keep("adopter", lambda: runtime.adopt_orphans(stop))
        runtime.supervisor.keep("loop-stall watch", lambda: watch_stalls(settings.loop_stall_seconds, stop, _log))
        return runtime, recovered

    async def adopt_once(self) -> list[int]:
        """Take over the races and jobs of owners that are gone (their lease expired, or their process died
        on this host), then resolve what is ready among them; returns the races adopted. Their jobs run at
        the scheduler's next look (they are now this owner's rows)."""
        adopted: list[int] = []
        for owner in await lease.orphans(self.ctx.db, self.ctx.owner):
            adopted += await lease.adopt(self.ctx.db, self.ctx.owner, owner)
        for race_id in adopted:
            await self.ctx.publish(await resolution.resolve_if_ready(self.ctx, race_id))
        return adopted

    async def adopt_orphans(self, stop: asyncio.Event) -> None:
        """Every :data:`~bot.services.lease.ADOPT_SECONDS`, :meth:`adopt_once` (supervised: an outage is
        retried with backoff and logged once)."""

        async def step() -> float:
            await self.adopt_once()
            return lease.ADOPT_SECONDS

        await supervision.repeat("the adopter", step, stop, logger=_log)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop the loops, let background resolutions finish (up to ``timeout`` seconds: a resolution
        cut short commits nothing, and the next start resolves its step again), deliver what they owe
        (bounded; what is left stays in the outbox for the next start), close the workers and the database."""
        await self.supervisor.close(timeout)
        try:
            await asyncio.wait_for(self.ctx.idle(), timeout)
        except TimeoutError:
            _log.warning("race work still running after %.0f s abandoned: it resumes at the next start", timeout)
        if self.dispatcher is not None:
            await self.dispatcher.close()
        self.ctx.workers.close()
        await self.ctx.db.close()
