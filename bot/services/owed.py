"""What the bot owes to Discord for each change, written as outbox rows in the change's transaction,
and read back, typed, when a row is delivered.

The write side is called inside the transactions that cause the rows (a step resolved, a race started,
finished or cancelled, news published, a reminder due); the read side turns a row and the database into
what a post shows (the engine's own :class:`~engine.ruleset.Result`, orders as played), so the Discord
layer renders without rebuilding anything. A row's payload holds what the database would no longer say
when it is delivered late (who was awaited then, the result as it stood), never text.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services import records, stepping
from bot.services.context import Context
from bot.services.outcomes import RaceView
from bot.services.queries import Loaded, iso, load, utc
from bot.store import ledger
from bot.store import outbox as store
from bot.store.ledger import Post, PostKind
from bot.store.outbox import NewOwed, Owed, OwedKind
from bot.store.tables import OrderRow, StepEvents
from engine.record import RaceRecord
from engine.ruleset import PROGRESS_KEY, Result

_log = logging.getLogger(__name__)

# --- writing: in the transaction of the change ---------------------------------------------------------


def _humans(loaded: Loaded, entrants: Iterable[str]) -> list[int]:
    """The members among ``entrants`` (bots get no DMs)."""
    users = {s.entrant: s.user_id for s in loaded.seats if s.user_id is not None and s.bot is None}
    return [users[e] for e in entrants if e in users]


def _told(loaded: Loaded, step: int, awaiting: stepping.Awaiting, deadline: datetime | None) -> NewOwed:
    progress = awaiting.progress
    lap = step > 0 and progress is not None and progress.get("lap") is not None
    payload = {
        # A member who left is not awaited: a bot rides the seat at once (R-SVC-5).
        "awaiting": [] if awaiting.finished else [e for e in awaiting.entrants if e not in loaded.gone],
        "deadline": iso(deadline) if deadline is not None else None,
        "progress": progress,
        "last": awaiting.finished,
    }
    return NewOwed(OwedKind.LAP_TURN if lap else OwedKind.STEP_POST, step, None, payload)


def _next(loaded: Loaded, step: int, awaiting: stepping.Awaiting) -> list[NewOwed]:
    """The rows after a step is told: the next step's panels come before its post (so a DM found closed
    already gets Open my orders on it); a finished race owes its final post and its lobby's edit."""
    if awaiting.finished:
        return [
            NewOwed(OwedKind.FINAL_POST, 0, None, {"result": awaiting.result}),
            NewOwed(OwedKind.LOBBY_EDIT, step, None, {"why": "finished"}),
            *_closing_lines(loaded, awaiting.result),
            NewOwed(OwedKind.ARCHIVE_THREAD, 0, None, {"why": "finished"}),
        ]
    riding = [e for e in awaiting.entrants if e not in loaded.gone]  # a member who left gets no more panels
    return [NewOwed(OwedKind.OPEN_PANEL, step + 1, user) for user in _humans(loaded, riding)]


def _closing_lines(loaded: Loaded, result: dict[str, Any]) -> list[NewOwed]:
    """Each riding member's last DM of the race, after the final post it links to: their place of how many."""
    standings = list(result.get("standings") or [])
    places = {s.get("entrant"): s.get("place") for s in standings if isinstance(s, dict)}
    return [
        NewOwed(OwedKind.CLOSING_LINE, 0, seat.user_id, {"place": places.get(seat.entrant), "of": len(standings)})
        for seat in loaded.seats
        if seat.user_id is not None and seat.bot is None and seat.entrant not in loaded.gone
    ]


def _stage_over(step: int, then: stepping.Awaiting, before: dict[str, Any] | None) -> list[NewOwed]:
    """A stage's summary, owed when a turn told in laps ends its stage (the marker's number moves on) and
    the race goes on (the race's end has the final post)."""
    progress = then.progress or {}
    if then.finished or not before or before.get("lap") is None or progress.get("lap") is None:
        return []
    if before.get("number") == progress.get("number"):
        return []
    marker = {k: v for k, v in before.items() if k != "lap"}
    return [NewOwed(OwedKind.STAGE_POST, step, None, {"marker": marker})]


def step_resolved(
    session: AsyncSession,
    loaded: Loaded,
    step: int,
    awaited: list[str],
    then: stepping.Awaiting,
    deadline: datetime | None,
    now: datetime,
    before: dict[str, Any] | None = None,
) -> None:
    """A step resolved: close its panels, open the next step's, tell it (and the stage it ended, from the
    progress marker ``before`` it), and finish the race if it is over."""
    assert loaded.race.id is not None
    rows = [NewOwed(OwedKind.CLOSE_PANEL, step, user) for user in _humans(loaded, awaited)]
    after = _next(loaded, step, then)
    opening = [r for r in after if r.kind is OwedKind.OPEN_PANEL]
    rows += [*opening, _told(loaded, step, then, deadline), *_stage_over(step, then, before)]
    rows += [r for r in after if r.kind is not OwedKind.OPEN_PANEL]
    store.add_all(session, loaded.race.id, rows, now)


