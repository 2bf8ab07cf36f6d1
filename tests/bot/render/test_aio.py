"""Pictures are drawn off the event loop, so the bot keeps answering while they render."""

from __future__ import annotations

import asyncio
import threading
import time

from bot.render.aio import off_loop


async def test_drawing_runs_in_the_render_threads() -> None:
    """The work runs in a render thread, not in the event loop's."""
    loop_thread = threading.current_thread().name
    name = await off_loop(lambda: threading.current_thread().name)
    assert name.startswith("render") and name != loop_thread


async def test_the_loop_keeps_ticking_while_a_picture_is_drawn() -> None:
    """While a slow drawing runs for 0.3 s, the loop still runs other tasks every few milliseconds."""
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    task = asyncio.create_task(ticker())
    await off_loop(time.sleep, 0.3)
    task.cancel()
    assert ticks >= 10
