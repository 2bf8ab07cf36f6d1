"""Who reads a race's messages, and in which language: the channel, each player, the clicker.

Shared by intake (:mod:`._intake`) and delivery (:mod:`._delivery`), which import it and never each other
the other way round.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, t
from bot.services import server_settings
from bot.services.context import Context
from bot.services.outcomes import MemberRef, RaceView
from engine.registry import get_ruleset

CLOSED_DMS = (50007, 50278)
"""Discord's codes for "Cannot send messages to this user" (DMs closed, or no shared server)."""


def member_ref(interaction: discord.Interaction[Any]) -> MemberRef:
    user = interaction.user
    return MemberRef(
        server_id=interaction.guild_id or 0,
        user_id=user.id,
        name=getattr(user, "display_name", user.name),
        locale=str(interaction.locale),
    )


async def channel_locale(client: discord.Client, ctx: Context, race: RaceView) -> str:
    """The language of what everyone in the race's channel reads (the lobby, round, lap and final
    posts): the language an admin chose in ``/settings``, else the server's preferred locale as
    Discord gives it (``Guild.preferred_locale``, a community server's setting), else English. Each
    player's own panels follow their own locale instead."""
    chosen = (await server_settings.get_settings(ctx, race.server_id)).language
    if chosen != server_settings.DEFAULTS.language:
        return chosen
    guild = client.get_guild(race.server_id)
    preferred = getattr(guild, "preferred_locale", None)
    return str(preferred) if preferred else DEFAULT_LOCALE


def title(race: RaceView, locale: str | None, step: int | None = None) -> str:
    """A panel's title: the rule system, the race and the step."""
    name = get_ruleset(race.ruleset).name
    return t("race.panel.title", locale, ruleset=name, race=race.race_id, step=step if step is not None else race.step)


def names(race: RaceView) -> dict[str, str]:
    return {s.entrant: s.name for s in race.seats}


def closed_dms_error(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a DM because the member's DMs are closed."""
    return isinstance(exc, discord.Forbidden) and exc.code in CLOSED_DMS
