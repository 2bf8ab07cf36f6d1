"""The one error handler: players get a short, kind answer; everything unexpected is logged.

Commands raise :class:`UserError` (or the engine's ``OrderError``) for refusals the player must read;
anything else is a bug or a Discord outage, logged with its traceback and answered with an apology.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.catalogue import MESSAGE_LIMIT
from bot.i18n import t
from engine.messages import OrderError

_log = logging.getLogger(__name__)


class UserError(Exception):
    """A refusal a player reads: a catalog key and its parameters (see docs/message-style.md)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to Discord's message limit with a visible "…", so an over-long refusal (a pasted wall of
    text echoed back) still reaches the player instead of failing the whole interaction."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def explain(error: BaseException, locale: str | None) -> str:
    """The player's text for ``error``, never longer than a message; logs what a player should not read."""
    return fit(_explain(error, locale))


def _explain(error: BaseException, locale: str | None) -> str:
    original: BaseException = error
    while isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        if original.__cause__ is None:
            break
        original = original.__cause__
    if isinstance(original, UserError):
        return t(original.key, locale, **original.params)
    if isinstance(original, OrderError):
        return t(original.message, locale)
    if isinstance(original, app_commands.MissingPermissions):
        return t("error.missing_permissions", locale, permissions=", ".join(original.missing_permissions))
    if isinstance(original, app_commands.NoPrivateMessage):
        return t("error.server_only", locale)
    if isinstance(original, app_commands.CommandOnCooldown):
        return t("error.cooldown", locale, seconds=max(1, round(original.retry_after)))
    if isinstance(original, app_commands.CheckFailure):
        return t("error.not_allowed", locale)
    if isinstance(original, app_commands.TransformerError):
        return t("error.bad_option", locale, value=original.value)
    if isinstance(original, discord.DiscordServerError):
        _log.warning("Discord answered %s: %s", original.status, original.text)
        return t("error.discord_trouble", locale)
    _log.error("unexpected error in an interaction", exc_info=original)
    return t("error.unexpected", locale)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` with the player's text for ``error`` (ephemeral), whatever its state."""
    text = explain(error, str(interaction.locale))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failure:
        # The interaction may have expired or Discord is down: the player cannot be told, the log can.
        _log.warning("could not tell the player about an error (%s): %s", failure.status, text)
