"""The named stages of ``presets.json`` (which table, D3, and which rows, D4) and how a player names them."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.messages import Message, msg
from engine.ruleset import Preset
from engine.tabella.models import Stage

LABELS = {"default": ("td.preset.default", "default")}
"""A preset's status, shown beside its name (``classic [default]``): the stage a race gets when none is chosen."""


class PresetText(BaseModel):
    """A translatable text of the data file: its message key, English template and parameters."""

    model_config = ConfigDict(extra="forbid")

    key: str
    text: str
    params: dict[str, int | str] = {}

    def message(self) -> Message:
        return msg(self.key, self.text, **self.params)


class PresetEntry(BaseModel):
    """One named stage of ``presets.json``."""

    model_config = ConfigDict(extra="forbid")

    summary: PresetText
    title: PresetText | None = None
    label: Literal["default"] | None = None
    stage: Stage


def _load() -> dict[str, PresetEntry]:
    text = resources.files("engine.tabella").joinpath("presets.json").read_text(encoding="utf-8")
    return {name: PresetEntry.model_validate(entry) for name, entry in json.loads(text).items()}


PRESETS = _load()
_LISTED = re.compile(r"(?P<name>.+?)\s*\[(?P<label>[^\]]*)\]\s*")


def label_of(entry: PresetEntry) -> Message | None:
    return msg(*LABELS[entry.label]) if entry.label else None


def preset_list() -> list[Preset]:
    return [
        Preset(
            name=name,
            summary=e.summary.message(),
            label=label_of(e),
            title=e.title.message() if e.title is not None else None,
        )
        for name, e in PRESETS.items()
    ]


def find(name: str) -> PresetEntry | None:
    """The preset called ``name``, also when written as a listing shows it, with its label (``classic [default]``)."""
    if name in PRESETS:
        return PRESETS[name]
    listed = _LISTED.fullmatch(name)
    if listed:
        entry = PRESETS.get(listed["name"])
        label = label_of(entry) if entry else None
        if entry and label and label.text == listed["label"].strip():
            return entry
    return None


def stage_of(stage: Mapping[str, Any] | str | None) -> Stage:
    """The stage a race is given: none (the default), a preset's name, or the stage itself."""
    if stage is None:
        return Stage()
    if isinstance(stage, str):
        entry = find(stage)
        if entry is None:
            raise ValueError(f"unknown Tabella stage {stage!r}; choose one of: {', '.join(PRESETS)}")
        return entry.stage
    return Stage.model_validate(dict(stage))
