"""Race posts laid out like a game table: Discord's layout components (components v2, discord.py's
``LayoutView``), one container in the race's accent colour holding the text, the board as a media gallery
item (its alt text the same information as the picture) and the buttons in an action row.

A v2 message has no ``content``: its text lives in text displays, at most 4,000 characters across all of
them and 40 components in all (nested ones included); the posts here use at most four components plus
their buttons, and keep their text within the 2,000 characters a plain post had, so a post never nears
either limit. The flag can be set by an edit but never removed, so a message posted this way is edited this
way too (a lap's message as its turns come).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.render.palette import OKABE_ITO, RGB

ACCENTS: tuple[RGB, ...] = (
    OKABE_ITO["vermillion"],
    OKABE_ITO["blue"],
    OKABE_ITO["green"],
    OKABE_ITO["orange"],
    OKABE_ITO["purple"],
    OKABE_ITO["sky"],
)
"""The races' accent colours, taken in turn by race number, so two races side by side read apart."""
ROW = 5
"""Buttons in an action row."""


def race_accent(race_id: int) -> int:
    """The race's accent colour (an RGB integer): its container's edge on every post of the race."""
    red, green, blue = ACCENTS[(race_id - 1) % len(ACCENTS)]
    return red << 16 | green << 8 | blue


def post(
    text: str,
    *,
    accent: int | None,
    picture: discord.File | None = None,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.LayoutView:
    """A post as a container: the text, the board (a media gallery item pointing at the uploaded
    ``picture``, with its alt text), then the buttons, five to a row."""
    view = discord.ui.LayoutView(timeout=None)
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text)]
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture.filename}", description=picture.description or None)
        children.append(discord.ui.MediaGallery(item))
    for start in range(0, len(buttons), ROW):
        children.append(discord.ui.ActionRow(*buttons[start : start + ROW]))
    view.add_item(discord.ui.Container(*children, accent_colour=accent))
    return view


def panel(text: str, rows: discord.ui.View, *, accent: int | None) -> discord.ui.LayoutView:
    """A player's panel as a container in their colour: the text, then the panel's components in the
    rows the form placed them (``rows``, a plain view used to lay them out: fields, then the controls)."""
    grouped: dict[int, list[discord.ui.Item[Any]]] = {}
    for child in rows.children:
        row = getattr(getattr(child, "item", child), "row", None)
        grouped.setdefault(row if row is not None else ROW, []).append(child)
    view = discord.ui.LayoutView(timeout=None)
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text)]
    children += [discord.ui.ActionRow(*items) for _row, items in sorted(grouped.items())]
    view.add_item(discord.ui.Container(*children, accent_colour=accent))
    return view


def receipt(text: str, *, accent: int | None) -> discord.ui.LayoutView:
    """A resolved panel's one line, in the same container (a layout stays a layout), with no components."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(text), accent_colour=accent))
    return view


def rgb(colour: RGB | None) -> int | None:
    """An RGB triple as Discord's colour integer."""
    return None if colour is None else colour[0] << 16 | colour[1] << 8 | colour[2]
