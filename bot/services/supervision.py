"""Background work that outlives a database or Discord outage.

A bot serves for weeks; the database restarts, the network drops, a bug fires once. Nothing that runs in
the background may stop for good because of one error, and an operator's log must show an outage as
two lines (it began, it ended), not a traceback a second. Three tools:

- :class:`Streak` counts the failures of one piece of work in a row: the first is logged once (WARNING,
  one line; a bug's traceback once at ERROR), the rest only at DEBUG, the recovery at INFO; it hands out
  the next wait (capped exponential backoff).
- :func:`repeat` runs a step (``async () -> seconds until the next step``) until a stop event, backing
  off on failure; a wake event cuts a wait short.
- :class:`Supervisor` keeps long-lived tasks alive: a task that dies or ends before the stop is restarted
  (ERROR with the reason), and :meth:`Supervisor.close` stops them all within a bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.store.database import unreachable

_log = logging.getLogger(__name__)

FIRST_DELAY = 0.5
"""The wait after a first failure, in seconds; each further failure doubles it..."""
MAX_DELAY = 5.0
"""...up to this: once the database is back, overdue work runs within a few seconds."""


def reason(error: BaseException) -> str:
    """One line saying what went wrong: the error's type and the first line of its text (SQLAlchemy adds
    its SQL and a link on further lines; they belong in a debugging session, not in the log)."""
    original = getattr(error, "orig", None)
    shown = original if isinstance(original, BaseException) else error
    text = str(shown).strip().splitlines()[0] if str(shown).strip() else ""
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"{type(shown).__name__}: {text}" if text else type(shown).__name__


class Streak:
    """The failures in a row of one piece of background work (``what``, e.g. "the scheduler")."""

    def __init__(
        self, what: str, *, logger: logging.Logger = _log, first: float = FIRST_DELAY, cap: float = MAX_DELAY
    ) -> None:
        self.what = what
        self.failures = 0
        self._log = logger
        self._first, self._cap = first, cap
        self._since = 0.0

    def failed(self, error: BaseException) -> float:
        """Note a failure (logged if it is the first of a streak); return how long to wait before retrying."""
        self.failures += 1
        if self.failures == 1:
            self._since = time.monotonic()
            if unreachable(error):
                self._log.warning("%s cannot reach the database (%s); retrying", self.what, reason(error))
            elif _discord_trouble(error):
                self._log.warning("%s cannot reach Discord (%s); retrying", self.what, reason(error))
            else:  # a bug: its traceback once, so it can be fixed; the retries stay quiet
                self._log.error("%s failed (%s); retrying", self.what, reason(error), exc_info=error)
        else:
            self._log.debug("%s failed again (%s, %d in a row)", self.what, reason(error), self.failures)
        return float(min(self._cap, self._first * 2 ** (self.failures - 1)))

    def succeeded(self) -> None:
        """Note a success: after a streak of failures, say that the work is back (INFO)."""
        if self.failures:
            self._log.info(
                "%s works again (after %d failures in %.0f s)", self.what, self.failures, time.monotonic() - self._since
            )
        self.failures = 0


def _discord_trouble(error: BaseException) -> bool:
    """A Discord outage as discord.py or aiohttp report it (only when they are loaded: services never import
    them)."""
    import sys

    discord, aiohttp = sys.modules.get("discord"), sys.modules.get("aiohttp")
    if discord is not None and isinstance(error, discord.DiscordServerError | discord.GatewayNotFound):
        return True
    return aiohttp is not None and isinstance(error, aiohttp.ClientError)  # Discord's HTTP unreachable


async def pause(stop: asyncio.Event, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Wait ``seconds``, or less if ``stop`` (or ``wake``, which is then cleared) is set meanwhile."""
    waits = [asyncio.ensure_future(stop.wait())]
    if wake is not None:
        waits.append(asyncio.ensure_future(wake.wait()))
    try:
        await asyncio.wait(waits, timeout=max(0.0, seconds), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()
        if wake is not None:
            wake.clear()


async def repeat(
    what: str,
    step: Callable[[], Awaitable[float]],
    stop: asyncio.Event,
    *,
    wake: asyncio.Event | None = None,
    logger: logging.Logger = _log,
    first: float = FIRST_DELAY,
    cap: float = MAX_DELAY,
) -> None:
    """Run ``step`` until ``stop`` is set, waiting the seconds it returns between runs; when it raises,
    wait a backoff instead (see :class:`Streak`). Never raises but for cancellation."""
    streak = Streak(what, logger=logger, first=first, cap=cap)
    while not stop.is_set():
        try:
            wait = await step()
        except Exception as error:
            wait = streak.failed(error)
        else:
            streak.succeeded()
        await pause(stop, wait, wake)


class Supervisor:
    """Long-lived background tasks, kept alive until :meth:`close`.

    ``keep(name, factory)`` runs ``factory()`` (a coroutine that should run until the supervisor's
    ``stop`` event is set); if it raises or returns before that, the death is logged (ERROR, one line
    with the reason; the traceback at DEBUG) and a fresh ``factory()`` starts after a backoff.
    """

    def __init__(self, stop: asyncio.Event | None = None, *, logger: logging.Logger = _log) -> None:
        self.stop = stop if stop is not None else asyncio.Event()
        self._log = logger
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def keep(self, name: str, factory: Callable[[], Coroutine[Any, Any, None]]) -> asyncio.Task[None]:
        """Start ``name`` and keep it running until :meth:`close`."""
        task = asyncio.get_running_loop().create_task(self._guard(name, factory), name=f"gregario:{name}")
        self._tasks[name] = task
        return task

    async def _guard(self, name: str, factory: Callable[[], Coroutine[Any, Any, None]]) -> None:
        deaths = 0
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                await factory()
                if self.stop.is_set():
                    return
                why = "it returned"
            except asyncio.CancelledError:
                raise
            except Exception as error:
                why = reason(error)
                self._log.debug("%s died", name, exc_info=error)
            deaths = 1 if time.monotonic() - started > 60 else deaths + 1  # a long healthy run forgives
            delay = min(MAX_DELAY, FIRST_DELAY * 2 ** (deaths - 1))
            self._log.error("background task %s stopped (%s); restarting it in %.1f s", name, why, delay)
            await pause(self.stop, delay)

    @property
    def names(self) -> list[str]:
        """The tasks still running."""
        return [name for name, task in self._tasks.items() if not task.done()]

    async def close(self, timeout: float = 5.0) -> None:
        """Set ``stop``; wait up to ``timeout`` seconds for the tasks to end, then cancel the rest."""
        self.stop.set()
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                self._log.warning("background task %s did not stop in %.0f s; cancelling it", task.get_name(), timeout)
                task.cancel()
            for task in late:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._tasks.clear()
