"""A race server without Discord: the services over a real database, a manual clock, and helpers
that play the humans' parts with the engine's own strategies (as a careful player would).

``Harness.boot()`` builds everything fresh (engine, session factory, context, scheduler) over the
same database; calling it again is a restart, with no object carried over.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services import lobby, orders
from bot.services.clock import ManualClock
from bot.services.context import Context
from bot.services.outcomes import Happening, MemberRef, OrderReceipt
from bot.services.paces import parse_pace
from bot.services.scheduler import Scheduler
from bot.services.workers import Workers
from bot.store import migrate
from bot.store.database import connect
from bot.store.tables import RaceRow, Seat
from engine.registry import get_ruleset

SERVER = 1000
CHANNEL = 2000


def member(user_id: int, name: str | None = None, locale: str | None = "en-GB") -> MemberRef:
    return MemberRef(SERVER, user_id, name or f"Rider {user_id}", locale)


@dataclass
class Harness:
    url: str
    clock: ManualClock
    workers: int = 0
    owner: str = "main"
    posted: list[Happening] = field(default_factory=list)
    ctx: Context | None = None
    scheduler: Scheduler | None = None
    _workers: Workers | None = None

    async def boot(self) -> Context:
        """Start (or restart) the services from nothing but the database."""
        await self.shutdown()
        db = connect(self.url)
        await migrate.upgrade(db)
        self._workers = Workers(self.workers)
        await self._workers.start()

        async def sink(happening: Happening) -> None:
            self.posted.append(happening)

        self.ctx = Context(
            db=db,
            clock=self.clock,
            workers=self._workers,
            owner=self.owner,
            default_pace=parse_pace("fast"),
            lobby_timeout_seconds=3600,
            sink=sink,
        )
        self.scheduler = Scheduler(self.ctx)
        return self.ctx

    async def crash(self) -> None:
        """Drop everything in memory without waiting for background work (as a killed process would)."""
        if self.ctx is not None:
            for task in list(self.ctx._tasks):
                task.cancel()
            await self.ctx.db.close()
        if self._workers is not None:
            self._workers.close()
        self.ctx = self.scheduler = self._workers = None

    async def shutdown(self) -> None:
        if self.ctx is not None:
            await self.ctx.idle()
        await self.crash()

    # --- playing ---------------------------------------------------------------------------------
    async def race(self, race_id: int) -> RaceRow:
        assert self.ctx is not None
        async with self.ctx.db.sessions() as session:
            row = await session.get(RaceRow, race_id)
            assert row is not None
            return row

    async def seats(self, race_id: int) -> dict[str, Seat]:
        assert self.ctx is not None
        async with self.ctx.db.sessions() as session:
            rows = await session.execute(select(Seat).where(col(Seat.race_id) == race_id))
            return {s.entrant: s for s in rows.scalars()}

    async def human_order(self, race_id: int, entrant: str, strategy: str | None = None) -> dict[str, Any]:
        """What a human would sure send now: the engine's strategy for the seat, computed by the test."""
        row = await self.race(race_id)
        rules = get_ruleset(row.ruleset)
        state = rules.load(row.state or {})
        order = rules.auto_order(state, entrant, None, strategy or rules.default_strategy)
        return {k: v for k, v in order.items() if k not in ("by", "auto", "received_at")}

    async def awaited_humans(self, race_id: int) -> list[tuple[str, int]]:
        row = await self.race(race_id)
        seats = await self.seats(race_id)
        return [(e, seats[e].user_id) for e in row.awaiting or [] if seats[e].user_id is not None]  # type: ignore[misc]

    async def order_all(self, race_id: int, skip: set[str] = frozenset()) -> list[OrderReceipt]:  # type: ignore[assignment]
        """Every awaited human (but ``skip``) sends an order; background resolutions are awaited."""
        assert self.ctx is not None
        receipts = []
        row = await self.race(race_id)
        for entrant, user in await self.awaited_humans(race_id):
            if entrant in skip:
                continue
            order = await self.human_order(race_id, entrant)
            receipts.append(await orders.submit_order(self.ctx, race_id, user, order, step=row.step))
        await self.ctx.idle()
        return receipts

    async def play_out(self, race_id: int, limit: int = 5000) -> int:
        """Play every human's orders until the race finishes; returns the steps played."""
        for n in range(limit):
            row = await self.race(race_id)
            if row.status != "running":
                return n
            await self.order_all(race_id)
        raise AssertionError("the race did not finish")

    async def open_and_start(
        self,
        ruleset: str,
        humans: int,
        bots: int = 0,
        options: dict[str, Any] | None = None,
        stage: Any = None,
        seed: int = 7,
    ) -> tuple[int, list[Happening]]:
        assert self.ctx is not None
        lobby_view = await lobby.open_lobby(self.ctx, member(1, "Anna"), CHANNEL, ruleset, options=options, stage=stage)
        race_id = lobby_view.race_id
        for user in range(2, humans + 1):
            await lobby.join(self.ctx, race_id, member(user))
        for _ in range(bots):
            await lobby.add_bot(self.ctx, race_id, 1)
        started = await lobby.start(self.ctx, race_id, 1, seed=seed)
        await self.ctx.idle()
        return race_id, started


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def harness(database_url: str, clock: ManualClock) -> AsyncIterator[Harness]:
    h = Harness(database_url, clock)
    await h.boot()
    yield h
    await h.shutdown()