def race_started(
    session: AsyncSession, loaded: Loaded, opened: stepping.Awaiting, deadline: datetime | None, now: datetime
) -> None:
    """A race started: its thread (first, so every post of the race goes there), the first panels, the
    start post, the lobby's edit (and the end, if it is over already)."""
    assert loaded.race.id is not None
    after = _next(loaded, 0, opened)
    opening = [r for r in after if r.kind is OwedKind.OPEN_PANEL]
    rows = [NewOwed(OwedKind.OPEN_THREAD), *opening, _told(loaded, 0, opened, deadline)]
    rows += [r for r in after if r.kind is not OwedKind.OPEN_PANEL] or [
        NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": "started"})
    ]
    store.add_all(session, loaded.race.id, rows, now)


def lobby_changed(session: AsyncSession, race_id: int, why: str, now: datetime) -> None:
    """The lobby message must say something new (cancelled, a seat left by command)."""
    store.add(session, race_id, NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": why}), now)


def race_cancelled(session: AsyncSession, loaded: Loaded, now: datetime) -> None:
    """A race cancelled under way: each seated player still riding is told in their DMs (their live
    panels closed), and the race's thread says so and is archived. The lobby's edit is owed apart."""
    assert loaded.race.id is not None
    step = loaded.race.step
    riding = [s.entrant for s in loaded.seats if s.entrant not in loaded.gone]
    rows = [NewOwed(OwedKind.RACE_CANCELLED, step, user) for user in _humans(loaded, riding)]
    rows.append(NewOwed(OwedKind.ARCHIVE_THREAD, 0, None, {"why": "cancelled"}))
    store.add_all(session, loaded.race.id, rows, now)


def news_published(
    session: AsyncSession, race_id: int, kind: str, events: list[dict[str, Any]], result: dict[str, Any], now: datetime
) -> None:
    """Held-back news: posted in the race's thread (unarchived by the post), which is archived again."""
    payload = {"kind": kind, "events": events, "result": result}
    store.add(session, race_id, NewOwed(OwedKind.NEWS_POST, 0, None, payload), now)
    store.add(session, race_id, NewOwed(OwedKind.ARCHIVE_THREAD, 1, None, {"why": "news"}), now)


def reminders_due(
    session: AsyncSession, race_id: int, step: int, users: list[int], deadline: datetime, now: datetime
) -> None:
    for user in users:
        store.add(session, race_id, NewOwed(OwedKind.REMINDER, step, user, {"deadline": iso(deadline)}), now)


# --- reading: when a row is delivered -------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """An entrant's order in a resolved step as recorded: the body, and who made it."""

    entrant: str
    body: dict[str, Any]
    by: str
    """``player``, ``bot`` or ``auto`` (completed by the rules for an absent player)."""

    @property
    def auto(self) -> bool:
        return self.by == "auto"


@dataclass(frozen=True)
class Turn:
    """A resolved step as a post tells it (step 0: the start)."""

    step: int
    events: list[dict[str, Any]]
    played: dict[str, Played]


@dataclass(frozen=True)
class Told:
    """What a step's post (or a lap's turn) shows: the turn, who the next step awaited then and by
    when, and the step's own progress marker (the board, when the post shows it: :func:`board_after`)."""

    race: RaceView
    turn: Turn
    awaiting: list[str]
    deadline: datetime | None
    progress: dict[str, Any] | None
    last: bool
    """The race's last step (its lap's message is closed)."""
    before: dict[str, Any]
    """The progress marker while the step was open: the one counter (round, stage, lap) its headline and
    picture show, as its panels did (:func:`progress_before`)."""


@dataclass(frozen=True)
class Final:
    """The final post (or the news post): the result as it stood, the record, the news's events."""

    race: RaceView
    result: Result
    record: RaceRecord
    news: bool
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Closing:
    """A resolved step's panel to close: what the player played (None: nothing complete; ``asked`` is
    then the decision they were offered, shown again disabled)."""

    member: int
    entrant: str
    played: Played | None
    asked: dict[str, Any] | None
    before: dict[str, Any]
    """The progress marker while the step was open (the counter of the panel's title)."""


def _deadline(value: Any) -> datetime | None:
    return utc(datetime.fromisoformat(str(value).replace("Z", "+00:00"))) if value else None


async def _played(session: AsyncSession, race_id: int, step: int) -> dict[str, Played]:
    rows = await session.execute(select(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.step) == step))
    return {o.entrant: Played(o.entrant, dict(o.body), o.by) for o in rows.scalars()}


