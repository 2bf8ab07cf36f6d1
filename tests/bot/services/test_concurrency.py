"""Exactly once: two processes (two engines, two connection pools) resolve the same step at the same moment."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlmodel import col

from bot.services import orders, resolution, stepping
from bot.services.context import Context
from bot.services.outcomes import StepResolved
from bot.services.workers import Workers
from bot.store.database import connect
from bot.store.tables import OrderRow, StepEvents
from tests.bot.services.conftest import Harness


class BarrierWorkers(Workers):
    """Inline engine work that, after computing a resolution, waits for the other process to get there too."""

    def __init__(self, barrier: asyncio.Barrier) -> None:
        super().__init__(0)
        self.barrier = barrier

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        if fn is stepping.resolve:
            await self.barrier.wait()
        return out


async def test_two_processes_resolving_the_same_step_at_once_resolve_it_once(harness: Harness) -> None:
    """Both computed step 1 and commit together behind a barrier: one wins, the other writes nothing."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    # The last order is stored by a process that does not own the race, so nobody resolves it yet.
    elsewhere = Context(db=connect(harness.url), clock=harness.clock, owner="shard-1")
    last = await harness.human_order(race_id, "u3")
    await orders.submit_order(elsewhere, race_id, 3, last, step=1)
    await elsewhere.db.close()
    assert (await harness.race(race_id)).step == 1

    barrier = asyncio.Barrier(2)
    a = Context(db=connect(harness.url), clock=harness.clock, workers=BarrierWorkers(barrier))
    b = Context(db=connect(harness.url), clock=harness.clock, workers=BarrierWorkers(barrier))
    try:
        first, second = await asyncio.gather(resolution.resolve(a, race_id, 1), resolution.resolve(b, race_id, 1))
    finally:
        await a.db.close()
        await b.db.close()
    resolved = [h for h in first + second if isinstance(h, StepResolved) and h.step == 1]
    assert len(resolved) == 1
    async with harness.ctx.db.sessions() as session:
        events = await session.execute(
            select(func.count()).select_from(StepEvents).where(col(StepEvents.race_id) == race_id)
        )
        step1 = await session.execute(
            select(func.count()).select_from(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.step) == 1)
        )
    assert events.scalar_one() == 2  # the opening (step 0) and step 1, once
    assert step1.scalar_one() == 3
    assert (await harness.race(race_id)).step == 2
