"""Who reads a race's messages, and in which language: the channel, each player, the clicker.

Shared by intake (:mod:`._intake`) and delivery (:mod:`._delivery`), which import it and never each other
the other way round.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, t
from bot.progress import counter
from bot.render.registry import rider_names
from bot.services import boards, server_settings
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


def title(race: RaceView, locale: str | None, marker: dict[str, Any] | None) -> str:
    """A panel's title: the rule system, the race and the one counter (round, stage, lap) of the step it
    asks, from the progress marker players saw while it was open (never the step number)."""
    name = get_ruleset(race.ruleset).name
    return t("race.panel.title", locale, ruleset=name, race=race.race_id, counter=counter(marker, locale))


def names(race: RaceView) -> dict[str, str]:
    """The seats' names by entrant (see :class:`Riders` for the riders' too)."""
    return {s.entrant: s.name for s in race.seats}


class Riders:
    """What players read for each entrant and rider id: seat names, and riders by player and kind ("Anna's
    Rouleur"), learnt from a race's public view once per race and language (rider ids never change), so
    no text says ``red-r``. One per intake or deliverer: a cache of what the database says, never state."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._riders: dict[tuple[int, str], dict[str, str]] = {}

    async def names(self, race: RaceView, locale: str | None) -> dict[str, str]:
        seats = names(race)
        if race.status == "lobby":
            return seats
        key = (race.race_id, str(locale or DEFAULT_LOCALE))
        if key not in self._riders:
            view = await boards.public_view(self.ctx, race.race_id)
            if view is None:
                return seats
            named = rider_names(race.ruleset, view, seats, key[1])
            self._riders[key] = {k: v for k, v in named.items() if k not in seats}
        return {**seats, **self._riders[key]}


def closed_dms_error(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a DM because the member's DMs are closed."""
    return isinstance(exc, discord.Forbidden) and exc.code in CLOSED_DMS
