"""The "Send me the guide" button and how the guide reaches a player.

The button is a ``DynamicItem``: its custom id carries the rule system (``gregario:guide:<id>``), so it
works for anyone who sees the message and keeps working after a restart.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import catalogue, errors
from bot.errors import UserError
from bot.i18n import t
from engine.registry import UnknownRuleset, get_ruleset
from engine.ruleset import Ruleset

_log = logging.getLogger(__name__)

DM_CLOSED_CODES = frozenset({50007, 50278})
"""Discord's "Cannot send messages to this user" codes (DMs closed, or no shared server)."""


class GuideButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gregario:guide:(?P<ruleset>[a-z0-9_]+)"):
    """Sends the rule system's guide to whoever clicks, by DM, or ephemerally when DMs are closed."""

    def __init__(self, ruleset_id: str, label: str = "Send me the guide") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"gregario:guide:{ruleset_id}",
            )
        )
        self.ruleset_id = ruleset_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GuideButton:
        return cls(match["ruleset"], label=getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await send_guide(interaction, self.ruleset_id)
        except Exception as error:
            await errors.report(interaction, error)


async def send_guide(interaction: discord.Interaction[Any], ruleset_id: str) -> None:
    """DM the guide to the player; if their DMs are closed, show it to them alone, with a note."""
    locale = str(interaction.locale)
    try:
        ruleset: Ruleset[Any] = get_ruleset(ruleset_id)
    except UnknownRuleset:
        raise UserError("error.unknown_ruleset", value=ruleset_id, names=_names()) from None
    text = catalogue.guide(ruleset, locale)
    if text is None:
        raise UserError("rules.no_guide", ruleset=ruleset.name)
    pieces = catalogue.chunks(text)
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        for piece in pieces:
            await interaction.user.send(piece)
    except discord.Forbidden as refused:
        if refused.code not in DM_CLOSED_CODES:
            raise
        _log.info("DMs closed for user %s (code %s): guide shown ephemerally", interaction.user.id, refused.code)
        await interaction.followup.send(t("rules.dm_closed", locale, ruleset=ruleset.name), ephemeral=True)
        for piece in pieces:
            await interaction.followup.send(piece, ephemeral=True)
        return
    await interaction.followup.send(t("rules.guide_sent", locale, ruleset=ruleset.name), ephemeral=True)


def _names() -> str:
    return ", ".join(r.name for r in catalogue.rulesets()) or "none yet"
