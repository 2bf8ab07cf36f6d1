"""The one permission check for managing a race (start, cancel, seat bots): used everywhere.

This version allows the race's opener and members with Manage Server. The role an admin names in the
server settings comes with the server settings (another branch writes the full check with the same
signature); until then a named role grants nothing.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.services.context import Context


async def may_manage(
    ctx: Context,
    *,
    server_id: int,
    user_id: int,
    role_ids: Collection[int],
    manage_guild: bool,
    opener_id: int | None = None,
) -> bool:
    """True for the opener (when given) or a member with Manage Server."""
    del ctx, server_id, role_ids  # the named role arrives with the server settings
    if opener_id is not None and user_id == opener_id:
        return True
    return manage_guild
