"""The services' clock, injected so tests move time forward instead of sleeping."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """What the services ask of time: now (UTC) and a way to wait."""

    def now(self) -> datetime: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when told (tests): ``sleep`` returns at once without moving it."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 5, 1, 18, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        """Move time forward by ``seconds`` (or ``minutes=``, ``hours=``...) and return the new now."""
        self._now += timedelta(seconds=seconds, **delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
