"""The door interactions come through: counted while in flight, closed when the bot stops.

A stopping bot must not start work it cannot finish, and should let the work already started end
before it disconnects. Every command and component callback passes :meth:`Gate.entered`; on SIGTERM
:meth:`Gate.close` refuses new ones (they are answered "I'm restarting") and waits, bounded, for the
ones in flight. Abandoning one is safe: an order is committed before it is acknowledged, and a
resolution is one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Gate:
    """Interactions in flight, and whether new ones are taken."""

    def __init__(self) -> None:
        self.open = True
        self.in_flight = 0
        self._idle: asyncio.Event | None = None

    @contextlib.contextmanager
    def entered(self) -> Iterator[None]:
        """Count one interaction while it is handled."""
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            if self.in_flight == 0 and self._idle is not None:
                self._idle.set()

    async def close(self, timeout: float) -> bool:
        """Take no new interaction; wait up to ``timeout`` seconds for those in flight. True if none is left."""
        self.open = False
        if self.in_flight == 0:
            return True
        self._idle = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return self.in_flight == 0
