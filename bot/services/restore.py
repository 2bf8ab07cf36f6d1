"""After a restore: Discord shows moments the database no longer has.

An operator who restores an older backup takes every race back to that copy's moment, but Discord keeps
what the bot posted since: round posts of rounds to be played again (with other events), DM panels of
steps that no longer exist, panels closed by a resolution the database forgot. Nothing in the database
can tell: a restored copy is exactly the database as it was. Discord can. So at start the bot looks, in
each race channel and each player's DMs, at what it posted after the newest message the post ledger knows
there (:func:`places`). A message of the bot there that the ledger does not know, and that no undelivered
outbox row explains, was made by a later moment of the database (:func:`judge`): a delivery cut off by a
crash is explained (its row is still owed: at most one per race, the race's oldest, and a panel by its own
``open_panel`` row), and is delivered again with its nonce. Anything more means the database went back.

Then (:func:`resume`), since a restore takes the whole database back: every running race is told in its
channel that it resumes from an earlier point (its current round; orders sent since are lost); the open
step's deadline runs a whole pace again from now (R-SVC-6: else a copy older than the pace would resolve
at once on automatic orders); its awaited players get a fresh panel (the one they have may be closed, or
show an order the database no longer has); and every lobby message is brought back to its race's state.
The lost messages themselves are marked undone by the Discord side (:mod:`bot.exts.race._restore`). A
click on a panel of a step the race has not reached is answered ``order.undone``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services.context import Context
from bot.services.queries import iso, load, utc
from bot.services.resolution import DEADLINE
from bot.store import ledger
from bot.store import outbox as store
from bot.store.ledger import PostKind
from bot.store.outbox import SALT, NewOwed, OwedKind
from bot.store.tables import Job, OutboxRow, RaceRow, Seat

_log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000

CHANNEL_KINDS = frozenset({OwedKind.STEP_POST, OwedKind.LAP_TURN, OwedKind.FINAL_POST, OwedKind.NEWS_POST})
"""Rows whose delivery creates a channel message (an in-flight one explains one unknown post)."""

LIVE = ("lobby", "running")
"""The races whose channel and players' DMs are looked at (a finished race's moment cannot go back past
its end without it being running again in the copy)."""


def snowflake(when: datetime) -> int:
    """The smallest Discord id of a message made at ``when`` (a history cursor)."""
    ms = int(utc(when).timestamp() * 1000)
    return max(ms - DISCORD_EPOCH_MS, 0) << 22


@dataclass(frozen=True)
class Place:
    """Where to look: a race channel, or a member's DMs (``channel_id`` None: not known yet, to be
    opened), from the message ``after`` on."""

    channel_id: int | None
    member: int | None
    after: int


@dataclass(frozen=True)
class Found:
    """A message of the bot found after a place's cursor: a panel (DMs: the race and step its components
    name) or a channel post (made through the API, not an interaction's answer)."""

    channel_id: int
    message_id: int
    member: int | None = None
    race_id: int | None = None
    step: int | None = None


@dataclass(frozen=True)
class Verdict:
    """What :func:`judge` found: the messages of a later moment of the database (none: all is as known)."""

    lost: list[Found] = field(default_factory=list)

    @property
    def restored(self) -> bool:
        return bool(self.lost)


async def places(ctx: Context) -> list[Place]:
    """The channels of every lobby and running race, and the DMs of their members, each from the newest
    message the ledger knows there (else from the oldest of those races' creation)."""
    async with ctx.db.sessions() as session:
        races = list((await session.execute(select(RaceRow).where(col(RaceRow.status).in_(LIVE)))).scalars())
        if not races:
            return []
        ids = [r.id for r in races if r.id is not None]
        seats = list((await session.execute(select(Seat).where(col(Seat.race_id).in_(ids)))).scalars())
        threads = await _threads(session, ids)
        channel_start: dict[int, int] = {}
        for race in races:
            start = snowflake(race.created_at)
            for channel in (race.channel_id, *([threads[race.id]] if race.id in threads else [])):
                channel_start[channel] = min(channel_start.get(channel, start), start)
        member_start: dict[int, int] = {}
        created = {r.id: snowflake(r.created_at) for r in races}
        for seat in seats:
            if seat.user_id is not None and seat.bot is None:
                start = created[seat.race_id]
                member_start[seat.user_id] = min(member_start.get(seat.user_id, start), start)
        dms = await ledger.dm_channels(session, member_start)
        newest = await ledger.newest_in(session, [*channel_start, *dms.values()])
    found = [Place(c, None, newest.get(c, start)) for c, start in sorted(channel_start.items())]
    for member, start in sorted(member_start.items()):
        dm = dms.get(member)
        found.append(Place(dm, member, newest.get(dm, start) if dm is not None else start))
    return found


async def judge(ctx: Context, seen: Iterable[Found]) -> Verdict:
    """The messages among ``seen`` that only a later moment of the database can have made: not in the
    ledger, and not explained by a row still owed (a panel by its ``open_panel`` row; in each channel, as
    many posts as races whose oldest owed row is a channel post, the oldest posts first)."""
    found = sorted(seen, key=lambda f: f.message_id)
    async with ctx.db.sessions() as session:
        known = await ledger.known(session, [f.message_id for f in found])
        rows = list(
            (
                await session.execute(
                    select(OutboxRow).where(col(OutboxRow.done_at).is_(None)).order_by(col(OutboxRow.id))
                )
            ).scalars()
        )
        pairs = (await session.execute(select(col(RaceRow.id), col(RaceRow.channel_id)))).all()
        channels = {int(race): int(channel) for race, channel in pairs if race is not None}
        channels.update(await _threads(session, list(channels)))  # a race's posts go to its thread
    opening = {(r.race_id, r.step, r.recipient) for r in rows if r.kind == OwedKind.OPEN_PANEL.value}
    oldest: dict[int, OutboxRow] = {}
    for row in rows:
        oldest.setdefault(row.race_id, row)
    in_flight: dict[int, int] = defaultdict(int)
    for race_id, row in oldest.items():
        if row.kind in {k.value for k in CHANNEL_KINDS} and race_id in channels:
            in_flight[channels[race_id]] += 1
    lost: list[Found] = []
    for message in found:
        if message.message_id in known:
            continue
        if message.member is not None:
            if (message.race_id, message.step, message.member) in opening:
                continue  # its delivery was cut off: owed still, delivered again with its nonce
        elif in_flight[message.channel_id] > 0:
            in_flight[message.channel_id] -= 1
            continue
        lost.append(message)
    return Verdict(lost)


async def resume(ctx: Context, verdict: Verdict) -> list[int]:
    """The database went back: tell every running race it resumed from its current step (once per step),
    send its awaited players a fresh panel, and bring every lobby message back to its race's state, in
    one transaction. Returns the running races told."""
    if not verdict.restored:
        return []
    now = ctx.clock.now()
    salt = iso(now)
    told: list[int] = []
    async with ctx.db.sessions() as session, session.begin():
        races = list((await session.execute(select(RaceRow).where(col(RaceRow.status).in_(LIVE)))).scalars())
        for race in races:
            assert race.id is not None
            rows: list[NewOwed] = []
            if race.status == "running":
                loaded = await load(session, race.id)
                already = (
                    await session.execute(
                        select(col(OutboxRow.id)).where(
                            col(OutboxRow.race_id) == race.id,
                            col(OutboxRow.kind) == OwedKind.RESUMED.value,
                            col(OutboxRow.step) == race.step,
                        )
                    )
                ).first()
                if already is None:
                    rows.append(NewOwed(OwedKind.RESUMED, race.step, None, {SALT: salt}))
                    told.append(race.id)
                await _restart_deadline(session, race, now)
                users = {s.entrant: s.user_id for s in loaded.seats if s.user_id is not None and s.bot is None}
                rows += [
                    NewOwed(OwedKind.REOPEN_PANEL, race.step, users[e], {SALT: salt})
                    for e in loaded.view().awaiting
                    if e in users
                ]
            rows.append(NewOwed(OwedKind.LOBBY_EDIT, race.step, None, {"why": "resumed", SALT: salt}))
            store.add_all(session, race.id, rows, now)
    _log.warning(
        "the database is older than what Discord shows: %d messages of a later moment (a restored backup?); "
        "races %s resume from the database's state and are told so",
        len(verdict.lost),
        ", ".join(f"#{r}" for r in told) or "(none running)",
    )
    return told


async def _restart_deadline(session: AsyncSession, race: RaceRow, now: datetime) -> None:
    """R-SVC-6: the open step's deadline runs a whole pace again from now (never earlier than it was), so
    players can send again what the restore lost instead of getting automatic orders at once."""
    if race.pace_seconds <= 0:
        return
    fresh = now + timedelta(seconds=race.pace_seconds)
    await session.execute(
        update(Job)
        .where(
            col(Job.race_id) == race.id,
            col(Job.kind) == DEADLINE,
            col(Job.step) == race.step,
            col(Job.done_at).is_(None),
            col(Job.due_at) < fresh,
        )
        .values(due_at=fresh)
        .execution_options(synchronize_session=False)
    )


async def _threads(session: AsyncSession, race_ids: list[int]) -> dict[int, int]:
    """Each race's thread (where its posts go), for the races that have one."""
    found: dict[int, int] = {}
    for race_id in race_ids:
        thread = next((p for p in await ledger.posts_of(session, race_id, 0) if p.kind is PostKind.THREAD), None)
        if thread is not None:
            found[race_id] = thread.channel_id
    return found


async def race_in(ctx: Context, channel_id: int) -> int | None:
    """A race of this channel or thread (the newest): whose channel language an undone post there is told in."""
    async with ctx.db.sessions() as session:
        thread = await ledger.thread_race(session, channel_id)
        if thread is not None:
            return thread
        found = await session.execute(
            select(col(RaceRow.id)).where(col(RaceRow.channel_id) == channel_id).order_by(col(RaceRow.id).desc())
        )
        return found.scalars().first()
