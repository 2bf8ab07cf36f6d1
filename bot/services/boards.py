"""Reads for the race posts: the public view (the board), deadlines, a member's races, stored posts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from bot.services import records, resolution, stepping
from bot.services.context import Context
from bot.services.outcomes import RaceView
from bot.services.queries import load, utc
from bot.services.stepping import Spec
from bot.store.tables import Job, OrderRow, PostedMessage, RaceRow, Seat, StepEvents
from engine.registry import get_ruleset


def _public(spec: Spec, state: dict[str, Any]) -> dict[str, Any]:
    rules = get_ruleset(spec.ruleset)
    return rules.public_view(rules.load(state))


async def public_view(ctx: Context, race_id: int) -> dict[str, Any] | None:
    """The race's public view now (None before it starts)."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
    if loaded.race.state is None or loaded.race.seed is None:
        return None
    return await ctx.workers.run(_public, loaded.spec, loaded.race.state)


async def deadline(ctx: Context, race_id: int, step: int) -> datetime | None:
    """When the step's deadline falls (None: no deadline, e.g. nobody human is awaited)."""
    async with ctx.db.sessions() as session:
        row = await session.execute(
            select(col(Job.due_at)).where(
                col(Job.race_id) == race_id, col(Job.kind) == resolution.DEADLINE, col(Job.step) == step
            )
        )
        due = row.scalar_one_or_none()
    return utc(due) if due is not None else None


async def member_races(ctx: Context, server_id: int, user_id: int) -> list[RaceView]:
    """The lobbies and running races of a server that ``user_id`` sits in, newest first."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(col(RaceRow.id))
            .join(Seat, col(Seat.race_id) == col(RaceRow.id))
            .where(
                col(RaceRow.server_id) == server_id,
                col(Seat.user_id) == user_id,
                col(RaceRow.status).in_(("lobby", "running")),
            )
            .order_by(col(RaceRow.id).desc())
        )
        ids = [r for r in rows.scalars() if r is not None]
        return [(await load(session, race_id)).view() for race_id in ids]


async def stage_of(ctx: Context, race_id: int) -> Any:
    """What names the race's stage: its preset's name, None for the default stage, else its data."""
    async with ctx.db.sessions() as session:
        race = await session.get(RaceRow, race_id)
        return stepping.stage_label(race.ruleset, race.stage, race.stage_name) if race is not None else None


async def posts_of(ctx: Context, race_id: int, step: int | None = None) -> list[PostedMessage]:
    """The messages stored for a race (one step's, or all of them)."""
    async with ctx.db.sessions() as session:
        query = select(PostedMessage).where(col(PostedMessage.race_id) == race_id)
        if step is not None:
            query = query.where(col(PostedMessage.step) == step)
        rows = await session.execute(query.order_by(col(PostedMessage.id)))
        return list(rows.scalars())


async def untold_steps(ctx: Context) -> list[tuple[int, int, list[dict[str, Any]], dict[str, Any]]]:
    """Resolved steps of this process's races with no stored channel post (the process stopped between
    resolving and posting): (race, step, events, the step's orders as recorded), oldest first."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(StepEvents)
            .join(RaceRow, col(RaceRow.id) == col(StepEvents.race_id))
            .where(col(RaceRow.owner) == ctx.owner, col(RaceRow.status).in_(("running", "finished")))
            .order_by(col(StepEvents.race_id), col(StepEvents.step))
        )
        told = await session.execute(
            select(col(PostedMessage.race_id), col(PostedMessage.step)).where(col(PostedMessage.kind) == "step")
        )
        done = {(r, s) for r, s in told.all()}
        found = []
        for row in rows.scalars():
            if (row.race_id, row.step) in done:
                continue
            found.append((row.race_id, row.step, list(row.events), await _played(session, row.race_id, row.step)))
        return found


async def _played(session: Any, race_id: int, step: int) -> dict[str, Any]:
    """A step's orders as recorded (``"auto": true`` on those the engine completed for an absent player)."""
    orders = await session.execute(select(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.step) == step))
    return {o.entrant: {**o.body, **({"auto": True} if o.by == "auto" else {})} for o in orders.scalars()}


async def told_steps(
    ctx: Context, race_id: int, steps: list[int]
) -> list[tuple[int, list[dict[str, Any]], dict[str, Any]]]:
    """These resolved steps of a race, oldest first: (step, events, orders as recorded). A lap message is
    rebuilt from them on every edit, so it needs no copy of its own text (and survives a restart)."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(StepEvents)
            .where(col(StepEvents.race_id) == race_id, col(StepEvents.step).in_(steps))
            .order_by(col(StepEvents.step))
        )
        return [(row.step, list(row.events), await _played(session, race_id, row.step)) for row in rows.scalars()]


async def decisions_before(
    ctx: Context, race_id: int, step: int, entrants: list[str], played: dict[str, dict[str, Any]] | None = None
) -> dict[str, dict[str, Any] | None]:
    """What these entrants were asked when ``step`` opened (the record replayed in a worker): for closing
    a panel whose player never completed an order, with its components shown disabled, and the order the
    rules played for them told in the decision's labels (``played``)."""
    record = await records.race_record(ctx, race_id)
    return await ctx.workers.run(stepping.decisions_before, record, step, entrants, played)


async def progress_after(ctx: Context, race_id: int, steps: list[int]) -> dict[int, dict[str, Any] | None]:
    """The progress marker after each of these resolved steps (0: the start), the record replayed in a
    worker: for telling steps after a restart, each with its own marker."""
    record = await records.race_record(ctx, race_id)
    return await ctx.workers.run(stepping.progress_after, record, steps)
