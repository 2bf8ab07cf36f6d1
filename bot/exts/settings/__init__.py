"""/settings: the server's settings, each with its value and its default, and a way to change each."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.settings._cog import SettingsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
