"""The one permission check of Gregario, used by every command that changes something for others.

A member may manage (a race, the server's stages, its settings) when they are the race's opener (for
that race only), hold Discord's Manage Server permission, or hold the role an admin named in the
server settings (``manager_role``). The Discord layer asks this in every admin command, on top of
``default_permissions(manage_guild=True)``: server owners can change who sees a command, so what
Discord shows is never trusted alone. Who may open a race, and where (:func:`check_may_open`), is the
same question asked of the server's settings.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.services.server_settings import ServerSettings, get_settings


async def may_manage(
    ctx: Context,
    *,
    server_id: int,
    user_id: int,
    role_ids: Collection[int],
    manage_guild: bool,
    opener_id: int | None = None,
) -> bool:
    """True for the opener (when given), a member with Manage Server, or one holding the named manager role."""
    if opener_id is not None and user_id == opener_id:
        return True
    if manage_guild:
        return True
    role = (await get_settings(ctx, server_id)).manager_role
    return role is not None and role in set(role_ids)


async def check_may_open(
    ctx: Context, *, server_id: int, channel_id: int, user_id: int, role_ids: Collection[int], manage_guild: bool
) -> ServerSettings:
    """Whether this member may open a race in this channel under the server's settings (who may open
    races, which channels races run in); a :class:`Refusal` saying what to do instead otherwise.

    For ``/race new`` (wired at merge): the settings are read at each call, so a change applies to the
    next race."""
    current = await get_settings(ctx, server_id)
    if not current.allows_channel(channel_id):
        channels = " ".join(f"<#{c}>" for c in current.race_channels)
        raise Refusal.of("settings.wrong_channel", channels=channels)
    if current.race_openers == "managers" and not await may_manage(
        ctx, server_id=server_id, user_id=user_id, role_ids=role_ids, manage_guild=manage_guild
    ):
        raise Refusal.of("settings.managers_open")
    return current
