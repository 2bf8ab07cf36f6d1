"""What the bot posted for a race (the ledger, :mod:`bot.store.ledger`), and who its members are.

Posts owed by a change go through the outbox (:mod:`bot.services.owed`, :mod:`bot.services.dispatch`);
this module records what the Discord layer posts in answer to an interaction (the lobby, closed DMs
found by the welcome DM). Members' locales are refreshed on every interaction, so DMs sent without one
speak the player's language.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlmodel import col

from bot.services.context import Context
from bot.services.lobby import remember
from bot.services.outcomes import MemberRef
from bot.store import ledger
from bot.store.ledger import NewPost, PostKind
from bot.store.tables import Member, StepEvents


async def record_post(
    ctx: Context,
    race_id: int,
    step: int,
    kind: PostKind,
    channel_id: int,
    message_id: int,
    *,
    member: int | None = None,
    lap: str | None = None,
) -> bool:
    """Remember a post's message id (False if this post was already recorded: a second post is a duplicate)."""
    async with ctx.db.sessions() as session, session.begin():
        entry = NewPost(step, PostKind(kind), channel_id, message_id, member, lap)
        return await ledger.add(session, race_id, entry, ctx.clock.now())


async def unposted_steps(ctx: Context, race_id: int) -> list[int]:
    """Resolved steps (0 = the opening) no channel message tells yet."""
    async with ctx.db.sessions() as session:
        resolved = await session.execute(
            select(col(StepEvents.step)).where(col(StepEvents.race_id) == race_id).order_by(col(StepEvents.step))
        )
        done = await ledger.told(session, race_id)
        return [s for s in resolved.scalars() if s not in done]


SEEN_REFRESH = timedelta(minutes=10)
"""How long a member seen with the same name and locale is not written again (``seen_at`` is that coarse)."""


async def touch_member(ctx: Context, member: MemberRef) -> None:
    """Refresh a member's name and locale (called on every interaction). A member this process wrote with
    the same name and locale less than :data:`SEEN_REFRESH` ago is not written again: a player's clicks
    cost no write transaction each (members are never deleted, so the row is there)."""
    now = ctx.clock.now()
    last = ctx.members_seen.get(member)
    if last is not None and timedelta(0) <= now - last < SEEN_REFRESH:
        return
    async with ctx.db.sessions() as session, session.begin():
        await remember(session, member, now)
    if len(ctx.members_seen) >= 100_000:  # a bound, not a cache policy: the next click writes again
        ctx.members_seen.clear()
    ctx.members_seen[member] = now


async def locales(ctx: Context, server_id: int, user_ids: list[int]) -> dict[int, str | None]:
    """The locale last seen for each of these members of a server (None: never seen)."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(col(Member.user_id), col(Member.locale)).where(
                col(Member.server_id) == server_id, col(Member.user_id).in_(user_ids)
            )
        )
        found: dict[int, str | None] = {user: locale for user, locale in rows.all()}
    return {u: found.get(u) for u in user_ids}
