"""Pictures as Discord attachments, drawn off the event loop, each with its alt text: what a round post,
a lobby or the final post attaches (issue 15 builds those posts on these)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE
from bot.render import alt_text, board_png, preview_png, race_animation, result_card_png
from bot.render.aio import off_loop
from bot.render.base import EventLike
from engine.ruleset import Result

ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description (the alt text screen readers say)."""


def shorten(text: str, limit: int = ALT_TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def board_file(
    ruleset_id: str,
    view: Mapping[str, Any],
    events: Sequence[EventLike] = (),
    *,
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
    filename: str = "board.png",
) -> discord.File:
    """The board after a step, with the same information as alt text."""
    data = await off_loop(board_png, ruleset_id, view, events, locale, names)
    text = alt_text(ruleset_id, view, events, locale, names)
    return discord.File(io.BytesIO(data), filename=filename, description=shorten(text))


async def preview_file(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any] | None = None,
    *,
    description: str,
    locale: str = DEFAULT_LOCALE,
    filename: str = "stage.png",
) -> discord.File:
    """A stage's preview; ``description`` is its alt text (the text board: ``ruleset.stage_board``)."""
    data = await off_loop(preview_png, ruleset_id, stage, options, locale)
    return discord.File(io.BytesIO(data), filename=filename, description=shorten(description))


async def result_file(
    ruleset_id: str,
    result: Result,
    title: str,
    *,
    description: str,
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
    filename: str = "result.png",
) -> discord.File:
    """The final post's result card; ``description`` is its alt text (the standings as text)."""
    data = await off_loop(result_card_png, ruleset_id, result, title, locale, names)
    return discord.File(io.BytesIO(data), filename=filename, description=shorten(description))


async def animation_file(
    ruleset_id: str,
    steps: Sequence[tuple[Mapping[str, Any], Sequence[EventLike]]],
    limit: int,
    *,
    description: str,
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> discord.File | None:
    """The race as an animated GIF within ``limit`` bytes (``guild.filesize_limit``), or ``None`` when
    even one frame cannot fit, so the post goes out without it."""
    try:
        animation = await off_loop(race_animation, ruleset_id, steps, limit, locale, names)
    except ValueError:
        return None
    return discord.File(io.BytesIO(animation.data), filename=animation.filename, description=shorten(description))
