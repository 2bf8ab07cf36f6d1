"""What every service needs: the database, the clock, the engine workers and who this process is."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.services.clock import Clock, SystemClock
from bot.services.outcomes import Happening, MemberRef
from bot.services.paces import Pace, parse_pace
from bot.services.supervision import reason
from bot.services.workers import Workers
from bot.store.database import Database, unreachable

_log = logging.getLogger(__name__)

Sink = Callable[[Happening], Awaitable[None]]


async def _drop(_: Happening) -> None:
    return None


@dataclass
class Context:
    """The services' shared equipment. ``owner`` names this process (its shard): it resolves the races
    it owns; any process may store orders. ``sink`` receives what happened in the background (a step
    resolved after the last order, a deadline...), for the Discord layer to post."""

    db: Database
    clock: Clock = field(default_factory=SystemClock)
    workers: Workers = field(default_factory=lambda: Workers(0))
    owner: str = "main"
    default_pace: Pace = field(default_factory=lambda: parse_pace("fast"))
    lobby_timeout_seconds: int = 3600
    sink: Sink = _drop
    delivering: bool = False
    """Whether this process delivers what the races owe Discord (a dispatcher runs: the bot). Then a step's
    deadline waits for its panels to reach their players (:meth:`bot.services.scheduler.Scheduler`); a
    context that delivers nothing (the services' tests, a script) has no panels to wait for."""
    members_seen: dict[MemberRef, datetime] = field(default_factory=dict)
    """Members this process wrote lately, as it wrote them (:func:`bot.services.posts.touch_member`)."""
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (kept referenced; errors are logged, never lost silently)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        error = task.exception()
        assert error is not None
        if unreachable(error):  # an outage, not a bug: one line; the scheduler and the poll try it again
            _log.warning("background race work failed: the database cannot be reached (%s)", reason(error))
        else:
            _log.error("background race work failed", exc_info=error)

    async def idle(self) -> None:
        """Wait until no background work is left (tests; a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def publish(self, happenings: list[Happening]) -> None:
        for happening in happenings:
            await self.sink(happening)
