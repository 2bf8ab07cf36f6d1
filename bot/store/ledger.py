"""The post ledger: which Discord message the bot posted for what (a step, a lap, a player's panel).

Kinds are typed (:class:`PostKind`), the member and the lap key have columns of their own, so nothing
is parsed out of a string. Reads return plain :class:`Post` values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.store.tables import PostedMessage


class PostKind(StrEnum):
    STEP = "step"
    """The channel message that tells a step (0: the start); for a turn of a lap, the lap's message."""
    LOBBY = "lobby"
    FINAL = "final"
    NEWS = "news"
    """The held-back news (Tabella's Gazzetta) with the final result."""
    PANEL = "panel"
    """A member's DM panel for a step."""
    DMS_CLOSED = "dms_closed"
    """A member whose DMs are closed (no message: ids 0): they order through Open my orders."""
    LAP = "lap"
    """A lap's message (turns of a sequential system), stored at its first turn; ``lap`` is its key."""
    LAP_DONE = "lap_done"
    """A lap completed at this step; ``lap`` is the key of the lap that comes next."""
    RESUMED = "resumed"
    """The channel message saying the race resumed from an earlier point (after a restore)."""
    REMINDER = "reminder"
    """A member's reminder DM for a step (deleted when the step's panel closes: the trail stays short)."""
    STAGE = "stage"
    """A stage's summary, at the step that ended the stage."""
    THREAD = "thread"
    """The race's thread (``channel_id`` and ``message_id``: the thread's id, which is its lobby message's)."""
    THREAD_REFUSED = "thread_refused"
    """The bot may not open threads in the race's channel (no message: ids 0): the race is posted there."""
    FINAL_COPY = "final_copy"
    """The final post's copy in the race's thread (``FINAL`` is the channel's, the one links point to)."""


ONCE_PER_STEP = frozenset(
    {
        PostKind.STEP,
        PostKind.LOBBY,
        PostKind.FINAL,
        PostKind.NEWS,
        PostKind.LAP,
        PostKind.THREAD,
        PostKind.THREAD_REFUSED,
        PostKind.FINAL_COPY,
        PostKind.STAGE,
    }
)
"""Kinds a race has at most one of per step (``DMS_CLOSED``: one per member)."""


@dataclass(frozen=True)
class Post:
    race_id: int
    step: int
    kind: PostKind
    member: int | None
    lap: str | None
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class NewPost:
    """A ledger entry to write (the dispatcher writes it with the delivery that made it)."""

    step: int
    kind: PostKind
    channel_id: int
    message_id: int
    member: int | None = None
    lap: str | None = None


def _post(row: PostedMessage) -> Post:
    return Post(row.race_id, row.step, PostKind(row.kind), row.member, row.lap, row.channel_id, row.message_id)


async def posts_of(session: AsyncSession, race_id: int, step: int | None = None) -> list[Post]:
    """The race's ledger (one step's, or all of it), in the order it was written."""
    query = select(PostedMessage).where(col(PostedMessage.race_id) == race_id)
    if step is not None:
        query = query.where(col(PostedMessage.step) == step)
    rows = await session.execute(query.order_by(col(PostedMessage.id)))
    return [_post(row) for row in rows.scalars()]


async def add(session: AsyncSession, race_id: int, post: NewPost, now: datetime) -> bool:
    """Write a ledger entry in the caller's transaction. False (and nothing written) when an entry of a
    once-per-step kind (or closed DMs for the same member) is already there: a second one is a duplicate."""
    if post.kind in ONCE_PER_STEP or post.kind is PostKind.DMS_CLOSED:
        query = select(col(PostedMessage.id)).where(
            col(PostedMessage.race_id) == race_id,
            col(PostedMessage.kind) == post.kind.value,
        )
        if post.kind is PostKind.DMS_CLOSED:
            query = query.where(col(PostedMessage.member) == post.member)
        else:
            query = query.where(col(PostedMessage.step) == post.step)
        if (await session.execute(query.limit(1))).first() is not None:
            return False
    session.add(
        PostedMessage(
            race_id=race_id,
            step=post.step,
            kind=post.kind.value,
            member=post.member,
            lap=post.lap,
            channel_id=post.channel_id,
            message_id=post.message_id,
            posted_at=now,
        )
    )
    await session.flush()
    return True


async def closed_dms(session: AsyncSession, race_id: int) -> set[int]:
    """The members of the race whose DMs were found closed."""
    rows = await session.execute(
        select(col(PostedMessage.member)).where(
            col(PostedMessage.race_id) == race_id, col(PostedMessage.kind) == PostKind.DMS_CLOSED.value
        )
    )
    return {m for m in rows.scalars() if m is not None}


async def told(session: AsyncSession, race_id: int) -> set[int]:
    """The steps of the race a channel message tells."""
    rows = await session.execute(
        select(col(PostedMessage.step)).where(
            col(PostedMessage.race_id) == race_id, col(PostedMessage.kind) == PostKind.STEP.value
        )
    )
    return set(rows.scalars())


async def newest_in(session: AsyncSession, channel_ids: Iterable[int]) -> dict[int, int]:
    """The newest message the ledger knows in each of these channels (of any race); channels it knows
    nothing in are left out."""
    rows = await session.execute(
        select(col(PostedMessage.channel_id), func.max(col(PostedMessage.message_id)))
        .where(col(PostedMessage.channel_id).in_(list(channel_ids)))
        .group_by(col(PostedMessage.channel_id))
    )
    return {int(channel): int(newest) for channel, newest in rows.all()}


async def known(session: AsyncSession, message_ids: Iterable[int]) -> set[int]:
    """Which of these messages the ledger knows."""
    ids = list(message_ids)
    if not ids:
        return set()
    rows = await session.execute(select(col(PostedMessage.message_id)).where(col(PostedMessage.message_id).in_(ids)))
    return {int(m) for m in rows.scalars()}


async def dm_channels(session: AsyncSession, members: Iterable[int]) -> dict[int, int]:
    """The DM channel the ledger knows for each of these members (from their panels)."""
    rows = await session.execute(
        select(col(PostedMessage.member), col(PostedMessage.channel_id)).where(
            col(PostedMessage.kind) == PostKind.PANEL.value,
            col(PostedMessage.member).in_(list(members)),
            col(PostedMessage.channel_id) != 0,
        )
    )
    return {int(member): int(channel) for member, channel in rows.all() if member is not None}


async def thread_race(session: AsyncSession, channel_id: int) -> int | None:
    """The race whose thread this channel is (None: not a race's thread)."""
    rows = await session.execute(
        select(col(PostedMessage.race_id)).where(
            col(PostedMessage.kind) == PostKind.THREAD.value, col(PostedMessage.channel_id) == channel_id
        )
    )
    return rows.scalars().first()
