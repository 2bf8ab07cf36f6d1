"""/race: lobbies, private panels by DM, one post per resolution, the final result.

Two sides, split along the outbox: intake (:mod:`._intake`: an interaction -> a service -> the reply;
:mod:`._cog` for the commands, :mod:`._components` for the persistent buttons) and delivery
(:mod:`._delivery`: an outbox row -> a Discord call, rendered at delivery). Both use :mod:`._audience`
(who reads, in which language), the renderers (:mod:`._panel`, :mod:`._lobby`, :mod:`._text`) and
:mod:`._posts` (calls outside interactions); delivery never imports intake.
"""

from __future__ import annotations

from discord.ext import commands

from bot.exts.race._cog import RaceCog
from bot.exts.race._components import DYNAMIC_ITEMS


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(RaceCog(bot))
