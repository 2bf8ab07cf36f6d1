"""/league: standings, rider profiles, seasons, points tables, the export and forget-me."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.league._cog import LeagueCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
