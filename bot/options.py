"""Slash-command options shared by several features."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import catalogue
from bot.errors import UserError
from engine.registry import UnknownRuleset, get_ruleset
from engine.ruleset import Ruleset


class RulesetOption(app_commands.Transformer):
    """A ``ruleset`` option: the installed rule systems as choices, turned into the Ruleset itself.

    The choices are read when a command is defined (at extension load), which is when the installed
    rule systems are known.
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]] | None:
        found: list[app_commands.Choice[int | float | str]] = [
            app_commands.Choice(name=r.name, value=r.id) for r in catalogue.rulesets()
        ]
        return found[: catalogue.CHOICE_LIMIT] or None

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> Ruleset[Any]:
        try:
            return get_ruleset(str(value))
        except UnknownRuleset:
            names = ", ".join(r.name for r in catalogue.rulesets()) or "none yet"
            raise UserError("error.unknown_ruleset", value=value, names=names) from None


RulesetParam = app_commands.Transform[Ruleset[Any], RulesetOption]
"""Annotation for a command parameter that takes a rule system."""
