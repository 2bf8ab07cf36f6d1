"""The outbox: what the bot owes to Discord, as rows written with the change that causes them.

:func:`add` writes a row in the caller's transaction (a step resolved, a race started, finished or
cancelled, news published, a reminder due), so nothing the bot owes lives only in memory; the commit
wakes the dispatchers of this process (:func:`bot.store.database.connect` registers the wake-up).
:func:`claim` hands a dispatcher each race's oldest undelivered row, under a lease (on PostgreSQL with
``FOR UPDATE SKIP LOCKED``; SQLite's single writer serialises claims), so rows of one race are delivered
in order, by one dispatcher at a time, whichever process runs it. :func:`finish` records the delivery
(the message id, the ledger entries it made, rows it owes in turn) in one transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import case, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlmodel import col

from bot.store import ledger
from bot.store.database import Database, outbox_written
from bot.store.ledger import NewPost
from bot.store.tables import OutboxRow


class OwedKind(StrEnum):
    """What a row delivers."""

    STEP_POST = "step_post"
    """A resolved step told in the race's channel, as a post of its own (step 0: the start)."""
    LAP_TURN = "lap_turn"
    """A turn of a sequential system: appended to its lap's message (edited), or a new lap's first post."""
    OPEN_PANEL = "open_panel"
    """A player's DM panel for a step just opened (``recipient``)."""
    CLOSE_PANEL = "close_panel"
    """Every panel message of a resolved step and player, edited to say the step is resolved."""
    LOBBY_EDIT = "lobby_edit"
    """The lobby message brought up to date (started, finished, cancelled, seats, closed DMs)."""
    REMINDER = "reminder"
    """The one quiet DM before a step's deadline."""
    FINAL_POST = "final_post"
    """The result, the record attached, the league's points and Rematch."""
    NEWS_POST = "news_post"
    """Held-back news (Tabella's Gazzetta) with the final result."""
    RESUMED = "resumed"
    """The race's channel told that the race resumed from an earlier point (the database was restored
    from an older copy: :mod:`bot.services.restore`)."""
    REOPEN_PANEL = "reopen_panel"
    """A player's DM panel for the step open, sent again after a restore (the one they had may have been
    closed by a resolution the database no longer has); delivered as :attr:`OPEN_PANEL`."""
    STAGE_POST = "stage_post"
    """A stage's (or a round's) summary once its last lap of turns is told: the standings as they stand."""
    CLOSING_LINE = "closing_line"
    """The last DM of a race to a player (``recipient``): their place and a link to the final post."""
    OPEN_THREAD = "open_thread"
    """The race's thread, opened from its lobby message as the race starts (or the channel kept, where the
    bot may not open threads or the server chose the channel): where its posts go."""
    ARCHIVE_THREAD = "archive_thread"
    """The race's thread archived once it ended (a cancelled race says so there first)."""
    RACE_CANCELLED = "race_cancelled"
    """A seated player told by DM that the race was cancelled (``recipient``), their live panels closed."""


RANK: dict[OwedKind, int] = {
    OwedKind.OPEN_PANEL: 0,
    OwedKind.REOPEN_PANEL: 0,
    OwedKind.CLOSE_PANEL: 0,
    OwedKind.STEP_POST: 1,
    OwedKind.LAP_TURN: 1,
    OwedKind.OPEN_THREAD: 1,
}
"""How urgent a row is when Discord's limit (or the bot's CPU) keeps rows waiting: a player's panel (what
a person waits on to play) first, then a round's post and its thread (what the channel waits on), then
the rest (:data:`LAST_RANK`: lobby edits, reminders, final posts, summaries, closing lines). A race's own
rows still go in the order they were owed; the rank orders races' next rows among themselves."""
LAST_RANK = 2


def rank(kind: OwedKind) -> int:
    return RANK.get(kind, LAST_RANK)


CHANNEL_NONCES = {
    OwedKind.STEP_POST: "step",
    OwedKind.LAP_TURN: "lap",
    OwedKind.FINAL_POST: "fina",
    OwedKind.NEWS_POST: "news",
}
"""Channel posts keep the nonces the bot used before the outbox (``g<race>-<kind>-<step>``), so a post
made by an older version and not yet recorded is not posted twice after an upgrade."""


SALT = "salt"
"""A payload key that makes a row's nonce its own: rows owed again for the same step (a second restore to
the same copy) must not be taken by Discord for the earlier ones."""


def nonce(race_id: int, kind: OwedKind, step: int, recipient: int | None = None, salt: str | None = None) -> str:
    """A row's nonce: the same for the same row (race, kind, step, recipient, salt), at most 25 characters."""
    if recipient is None and kind in CHANNEL_NONCES and not salt:
        return f"g{race_id}-{CHANNEL_NONCES[kind]}-{step}"[:25]
    salted = f":{salt}" if salt else ""
    digest = hashlib.sha256(f"{race_id}:{kind.value}:{step}:{recipient}{salted}".encode()).hexdigest()
    return "g" + digest[:24]


