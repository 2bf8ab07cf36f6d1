"""A server's settings, each declared once with its default (as Red-DiscordBot's ``Config`` does).

:data:`SETTINGS` is the one declaration: a setting's name, its default, how an admin's text becomes its
value (a :class:`~bot.services.outcomes.Refusal` naming the accepted forms otherwise) and how its value
reads back. A server stores only what differs from the defaults, so a default changed in a later
version reaches every server that never touched it. The race services read the settings with
:func:`get_settings` when they need them, so a change takes effect in the next race.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.i18n import t
from bot.services import bounds
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.services.paces import REMINDER_AT, PaceError, parse_pace
from bot.store.tables import ServerSettingsRow

AUTO_MOVES = ("rules", "bot")
"""How an absent player's order is completed: by the rules' automatic order, or by the default bot."""
RACE_POSTS = ("thread", "channel")
"""Where a race's posts go: a thread opened from its lobby message, or the lobby's channel itself."""
OPENERS = ("everyone", "managers")
"""Who may open races: any member, or only members who pass the permission check."""
LANGUAGES = (
    "en", "en-GB", "en-US", "bg", "cs", "da", "de", "el", "es-ES", "es-419", "fi", "fr", "hi", "hr", "hu",
    "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk", "vi",
    "zh-CN", "zh-TW",
)  # fmt: skip
"""The languages a server may pick: Discord's locales (the translations coming will follow them)."""
NONE_WORDS = frozenset({"", "none", "-", "all", "any", "default"})
_MENTION = re.compile(r"\d{15,21}")


@dataclass(frozen=True)
class ServerSettings:
    """One server's settings, every field filled (defaults where the server set nothing)."""

    default_pace: str | None = None
    """The pace a race gets when its opener names none (``live``, ``fast``, ``daily`` or a duration);
    ``None``: the bot's own default (``GREGARIO_DEFAULT_PACE``)."""
    reminder: int = round(REMINDER_AT * 100)
    """When the one reminder goes out, in percent of the deadline (0: no reminder)."""
    auto_moves: str = "rules"
    """How an absent player's order is completed (:data:`AUTO_MOVES`)."""
    race_openers: str = "everyone"
    """Who may open races (:data:`OPENERS`)."""
    race_channels: tuple[int, ...] = ()
    """The channels races may run in (empty: any channel)."""
    manager_role: int | None = None
    """The role whose members may manage Gregario on this server, besides Manage Server."""
    language: str = "en"
    """The server's language (the posts everyone reads; each player's own panels follow their locale)."""
    timezone: str = "UTC"
    """An IANA time zone: the Gazzetta's morning and daily deadlines are counted in it."""
    race_posts: str = "thread"
    """Where a race's posts go once it starts (:data:`RACE_POSTS`): its own thread, or the channel."""

    def allows_channel(self, channel_id: int) -> bool:
        return not self.race_channels or channel_id in self.race_channels


DEFAULTS = ServerSettings()


def _show_pace(value: Any, locale: str | None) -> str:
    return str(value) if value else t("settings.bot_default", locale)


def _pace(text: str) -> str:
    try:
        pace = parse_pace(text)
    except PaceError:
        raise Refusal.of("settings.bad_pace", value=text) from None
    return pace.name if pace.name != "custom" else text.strip().lower()


def _reminder(text: str) -> int:
    cleaned = text.strip().rstrip("%").strip()
    if cleaned.lower() in ("off", "no", "none"):
        return 0
    if not cleaned.isdigit() or not 0 <= int(cleaned) <= 95:
        raise Refusal.of("settings.bad_reminder", value=text)
    return int(cleaned)


