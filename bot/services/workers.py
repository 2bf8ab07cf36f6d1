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
import os
import signal
import sys
import threading
import time
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
        return ProcessPoolExecutor(
            self.count,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=bind_to_parent,
            initargs=(os.getpid(),),
        )

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


PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot is still its parent (where the kernel cannot tell it)."""
PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process receives when its parent dies."""


def bind_to_parent(parent: int) -> None:
    """A worker's initializer: the worker dies with the bot, however the bot dies (SIGKILL included).

    On Linux the kernel sends the worker SIGKILL the moment its parent dies (``PR_SET_PDEATHSIG``);
    everywhere, a daemon thread checks every second that the bot is still the parent (once orphaned, a
    process is adopted by another). With the workers gone, multiprocessing's resource tracker (a child
    of the bot that reads a pipe they share) sees the pipe close and ends too."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc to ask: the thread below still watches
            pass
    if os.getppid() != parent:  # the bot died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="gregario-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fn(*args, **kwargs)