async def turns(ctx: Context, race_id: int, steps: Iterable[int]) -> list[Turn]:
    """These resolved steps of a race, oldest first (a lap's message is rebuilt from them on every edit)."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(StepEvents)
            .where(col(StepEvents.race_id) == race_id, col(StepEvents.step).in_(list(steps)))
            .order_by(col(StepEvents.step))
        )
        return [Turn(row.step, list(row.events), await _played(session, race_id, row.step)) for row in rows.scalars()]


def _public(ruleset: str, state: dict[str, Any]) -> dict[str, Any]:
    from engine.registry import get_ruleset

    rules = get_ruleset(ruleset)
    return rules.public_view(rules.load(state))


async def board_after(ctx: Context, race_id: int, step: int) -> dict[str, Any] | None:
    """The public view (the board) after resolved ``step``: the race's now when the race has not moved on
    since; else, for a post delivered late (a restart, a chain of bots' turns), the record replayed to it."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
    if loaded.race.state is None or loaded.race.seed is None:
        return None
    if loaded.race.step == step + 1:
        return await ctx.workers.run(_public, loaded.race.ruleset, loaded.race.state)
    record = await records.race_record(ctx, race_id)
    return await ctx.workers.run(stepping.public_after, record, step)


async def result_after(ctx: Context, race_id: int, step: int) -> Result:
    """The standings as they stood after resolved ``step`` (a stage's summary): the race's now when it has
    not moved on since, else the record replayed to that step."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
    if loaded.race.step == step + 1 and loaded.race.state is not None:
        found = await ctx.workers.run(stepping.result_of, loaded.spec, loaded.race.state)
    else:
        record = await records.race_record(ctx, race_id)
        found = await ctx.workers.run(stepping.result_after, record, step)
    return Result.model_validate(found)


async def progress_before(ctx: Context, race_id: int, step: int) -> dict[str, Any]:
    """The progress marker players saw while ``step`` was open (empty: the start): the one counter a panel,
    a post and its picture show, never the step. It is the marker the step before was told with (its
    row's payload, written as ``step`` opened); for a race begun before the outbox, the record replayed."""
    if step <= 0:
        return {}
    async with ctx.db.sessions() as session:
        payload = await store.told_payload(session, race_id, step - 1)
    told = progress_told(payload)
    if told is not None:
        return told
    return await progress_replayed(ctx, race_id, step)


def progress_told(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    """The marker a step's told row carries (None: a row from before markers were written, or no row)."""
    if payload is not None and "progress" in payload:
        return dict(payload.get("progress") or {})
    return None


async def progress_replayed(ctx: Context, race_id: int, step: int) -> dict[str, Any]:
    """The marker players saw while ``step`` was open, from the record replayed (a race begun before the
    outbox wrote markers)."""
    record = await records.race_record(ctx, race_id)
    if len(record.steps) < step - 1:
        return {}
    board = await ctx.workers.run(stepping.public_after, record, step - 1)
    marker = board.get(PROGRESS_KEY)
    return dict(marker) if isinstance(marker, dict) else {}


async def told(ctx: Context, owed: Owed) -> Told:
    """What a step post or lap turn row shows."""
    race = await view(ctx, owed.race_id)
    (turn,) = await turns(ctx, owed.race_id, [owed.step]) or [Turn(owed.step, [], {})]
    payload = owed.payload
    progress = payload.get("progress")
    return Told(
        race=race,
        turn=turn,
        awaiting=list(payload.get("awaiting") or []),
        deadline=_deadline(payload.get("deadline")),
        progress=dict(progress) if isinstance(progress, dict) else None,
        last=bool(payload.get("last")),
        before=await progress_before(ctx, owed.race_id, owed.step),
    )


async def final(ctx: Context, owed: Owed) -> Final:
    """What the final post (or the news post) of a row shows, with the race's record."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, owed.race_id)
    record = await records.race_record(ctx, owed.race_id)
    news = owed.kind is OwedKind.NEWS_POST
    result = owed.payload.get("result")
    if result is None and loaded.race.state is not None:  # owed by a version before the outbox
        result = await ctx.workers.run(stepping.result_of, loaded.spec, loaded.race.state)
    return Final(
        race=loaded.view(),
        result=Result.model_validate({**dict(result or {}), "finished": True}),
        record=record,
        news=news,
        events=list(owed.payload.get("events") or []) if news else [],
    )


async def closing(ctx: Context, race_id: int, step: int, member: int) -> Closing | None:
    """The panel ``member`` had for a resolved ``step``, to close (None: not seated)."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        seat = loaded.seat_of(member)
        if seat is None:
            return None
        played = (await _played(session, race_id, step)).get(seat.entrant)
    asked = None
    if played is None or played.auto:
        # What they were offered, and the order the rules played for them told in its labels.
        record = await records.race_record(ctx, race_id)
        sent = {seat.entrant: played.body if played is not None else {}}
        found = await ctx.workers.run(stepping.decisions_before, record, step, [seat.entrant], sent)
        asked = found.get(seat.entrant)
    return Closing(member, seat.entrant, played, asked, await progress_before(ctx, race_id, step))


async def nonce_of(ctx: Context, owed: Owed) -> str:
    """The nonce a row's create carries: its own, or, for a row owed after a restore (a ``resumed`` row
    before it in its race), one salted with that restore, so that Discord, which remembers a nonce for a
    few minutes, never answers it with the message the lost moment made for the same race, kind, step and
    member (a message now marked undone). A row owed before the restore keeps its nonce: its delivery cut
    off by the restore is the one Discord returns (:mod:`bot.services.restore`)."""
    if owed.kind in (OwedKind.RESUMED, OwedKind.REOPEN_PANEL):
        return owed.nonce  # salted when written
    async with ctx.db.sessions() as session:
        salt = await store.restore_salt(session, owed.race_id, owed.id)
    return owed.nonce if salt is None else store.nonce(owed.race_id, owed.kind, owed.step, owed.recipient, salt)


async def marker_before(session: AsyncSession, race_id: int, step: int) -> dict[str, Any] | None:
    """The progress marker while ``step`` was open, as the row that told the step before wrote it (None:
    not known, a race begun before the outbox), read in the resolving transaction."""
    payload = await store.told_payload(session, race_id, step - 1) if step > 0 else None
    progress = (payload or {}).get("progress")
    return dict(progress) if isinstance(progress, dict) else None


def reminder_deadline(owed: Owed) -> datetime | None:
    return _deadline(owed.payload.get("deadline"))


async def view(ctx: Context, race_id: int) -> RaceView:
    async with ctx.db.sessions() as session:
        return (await load(session, race_id)).view()


async def posts(ctx: Context, race_id: int, step: int | None = None) -> list[Post]:
    """The race's ledger (one step's, or all)."""
    async with ctx.db.sessions() as session:
        return await ledger.posts_of(session, race_id, step)


async def superseded(ctx: Context, owed: Owed) -> bool:
    """Whether a later row of the same kind is owed for the race (a later lobby edit makes this one moot)."""
    async with ctx.db.sessions() as session:
        return await store.owed_later(session, owed)


async def closed_dms(ctx: Context, race_id: int) -> set[int]:
    async with ctx.db.sessions() as session:
        return await ledger.closed_dms(session, race_id)


@dataclass(frozen=True)
class Place:
    """Where a race's posts go: its thread once opened, else its channel (``refused``: the bot may not open
    threads there, which the lobby says once)."""

    channel_id: int
    thread_id: int | None
    refused: bool

    @property
    def posts_to(self) -> int:
        """The channel (a thread is a channel) the race's posts are made in."""
        return self.thread_id or self.channel_id


def place_of(race: RaceView, stored: Iterable[Post]) -> Place:
    """The race's place read from its ledger (already read by the caller)."""
    entries = list(stored)
    thread = next((p.channel_id for p in entries if p.kind is PostKind.THREAD), None)
    refused = any(p.kind is PostKind.THREAD_REFUSED for p in entries)
    return Place(race.channel_id, thread, refused)


async def place(ctx: Context, race: RaceView) -> Place:
    """Where ``race``'s posts go now (its ledger read)."""
    return place_of(race, await posts(ctx, race.race_id, 0))


@dataclass(frozen=True)
class Standing:
    """Where a running race stands, for its lobby's header: the counter players see now and the leader."""

    marker: dict[str, Any]
    leader: str | None
    """The entrant alone in first place (None: nobody leads yet, or several share it)."""


async def standing(ctx: Context, race_id: int) -> Standing | None:
    """The running race's counter and leader (None: not running). A result the rules cannot give mid-race
    leaves the leader out; it never holds the lobby's edit back."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
    if loaded.race.status != "running" or loaded.race.state is None:
        return None
    marker = await progress_before(ctx, race_id, loaded.race.step)
    leader = None
    if loaded.race.step > 1:
        try:
            result = await ctx.workers.run(stepping.result_of, loaded.spec, loaded.race.state)
            first = [s for s in result.get("standings") or [] if s.get("place") == 1]
            leader = str(first[0]["entrant"]) if len(first) == 1 else None
        except Exception:
            _log.warning("race %s: no standings for the lobby's header", race_id, exc_info=True)
    return Standing(marker, leader)
