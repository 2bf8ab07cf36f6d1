"""/stage: server admins design, save, share and analyse stages for each rule system."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.stage._cog import StageCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StageCog(bot))
