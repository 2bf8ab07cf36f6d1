"""Slash-command names and descriptions come from the catalogs too, so Discord shows them in each player's
language.

A description is written ``text("command.rules")``: its English comes from ``en.json`` and its key
travels with it (``locale_str`` extras), so the translator can look it up in other catalogs when
discord.py syncs the commands; a choice shown by name is written the same way. A command's, group's or
option's name stays the plain English word the code gives (the canonical name Discord keeps), and its
localised name is the catalogs' ``command.name.<english name>`` (one word per name, whatever command
it belongs to: ``ruleset`` is the same option everywhere).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation

from bot.i18n import t, translation

NAMED = frozenset(
    {
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    }
)
"""Where discord.py asks for a name: a command's, a group's, an option's."""


def text(key: str) -> app_commands.locale_str:
    """A command or option description (or a choice's name): the English text of ``key``, translatable by
    its key."""
    return app_commands.locale_str(t(key), key=key)


NAME_KEYS: dict[str, str] = {
    "analyse": "command.name.analyse",
    "board": "command.name.board",
    "bots": "command.name.bots",
    "cancel": "command.name.cancel",
    "delete": "command.name.delete",
    "edit": "command.name.edit",
    "end": "command.name.end",
    "export": "command.name.export",
    "file": "command.name.file",
    "forget-me": "command.name.forget_me",
    "import": "command.name.import",
    "league": "command.name.league",
    "leave": "command.name.leave",
    "list": "command.name.list",
    "member": "command.name.member",
    "name": "command.name.name",
    "new": "command.name.new",
    "options": "command.name.options",
    "orders": "command.name.orders",
    "pace": "command.name.pace",
    "points": "command.name.points",
    "race": "command.name.race",
    "rider": "command.name.rider",
    "rules": "command.name.rules",
    "ruleset": "command.name.ruleset",
    "season": "command.name.season",
    "seed": "command.name.seed",
    "setting": "command.name.setting",
    "settings": "command.name.settings",
    "show": "command.name.show",
    "solo": "command.name.solo",
    "stage": "command.name.stage",
    "stages": "command.name.stages",
    "standings": "command.name.standings",
    "start": "command.name.start",
    "status": "command.name.status",
    "table": "command.name.table",
    "value": "command.name.value",
}
"""The catalog key of each command's, group's and option's localised name, by its English name (every key
written whole, so the catalog test finds it used)."""


class CatalogTranslator(app_commands.Translator):
    """Translates command names, and the descriptions and choices written with :func:`text`, from the
    bot's catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            if context.location not in NAMED:
                return None
            found = NAME_KEYS.get(string.message)
            if found is None:
                return None
            key = found
        return translation(key, locale.value)
