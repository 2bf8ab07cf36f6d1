"""The engine workers: calls run in another process, and a worker that dies is replaced."""

from __future__ import annotations

import os
import signal

from bot.services.workers import Workers


def _pid() -> int:
    return os.getpid()


async def test_engine_work_runs_in_another_process_and_a_dead_worker_is_replaced() -> None:
    """The call runs outside the bot's process; after the worker is killed, the next call still answers."""
    workers = Workers(1)
    try:
        first = await workers.run(_pid)
        assert first != os.getpid()
        os.kill(first, signal.SIGKILL)
        second = await workers.run(_pid)
        assert second not in (first, os.getpid())
    finally:
        workers.close()


async def test_inline_workers_run_in_the_bots_own_process() -> None:
    """Workers(0) runs the call in place (the terminal, tests that measure nothing about the loop)."""
    workers = Workers(0)
    assert await workers.run(_pid) == os.getpid()
