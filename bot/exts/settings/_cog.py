"""The /settings command: shows every server setting with its value and its default; changes one.

``/settings`` alone shows them all in one embed; ``/settings setting:<name> value:<text>`` changes one,
and ``/settings setting:<name>`` without a value puts it back to its default. Only members who pass the
one permission check (:mod:`bot.services.permissions`) may use it, whatever Discord shows them.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.exts import _admin
from bot.i18n import t
from bot.services import server_settings
from bot.services.outcomes import Refusal
from bot.translator import text


def _embed(values: server_settings.ServerSettings, locale: str, changed: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=t("settings.title", locale))
    for declared in server_settings.SETTINGS:
        value = getattr(values, declared.name)
        line = t(
            "settings.line",
            locale,
            value=server_settings.shown(declared.name, value, locale),
            default=server_settings.shown(declared.name, declared.default, locale),
        )
        marker = " ✎" if declared.name == changed else ""
        embed.add_field(name=t(declared.label, locale) + marker, value=line, inline=False)
    embed.set_footer(text=t("settings.footer", locale))
    return embed


SETTING_CHOICES = [app_commands.Choice(name=t(s.label), value=s.name) for s in server_settings.SETTINGS]


class SettingsCog(commands.Cog):
    """The server's settings, for those allowed to manage Gregario."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_unload(self) -> None:
        await _admin.close(self.bot)

    @app_commands.command(name="settings", description=text("command.settings"))
    @app_commands.describe(setting=text("command.settings.setting"), value=text("command.settings.value"))
    @app_commands.choices(setting=SETTING_CHOICES)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction[Any], setting: str | None = None, value: str | None = None
    ) -> None:
        locale = str(interaction.locale)
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        if setting is None:
            if value is not None:
                raise _admin.refused(Refusal.of("settings.which"))
            current = await server_settings.get_settings(ctx, interaction.guild.id)
            await interaction.response.send_message(embed=_embed(current, locale), ephemeral=True)
            return
        try:
            current = await server_settings.change(ctx, interaction.guild.id, setting, value)
        except Refusal as refusal:
            raise _admin.refused(refusal) from None
        await interaction.response.send_message(
            t("settings.changed", locale, name=t(server_settings.setting(setting).label, locale)),
            embed=_embed(current, locale, changed=setting),
            ephemeral=True,
        )