@dataclass(frozen=True)
class Owed:
    """A row as the dispatcher and the deliverer read it."""

    id: int
    race_id: int
    kind: OwedKind
    step: int
    recipient: int | None
    nonce: str
    payload: dict[str, Any]
    attempts: int
    created_at: datetime


@dataclass(frozen=True)
class NewOwed:
    """A row to write (a delivery may owe one in turn: a lobby edit once closed DMs are found)."""

    kind: OwedKind
    step: int = 0
    recipient: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Delivery:
    """What delivering a row did: the message it made or edited, ledger entries, rows it owes in turn.
    ``outcome`` names an ending without a message (``dms_closed``, ``moot``: nothing to do any more)."""

    channel_id: int | None = None
    message_id: int | None = None
    outcome: str | None = None
    posts: Sequence[NewPost] = ()
    then: Sequence[NewOwed] = ()


@dataclass(frozen=True)
class Record:
    """A row with how it ended (tests and the operator read these)."""

    owed: Owed
    done_at: datetime | None
    delivered: bool
    outcome: str | None
    channel_id: int | None
    message_id: int | None
    claimed_by: str | None


def _owed(row: OutboxRow) -> Owed:
    assert row.id is not None
    return Owed(
        row.id,
        row.race_id,
        OwedKind(row.kind),
        row.step,
        row.recipient,
        row.nonce,
        dict(row.payload or {}),
        row.attempts,
        row.created_at,
    )


def add(session: AsyncSession, race_id: int, owed: NewOwed, now: datetime) -> None:
    """Write a row in the caller's transaction; its commit wakes this process's dispatchers."""
    session.add(
        OutboxRow(
            race_id=race_id,
            kind=owed.kind.value,
            step=owed.step,
            recipient=owed.recipient,
            nonce=nonce(race_id, owed.kind, owed.step, owed.recipient, owed.payload.get(SALT)),
            payload=dict(owed.payload),
            created_at=now,
        )
    )
    outbox_written(session)


def add_all(session: AsyncSession, race_id: int, rows: Sequence[NewOwed], now: datetime) -> None:
    for row in rows:
        add(session, race_id, row, now)


_RANKED = case(*((col(OutboxRow.kind) == kind.value, level) for kind, level in RANK.items()), else_=LAST_RANK)
"""A row's :func:`rank` in SQL: claims take the most urgent of the races' next rows first."""


async def claim(db: Database, claimer: str, now: datetime, lease: float, limit: int = 8) -> list[Owed]:
    """Claim up to ``limit`` rows, each the oldest undelivered row of its race, not claimed by anyone
    else, not waiting out a retry, the most urgent first (:data:`RANK`, then the oldest): a lease of
    ``lease`` seconds for ``claimer``."""
    older = aliased(OutboxRow)
    first_of_its_race = ~exists().where(
        col(older.race_id) == col(OutboxRow.race_id), col(older.done_at).is_(None), col(older.id) < col(OutboxRow.id)
    )
    query = (
        select(OutboxRow)
        .where(
            col(OutboxRow.done_at).is_(None),
            first_of_its_race,
            or_(col(OutboxRow.claimed_until).is_(None), col(OutboxRow.claimed_until) < now),
            or_(col(OutboxRow.retry_at).is_(None), col(OutboxRow.retry_at) <= now),
        )
        .order_by(_RANKED, col(OutboxRow.id))
        .limit(limit)
    )
    if db.is_postgres:
        query = query.with_for_update(skip_locked=True, of=OutboxRow)
    async with db.sessions() as session, session.begin():
        rows = list((await session.execute(query)).scalars())
        if not rows:
            return []
        until = now + timedelta(seconds=lease)
        await session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.id).in_([r.id for r in rows]))
            .values(claimed_by=claimer, claimed_until=until)
            .execution_options(synchronize_session=False)
        )
        return [_owed(r) for r in rows]


async def finish(db: Database, owed: Owed, claimer: str, delivery: Delivery, now: datetime) -> bool:
    """Record a row delivered, with its ledger entries and the rows it owes in turn, in one transaction.
    False when the row was already done (another dispatcher took it over after the lease ran out)."""
    async with db.sessions() as session, session.begin():
        done = await session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.id) == owed.id, col(OutboxRow.done_at).is_(None))
            .values(
                done_at=now,
                delivered=delivery.outcome is None,
                outcome=delivery.outcome,
                channel_id=delivery.channel_id,
                message_id=delivery.message_id,
                attempts=owed.attempts + 1,
                claimed_until=None,
            )
            .execution_options(synchronize_session=False)
        )
        if int(getattr(done, "rowcount", 0)) != 1:
            return False
        for post in delivery.posts:
            await ledger.add(session, owed.race_id, post, now)
        add_all(session, owed.race_id, delivery.then, now)
    return True


