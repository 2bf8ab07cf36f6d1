"""The /rules command. The cog only renders; guides and lookups live in ``bot.catalogue``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import catalogue
from bot.exts.rules._guide import GuideButton
from bot.i18n import t
from bot.options import RulesetParam
from bot.translator import text
from bot.ui import View

EMBED_DESCRIPTION_LIMIT = 4096


class RulesCog(commands.Cog):
    """Explains the rule systems: a summary in the channel, the full guide by DM."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(GuideButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GuideButton)

    @app_commands.command(name="rules", description=text("command.rules"))
    @app_commands.describe(ruleset=text("command.rules.ruleset"))
    async def rules(self, interaction: discord.Interaction[Any], ruleset: RulesetParam) -> None:
        locale = str(interaction.locale)
        summary = t(ruleset.summary(), locale)
        embed = discord.Embed(title=ruleset.name, description=summary[:EMBED_DESCRIPTION_LIMIT])
        low, high = ruleset.player_limits(None, {})  # the default stage and options
        players = (
            t("rules.players_exact", locale, count=low)
            if low == high
            else t("rules.players_value", locale, minimum=low, maximum=high)
        )
        embed.add_field(name=t("rules.players", locale), value=players)
        view = View(timeout=None)
        if catalogue.guide(ruleset) is not None:
            view.add_item(GuideButton(ruleset.id, label=t("rules.guide_button", locale)))
            embed.set_footer(text=t("rules.footer", locale))
        await interaction.response.send_message(embed=embed, view=view)
