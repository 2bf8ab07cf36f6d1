"""The one place that turns the engine's decisions, messages, events and standings into text.

Engine messages arrive as data (``{"key", "params", "text"}``) or as :class:`~engine.messages.Message`;
a choice's label is a plain string today and a message tomorrow: :func:`say` reads both.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.i18n import named, t
from bot.progress import counter as counter
from bot.standings import figures_line, rider_lines
from engine.messages import Message

OPTION_LABEL_LIMIT = 100
BUTTON_LABEL_LIMIT = 80


def say(value: Any, locale: str | None, names: Mapping[str, str] | None = None) -> str:
    """A label or message in ``locale``: a Message (object or dict) through ``t``, anything else as text;
    with ``names``, every rider id it holds read as the rider's name (:func:`bot.i18n.named`)."""
    if isinstance(value, dict) and "key" in value and "text" in value:
        value = Message(str(value["key"]), dict(value.get("params") or {}), str(value["text"]))
    if isinstance(value, Message):
        return named(value, locale, names) if names else t(value, locale)
    return "" if value is None else str(value)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def stamp(when: datetime | None) -> str:
    """A Discord timestamp each player reads in their own time zone (relative: "in 14 minutes")."""
    return f"<t:{int(when.timestamp())}:R>" if when is not None else ""


def told(decision: dict[str, Any] | None, locale: str | None) -> str:
    """An order in the decision's own words, as "Draw first: Rouleur · Rouleur: 3 · Sprinteur: 4": each
    value with the label of the field that asked it and the label of the choice it is (the decision's
    ``asked``, :func:`bot.services.stepping.asked_fields`). Empty when no field asked any value: then
    nothing is said rather than a path."""
    parts: list[tuple[str, list[str]]] = []  # (what the fields share, each value with its own label)
    for field in (decision or {}).get("asked") or []:
        value = field.get("value")
        labels = {repr(c.get("value")): say(c.get("label"), locale) for c in field.get("choices") or []}
        values = value if isinstance(value, list) else [value]
        shown = ", ".join(labels.get(repr(v), say_value(v, locale)) for v in values)
        label = say(field.get("label"), locale)
        # Labels that name their part first ("Move 1: effort", "#3: action") are told once per part:
        # "Move 1: effort 1, direction S ↑".
        head, sep, own = label.partition(": ")
        if sep and parts and parts[-1][0] == head:
            parts[-1][1].append(f"{own} {shown}")
        elif sep:
            parts.append((head, [f"{own} {shown}"]))
        else:
            parts.append((label, [shown]))
    return " · ".join(
        t("race.panel.part", locale, label=head, value=", ".join(cells)) if head else ", ".join(cells)
        for head, cells in parts
    )


def say_value(value: Any, locale: str | None) -> str:
    """A value no choice labels (a number typed or picked from a range): as players write it."""
    if isinstance(value, bool):
        return t("race.panel.yes" if value else "race.panel.no", locale)
    return "" if value is None else str(value)


def events_text(
    events: list[dict[str, Any]], locale: str | None, limit: int, names: Mapping[str, str] | None = None
) -> str:
    """The events in the game's own words (riders by their names), one per line, within ``limit`` characters.

    When they do not all fit, the post summarises rather than cuts off the end: every kind of event keeps
    its last one first (the finish, the last sprint, an exhaustion: rare kinds before common ones), then
    the room left goes to the latest of the others; what is shown keeps its order, and one line says how
    many were left out."""
    told = [(str(e.get("kind", "")), f"• {say(e.get('message'), locale, names)}") for e in events if e.get("message")]
    if sum(len(line) + 1 for _, line in told) <= limit:
        return "\n".join(line for _, line in told)
    room = limit - len(t("race.post.more_events", locale, count=len(told))) - 1
    frequency: dict[str, int] = {}
    for kind, _line in told:
        frequency[kind] = frequency.get(kind, 0) + 1
    last_of = {kind: index for index, (kind, _line) in enumerate(told)}
    first = sorted(last_of.values(), key=lambda i: (frequency[told[i][0]], -i))
    rest = [i for i in range(len(told) - 1, -1, -1) if i not in set(first)]
    chosen: set[int] = set()
    used = 0
    for index in [*first, *rest]:
        size = len(told[index][1]) + 1
        if used + size <= room:
            chosen.add(index)
            used += size
    lines = [told[i][1] for i in sorted(chosen)]
    lines.append(t("race.post.more_events", locale, count=len(told) - len(chosen)))
    return "\n".join(lines)


def told_whole(events: list[dict[str, Any]], locale: str | None, limit: int, names: Mapping[str, str] | None) -> bool:
    """Whether every event of a step fits in ``limit`` characters (else the post summarises them)."""
    return sum(len(say(e.get("message"), locale, names)) + 3 for e in events if e.get("message")) <= limit


def log_pages(
    events: list[dict[str, Any]], locale: str | None, names: Mapping[str, str] | None, limit: int
) -> list[str]:
    """Every event of a step, one per line, split over as many messages of ``limit`` characters as it takes
    (the Full log button's answer)."""
    pages: list[str] = []
    page: list[str] = []
    used = 0
    for line in (f"• {say(e.get('message'), locale, names)}" for e in events if e.get("message")):
        line = clip(line, limit)
        if page and used + len(line) + 1 > limit:
            pages.append("\n".join(page))
            page, used = [], 0
        page.append(line)
        used += len(line) + 1
    if page:
        pages.append("\n".join(page))
    return pages


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
        figures = figures_line(s.get("figures") or {}, columns or [], locale, names, per_rider=False)
        name = names.get(s["entrant"], s["entrant"])
        lines.append(t("race.final.line", locale, place=s.get("place"), name=name, figures=figures).rstrip(" ·"))
        for rider, cells in rider_lines(s.get("figures") or {}, columns or [], locale, names):
            lines.append(t("race.final.rider_line", locale, rider=rider, figures=cells))
    return "\n".join(lines)
