"""Resolving a step exactly once, and opening the next.

A resolution reads the race and the step's orders, computes the step in an engine worker (no lock
held meanwhile), then commits everything in one transaction that starts with a compare-and-set on the
race row: ``UPDATE races ... WHERE id = :race AND step = :step AND orders_rev = :rev``. If another task
or process resolved the step first, ``step`` moved and nothing is written; if an order arrived while
computing, ``orders_rev`` moved and the step is computed again with it. A crash before the commit
leaves the step as it was: it resolves at the next start (:func:`bot.services.scheduler.Scheduler.start_up`).

Opening a step stores the bots' orders at once, the deadline and the reminder; a step whose awaited
orders are all in already (bots only, or nobody) resolves at once, so sequential steps chain.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, time, timedelta
from time import monotonic
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services import journal, league, owed, server_settings, stepping
from bot.services.context import Context
from bot.services.outcomes import AnnouncementPublished, Happening, RaceFinished, StepResolved
from bot.services.queries import Loaded, iso, load, rowcount, step_orders, stored, utc
from bot.store.tables import AnnouncementRow, Job, OrderRow, RaceRow, ResultRow, StepEvents
from engine.ruleset import ORDER_META_KEYS, Result

_log = logging.getLogger(__name__)

DEADLINE, REMINDER, ANNOUNCEMENT, LOBBY_TIMEOUT = "deadline", "reminder", "announcement", "lobby_timeout"
MAX_ATTEMPTS = 20
"""Recomputations allowed when orders keep arriving during a resolution (each one moved ``orders_rev``)."""


def announcement_due(delay: str, hour: int | None, finished_at: datetime, zone: str = "UTC") -> datetime:
    """When held-back news is due: at once, or ``next_morning`` = ``hour``:00 in the server's time zone
    (``/settings``) on the day after the race finished there; in UTC."""
    if delay != "next_morning":
        return finished_at
    local = ZoneInfo(zone)
    day = utc(finished_at).astimezone(local).date() + timedelta(days=1)
    return datetime.combine(day, time(hour if hour is not None else 9), tzinfo=local).astimezone(UTC)


async def open_step(
    ctx: Context, session: AsyncSession, loaded: Loaded, step: int, awaiting: stepping.Awaiting, now: datetime
) -> tuple[list[Happening], datetime | None]:
    """Write what opening ``step`` needs (in the caller's transaction): who it awaits, the bots'
    orders, the deadline and the reminder, or the result when the race is finished."""
    race = loaded.race
    assert race.id is not None
    happened: list[Happening] = []
    for entrant, body in awaiting.bot_orders.items():
        session.add(OrderRow(race_id=race.id, step=step, entrant=entrant, body=body, by="bot", received_at=now))
    # Nobody waits for a bot, nor for a member who left: their orders are played at once.
    humans = [e for e in awaiting.entrants if e not in awaiting.bot_orders and e not in loaded.gone]
    deadline = None
    if awaiting.finished:
        result = awaiting.result
        due = None
        if awaiting.announcement is not None:
            kind, delay, hour = awaiting.announcement
            zone = (await server_settings.settings_in(session, race.server_id)).timezone  # i17: the server's zone
            due = announcement_due(delay, hour, now, zone)
            session.add(AnnouncementRow(race_id=race.id, kind=kind, due_at=due))
            session.add(Job(race_id=race.id, kind=ANNOUNCEMENT, step=0, owner=race.owner, due_at=due))
        session.add(
            ResultRow(
                race_id=race.id,
                provisional=bool(result.get("provisional")),
                standings=result["standings"],
                recorded_at=now,
            )
        )
        happened.append(RaceFinished(race.id, Result.model_validate(result), due))
    elif humans:
        deadline = now + timedelta(seconds=race.pace_seconds)
        share = (await server_settings.settings_in(session, race.server_id)).reminder  # i17: /settings reminder
        if share:
            reminder = now + timedelta(seconds=race.pace_seconds * share / 100)
            session.add(Job(race_id=race.id, kind=REMINDER, step=step, owner=race.owner, due_at=reminder))
        session.add(Job(race_id=race.id, kind=DEADLINE, step=step, owner=race.owner, due_at=deadline))
    return happened, deadline


LATE_SECONDS = 5.0
"""A panel reaching its player this long after its step opened moves the step's deadline (below that, the
deadline stands as the step opened it)."""


def late(pace_seconds: int, deadline: datetime | None, now: datetime) -> bool:
    """Whether a panel reaching its player at ``now`` moves a step's ``deadline`` (:func:`fair_deadline`)."""
    if deadline is None:
        return False
    return (now + timedelta(seconds=pace_seconds) - deadline).total_seconds() > LATE_SECONDS


