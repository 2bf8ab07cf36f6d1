"""The running bot's stall watch: a loop held past the threshold is a WARNING saying for how long."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from bot.services.lag import watch_stalls


async def test_a_loop_held_past_the_threshold_is_logged_and_a_quiet_one_is_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Holding the loop for 0.3 s logs one stall of at least 250 ms (the watch wakes every 50 ms); waiting
    without holding it logs none."""
    logger = logging.getLogger("tests.lag")
    stop = asyncio.Event()
    caplog.set_level(logging.WARNING, logger="tests.lag")
    watch = asyncio.create_task(watch_stalls(0.2, stop, logger))
    await asyncio.sleep(0.1)
    time.sleep(0.3)  # the stall under test
    await asyncio.sleep(0.1)
    stop.set()
    await watch
    stalls = [int(m.group(1)) for r in caplog.records if (m := re.search(r"stalled for (\d+) ms", r.getMessage()))]
    assert len(stalls) == 1 and stalls[0] >= 250, caplog.text
