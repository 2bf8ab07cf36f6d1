"""Answering a click in time, however long its work waits.

Discord drops an interaction that is not answered within 3 seconds ("This interaction failed"), and the
work behind a click may wait longer than that: a SQLite writer waits up to
:data:`bot.store.database.SQLITE_BUSY_TIMEOUT_MS` (10 s) for another connection's lock (a second tool on
the file, a long transaction), the event loop may be busy. Cutting that work short would drop what the
player sent, or half-do it. So the work is never cut short: when a click has had no answer after
:data:`DEFER_AFTER_SECONDS`, it is deferred (Discord's "the answer is coming": type 6 for a component or a
form, which shows nothing), the work goes on with the database's own timeout, and its answer then edits the
clicked message or follows up, as it would have answered at once. What the player sent is stored and
confirmed, or, if the database stays locked past its timeout, answered "try again" with nothing stored
(:func:`bot.errors.report`). A form (Type my order) cannot be opened once deferred: the player is told to
press the button again (:class:`TooLate`).

:class:`Prompt` is the interaction's ``response`` for one click (installed by :func:`bot.errors.answered`):
it answers through the same calls as discord.py's, under one lock, so a deferral never races an answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord.interactions import InteractionResponse

_log = logging.getLogger(__name__)

DEFER_AFTER_SECONDS = 1.0
"""How long a click may go unanswered before it is deferred: a third of Discord's 3 seconds, leaving room
for the network and a loaded machine (the deferral is one more request, and shows the player nothing)."""


class TooLate(Exception):
    """A form was to be opened after the click was deferred (Discord allows a form only as the first answer)."""


class Prompt(InteractionResponse[Any]):
    """A click's response: discord.py's, plus a deferral once the answer is late. After the deferral,
    ``send_message`` follows up (the message is kept in :attr:`followed`) and ``edit_message`` edits the
    clicked message through the interaction, so the callers answer the same way either way."""

    __slots__ = ("_lock", "followed", "late")

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self.late = False
        """Deferred by :meth:`watch`: the answer goes through the interaction's webhook."""
        self.followed: discord.WebhookMessage | None = None
        """The message ``send_message`` followed up with, once late (the lobby a Rematch posts)."""

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if self.late:
                return None  # deferred already: the answer that follows edits or follows up
            return await super().defer(ephemeral=ephemeral, thinking=thinking)

    async def send_message(self, content: Any | None = None, **kwargs: Any) -> Any:
        async with self._lock:
            if not self.late:
                return await super().send_message(content, **kwargs)
        kwargs.pop("delete_after", None)
        if content is not None:
            kwargs["content"] = str(content)
        self.followed = await self._parent.followup.send(wait=True, **kwargs)
        return None

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self._lock:
            if not self.late:
                return await super().edit_message(**kwargs)
        kwargs.pop("delete_after", None)
        kwargs.pop("suppress_embeds", None)
        await self._parent.edit_original_response(**kwargs)
        return None

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        async with self._lock:
            if not self.late:
                return await super().send_modal(modal)
        raise TooLate()

    async def watch(self, after: float = DEFER_AFTER_SECONDS) -> None:
        """Defer the click if it has no answer ``after`` seconds from now (nothing happens otherwise)."""
        await asyncio.sleep(after)
        async with self._lock:
            if self.is_done():
                return
            try:
                await super().defer()
            except discord.HTTPException as exc:  # too late already, or Discord is down: the answer will say
                _log.info("a slow click could not be deferred: %s", exc)
                return
            self.late = True
        _log.info("a click had no answer after %.1f s and was deferred; its work goes on", after)


@contextlib.asynccontextmanager
async def promptly(interaction: discord.Interaction[Any], after: float = DEFER_AFTER_SECONDS) -> Any:
    """Within this block ``interaction`` is answered in time: a :class:`Prompt` is its response, and it is
    deferred if the block has not answered after ``after`` seconds."""
    prompt = Prompt(interaction)
    # discord.py caches the response in this slot (``Interaction.response``): ours takes its place.
    setattr(interaction, "_cs_response", prompt)  # noqa: B010 - a private slot, no attribute to assign
    watch = asyncio.get_running_loop().create_task(prompt.watch(after))
    try:
        yield prompt
    finally:
        watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watch


async def sent_message(interaction: discord.Interaction[Any]) -> discord.Message:
    """The message ``response.send_message`` posted: the follow-up if the click was deferred first."""
    response = interaction.response
    if isinstance(response, Prompt) and response.followed is not None:
        return response.followed
    return await interaction.original_response()
