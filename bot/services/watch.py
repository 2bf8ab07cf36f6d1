"""How the owner of a race learns of orders another process stored.

Any process may store an order (DMs arrive on shard 0 whatever server the race is in); only the
race's owner resolves. On PostgreSQL the storing transaction sends ``NOTIFY gregario_orders, '<race>'``
and the owner LISTENs; a slow poll backs it up (a notification sent while the listener reconnects is
lost). SQLite is a single machine's file: the owner polls every second for races whose ``orders_rev``
moved since it last looked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlmodel import col

from bot.services import resolution, supervision
from bot.services.context import Context
from bot.services.orders import NOTIFY_CHANNEL
from bot.services.outcomes import Happening
from bot.store.tables import RaceRow

_log = logging.getLogger(__name__)

SQLITE_POLL_SECONDS = 1.0
POSTGRES_POLL_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 5.0


class OrderWatcher:
    """Resolves this process's races when another process stored their last order."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._seen: dict[int, int] = {}
        self._connection: Any = None
        self._lost = asyncio.Event()

    async def poll_once(self) -> list[Happening]:
        """Look at every running race of this owner whose orders changed since last time."""
        async with self.ctx.db.sessions() as session:
            rows = await session.execute(
                select(col(RaceRow.id), col(RaceRow.orders_rev)).where(
                    col(RaceRow.status) == "running", col(RaceRow.owner) == self.ctx.owner
                )
            )
            changed = [(rid, rev) for rid, rev in rows.all() if rid is not None and self._seen.get(rid) != rev]
        happened: list[Happening] = []
        for race_id, rev in changed:
            happened += await resolution.resolve_if_ready(self.ctx, race_id)
            self._seen[race_id] = rev  # only once looked at: a race whose resolution failed is looked at again
        return happened

    @property
    def listening(self) -> bool:
        """Whether the LISTEN connection is open (it closes when PostgreSQL restarts or the network drops)."""
        return self._connection is not None and not self._connection.is_closed()

    async def listen(self) -> None:
        """Start LISTENing (PostgreSQL only): each notification resolves its race in the background.
        A connection lost since is closed and opened again."""
        if not self.ctx.db.is_postgres or self.listening:
            return
        await self.close()
        import asyncpg

        url = make_url(self.ctx.db.url)
        connection = await asyncpg.connect(
            host=url.host,
            port=url.port,
            user=url.username,
            password=url.password,
            database=url.database,
            timeout=CONNECT_TIMEOUT_SECONDS,
        )

        def on_notify(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            with contextlib.suppress(ValueError):
                self.ctx.spawn(self._resolve(int(payload)))

        def on_lost(_conn: Any) -> None:
            self._lost.set()  # the loop reconnects at once rather than at its next poll

        try:
            await connection.add_listener(NOTIFY_CHANNEL, on_notify)
            connection.add_termination_listener(on_lost)
        except BaseException:
            await connection.close()
            raise
        self._connection = connection

    async def _resolve(self, race_id: int) -> None:
        await self.ctx.publish(await resolution.resolve_if_ready(self.ctx, race_id))

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            with contextlib.suppress(Exception):  # a connection already cut cannot say goodbye
                await asyncio.wait_for(connection.close(), CONNECT_TIMEOUT_SECONDS)

    async def run(self, stop: asyncio.Event) -> None:
        """Listen (PostgreSQL) and poll until ``stop`` is set. An outage is retried with backoff and
        logged once; the LISTEN connection is opened again when the database is back, and the poll
        right after it finds the orders whose notification was lost meanwhile."""
        every = POSTGRES_POLL_SECONDS if self.ctx.db.is_postgres else SQLITE_POLL_SECONDS

        async def step() -> float:
            await self.listen()
            await self.ctx.publish(await self.poll_once())
            return every

        try:
            await supervision.repeat("the order watcher", step, stop, wake=self._lost, logger=_log)
        finally:
            await self.close()