async def retry_later(db: Database, owed: Owed, error: str, at: datetime) -> None:
    """A transient failure: the row keeps its place in its race's queue and is tried again at ``at``."""
    async with db.sessions() as session, session.begin():
        await session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.id) == owed.id, col(OutboxRow.done_at).is_(None))
            .values(attempts=owed.attempts + 1, retry_at=at, outcome=error[:200], claimed_until=None)
            .execution_options(synchronize_session=False)
        )


async def give_up(db: Database, owed: Owed, reason: str, now: datetime) -> None:
    """A permanent failure, recorded: the row is done (not delivered), so the race's next rows go on."""
    async with db.sessions() as session, session.begin():
        await session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.id) == owed.id, col(OutboxRow.done_at).is_(None))
            .values(done_at=now, delivered=False, outcome=reason[:200], attempts=owed.attempts + 1, claimed_until=None)
            .execution_options(synchronize_session=False)
        )


async def holders(db: Database, now: datetime) -> set[str]:
    """Who holds a live claim now."""
    async with db.sessions() as session:
        rows = await session.execute(
            select(col(OutboxRow.claimed_by))
            .where(col(OutboxRow.done_at).is_(None), col(OutboxRow.claimed_until) >= now)
            .distinct()
        )
        return {c for c in rows.scalars() if c}


async def release(db: Database, claimer: str) -> int:
    """Drop ``claimer``'s claims on rows not done (it stopped, or it is known dead): others may take them."""
    async with db.sessions() as session, session.begin():
        done = await session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.claimed_by) == claimer, col(OutboxRow.done_at).is_(None))
            .values(claimed_until=None)
            .execution_options(synchronize_session=False)
        )
        return int(getattr(done, "rowcount", 0))


async def rows_of(session: AsyncSession, race_id: int | None = None, *, pending: bool = False) -> list[Record]:
    """The rows (of one race, or all), oldest first; ``pending``: only those not done yet."""
    query = select(OutboxRow).order_by(col(OutboxRow.id))
    if race_id is not None:
        query = query.where(col(OutboxRow.race_id) == race_id)
    if pending:
        query = query.where(col(OutboxRow.done_at).is_(None))
    rows = (await session.execute(query)).scalars()
    return [Record(_owed(r), r.done_at, r.delivered, r.outcome, r.channel_id, r.message_id, r.claimed_by) for r in rows]


async def owed_later(session: AsyncSession, owed: Owed) -> bool:
    """Whether a row of ``owed``'s kind is owed after it for its race (not done yet): delivered after it,
    in its race's order, so a row that brings a message up to date (the lobby's edit) may leave it to that
    one (a backlog of told steps owes one header edit, not one per step)."""
    later = await session.execute(
        select(col(OutboxRow.id))
        .where(
            col(OutboxRow.race_id) == owed.race_id,
            col(OutboxRow.kind) == owed.kind.value,
            col(OutboxRow.id) > owed.id,
            col(OutboxRow.done_at).is_(None),
        )
        .limit(1)
    )
    return later.first() is not None


TOLD_KINDS = (OwedKind.STEP_POST, OwedKind.LAP_TURN)
"""The rows that tell a resolved step (their payload holds the step's own progress marker)."""


async def panels_owed(session: AsyncSession, race_id: int, step: int) -> bool:
    """Whether a panel of ``step`` is still to be delivered (opened for its player, or opened again)."""
    found = await session.execute(
        select(col(OutboxRow.id))
        .where(
            col(OutboxRow.race_id) == race_id,
            col(OutboxRow.step) == step,
            col(OutboxRow.kind).in_([OwedKind.OPEN_PANEL.value, OwedKind.REOPEN_PANEL.value]),
            col(OutboxRow.done_at).is_(None),
        )
        .limit(1)
    )
    return found.first() is not None


async def told_payload(session: AsyncSession, race_id: int, step: int) -> dict[str, Any] | None:
    """The payload of the row that told ``step`` of a race (None: no such row, e.g. a race begun before
    the outbox)."""
    row = (
        await session.execute(
            select(OutboxRow)
            .where(
                col(OutboxRow.race_id) == race_id,
                col(OutboxRow.step) == step,
                col(OutboxRow.kind).in_([k.value for k in TOLD_KINDS]),
            )
            .order_by(col(OutboxRow.id))
            .limit(1)
        )
    ).scalar_one_or_none()
    return dict(row.payload or {}) if row is not None else None


async def restore_salt(session: AsyncSession, race_id: int, before: int) -> str | None:
    """The salt of the race's latest ``resumed`` row older than row ``before`` (None: no restore since)."""
    row = (
        await session.execute(
            select(OutboxRow)
            .where(
                col(OutboxRow.race_id) == race_id,
                col(OutboxRow.kind) == OwedKind.RESUMED.value,
                col(OutboxRow.id) < before,
            )
            .order_by(col(OutboxRow.id).desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    if row is None:
        return None
    salt = (row.payload or {}).get(SALT)
    return str(salt) if salt else str(row.id)
