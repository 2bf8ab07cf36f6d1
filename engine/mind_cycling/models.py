"""The validated shapes of a Mind Cycling record: stage, options, setup and course presets.

Every model forbids unknown keys so a typo in a record is named instead of silently ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

StripType = Literal["plains", "sprint", "mountain"]
Space = tuple[int, int]
"""A space as (row, lane)."""

LABELLED = re.compile(r"\s*\[[^\[\]]*\]\s*$")
"""A preset's label as a listing shows it after the name (``classic [default]``): the name alone is the preset."""

DEFAULT = "classic"
"""The preset raced when a record names no stage."""

DEFAULT_COURSE: list[StripType] = ["plains", "plains", "sprint", "plains", "mountain", "mountain", "plains"]


class Stage(BaseModel):
    """The ground raced on (D5, D6): the strips, their length, rocks and supply spaces."""

    model_config = ConfigDict(extra="forbid")

    course: list[StripType] = Field(default_factory=lambda: list(DEFAULT_COURSE), min_length=1, max_length=20)
    strip_length: int = Field(10, ge=1, le=40)
    rocks: int | list[Space] = Field(6)
    supply_spaces: int | list[Space] = Field(2)


class Options(BaseModel):
    """The rule variants of the Decisions table, each with its default."""

    model_config = ConfigDict(extra="forbid")

    lanes: int = Field(5, ge=3, le=6)  # D1
    team_size: int = Field(5, ge=3, le=5)  # D2
    mode: Literal["orders", "live"] = "orders"  # D3
    medal_section: Literal["last", "first"] = "last"  # D7
    placement_order: Literal["random"] | list[str] = "random"  # D9
    max_rounds: int | None = Field(None, ge=1, le=1000)  # D22
    solo: bool = True
    """With a single entrant: the solo game (D25); ``false`` races that one team under the ordinary
    rules (its ``team_size``, places and medals), for situations a rules test needs (R-MC-9)."""


class CyclistSetup(BaseModel):
    """One cyclist placed explicitly by a record's setup (its grid placement is then skipped)."""

    model_config = ConfigDict(extra="forbid")

    entrant: str
    number: int = Field(ge=1, le=5)
    row: int | None = Field(default=None, ge=-20)
    lane: int | None = Field(default=None, ge=1, le=6)
    base: Literal["blue", "black"] = "blue"
    place: int | None = Field(default=None, ge=1)
    """Already across the line with this place (then no row or lane; R-MC-8)."""


class Setup(BaseModel):
    """An exact starting situation: cyclists' spaces and bases, and the round to start at."""

    model_config = ConfigDict(extra="forbid")

    cyclists: list[CyclistSetup] = Field(default_factory=list)
    round: int = Field(1, ge=1)
    only_listed: bool = False
    """The field is the listed cyclists alone: the others do not take part (R-MC-10)."""
    medals: dict[Literal["sprint", "mountain"], str] | None = None
    """Section medals already won, by the cyclist's id (``anna#2``) (R-MC-8)."""


class StagePreset(BaseModel):
    """A named course in ``data/presets.json`` (frozen: shared by every race through the cache)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    summary: str
    course: list[StripType]
    strip_length: int
    rocks: int | list[Space]
    supply_spaces: int | list[Space]

    def stage(self) -> Stage:
        return Stage(
            course=list(self.course),
            strip_length=self.strip_length,
            rocks=list(self.rocks) if isinstance(self.rocks, list) else self.rocks,
            supply_spaces=list(self.supply_spaces) if isinstance(self.supply_spaces, list) else self.supply_spaces,
        )


@cache
def load_presets() -> Mapping[str, StagePreset]:
    """The course presets shipped with the package, validated (cached: read-only)."""
    raw = json.loads(resources.files("engine.mind_cycling").joinpath("data/presets.json").read_text("utf-8"))
    return MappingProxyType({name: StagePreset.model_validate(body) for name, body in raw.items()})


def stage_from(stage: object) -> Stage:
    """A stage from a record: a preset name, an explicit stage object, or ``None`` for the default."""
    if stage is None:
        return load_presets()[DEFAULT].stage()
    if isinstance(stage, str):
        presets = load_presets()
        name = stage if stage in presets else LABELLED.sub("", stage)  # ``classic [default]``, as listed
        if name not in presets:
            raise ValueError(f"unknown Mind Cycling course {stage!r}; choose one of: {', '.join(presets)}")
        return presets[name].stage()
    return Stage.model_validate(stage)
