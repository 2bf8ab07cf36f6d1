"""A loop-lag probe: how late the asyncio loop wakes a task that asked to sleep a few milliseconds.

Any call that holds the loop (CPU work, a blocking read) shows up as lag. The tests and
``bench/race_service.py`` run one beside the race services and report the longest stall.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time


class LagProbe:
    """Measures the longest loop stall while it runs (``async with LagProbe() as probe: ...``)."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.longest = 0.0
        """Seconds: the longest extra delay seen."""
        self.busiest = 0.0
        """Seconds: the most CPU the loop's own thread used in one interval (its code holding the loop,
        as opposed to the machine being busy with other processes)."""
        self.samples = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.interval)
            self.longest = max(self.longest, time.perf_counter() - start - self.interval)
            self.busiest = max(self.busiest, time.thread_time() - cpu)
            self.samples += 1

    async def __aenter__(self) -> LagProbe:
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


WATCH_INTERVAL = 0.05
"""How often the running bot's stall watch wakes (it costs one wake-up of the loop)."""


async def watch_stalls(threshold: float, stop: asyncio.Event, logger: logging.Logger) -> None:
    """Log a WARNING each time the loop wakes the watch ``threshold`` seconds or more late, until ``stop``:
    an operator learns that every race and the gateway waited, and for how long (``bench/load.py`` reads
    these lines for the longest stall)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start, cpu = loop.time(), time.thread_time()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), WATCH_INTERVAL)
        late = loop.time() - start - WATCH_INTERVAL
        if late >= threshold and not stop.is_set():
            logger.warning(
                "the event loop stalled for %.0f ms (%.0f ms of it the bot's own work): races and the gateway waited",
                late * 1000,
                (time.thread_time() - cpu) * 1000,
            )
