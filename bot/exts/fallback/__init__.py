"""Every interaction answered: a click or a form nothing else handles gets a short ephemeral answer."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.fallback._cog import FallbackCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FallbackCog(bot))
