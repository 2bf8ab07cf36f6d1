"""The one permission check of Gregario, used by every command that changes something for others.

A member may manage (a race, the server's stages, its settings) when they are the race's opener (for
that race only), hold Discord's Manage Server permission, or hold the role an admin named in the
server settings (``manager_role``). The Discord layer asks this in every admin command, on top of
``default_permissions(manage_guild=True)``: server owners can change who sees a command, so what
Discord shows is never trusted alone.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.services.context import Context
from bot.services.server_settings import get_settings


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
