"""Reads for the race posts: the public view (the board), deadlines, a member's races, stored posts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from bot.services import owed, resolution, stepping
from bot.services.context import Context
from bot.services.outcomes import RaceView
from bot.services.queries import load, utc
from bot.services.stepping import Spec
from bot.store import ledger, outbox
from bot.store.ledger import Post
from bot.store.tables import Job, RaceRow, Seat
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


@dataclass(frozen=True)
class PanelFrame:
    """What a player's panel shows around its decision: the race, the step's deadline, the one counter."""

    race: RaceView
    deadline: datetime | None
    progress: dict[str, Any]


async def panel_frame(ctx: Context, race_id: int, step: int) -> PanelFrame:
    """A panel's frame for ``step`` in one read (every click and every panel delivered asks it): the race,
    :func:`deadline` and :func:`bot.services.owed.progress_before`, as they would answer."""
    async with ctx.db.sessions() as session:
        race = (await load(session, race_id)).view()
        due = (await session.execute(_deadline_of(race_id, step))).scalar_one_or_none()
        payload = await outbox.told_payload(session, race_id, step - 1) if step > 0 else None
    progress: dict[str, Any] | None = {} if step <= 0 else owed.progress_told(payload)
    if progress is None:
        progress = await owed.progress_replayed(ctx, race_id, step)
    return PanelFrame(race, utc(due) if due is not None else None, progress)


def _deadline_of(race_id: int, step: int) -> Any:
    return select(col(Job.due_at)).where(
        col(Job.race_id) == race_id, col(Job.kind) == resolution.DEADLINE, col(Job.step) == step
    )


async def deadline(ctx: Context, race_id: int, step: int) -> datetime | None:
    """When the step's deadline falls (None: no deadline, e.g. nobody human is awaited)."""
    async with ctx.db.sessions() as session:
        due = (await session.execute(_deadline_of(race_id, step))).scalar_one_or_none()
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
                col(Seat.left_at_step).is_(None),  # a member who left a race is no longer in it
                col(RaceRow.status).in_(("lobby", "running")),
            )
            .order_by(col(RaceRow.id).desc())
        )
        ids = [r for r in rows.scalars() if r is not None]
        return [(await load(session, race_id)).view() for race_id in ids]


async def stage_of(ctx: Context, race_id: int) -> Any:
    """What names the race's stage: its preset's or saved stage's name, None for the default stage, else its
    data."""
    async with ctx.db.sessions() as session:
        race = await session.get(RaceRow, race_id)
        return stepping.stage_label(race.ruleset, race.stage, race.stage_name) if race is not None else None


async def stage_again(ctx: Context, race_id: int) -> tuple[Any, str | None]:
    """What a new race on the same stage is opened with (a rematch): the stage as :func:`stage_of` names it,
    or, for a server's saved stage, the race's copy of its data with its name (the saved stage may have been
    edited or deleted since)."""
    async with ctx.db.sessions() as session:
        race = await session.get(RaceRow, race_id)
        if race is None:
            return None, None
        if race.stage_name is not None and not stepping.is_preset(race.ruleset, race.stage_name):
            return race.stage, race.stage_name
        return stepping.stage_label(race.ruleset, race.stage, race.stage_name), None


async def posts_of(ctx: Context, race_id: int, step: int | None = None) -> list[Post]:
    """The messages stored for a race (one step's, or all of them), typed (:class:`bot.store.ledger.Post`)."""
    async with ctx.db.sessions() as session:
        return await ledger.posts_of(session, race_id, step)
