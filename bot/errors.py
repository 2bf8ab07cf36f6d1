"""The one error handler: players get a short, kind answer; everything unexpected is logged.

Commands raise :class:`UserError` (or the engine's ``OrderError``) for refusals the player must read;
anything else is a bug or a Discord outage, logged with its traceback and answered with an apology.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.catalogue import MESSAGE_LIMIT
from bot.i18n import t
from bot.promptly import TooLate, promptly
from bot.services.supervision import reason
from bot.store.database import unreachable
from engine.messages import OrderError

_log = logging.getLogger(__name__)


class UserError(Exception):
    """A refusal a player reads: a catalog key and its parameters (see docs/message-style.md)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Stopping(app_commands.CheckFailure):
    """The bot is stopping (SIGTERM): a new interaction is answered "try again in a minute", not started."""


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to Discord's message limit with a visible "…", so an over-long refusal (a pasted wall of
    text echoed back) still reaches the player instead of failing the whole interaction."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def explain(error: BaseException, locale: str | None, what: str = "an interaction") -> str:
    """The player's text for ``error``, never longer than a message; logs what a player should not read
    (``what``: the command or component it happened in, for the log)."""
    return fit(_explain(error, locale, what))


def _explain(error: BaseException, locale: str | None, what: str) -> str:
    original: BaseException = error
    while isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        if original.__cause__ is None:
            break
        original = original.__cause__
    if isinstance(original, Stopping):
        return t("error.stopping", locale)
    if isinstance(original, TooLate):
        return t("error.too_slow_for_form", locale)
    if unreachable(original):  # an outage, not a bug: one line, and the player is told to try again
        _log.warning("the database cannot be reached (%s); %s was answered 'try again'", reason(original), what)
        return t("error.database_unreachable", locale)
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
    _log.error("unexpected error in %s", what, exc_info=original)
    return t("error.unexpected", locale)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` with the player's text for ``error`` (ephemeral), whatever its state."""
    text = explain(error, str(interaction.locale), describe(interaction))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failure:
        # The interaction may have expired or Discord is down: the player cannot be told, the log can.
        _log.warning("could not tell the player about an error (%s): %s", failure.status, text)


def describe(interaction: discord.Interaction[Any]) -> str:
    """What the interaction was, for the log: the command's name or the component's custom id (these
    carry race and step numbers, never a token or an order)."""
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    if data.get("custom_id"):
        return f"component {data['custom_id']}"
    return "an interaction"


C = TypeVar("C", bound=Callable[..., Awaitable[None]])


def answered(callback: C) -> C:
    """A component callback that always answers, and in time: while the bot stops it says "try again in a
    minute" (see :class:`bot.gate.Gate`), a click whose work is slow (a locked database) is deferred before
    Discord's 3 seconds run out and answered when the work is done (:mod:`bot.promptly`), and any failure
    goes to :func:`report` (discord.py would only log it, and the player would read "This interaction
    failed")."""

    @functools.wraps(callback)
    async def guarded(self: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any) -> None:
        gate = getattr(interaction.client, "gate", None)
        if gate is not None and not gate.open:
            await report(interaction, Stopping())
            return
        async with promptly(interaction):
            try:
                if gate is None:
                    await callback(self, interaction, *args, **kwargs)
                else:
                    with gate.entered():
                        await callback(self, interaction, *args, **kwargs)
            except Exception as error:
                await report(interaction, error)

    return guarded  # type: ignore[return-value]
