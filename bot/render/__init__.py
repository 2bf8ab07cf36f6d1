"""Pictures of the race: boards, stage previews, result cards and the whole race as an animation.

The input is only what everyone may see: ``ruleset.public_view(state)`` plus the step's events (and the
stage data for previews), so a picture never shows a hand, a deck's order or a plan. Each rule system
has its renderer (:mod:`bot.render.registry`); nothing here branches on the rule system.

Every function here is plain and blocking (a board takes a few milliseconds, an animation up to a
second): a bot calls them through :func:`bot.render.aio.off_loop` so drawing never stalls it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import DEFAULT_LOCALE
from bot.render.animation import Animation, race_animation
from bot.render.base import EventLike
from bot.render.layout import png
from bot.render.registry import renderer
from bot.render.result import result_card_image
from engine.ruleset import Result

__all__ = [
    "Animation",
    "alt_text",
    "board_image",
    "board_png",
    "preview_image",
    "preview_png",
    "race_animation",
    "result_card_png",
    "result_text",
]


def board_image(
    ruleset_id: str,
    view: Mapping[str, Any],
    events: Sequence[EventLike] = (),
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> Image.Image:
    """The race now, from its public view and the step's events. ``names``: entrant id -> display name."""
    return renderer(ruleset_id).board(view, events, locale, names or {})


def board_png(
    ruleset_id: str,
    view: Mapping[str, Any],
    events: Sequence[EventLike] = (),
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> bytes:
    """:func:`board_image` as PNG bytes, ready for ``discord.File``."""
    return png(board_image(ruleset_id, view, events, locale, names))


def alt_text(
    ruleset_id: str,
    view: Mapping[str, Any],
    events: Sequence[EventLike] = (),
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> str:
    """What the board shows, as text for screen readers (the attachment's description, or message text)."""
    return renderer(ruleset_id).describe(view, events, locale, names or {})


def preview_image(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any] | None = None,
    locale: str = DEFAULT_LOCALE,
) -> Image.Image:
    """A stage before the race (``/stages``, lobbies): the course without riders."""
    return renderer(ruleset_id).preview(stage, options or {}, locale)


def preview_png(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any] | None = None,
    locale: str = DEFAULT_LOCALE,
) -> bytes:
    """:func:`preview_image` as PNG bytes."""
    return png(preview_image(ruleset_id, stage, options, locale))


def result_card_png(
    ruleset_id: str,
    result: Result,
    title: str,
    locale: str = DEFAULT_LOCALE,
    names: Mapping[str, str] | None = None,
) -> bytes:
    """The final post's card: podium and standings with the system's figures, from ``ruleset.result``."""
    return png(result_card_image(ruleset_id, result, title, locale, names or {}))


def result_text(
    ruleset_id: str, result: Result, locale: str = DEFAULT_LOCALE, names: Mapping[str, str] | None = None
) -> str:
    """The result card as text for screen readers: one line per standing with the system's figures."""
    from bot.i18n import t
    from bot.standings import figures_line

    columns = [c.model_dump() for c in result.columns]
    named = names or {}
    return "\n".join(
        t(
            "render.result.line",
            locale,
            place=s.place,
            name=named.get(s.entrant, s.entrant),
            figures=figures_line(s.figures, columns, locale, named),
        )
        for s in sorted(result.standings, key=lambda s: s.place)
    )
