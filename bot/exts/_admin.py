"""What the admin commands (/stage, /settings) share: the race services' context and the one permission check.

The context is the running :class:`~bot.services.runtime.Runtime`'s when the bot has one (``bot.runtime``);
until then a context of its own over the configured database is opened on first use (and migrated).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.errors import UserError
from bot.services import permissions
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.store import migrate
from bot.store.database import connect


async def context(bot: Any) -> Context:
    """The services' context of this bot."""
    runtime = getattr(bot, "runtime", None)
    if runtime is not None:
        ctx: Context = runtime.ctx
        return ctx
    lock: asyncio.Lock = bot.__dict__.setdefault("_admin_lock", asyncio.Lock())
    async with lock:
        own: Context | None = getattr(bot, "_admin_context", None)
        if own is None:
            db = connect(bot.settings.database_url)
            await migrate.upgrade(db)
            own = Context(db=db)
            bot._admin_context = own
        return own


async def close(bot: Any) -> None:
    """Close the context this module opened (never the runtime's)."""
    own: Context | None = getattr(bot, "_admin_context", None)
    if own is not None:
        bot._admin_context = None
        await own.db.close()


async def require_manager(interaction: discord.Interaction[Any]) -> Context:
    """The context, once the member passed the permission check; a refusal saying what is missing otherwise."""
    if interaction.guild is None or not isinstance(interaction.user, discord.Member):
        raise UserError("error.server_only")
    ctx = await context(interaction.client)
    allowed = await permissions.may_manage(
        ctx,
        server_id=interaction.guild.id,
        user_id=interaction.user.id,
        role_ids=[role.id for role in interaction.user.roles],
        manage_guild=interaction.permissions.manage_guild,
    )
    if not allowed:
        from bot.services.server_settings import get_settings

        role = (await get_settings(ctx, interaction.guild.id)).manager_role
        if role is not None:
            raise UserError("admin.not_allowed_role", role=f"<@&{role}>")
        raise UserError("admin.not_allowed")
    return ctx


def refused(refusal: Refusal) -> UserError:
    """A service's refusal as the error the one error handler answers with."""
    return UserError(refusal.key, **refusal.message.params)
