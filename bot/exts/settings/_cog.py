"""The /settings command: shows every server setting with its value and its default; changes one.

``/settings`` alone shows them all in one embed, with a menu to pick one to change (a form prefilled with
its value opens); ``/settings setting:<name> value:<text>`` changes one directly, and without a value puts
it back to its default. Only members who pass the
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


class SettingModal(discord.ui.Modal):
    """One setting's new value, prefilled with its current one (empty: back to its default)."""

    def __init__(self, name: str, current: str, locale: str) -> None:
        declared = server_settings.setting(name)
        super().__init__(title=t(declared.label, locale)[:45], timeout=600)
        self.name = name
        self.value: discord.ui.TextInput[SettingModal] = discord.ui.TextInput(
            label=t("settings.value_label", locale)[:45],
            placeholder=t("settings.value_placeholder", locale)[:100],
            default=current or None,
            required=False,
            max_length=400,
        )
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await _change(interaction, self.name, self.value.value)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:  # type: ignore[override]
        from bot import errors

        await errors.report(interaction, error)


class SettingsView(discord.ui.View):
    """Under the settings: a menu to pick the one to change (each pick passes the permission check)."""

    def __init__(self, locale: str) -> None:
        super().__init__(timeout=600)
        menu: discord.ui.Select[SettingsView] = discord.ui.Select(
            placeholder=t("settings.pick", locale),
            options=[
                discord.SelectOption(label=t(s.label, locale)[:100], value=s.name) for s in server_settings.SETTINGS
            ],
        )
        menu.callback = self.picked  # type: ignore[method-assign]
        self.menu = menu
        self.add_item(menu)

    async def picked(self, interaction: discord.Interaction[Any]) -> None:
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        name = self.menu.values[0]
        current = getattr(await server_settings.get_settings(ctx, interaction.guild.id), name)
        modal = SettingModal(name, server_settings.editable(name, current), str(interaction.locale))
        await interaction.response.send_modal(modal)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, item: Any, /) -> None:
        from bot import errors

        await errors.report(interaction, error)


async def _change(interaction: discord.Interaction[Any], setting: str, value: str | None) -> None:
    """Change one setting (checked again: the form may outlive a role change) and show them all."""
    locale = str(interaction.locale)
    ctx = await _admin.require_manager(interaction)
    assert interaction.guild is not None
    try:
        current = await server_settings.change(ctx, interaction.guild.id, setting, value)
    except Refusal as refusal:
        raise _admin.refused(refusal) from None
    await interaction.response.send_message(
        t("settings.changed", locale, name=t(server_settings.setting(setting).label, locale)),
        embed=_embed(current, locale, changed=setting),
        view=SettingsView(locale),
        ephemeral=True,
    )


SETTING_CHOICES = [app_commands.Choice(name=text(s.label), value=s.name) for s in server_settings.SETTINGS]


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
            await interaction.response.send_message(
                embed=_embed(current, locale), view=SettingsView(locale), ephemeral=True
            )
            return
        await _change(interaction, setting, value)
