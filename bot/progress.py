"""The one counter players see for a moment of a race (round, stage, lap), the same on the post, the panel,
the picture's caption and the terminal: read from the public view's progress marker
(:data:`engine.ruleset.PROGRESS_KEY`), never from the internal step number."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from engine.messages import Message


def counter(marker: Mapping[str, Any] | None, locale: str | None) -> str:
    """The one counter players see for a moment of the race, from the public view's progress marker
    (engine.ruleset.PROGRESS_KEY): "Round 3", "Stage 2, lap 4", the system's own name where it has one
    (Tabella's "Move 3", a message in the reader's language); never the internal step number."""
    marker = marker or {}
    number = marker.get("number")
    if number is None:
        return t("race.counter.start", locale)
    if marker.get("lap") is not None:
        return t("race.counter.lap", locale, number=number, lap=marker["lap"])
    label = marker.get("label")
    if isinstance(label, Mapping) and "key" in label:  # the system's own name, a message: "Move 3"
        return t(Message(str(label["key"]), dict(label.get("params") or {}), str(label.get("text") or "")), locale)
    if label:  # a marker stored before the name was a message
        return t("race.counter.label", locale, label=label)
    if marker.get("unit") == "stage":
        return t("race.counter.stage", locale, number=number)
    return t("race.counter.round", locale, number=number)
