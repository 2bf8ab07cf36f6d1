"""What the bot posted for a race, and who its members are, for the Discord layer.

A round post is created with a nonce derived from the race and the step (Discord returns the existing
message instead of posting twice); its message id is stored once it returns. After a restart, a
resolved step without a stored post is posted again with the same nonce. Members' locales are
refreshed on every interaction, so DMs sent without one speak the player's language.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from bot.services.context import Context
from bot.services.lobby import remember
from bot.services.outcomes import MemberRef
from bot.store.tables import Member, PostedMessage, StepEvents


def nonce(race_id: int, step: int, kind: str = "step") -> str:
    """The nonce of a race post: the same for the same post, at most 25 characters as Discord allows."""
    return f"g{race_id}-{kind[:4]}-{step}"[:25]


async def record_post(ctx: Context, race_id: int, step: int, kind: str, channel_id: int, message_id: int) -> bool:
    """Remember a post's message id (False if this post was already recorded: a second post is a duplicate)."""
    try:
        async with ctx.db.sessions() as session, session.begin():
            session.add(
                PostedMessage(
                    race_id=race_id,
                    step=step,
                    kind=kind,
                    channel_id=channel_id,
                    message_id=message_id,
                    posted_at=ctx.clock.now(),
                )
            )
    except IntegrityError:
        return False
    return True


async def unposted_steps(ctx: Context, race_id: int, kind: str = "step") -> list[int]:
    """Resolved steps (0 = the opening) with no stored post of ``kind``: to post again after a restart."""
    async with ctx.db.sessions() as session:
        resolved = await session.execute(
            select(col(StepEvents.step)).where(col(StepEvents.race_id) == race_id).order_by(col(StepEvents.step))
        )
        posted = await session.execute(
            select(col(PostedMessage.step)).where(
                col(PostedMessage.race_id) == race_id, col(PostedMessage.kind) == kind
            )
        )
        done = set(posted.scalars())
        return [s for s in resolved.scalars() if s not in done]


async def touch_member(ctx: Context, member: MemberRef) -> None:
    """Refresh a member's name and locale (called on every interaction)."""
    async with ctx.db.sessions() as session, session.begin():
        await remember(session, member, ctx.clock.now())


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
