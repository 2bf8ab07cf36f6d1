"""/stages: a rule system's preset stages, and a chosen stage's board."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.stages._cog import StagesCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StagesCog(bot))
