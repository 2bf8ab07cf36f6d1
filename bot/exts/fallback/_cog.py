"""The fallback for interactions nothing else handles: an ephemeral answer saying what to do, at once.

discord.py dispatches a component or modal interaction to the bot's views first, then raises the
``interaction`` event; this cog's listener asks :func:`~bot.exts.fallback._handled.will_be_handled`
whether anything took it and answers only the ones dropped (a stale or unknown button, a form whose
modal is gone), so a handled click is never answered twice and a dropped one within Discord's 3 seconds.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.exts.fallback._handled import MODAL_SUBMIT, will_be_handled
from bot.i18n import t

_log = logging.getLogger(__name__)


class FallbackCog(commands.Cog):
    """Answers the interactions discord.py would drop: "This panel is out of date" and what to do."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.response.is_done() or will_be_handled(self.bot, interaction):
            return
        key = "interaction.stale_form" if interaction.type == MODAL_SUBMIT else "interaction.stale_panel"
        data: dict[str, Any] = dict(interaction.data or {})
        _log.info("answered an interaction nothing handled (custom id %r)", data.get("custom_id"))
        try:
            await interaction.response.send_message(t(key, str(interaction.locale)), ephemeral=True)
        except (discord.InteractionResponded, discord.HTTPException) as failure:
            # Answered meanwhile, or expired: nothing more to tell the person.
            _log.info("could not answer a dropped interaction: %s", failure)
