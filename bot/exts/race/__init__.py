"""/race: lobbies, private panels by DM, one post per resolution, the final result."""

from __future__ import annotations

from discord.ext import commands

from bot.exts.race._cog import RaceCog
from bot.exts.race._components import DYNAMIC_ITEMS


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(RaceCog(bot))
