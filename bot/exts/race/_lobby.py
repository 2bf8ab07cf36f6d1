"""The lobby message: rule system, stage, pace and seats, with Join · Leave · Add bot · Start · Cancel.

The same message becomes the race's header once it starts (and says so when it is cancelled); it is
edited in place, never posted again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.bots import style as riding
from bot.catalogue import MESSAGE_LIMIT, stage_title
from bot.exts.race._components import LobbyButton
from bot.exts.race._text import clip, counter
from bot.i18n import t
from bot.services.outcomes import RaceView
from engine.registry import get_ruleset

ACTIONS = (
    ("join", "race.button.join", discord.ButtonStyle.success),
    ("leave", "race.button.leave", discord.ButtonStyle.secondary),
    ("bot", "race.button.add_bot", discord.ButtonStyle.secondary),
    ("start", "race.button.start", discord.ButtonStyle.primary),
    ("cancel", "race.button.cancel", discord.ButtonStyle.danger),
)


def stage_name(stage: Any, ruleset_id: str, locale: str | None) -> str:
    """The race's stage as players read it (a preset by its title, never a code such as ``itemised_108``)."""
    if isinstance(stage, dict) and isinstance(stage.get("preset"), str):
        stage = stage["preset"]
    return stage_title(ruleset_id, stage, locale)


def pace_text(name: str, seconds: int, locale: str | None) -> str:
    """A pace as players read it: "fast (15 minutes)", or the custom duration itself ("30 seconds")."""
    for key, size in DURATIONS:
        if seconds >= size and seconds % size == 0:
            duration = t(key, locale, count=seconds // size)
            break
    else:
        duration = t("race.duration.seconds", locale, count=seconds)
    word = PACE_WORDS.get(name)
    return t(word, locale, duration=duration) if word is not None else duration


DURATIONS = (
    ("race.duration.days", 86400),
    ("race.duration.hours", 3600),
    ("race.duration.minutes", 60),
    ("race.duration.seconds", 1),
)
"""A duration is told in the largest unit it is a whole number of."""
PACE_WORDS = {"live": "race.pace.live", "fast": "race.pace.fast", "daily": "race.pace.daily"}
"""The named paces' words; a custom pace is told by its duration alone."""


@dataclass(frozen=True)
class Header:
    """What the lobby says once the race started: where the race is posted, and where it stands."""

    thread_id: int | None = None
    """The race's thread (its posts are there; the header links to it)."""
    refused: bool = False
    """The bot may not open threads in the channel: the race is posted in it (said once, here)."""
    marker: Mapping[str, Any] | None = None
    """The progress marker of the step open now (a running race)."""
    leader: str | None = None
    """The leader's name (a running race, once someone leads)."""


def render(
    race: RaceView,
    stage: Any,
    locale: str | None,
    closed_dms: set[int],
    markers: Mapping[int, Mapping[str, Any]] | None = None,
    header: Header | None = None,
) -> tuple[str, discord.ui.View]:
    """The lobby (or header) text and its buttons (none once the race started or ended). ``markers``: the
    progress marker of each step a member left in, so the header says when by the race's one counter;
    ``header``: where the race is posted and where it stands."""
    ruleset = get_ruleset(race.ruleset)
    high = race.most_seats
    lines = [
        t("race.lobby.title", locale, ruleset=ruleset.name, race=race.race_id),
        t(
            "race.lobby.facts",
            locale,
            stage=stage_name(stage, race.ruleset, locale),
            pace=pace_text(race.pace, race.pace_seconds, locale),
        ),
        t("race.lobby.seats", locale, count=len(race.seats), high=high),
    ]
    for number, seat in enumerate(race.seats, 1):
        if seat.bot is not None:
            note = t("race.lobby.bot", locale, style=riding(seat.bot, locale))
        elif seat.user_id == race.opener_id:
            note = t("race.lobby.opener", locale)
        else:
            note = ""
        if seat.user_id is not None and seat.user_id in closed_dms:
            note = (note + " " + t("race.lobby.dms_closed", locale)).strip()
        if seat.left_at_step is not None:  # R-SVC-5: the member left; a bot rides the seat
            when = counter((markers or {}).get(seat.left_at_step), locale)
            note = (note + " " + t("race.lobby.left", locale, counter=when)).strip()
        lines.append(f"{number}. {seat.name}" + (f" {note}" if note else ""))
    status = {
        "lobby": "race.lobby.footer",
        "running": "race.lobby.running",
        "finished": "race.lobby.finished",
        "cancelled": "race.lobby.cancelled",
    }.get(race.status, "race.lobby.footer")
    lines.append(t(status, locale))
    if header is not None:
        lines.extend(header_lines(race, header, locale))
    view = discord.ui.View(timeout=None)
    if race.status == "lobby":
        for action, key, style in ACTIONS:
            view.add_item(LobbyButton(race.race_id, action, t(key, locale), style))
    return clip("\n".join(lines), MESSAGE_LIMIT), view


def header_lines(race: RaceView, header: Header, locale: str | None) -> list[str]:
    """A started race's lines under the seats: where it stands (running), the link to its thread, or,
    where the bot may not open threads, that the race is posted in the channel."""
    lines = []
    if race.status == "running" and header.marker:
        lines.append(t("race.lobby.now", locale, counter=counter(header.marker, locale)))
        if header.leader:
            lines.append(t("race.lobby.leader", locale, name=header.leader))
    if header.thread_id is not None:
        lines.append(t("race.lobby.thread", locale, thread=f"<#{header.thread_id}>"))
    elif header.refused:
        lines.append(t("race.lobby.no_thread", locale))
    return lines