async def fair_deadline(ctx: Context, race_id: int, step: int) -> None:
    """A panel of ``step`` reaches its player now: the step's deadline is at least the race's pace from now,
    and its reminder moves with it. An overloaded bot (or one back from an outage) does not play a step for
    a player who has only just seen it; a panel on time (within :data:`LATE_SECONDS`) changes nothing."""
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        race = await session.get(RaceRow, race_id)
        if race is None or race.status != "running" or race.step != step:
            return
        jobs = {
            job.kind: job
            for job in (
                await session.execute(
                    select(Job).where(
                        col(Job.race_id) == race_id,
                        col(Job.step) == step,
                        col(Job.kind).in_([DEADLINE, REMINDER]),
                        col(Job.done_at).is_(None),
                    )
                )
            ).scalars()
        }
        deadline = jobs.get(DEADLINE)
        if deadline is None:
            return
        if not late(race.pace_seconds, utc(deadline.due_at), now):
            return
        later = now + timedelta(seconds=race.pace_seconds) - utc(deadline.due_at)
        for job in jobs.values():
            job.due_at = utc(job.due_at) + later


def _ready(loaded: Loaded, orders: dict[str, OrderRow]) -> bool:
    """Every awaited entrant has a complete order (bots' orders are stored when the step opens), or has left
    the race (their automatic order is played when the step resolves)."""
    awaiting = loaded.race.awaiting or []
    gone = loaded.gone
    return all((e in orders and orders[e].complete) or e in gone for e in awaiting)


def ready_with(loaded: Loaded, orders: dict[str, OrderRow], entrant: str) -> bool:
    """Whether the step is ready once ``entrant``'s complete order joins ``orders`` (the others stored)."""
    awaiting = loaded.race.awaiting or []
    gone = loaded.gone
    return all(e == entrant or (e in orders and orders[e].complete) or e in gone for e in awaiting)


async def ready(ctx: Context, race_id: int, step: int) -> bool:
    """Whether ``step`` is the race's open step with every awaited order in: it resolves now, so a panel
    answered meanwhile shows no components (the next panel is on its way: one live panel per player)."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        if loaded.race.status != "running" or loaded.race.step != step:
            return False
        return _ready(loaded, await step_orders(session, race_id, step))


async def resolve_if_ready(ctx: Context, race_id: int) -> list[Happening]:
    """Resolve the race's current step if every awaited order is in (the owner calls this on news)."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        if loaded.race.status != "running" or loaded.race.owner != ctx.owner:
            return []
        step = loaded.race.step
        if not _ready(loaded, await step_orders(session, race_id, step)):
            return []
    return await resolve(ctx, race_id, step)


async def resolve(ctx: Context, race_id: int, step: int, *, force: bool = False) -> list[Happening]:
    """Resolve ``step`` of the race once (``force``: the deadline, absent players get the automatic
    order), then every following step that is ready at once. Returns what happened; a step already
    resolved, or not ready without ``force``, returns nothing."""
    happened: list[Happening] = []
    while True:
        outcome = await _resolve_one(ctx, race_id, step, force)
        if outcome is None:
            break
        happened.extend(outcome)
        finished = next((h for h in outcome if isinstance(h, RaceFinished)), None)
        if finished is not None:
            await league.credit_safely(ctx, race_id)  # league (issue 18): credit the finished race
            if finished.announcement_due is not None and finished.announcement_due <= ctx.clock.now():
                happened.extend(await publish_announcement(ctx, race_id))  # an "immediate" announcement
            break
        step, force = step + 1, False  # the next step, if it is ready at once (bots only)
    return happened


async def _resolve_one(ctx: Context, race_id: int, step: int, force: bool) -> list[Happening] | None:
    for _attempt in range(MAX_ATTEMPTS):
        async with ctx.db.sessions() as session:
            loaded = await load(session, race_id)
            race = loaded.race
            if race.status != "running" or race.step != step:
                return None
            orders = await step_orders(session, race_id, step)
            if not force and not _ready(loaded, orders):
                return None
            rev = race.orders_rev
            # i17: /settings auto_moves — who completes an absent player's order at the deadline, or at once
            # for a member who left the race
            absent = force or bool(loaded.gone)
            by_bot = absent and (await server_settings.settings_in(session, race.server_id)).auto_moves == "bot"
        now, began = ctx.clock.now(), monotonic()
        assert race.state is not None
        outcome = await ctx.workers.run(
            stepping.resolve,
            loaded.spec,
            race.state,
            {e: stored(o) for e, o in orders.items()},
            force,
            iso(now),
            by_bot,
            loaded.gone,
        )
        if isinstance(outcome, stepping.Waiting):
            return None
        async with ctx.db.sessions() as session, session.begin():
            if not await claim(session, race_id, step, rev, outcome, now):
                continue  # resolved elsewhere (the next read returns None) or a new order came in
            written = await _write(ctx, session, loaded, step, orders, outcome, now)
        journal.resolved(race.server_id, written, monotonic() - began, deadline=force)
        return written
    _log.warning("race %s step %s: orders kept arriving; the next order or the deadline resolves it", race_id, step)
    return None


