"""The one place that turns the engine's decisions, messages, events and standings into text.

Engine messages arrive as data (``{"key", "params", "text"}``) or as :class:`~engine.messages.Message`;
a choice's label is a plain string today and a message tomorrow: :func:`say` reads both.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.i18n import t
from bot.standings import figures_line
from engine.messages import Message

OPTION_LABEL_LIMIT = 100
BUTTON_LABEL_LIMIT = 80


def say(value: Any, locale: str | None) -> str:
    """A label or message in ``locale``: a Message (object or dict) through ``t``, anything else as text."""
    if isinstance(value, Message):
        return t(value, locale)
    if isinstance(value, dict) and "key" in value and "text" in value:
        return t(Message(str(value["key"]), dict(value.get("params") or {}), str(value["text"])), locale)
    return "" if value is None else str(value)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def stamp(when: datetime | None) -> str:
    """A Discord timestamp each player reads in their own time zone (relative: "in 14 minutes")."""
    return f"<t:{int(when.timestamp())}:R>" if when is not None else ""


def flat(order: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """An order's leaves as (dotted path, value): what was recorded, field by field."""
    found: list[tuple[str, Any]] = []
    for key, value in order.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found.extend(flat(value, path + "."))
        else:
            found.append((path, value))
    return found


def recorded(order: dict[str, Any], labels: dict[str, dict[str, str]]) -> str:
    """What was recorded, as "Rider: Rouleur · Card: 7" using the choices' labels where known."""
    parts = []
    for path, value in flat(order):
        field = labels.get(path, {})
        name = field.get("", path)
        shown = field.get(repr(value), ", ".join(map(str, value)) if isinstance(value, list) else str(value))
        parts.append(f"{name}: {shown}")
    return " · ".join(parts) or "—"


def field_labels(decision: dict[str, Any] | None, locale: str | None) -> dict[str, dict[str, str]]:
    """For each field path of a decision: its label ("") and each choice's label by ``repr(value)``."""
    found: dict[str, dict[str, str]] = {}
    for field in (decision or {}).get("fields") or []:
        path = ".".join(field.get("path") or [])
        if not path:
            continue
        entry = {"": say(field.get("label"), locale)}
        for choice in field.get("choices") or []:
            entry[repr(choice.get("value"))] = say(choice.get("label"), locale)
        found[path] = entry
    return found


def events_text(events: list[dict[str, Any]], locale: str | None, limit: int) -> str:
    """The events in the game's own words, one per line, cut to ``limit`` characters."""
    lines = [f"• {say(e.get('message'), locale)}" for e in events if e.get("message")]
    out: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        if used + len(line) + 1 > limit - 40:
            out.append(t("race.post.more_events", locale, count=len(lines) - index))
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def standings_text(
    standings: list[dict[str, Any]],
    names: dict[str, str],
    locale: str | None,
    columns: list[dict[str, Any]] | None = None,
) -> str:
    """One line per standing: place, name as in the record, and the system's own figures, labelled and
    formatted as the result's columns describe them (nothing here knows the rule system)."""
    lines = []
    for s in sorted(standings, key=lambda s: s.get("place", 0)):
        figures = figures_line(s.get("figures") or {}, columns or [], locale)
        name = names.get(s["entrant"], s["entrant"])
        lines.append(t("race.final.line", locale, place=s.get("place"), name=name, figures=figures).rstrip(" ·"))
    return "\n".join(lines)