def _one_of(allowed: tuple[str, ...], key: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        wanted = text.strip().lower()
        for value in allowed:
            if value.lower() == wanted:
                return value
        raise Refusal.of(key, value=text, names=", ".join(allowed))

    return parse


def _ids(text: str) -> list[int]:
    return [int(found) for found in _MENTION.findall(text)]


def _channels(text: str) -> list[int]:
    if text.strip().lower() in NONE_WORDS:
        return []
    found = _ids(text)
    if not found:
        raise Refusal.of("settings.bad_channels", value=text)
    return sorted(set(found))


def _role(text: str) -> int | None:
    if text.strip().lower() in NONE_WORDS:
        return None
    found = _ids(text)
    if len(found) != 1:
        raise Refusal.of("settings.bad_role", value=text)
    return found[0]


@cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _timezone(text: str) -> str:
    wanted = text.strip()
    by_fold = {zone.casefold(): zone for zone in _zones()}
    zone = by_fold.get(wanted.casefold())
    if zone is None:
        near = sorted(z for z in _zones() if wanted.casefold().split("/")[-1] in z.casefold())[:5] if wanted else []
        raise Refusal.of("settings.bad_timezone", value=text, near=", ".join(near) or "Europe/Paris, America/New_York")
    return zone


@dataclass(frozen=True)
class Setting:
    """One setting, declared once: its name, how an admin's text becomes its value, how it reads back."""

    name: str
    label: str
    """Its catalog key, as ``/settings`` names it."""
    parse: Callable[[str], Any]
    show: Callable[[Any, str | None], str] = lambda value, _locale: str(value)

    @property
    def default(self) -> Any:
        return getattr(DEFAULTS, self.name)


def _show_channels(value: Any, locale: str | None) -> str:
    return " ".join(f"<#{c}>" for c in value) if value else t("settings.any_channel", locale)


def _show_role(value: Any, locale: str | None) -> str:
    return f"<@&{value}>" if value else t("settings.no_role", locale)


def _show_reminder(value: Any, locale: str | None) -> str:
    return f"{value}%" if value else t("settings.off", locale)


SETTINGS: tuple[Setting, ...] = (
    Setting("default_pace", "settings.name.default_pace", _pace, _show_pace),
    Setting("reminder", "settings.name.reminder", _reminder, _show_reminder),
    Setting("auto_moves", "settings.name.auto_moves", _one_of(AUTO_MOVES, "settings.bad_choice")),
    Setting("race_openers", "settings.name.race_openers", _one_of(OPENERS, "settings.bad_choice")),
    Setting("race_channels", "settings.name.race_channels", _channels, _show_channels),
    Setting("manager_role", "settings.name.manager_role", _role, _show_role),
    Setting("language", "settings.name.language", _one_of(LANGUAGES, "settings.bad_choice")),
    Setting("timezone", "settings.name.timezone", _timezone),
    Setting("race_posts", "settings.name.race_posts", _one_of(RACE_POSTS, "settings.bad_choice")),
)
"""Every setting, in the order ``/settings`` shows them."""

BY_NAME = {s.name: s for s in SETTINGS}
assert set(BY_NAME) == {f.name for f in fields(ServerSettings)}, "declare every setting once"


def setting(name: str) -> Setting:
    found = BY_NAME.get(name)
    if found is None:
        raise Refusal.of("settings.unknown", value=name, names=", ".join(BY_NAME))
    return found


def _from_stored(values: dict[str, Any]) -> ServerSettings:
    known = {k: v for k, v in values.items() if k in BY_NAME}
    if "race_channels" in known:
        known["race_channels"] = tuple(int(c) for c in known["race_channels"])
    return replace(DEFAULTS, **known)


async def settings_in(session: AsyncSession, server_id: int) -> ServerSettings:
    """The server's settings read in the caller's transaction (the race services' step opening)."""
    row = await session.get(ServerSettingsRow, server_id)
    return _from_stored(dict(row.values) if row is not None else {})


async def get_settings(ctx: Context, server_id: int) -> ServerSettings:
    """The server's settings now (defaults for what it never set): read at each use, so a change takes
    effect in the next race."""
    async with ctx.db.sessions() as session:
        return await settings_in(session, server_id)


async def change(ctx: Context, server_id: int, name: str, text: str | None) -> ServerSettings:
    """Set ``name`` from an admin's ``text`` (``None`` or empty: back to its default); nothing is stored
    when the text is refused."""
    declared = setting(name)
    if text is not None:
        bounds.check_length(text, bounds.SETTING_LIMIT, bounds.phrase(declared.label))
    value = declared.default if text is None or not text.strip() else declared.parse(text)
    now: datetime = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        row = await session.get(ServerSettingsRow, server_id)
        values = dict(row.values) if row is not None else {}
        stored = list(value) if isinstance(value, tuple) else value
        if value == declared.default or stored == declared.default:
            values.pop(name, None)
        else:
            values[name] = stored
        if row is None:
            session.add(ServerSettingsRow(server_id=server_id, values=values, updated_at=now))
        else:
            row.values, row.updated_at = values, now
    return _from_stored(values)


def shown(name: str, value: Any, locale: str | None = None) -> str:
    """A setting's value as ``/settings`` shows it."""
    return str(BY_NAME[name].show(value, locale))


def editable(name: str, value: Any) -> str:
    """A setting's value as an admin would type it (what a change form starts from)."""
    if value is None or value == () or value == []:
        return ""
    if name == "race_channels":
        return " ".join(f"<#{c}>" for c in value)
    if name == "manager_role":
        return f"<@&{value}>"
    return str(value)
