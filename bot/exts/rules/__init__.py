"""/rules: a rule system's summary, and its player's guide by DM."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.rules._cog import RulesCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog(bot))
