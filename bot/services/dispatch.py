"""The dispatcher: delivers the outbox's rows, in order per race, once, whichever process runs it.

Rows are claimed in the database (:func:`bot.store.outbox.claim`: each race's oldest undelivered row,
under a lease), so the order of a race's posts comes from the database and two dispatchers, in one
process or in two, never deliver the same row at once. A commit that wrote rows wakes the dispatcher;
a poll backs the wake-up (rows written by another process, a retry falling due). The deliverer (the
Discord side, :mod:`bot.exts.race._delivery`) renders a row and makes the call; it raises
:class:`DeliveryFailed` for a failure it understands. A transient failure is tried again with backoff,
keeping the row's place; a permanent one is recorded and the race's later rows go on.

A create carries the row's nonce (Discord returns the message already made instead of a second one),
so a row whose delivery was cut off (a crash after the create, before :func:`~bot.store.outbox.finish`)
is delivered again when its lease runs out, without a duplicate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.services.context import Context
from bot.services.supervision import Streak
from bot.store import outbox as store
from bot.store.outbox import Delivery, Owed

_log = logging.getLogger(__name__)

LEASE_SECONDS = 20.0
"""How long a claim holds a race's next row: longer than any delivery, short enough that a row a killed
process had claimed is taken over soon after."""
POLL_SECONDS = 1.0
BATCH = 8
"""Rows claimed at once (each of a different race), delivered concurrently."""
MAX_ATTEMPTS = 8
"""Transient failures allowed before a row is given up (backoff 1, 2, 4 ... 60 s: about four minutes)."""
DRAIN_SECONDS = 5.0
"""How long a clean shutdown keeps delivering what is owed."""
SWEEP_SECONDS = 15.0
"""How often a dispatcher looks for claims held by dead processes on its own machine."""
HOST = socket.gethostname()


class DeliveryFailed(Exception):
    """A delivery that did not happen, and whether trying again may help."""

    def __init__(self, reason: str, *, permanent: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent


Deliver = Callable[[Owed], Awaitable[Delivery]]


def _now() -> datetime:
    """Leases and retries run on the real time (they are about Discord and processes, not the race's clock)."""
    return datetime.now(UTC)


def claimer_name(owner: str) -> str:
    return f"{owner}@{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def dead(claimer: str) -> bool:
    """Whether ``claimer`` was a process of this machine that is gone (killed, crashed): its claims need
    not wait for their lease. A claimer elsewhere is never judged dead (its lease runs out instead)."""
    _owner, _, rest = claimer.rpartition("@")
    host, _, pid_part = rest.partition(":")
    pid = pid_part.partition(":")[0]
    if host != HOST or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def backoff(attempts: int) -> float:
    return float(min(2 ** max(attempts - 1, 0), 60))


class Dispatcher:
    """Delivers outbox rows through ``deliver`` until closed."""

    def __init__(
        self,
        ctx: Context,
        deliver: Deliver,
        *,
        lease: float = LEASE_SECONDS,
        poll: float = POLL_SECONDS,
        batch: int = BATCH,
    ) -> None:
        self.ctx = ctx
        self.deliver = deliver
        self.lease, self.poll, self.batch = lease, poll, batch
        self.claimer = claimer_name(ctx.owner)
        """Who holds a claim: this dispatcher (machine, process and instance), never another one's name."""
        self.delivered = 0
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        ctx.db.on_outbox(self.wake)
        ctx.delivering = True

    def wake(self) -> None:
        """Rows were written: look at once."""
        self._wake.set()

    async def deliver_once(self) -> int:
        """Claim each race's next row (a batch) and deliver them; how many were claimed."""
        claimed = await store.claim(self.ctx.db, self.claimer, _now(), self.lease, self.batch)
        if claimed:
            await asyncio.gather(*(self._one(row) for row in claimed))
        return len(claimed)

    async def _one(self, row: Owed) -> None:
        began = time.monotonic()
        try:
            delivery = await self.deliver(row)
        except DeliveryFailed as failed:
            await self._failed(row, failed.reason, failed.permanent)
            return
        except Exception as exc:  # a bug in rendering: logged, tried again, never blocking the race forever
            _log.exception("outbox row %s (%s of race %s) failed", row.id, row.kind.value, row.race_id)
            await self._failed(row, f"{type(exc).__name__}: {exc}", False)
            return
        delivered = time.monotonic()
        if await store.finish(self.ctx.db, row, self.claimer, delivery, _now()):
            self.delivered += 1
        _log.debug(
            "race %s: %s (row %s) delivered in %.0f ms, recorded in %.0f ms",
            row.race_id,
            row.kind.value,
            row.id,
            (delivered - began) * 1000,
            (time.monotonic() - delivered) * 1000,
        )

    async def _failed(self, row: Owed, reason: str, permanent: bool) -> None:
        if permanent or row.attempts + 1 >= MAX_ATTEMPTS:
            _log.warning(
                "race %s: %s (row %s) given up after %s attempts: %s",
                row.race_id,
                row.kind.value,
                row.id,
                row.attempts + 1,
                reason,
            )
            await store.give_up(self.ctx.db, row, reason, _now())
            return
        wait = backoff(row.attempts + 1)
        _log.info(
            "race %s: %s (row %s) failed (%s); again in %.0f s", row.race_id, row.kind.value, row.id, reason, wait
        )
        await store.retry_later(self.ctx.db, row, reason, _now() + timedelta(seconds=wait))

    async def take_over(self) -> int:
        """Release the claims of dead processes of this machine (a crash mid-delivery), so their rows are
        delivered now rather than when the lease runs out; how many rows were released."""
        released = 0
        for claimer in await store.holders(self.ctx.db, _now()):
            if claimer != self.claimer and dead(claimer):
                count = await store.release(self.ctx.db, claimer)
                _log.info("took over %s outbox rows claimed by %s, which is gone", count, claimer)
                released += count
        return released

    async def run(self) -> None:
        """Deliver until :meth:`close`: at once after a wake-up, else every ``poll`` seconds. A database or
        Discord outage is logged once (and its end once), with a capped backoff meanwhile (supervision)."""
        loop = asyncio.get_running_loop()
        swept = -SWEEP_SECONDS
        reading = Streak("the dispatcher", logger=_log)
        sweeping = Streak("the dispatcher's look for dead processes' claims", logger=_log)
        while not self._stop.is_set():
            self._wake.clear()
            wait = self.poll
            if loop.time() - swept >= SWEEP_SECONDS:
                swept = loop.time()
                try:
                    await self.take_over()
                    sweeping.succeeded()
                except Exception as exc:
                    sweeping.failed(exc)
            try:
                delivered = await self.deliver_once()
                reading.succeeded()
                if delivered:
                    continue
            except Exception as exc:
                wait = max(wait, reading.failed(exc))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    def start(self) -> None:
        """Run in the background (every undelivered row, from before a restart too, is resumed)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run())

    async def drain(self, timeout: float = DRAIN_SECONDS) -> int:
        """Deliver what can be delivered now, until nothing is left to claim or ``timeout`` passes."""
        total = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while count := await self.deliver_once():
                    total += count
        return total

    async def close(self, *, drain: float = DRAIN_SECONDS) -> None:
        """Stop the loop, then deliver what is still owed for up to ``drain`` seconds."""
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if drain > 0:
            try:
                await self.drain(drain)
            except Exception:
                _log.warning("the outbox could not be drained before stopping", exc_info=True)
        try:
            await store.release(self.ctx.db, self.claimer)  # a delivery cut short is taken over at once
        except Exception:
            _log.warning("could not release the outbox claims", exc_info=True)
        with contextlib.suppress(ValueError):
            self.ctx.db.wakers.remove(self.wake)
