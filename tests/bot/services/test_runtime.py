"""One process's race services, started from the settings: migrated, recovering, running their loops."""

from __future__ import annotations

import asyncio

from bot.services import lobby, orders
from bot.services.clock import ManualClock
from bot.services.outcomes import Happening, RaceCancelled, StepResolved
from bot.services.runtime import Runtime
from bot.settings import Settings
from tests.bot.services.conftest import CHANNEL, member


async def _until(posted: list[Happening], kind: type, seconds: float = 10) -> Happening:
    async with asyncio.timeout(seconds):
        while True:
            found = [h for h in posted if isinstance(h, kind)]
            if found:
                return found[0]
            await asyncio.sleep(0.02)


async def test_the_running_scheduler_cancels_a_forgotten_lobby_and_a_restart_resolves_an_overdue_step(
    database_url: str,
) -> None:
    """The runtime's own loop cancels a lobby nobody started; after a restart past a deadline, the step resolves."""
    clock = ManualClock()
    posted: list[Happening] = []

    async def sink(happening: Happening) -> None:
        posted.append(happening)

    settings = Settings(database_url=database_url, engine_workers=0, lobby_timeout_minutes=60)
    runtime, recovered = await Runtime.start(settings, sink, clock=clock)
    try:
        assert recovered == []
        forgotten = await lobby.open_lobby(runtime.ctx, member(1, "Anna"), CHANNEL, "wyscig")
        view = await lobby.open_lobby(runtime.ctx, member(2, "Bruno"), CHANNEL, "tabella", options={"mode": "live"})
        await lobby.join(runtime.ctx, view.race_id, member(3, "Carla"))
        await lobby.start(runtime.ctx, view.race_id, 2)
        clock.advance(minutes=61)
        cancelled = await _until(posted, RaceCancelled)
        assert cancelled == RaceCancelled(forgotten.race_id, "lobby_timeout")
        first = await _until(posted, StepResolved)  # the Tabella race's first deadline passed too
        assert isinstance(first, StepResolved) and first.step == 1
    finally:
        await runtime.close()
    # Down for twenty minutes, across step 2's deadline: the next runtime resolves it as it starts.
    clock.advance(minutes=20)
    posted.clear()
    runtime, recovered = await Runtime.start(settings, sink, clock=clock)
    try:
        (resolved,) = [h for h in recovered if isinstance(h, StepResolved)]
        assert resolved.step == 2 and all(o.get("auto") for o in resolved.orders.values())
        assert (await orders.panel(runtime.ctx, view.race_id, 2)).step == 3
    finally:
        await runtime.close()
