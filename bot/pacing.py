"""The bot's own pace under Discord's global rate limit, with the most urgent requests first.

Discord allows a bot token 50 requests a second across every route but interactions' (their answers and
follow-ups are exempt), and answers a request past it with a *global* 429. discord.py learns that limit
only from the first 429, and every request already in flight meets its own: under load, a storm. So the
bot paces itself: at most ``rate`` counted requests in any ``window`` seconds (a sliding window, as
Discord counts), a margin below the limit for the time between a request's start here and its arrival
there. A request past the pace waits; waiting requests go out most urgent first (the lowest rank), in
arrival order within one rank, so above the limit no race starves and a player's next choice is never
behind a burst of posts.

The urgency of a request comes from the context that makes it (:func:`urgency`): the outbox's deliverer
sets the rank of the row it delivers (:data:`bot.store.outbox.RANK`: a player's panel, then a round's
post, then the rest); anything else is :data:`UNRANKED`.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

UNRANKED = 9
"""The urgency of a request made outside a delivery (a restore's reads, a command's own calls): after
every ranked one."""

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
"""Routes Discord does not count against the global limit: interactions' answers and their follow-ups."""

_urgency: ContextVar[int] = ContextVar("gregario_urgency", default=UNRANKED)


@contextlib.contextmanager
def urgency(level: int) -> Iterator[None]:
    """The requests made inside this block (and the tasks it starts) wait at ``level``."""
    token = _urgency.set(level)
    try:
        yield
    finally:
        _urgency.reset(token)


class Pacer:
    """At most ``rate`` grants in any ``window`` seconds; waiters served by urgency, then arrival."""

    def __init__(self, rate: int, window: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        if rate < 1 or window <= 0:
            raise ValueError("a pace needs at least one request in a positive window")
        self.rate, self.window, self.clock = rate, window, clock
        self._granted: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._server: asyncio.Task[None] | None = None
        self.waited = 0
        """Grants that had to wait (the pace was met): how often the bot held itself back."""

    def _free(self) -> float:
        """Seconds until a grant is free (0: now), forgetting grants older than the window."""
        now = self.clock()
        while self._granted and now - self._granted[0] >= self.window:
            self._granted.popleft()
        if len(self._granted) < self.rate:
            return 0.0
        return self.window - (now - self._granted[0])

    async def take(self, level: int | None = None) -> None:
        """Wait for a grant at ``level`` (default: the context's :func:`urgency`)."""
        if not self._waiting and self._free() == 0.0:
            self._granted.append(self.clock())
            return
        self.waited += 1
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (_urgency.get() if level is None else level, next(self._order), future))
        if self._server is None or self._server.done():
            self._server = asyncio.get_running_loop().create_task(self._serve())
        await future

    async def _serve(self) -> None:
        """Hand out grants as the window frees them, most urgent waiter first (a cancelled one is skipped)."""
        while self._waiting:
            wait = self._free()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            _level, _order, future = heapq.heappop(self._waiting)
            if future.done():
                continue
            self._granted.append(self.clock())
            future.set_result(None)

    @property
    def queued(self) -> int:
        return sum(1 for *_, future in self._waiting if not future.done())


def counted(path: str) -> bool:
    """Whether a request to ``path`` (a route's path, e.g. ``/channels/{channel_id}/messages``) counts
    against the global limit."""
    return not path.startswith(EXEMPT_PREFIXES)


def install(http: Any, pacer: Pacer) -> None:
    """Pace every counted request of discord.py's HTTP client ``http``: one grant per call of its
    ``request``, which every REST call goes through (its own retries after a 429 wait as Discord says;
    interactions' answers go through the webhook adapter, not here)."""
    request = http.request

    async def paced(route: Any, **kwargs: Any) -> Any:
        if counted(str(getattr(route, "path", ""))):
            await pacer.take()
        return await request(route, **kwargs)

    http.request = paced
