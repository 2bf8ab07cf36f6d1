"""Base classes for the bot's components, so every view and modal shares the one error handler."""

from __future__ import annotations

from typing import Any

import discord

from bot import errors


class View(discord.ui.View):
    """A view whose failures are answered kindly and logged by :func:`bot.errors.report`."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await errors.report(interaction, error)


class Modal(discord.ui.Modal):
    """A modal whose failures are answered kindly and logged by :func:`bot.errors.report`."""

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:  # type: ignore[override]
        await errors.report(interaction, error)
