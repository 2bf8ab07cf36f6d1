"""Slash-command descriptions come from the catalogs too, so Discord shows them in each player's language.

A description is written ``text("command.rules")``: its English comes from ``en.json`` and its key
travels with it (``locale_str`` extras), so the translator can look it up in other catalogs when
discord.py syncs the commands.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import t, translation


def text(key: str) -> app_commands.locale_str:
    """A command or option description: the English text of ``key``, translatable by its key."""
    return app_commands.locale_str(t(key), key=key)


class CatalogTranslator(app_commands.Translator):
    """Translates command descriptions written with :func:`text` from the bot's catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        return translation(key, locale.value)
