"""The race services of one running process: connect, migrate, start the workers, recover, run.

The Discord layer starts one :class:`Runtime` in its ``setup_hook`` and closes it on shutdown; what
happens in the background (a step resolved by the last order, a deadline, a reminder, the Gazzetta)
reaches it through ``sink``.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from bot.services.clock import Clock, SystemClock
from bot.services.context import Context, Sink
from bot.services.dispatch import Dispatcher
from bot.services.outcomes import Happening
from bot.services.paces import parse_pace
from bot.services.scheduler import Scheduler
from bot.services.watch import OrderWatcher
from bot.services.workers import Workers
from bot.settings import Settings
from bot.store import migrate
from bot.store.database import connect


@dataclass
class Runtime:
    ctx: Context
    scheduler: Scheduler
    watcher: OrderWatcher
    dispatcher: Dispatcher | None = None
    """Delivers the outbox (the Discord layer sets it); closed after the loops, before the database."""
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _loops: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def start(
        cls, settings: Settings, sink: Sink, *, owner: str = "main", clock: Clock | None = None
    ) -> tuple[Runtime, list[Happening]]:
        """Migrate the database, start the engine workers, resolve what is ready or overdue, and run
        the scheduler and the order watcher in the background. Returns what start-up resolved."""
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
        recovered = await runtime.scheduler.start_up()
        runtime._loops = [
            asyncio.create_task(runtime.scheduler.run(runtime._stop, start_up=False)),
            asyncio.create_task(runtime.watcher.run(runtime._stop)),
        ]
        return runtime, recovered

    async def close(self) -> None:
        """Stop the loops, let background resolutions finish, deliver what they owe, close the workers
        and the database."""
        self._stop.set()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.ctx.idle()
        if self.dispatcher is not None:
            await self.dispatcher.close()
        self.ctx.workers.close()
        await self.ctx.db.close()
