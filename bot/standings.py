"""Standings as text, from the result's own description of its figures: shared by the terminal's tables, the
bot's final posts and the result card, so none of them knows the rule system."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from engine.messages import Message


def _word(value: Any, words: Mapping[str, Any], locale: str | None) -> str:
    """A figure's word as the player reads it: the column's message for that code, else the value."""
    said = words.get(str(value))
    if said is None:
        return str(value)
    if isinstance(said, Message):
        return t(said, locale)
    return t(Message(said["key"], dict(said.get("params") or {}), said["text"]), locale)


def clock(minutes: int) -> str:
    """A time kept in minutes as players read a race time: hours and minutes, ``1:04``, ``6:44``, ``0:57``
    (docs/message-style.md), never a count of minutes."""
    sign = "-" if minutes < 0 else ""
    hours, rest = divmod(abs(minutes), 60)
    return f"{sign}{hours}:{rest:02d}"


def minutes_text(minutes: int, locale: str | None) -> str:
    """A number of minutes (penalty minutes): ``7 min`` below an hour, ``1:15`` from an hour on."""
    return clock(minutes) if abs(minutes) >= 60 else t("standings.minutes", locale, minutes=minutes)


def _number(value: Any, kind: str | None, locale: str | None) -> str:
    """A plain figure in the shape its column's kind asks: a ``time`` (minutes) as a clock, ``minutes`` as
    minutes; anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        if kind == "time":
            return clock(value)
        if kind == "minutes":
            return minutes_text(value, locale)
    return str(value)


def figure_text(
    value: Any,
    fmt: str,
    words: Mapping[str, Any] | None = None,
    locale: str | None = None,
    names: Mapping[str, str] | None = None,
    kind: str | None = None,
) -> str:
    """One figure as a table cell: ``per_rider`` values as ``rider value`` pairs (each rider by its name in
    ``names``), lists space-separated (words comma-separated), a missing figure (``None``) as ``-``; a word the
    column translates (``words``, by code: :class:`Message` objects, or their JSON when the result was stored)
    in ``locale``; a time (the column's ``kind``) as hours and minutes."""
    words = words or {}
    if value is None:
        return "-"
    if fmt == "per_rider" and isinstance(value, dict):
        return ", ".join(
            f"{(names or {}).get(rider, rider)} {figure_text(v, 'number', words, locale, kind=kind)}"
            for rider, v in value.items()
        )
    if fmt == "list" and isinstance(value, list):
        cells = [figure_text(v, "number", words, locale, kind=kind) for v in value]
        return (", " if any(str(v) in words for v in value) else " ").join(cells) or "-"
    return _word(value, words, locale) if words else _number(value, kind, locale)


def column_label(column: Mapping[str, Any], locale: str | None) -> str:
    """A column's heading in ``locale``, from the column as the result's JSON holds it."""
    label = column["label"]
    return t(Message(label["key"], dict(label.get("params") or {}), label["text"]), locale)


def figures_line(
    figures: Mapping[str, Any],
    columns: Sequence[Mapping[str, Any]],
    locale: str | None,
    names: Mapping[str, str] | None = None,
    *,
    per_rider: bool = True,
) -> str:
    """One standing's figures as ``label value`` pairs in the result's column order (the final post and the
    result card). Without a description of its columns nothing is shown (a figure no column names is
    bookkeeping, never a player's reading); without ``per_rider``, the per-rider columns are left to
    :func:`rider_lines`."""
    shown = [c for c in columns if per_rider or c.get("format") != "per_rider"]
    cells = [
        figure_text(figures.get(c["key"]), c.get("format", "number"), c.get("words"), locale, names, c.get("kind"))
        for c in shown
    ]
    return " · ".join(f"{column_label(c, locale)} {cell}" for c, cell in zip(shown, cells, strict=True))


def per_rider_columns(columns: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The columns holding one value per rider (a small table of their own under each entrant)."""
    return [c for c in columns if c.get("format") == "per_rider"]


def rider_cells(
    figures: Mapping[str, Any], columns: Sequence[Mapping[str, Any]], locale: str | None
) -> list[tuple[str, list[str]]]:
    """One standing's per-rider figures as table rows: (rider id, one cell per per-rider column)."""
    split = [c for c in per_rider_columns(columns) if isinstance(figures.get(c["key"]), dict)]
    riders: list[str] = []
    for c in split:
        riders.extend(r for r in figures[c["key"]] if r not in riders)

    def cell(c: Mapping[str, Any], rider: str) -> str:
        return figure_text(figures[c["key"]].get(rider), "number", c.get("words"), locale, kind=c.get("kind"))

    return [(rider, [cell(c, rider) for c in split]) for rider in riders]


def rider_lines(
    figures: Mapping[str, Any],
    columns: Sequence[Mapping[str, Any]],
    locale: str | None,
    names: Mapping[str, str] | None = None,
) -> list[tuple[str, str]]:
    """The per-rider figures of one standing as a small table: (rider's name, that rider's figures as
    ``label value`` pairs), one row per rider, in the order the first per-rider figure lists them."""
    split = [c for c in columns if c.get("format") == "per_rider" and isinstance(figures.get(c["key"]), dict)]
    riders: list[str] = []
    for c in split:
        riders.extend(r for r in figures[c["key"]] if r not in riders)
    rows = []
    for rider in riders:
        cells = [
            f"{column_label(c, locale)} "
            + figure_text(figures[c["key"]].get(rider), "number", c.get("words"), locale, kind=c.get("kind"))
            for c in split
        ]
        rows.append(((names or {}).get(rider, rider), " · ".join(cells)))
    return rows
