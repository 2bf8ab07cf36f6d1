"""The race record rebuilt from the database: the seats, the seed, and every resolved step's orders
exactly as they were played (bots' and automatic orders included, with their receive times)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from bot.services import stepping
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.services.queries import load, stored
from bot.store.tables import AnnouncementRow, OrderRow, ResultRow
from engine.record import Announced, RaceRecord, announcement_name


async def race_record(ctx: Context, race_id: int) -> RaceRecord:
    """The record of a started race (``gregario.race/1``), up to its last resolved step."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        if loaded.race.seed is None:
            raise Refusal.of("race.not_started")
        rows = await session.execute(
            select(OrderRow)
            .where(col(OrderRow.race_id) == race_id, col(OrderRow.step) < loaded.race.step)
            .order_by(col(OrderRow.step), col(OrderRow.id))
        )
        by_step: dict[int, dict[str, Any]] = defaultdict(dict)
        for row in rows.scalars():
            by_step[row.step][row.entrant] = stored(row).for_record()
        published = await session.execute(
            select(col(AnnouncementRow.kind))
            .where(col(AnnouncementRow.race_id) == race_id, col(AnnouncementRow.published_at).is_not(None))
            .order_by(col(AnnouncementRow.published_at))
        )
        # A race publishes only once it is finished, so after its last resolved step.
        last_step = loaded.race.step - 1
        announcements = [Announced(kind=announcement_name(kind), after_step=last_step) for kind in published.scalars()]
    record = loaded.spec.record([by_step[n] for n in range(1, loaded.race.step)])
    return record.model_copy(update={"announcements": announcements or None})


async def stored_result(ctx: Context, race_id: int) -> tuple[dict[str, Any] | None, bool]:
    """The standings stored for the race (None before it finishes) and whether its announcement is out."""
    async with ctx.db.sessions() as session:
        result = await session.get(ResultRow, race_id)
        published = await session.execute(
            select(col(AnnouncementRow.id)).where(
                col(AnnouncementRow.race_id) == race_id, col(AnnouncementRow.published_at).is_not(None)
            )
        )
        was_published = published.first() is not None
    if result is None:
        return None, was_published
    return {"provisional": result.provisional, "standings": result.standings}, was_published


async def replays_to_stored_result(ctx: Context, race_id: int) -> bool:
    """Whether the record rebuilt from the database replays, with the engine, to the stored result."""
    record = await race_record(ctx, race_id)
    result, published = await stored_result(ctx, race_id)
    if result is None:
        return False
    replayed = await ctx.workers.run(stepping.replay_result, record, published)
    return bool(replayed["standings"] == result["standings"] and replayed["provisional"] == result["provisional"])
