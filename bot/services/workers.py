"""The engine workers: CPU-heavy engine calls run here, off the event loop.

A Tabella bot plans for 10-85 ms and a resolution can take as long; run on the asyncio loop, that
would stall every other race and the Discord gateway. :class:`Workers` sends those calls (the
functions of :mod:`bot.services.stepping`, fed with the state dump) to a process pool of its own, one
worker by default (``GREGARIO_ENGINE_WORKERS``). ``Workers(0)`` runs them inline, for the terminal
and for tests that measure nothing about the loop.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

_log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def warm() -> bool:
    """Import the four rule systems (in a worker, and in the bot's own process, which checks orders),
    so the first race does not pay for it while holding the loop."""
    from engine.registry import RULESET_IDS, get_ruleset

    for rid in RULESET_IDS:
        get_ruleset(rid)
    return True


class Workers:
    """A pool of engine worker processes (``count`` of them; 0 = run inline)."""

    def __init__(self, count: int = 1, executor: Executor | None = None) -> None:
        self.count = count
        self._executor: Executor | None = executor
        if executor is None and count > 0:
            self._executor = self._pool()

    def _pool(self) -> ProcessPoolExecutor:
        # "spawn": a fresh interpreter, never a fork of a process holding an event loop and threads.
        return ProcessPoolExecutor(self.count, mp_context=multiprocessing.get_context("spawn"))

    async def start(self) -> None:
        """Start the workers and import the engine there (start-up pays, not the first order)."""
        warm()
        if self._executor is not None:
            await asyncio.gather(*(self.run(warm) for _ in range(max(self.count, 1))))

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in a worker (inline when there is none)."""
        if self._executor is None:
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, _call, fn, args, kwargs)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the call did nothing anyone relies on (it only
            # computes), so start a new pool and run it again once.
            _log.warning("an engine worker died; starting new workers")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._pool()
            return await loop.run_in_executor(self._executor, _call, fn, args, kwargs)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fn(*args, **kwargs)
