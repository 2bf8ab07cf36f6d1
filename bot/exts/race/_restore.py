"""At start, before anything is delivered: does Discord show moments the database no longer has?

Reads each race channel's and each player's DM history after the newest message the ledger knows there
(:func:`bot.services.restore.places`), keeps the bot's own messages (in DMs, the panels: their components
name the race and step; in a channel, the posts made through the API, not an interaction's answers), and
asks :func:`bot.services.restore.judge` which of them only a later moment of the database can have made.
If any, :func:`bot.services.restore.resume` owes every running race its notice and fresh panels (before
the scheduler's start-up runs), and, once connected, the lost messages are marked undone here, one edit
each: a post keeps its text under a line saying it was undone, a panel says its moment no longer exists
and loses its buttons. The edits are idempotent and not owed rows (the messages belong to no race the
database has, or to steps it does not have): a start cut short finds the rest again next time. A failure
to read Discord never stops the start.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.catalogue import MESSAGE_LIMIT
from bot.exts.race import _audience, _layout, _posts
from bot.exts.race._text import clip
from bot.i18n import t
from bot.services import owed, posts, restore
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.services.restore import Found, Place, Verdict

_log = logging.getLogger(__name__)

COMPONENTS_V2 = 1 << 15
"""The message flag of a layout message (its text lives in its components; it has no content)."""
TEXT_DISPLAY = 10
"""A layout's text component type."""

CHECK_SECONDS = 10.0
"""The most a start waits for the look at Discord (then it goes on without it)."""
PAGES = 10
"""History pages of 100 read per place at most."""
PANEL_ID = re.compile(r"^gr:(?!l:|r:)[a-z]+:(?P<race>\d+):(?P<step>\d+)")
"""A panel control's custom id (``gr:<kind>:<race>:<step>…``; the lobby's and Rematch's name no step)."""


def _ids(components: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for component in components:
        if component.get("custom_id"):
            found.append(str(component["custom_id"]))
        found += _ids(list(component.get("components") or []))
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found += _ids([accessory])
    return found


def panel_of(message: dict[str, Any]) -> tuple[int, int] | None:
    """The race and step a message's panel controls name (None: not a panel)."""
    for custom_id in _ids(list(message.get("components") or [])):
        match = PANEL_ID.match(custom_id)
        if match:
            return int(match["race"]), int(match["step"])
    return None


def _own_post(client: discord.Client, message: dict[str, Any]) -> bool:
    """A message the bot posted through the API (the outbox's posts), not an interaction's answer."""
    author = message.get("author") or {}
    me = client.user.id if client.user is not None else None
    return (
        str(author.get("id")) == str(me)
        and int(message.get("type", 0)) == 0
        and not message.get("interaction_metadata")
        and not message.get("interaction")
    )


async def _history(client: discord.Client, channel_id: int, after: int) -> list[dict[str, Any]]:
    """The channel's messages after ``after``, oldest first (at most :data:`PAGES` pages)."""
    found: list[dict[str, Any]] = []
    for _ in range(PAGES):
        answer: Any = await client.http.logs_from(channel_id, 100, after=after)
        page: list[dict[str, Any]] = list(answer)
        if not page:
            break
        page.sort(key=lambda m: int(m["id"]))
        found += page
        after = int(page[-1]["id"])
        if len(page) < 100:
            break
    return found


async def _look(client: discord.Client, place: Place) -> tuple[list[Found], dict[int, dict[str, Any]]]:
    channel = place.channel_id
    if channel is None:
        assert place.member is not None
        channel = await _posts.dm_channel(client, place.member)
    seen: list[Found] = []
    messages: dict[int, dict[str, Any]] = {}
    for message in await _history(client, channel, place.after):
        if not _own_post(client, message):
            continue
        if place.member is not None:
            panel = panel_of(message)
            if panel is None:
                continue  # a reminder, a welcome, a guide: nothing of a step
            seen.append(Found(channel, int(message["id"]), place.member, panel[0], panel[1]))
        else:
            seen.append(Found(channel, int(message["id"])))
        messages[int(message["id"])] = message
    return seen, messages


@dataclass(frozen=True)
class Looked:
    """What the look at start found: the verdict, the lost messages as Discord gave them, the races told."""

    verdict: Verdict
    messages: dict[int, dict[str, Any]]
    told: list[int]


async def look(client: discord.Client, ctx: Context) -> Looked | None:
    """Look, judge, and if the database went back, owe the notices (before the scheduler's start-up
    runs, so a race's notice comes before anything else it is owed). None: nothing found, or Discord
    could not be read (a start goes on either way)."""
    try:
        return await asyncio.wait_for(_look_all(client, ctx), CHECK_SECONDS)
    except Exception as error:
        _log.warning("could not compare the database with Discord at start (%s); going on", error)
        return None


async def _look_all(client: discord.Client, ctx: Context) -> Looked | None:
    seen: list[Found] = []
    messages: dict[int, dict[str, Any]] = {}
    for place in await restore.places(ctx):
        found, read = await _look(client, place)
        seen += found
        messages.update(read)
    verdict = await restore.judge(ctx, seen)
    if not verdict.restored:
        return None
    return Looked(verdict, messages, await restore.resume(ctx, verdict))


async def mark_undone(client: discord.Client, ctx: Context, looked: Looked) -> None:
    """Mark each lost message undone (once connected, so a channel's language is known), one edit each."""
    for lost in looked.verdict.lost:
        try:
            await _undo(client, ctx, lost, looked.messages[lost.message_id])
        except (discord.HTTPException, Refusal) as exc:
            _log.info("a message of a later moment (%s) could not be marked undone: %s", lost.message_id, exc)


async def _locale(client: discord.Client, ctx: Context, lost: Found) -> str | None:
    """The reader's language: the member's own for a panel, the race channel's for a post (None: a
    race the database does not have, made after the copy: English)."""
    if lost.member is not None:
        if lost.race_id is None:
            return None
        try:
            race = await owed.view(ctx, lost.race_id)
        except Refusal:
            return None
        return (await posts.locales(ctx, race.server_id, [lost.member])).get(lost.member)
    race_id = await restore.race_in(ctx, lost.channel_id)
    if race_id is None:
        return None
    return await _audience.channel_locale(client, ctx, await owed.view(ctx, race_id))


async def _undo(client: discord.Client, ctx: Context, lost: Found, message: dict[str, Any]) -> None:
    """Mark one message of a later moment undone: a panel says so and loses its buttons; a post keeps its
    text (and pictures) under a line saying it was undone, without its buttons."""
    locale = await _locale(client, ctx, lost)
    if lost.member is not None:
        text = t("race.undone.panel", locale, race=lost.race_id)
    else:
        text = clip(t("race.undone.post", locale) + "\n" + _text_of(message), MESSAGE_LIMIT)
    if int(message.get("flags") or 0) & COMPONENTS_V2:  # a layout stays a layout (Discord keeps the flag)
        await _posts.edit(client, lost.channel_id, lost.message_id, None, _layout.receipt(text, accent=None))
    else:
        await _posts.edit(client, lost.channel_id, lost.message_id, text, None)


def _text_of(message: dict[str, Any]) -> str:
    """A message's text as a person reads it: its content, or its layout's text displays in order."""
    if message.get("content"):
        return str(message["content"])
    found: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == TEXT_DISPLAY:
                found.append(str(component.get("content") or ""))
            walk(list(component.get("components") or []))

    walk(list(message.get("components") or []))
    return "\n".join(found)