async def claim(
    session: AsyncSession, race_id: int, step: int, rev: int, outcome: stepping.Resolved, now: datetime
) -> bool:
    """The guard: move the race from ``step`` to the next one, only if nobody did and no order came in."""
    finished = outcome.next.finished
    values: dict[str, Any] = {
        "step": step + 1,
        "orders_rev": rev + 1,
        "state": outcome.state,
        "state_format": outcome.state_format,
        "awaiting": [] if finished else outcome.next.entrants,
    }
    if finished:
        values |= {"status": "finished", "finished_at": now}
    result = await session.execute(
        update(RaceRow)
        .where(col(RaceRow.id) == race_id, col(RaceRow.step) == step, col(RaceRow.orders_rev) == rev)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return rowcount(result) == 1


async def _write(
    ctx: Context,
    session: AsyncSession,
    loaded: Loaded,
    step: int,
    orders: dict[str, OrderRow],
    outcome: stepping.Resolved,
    now: datetime,
) -> list[Happening]:
    race = loaded.race
    assert race.id is not None
    awaited = list(race.awaiting or [])
    for entrant, order in outcome.orders.items():
        row = orders.get(entrant)
        if not isinstance(order, dict) or (row is not None and row.complete):
            continue  # used as stored
        # Written out in full: an absent player's automatic order, or a bot that answered only now.
        body = {k: v for k, v in order.items() if k not in ORDER_META_KEYS}
        by = "auto" if order.get("auto") else "bot"
        if row is None:
            session.add(OrderRow(race_id=race.id, step=step, entrant=entrant, body=body, by=by, received_at=now))
        else:
            await session.execute(
                update(OrderRow)
                .where(col(OrderRow.id) == row.id)
                .values(body=body, by=by, complete=True, received_at=now)
            )
    session.add(StepEvents(race_id=race.id, step=step, events=outcome.events, resolved_at=now))
    # The step's deadline and reminder are no longer needed (a reminder already sent goes too).
    await session.execute(delete(Job).where(col(Job.race_id) == race.id, col(Job.step) == step))
    race.step, race.awaiting = step + 1, outcome.next.entrants
    opened, deadline = await open_step(ctx, session, loaded, step + 1, outcome.next, now)
    before = await owed.marker_before(session, race.id, step)
    owed.step_resolved(session, loaded, step, awaited, outcome.next, deadline, now, before)  # what Discord is owed
    riding = [e for e in outcome.next.entrants if e not in loaded.gone]  # a member who left is not awaited
    resolved = StepResolved(race.id, step, outcome.orders, outcome.events, riding, deadline, outcome.next.progress)
    return [resolved, *opened]


async def publish_announcement(ctx: Context, race_id: int) -> list[Happening]:
    """Publish the race's held-back news (the Gazzetta) once: state, final result and the announcement row."""
    from sqlalchemy import select

    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        rows = await session.execute(
            select(AnnouncementRow).where(
                col(AnnouncementRow.race_id) == race_id, col(AnnouncementRow.published_at).is_(None)
            )
        )
        pending = rows.scalars().first()
        if pending is None or loaded.race.state is None:
            return []
        rev = loaded.race.orders_rev
    published = await ctx.workers.run(stepping.publish, loaded.spec, loaded.race.state)
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        claimed = await session.execute(
            update(AnnouncementRow)
            .where(col(AnnouncementRow.id) == pending.id, col(AnnouncementRow.published_at).is_(None))
            .values(published_at=now, events=published.events)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return []
        await session.execute(
            update(RaceRow)
            .where(col(RaceRow.id) == race_id, col(RaceRow.orders_rev) == rev)
            .values(state=published.state, state_format=published.state_format)
        )
        await session.execute(
            update(ResultRow)
            .where(col(ResultRow.race_id) == race_id)
            .values(
                provisional=bool(published.result.get("provisional")),
                standings=published.result["standings"],
                recorded_at=now,
            )
        )
        await session.execute(delete(Job).where(col(Job.race_id) == race_id, col(Job.kind) == ANNOUNCEMENT))
        owed.news_published(session, race_id, pending.kind, published.events, published.result, now)
    journal.announcement(race_id, loaded.race.server_id, pending.kind)
    await league.credit_safely(ctx, race_id)  # league (issue 18): the final result corrects a provisional credit
    return [AnnouncementPublished(race_id, pending.kind, published.events, Result.model_validate(published.result))]
