"""Who may manage the bot on a server: ONE check used everywhere (WAVE2 contract).

A LOCAL FALLBACK written on branch i18 (the league's admin commands need it and this base has no
permissions module): the opener (when given) or a member with Manage Server. The role an admin names
in the server settings is i17's; the lead keeps i17's full version of this module at merge.
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
    """True for the opener (when given) or a member with Manage Server (the named role: i17's version)."""
    del ctx, server_id, role_ids  # used by the full version (the server's named role)
    return manage_guild or (opener_id is not None and user_id == opener_id)
