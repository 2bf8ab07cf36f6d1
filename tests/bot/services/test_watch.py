"""Any process may store an order; the race's owner hears of it and resolves."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import orders
from bot.services.context import Context
from bot.services.outcomes import StepResolved
from bot.services.watch import OrderWatcher
from bot.store.database import connect
from tests.bot.services.conftest import Harness


async def _last_order_elsewhere(harness: Harness, race_id: int) -> None:
    """The last order arrives on another shard, which stores it and does not resolve."""
    elsewhere = Context(db=connect(harness.url), clock=harness.clock, owner="shard-1")
    try:
        order = await harness.human_order(race_id, "u3")
        await orders.submit_order(elsewhere, race_id, 3, order, step=1)
        await elsewhere.idle()
    finally:
        await elsewhere.db.close()


async def test_the_owner_finds_an_order_stored_elsewhere_when_it_polls(harness: Harness) -> None:
    """The last order came through another process; the owner's poll resolves the step."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    watcher = OrderWatcher(harness.ctx)
    assert await watcher.poll_once() == []
    await _last_order_elsewhere(harness, race_id)
    assert (await harness.race(race_id)).step == 1
    (resolved,) = [h for h in await watcher.poll_once() if isinstance(h, StepResolved)]
    assert resolved.step == 1 and (await harness.race(race_id)).step == 2


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # LISTEN/NOTIFY is PostgreSQL's; SQLite polls
async def test_on_postgresql_the_owner_is_notified_at_once(harness: Harness) -> None:
    """With PostgreSQL, the storing transaction's NOTIFY makes the owner resolve without polling."""
    assert harness.ctx is not None and harness.ctx.db.is_postgres
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    watcher = OrderWatcher(harness.ctx)
    await watcher.listen()
    try:
        await _last_order_elsewhere(harness, race_id)
        async with asyncio.timeout(10):
            while not any(isinstance(h, StepResolved) and h.step == 1 for h in harness.posted):
                await asyncio.sleep(0.01)
    finally:
        await watcher.close()
    assert (await harness.race(race_id)).step == 2
