"""Standings as text, from the result's own description of its figures: shared by the terminal's tables and
the bot's final posts, so neither knows the rule system."""

from __future__ import annotations

from typing import Any

from bot.i18n import DEFAULT_LOCALE, t
from engine.messages import Message


def figure_text(value: Any, fmt: str, locale: str | None = DEFAULT_LOCALE) -> str:
    """One figure as a table cell: ``per_rider`` values as ``rider value`` pairs, lists space-separated
    (comma-separated when they are words, such as medal names), a missing figure (``None``) as ``-``. A
    figure that is a message (a medal's name), or a message as stored JSON, is said in ``locale``."""
    if value is None:
        return "-"
    said = _message(value)
    if said is not None:
        return t(said, locale)
    if fmt == "per_rider" and isinstance(value, dict):
        return ", ".join(f"{rider} {figure_text(v, 'number', locale)}" for rider, v in value.items())
    if fmt == "list" and isinstance(value, list):
        words = any(_message(v) is not None for v in value)
        return (", " if words else " ").join(figure_text(v, "number", locale) for v in value) or "-"
    return str(value)


def _message(value: Any) -> Message | None:
    """``value`` as a :class:`Message` if it is one, or one dumped to JSON (``key``, ``params``, ``text``)."""
    if isinstance(value, Message):
        return value
    if isinstance(value, dict) and set(value) == {"key", "params", "text"}:
        return Message(str(value["key"]), dict(value["params"] or {}), str(value["text"]))
    return None
