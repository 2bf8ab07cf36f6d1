"""The race record (``gregario.race/1``): a race's save file, replay input and test format.

See ``docs/race-record.md``. The envelope is validated here;
the rule system validates its own ``stage``, ``options``, ``setup`` and orders, so a malformed record
gets a message that names the offending field.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.registry import RULESET_IDS
from engine.ruleset import Entrant
from engine.validation import describe_validation_error

RECORD_FORMAT = "gregario.race/1"

StepOrder = dict[str, Any] | str
"""An order inside a step: a JSON object (with optional ``by``/``auto``/``received_at``) or text syntax."""


class Announced(BaseModel):
    """News a finished race published later (Tabella's Gazzetta): its kind, and the step after which it came
    out (the number of steps played by then)."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(min_length=1)
    after_step: int = Field(ge=0)


def announcement_name(kind: str) -> str:
    """An announcement's name in a record: its kind without the rule system's prefix
    (``td.gazzetta`` -> ``gazzetta``); a record may also give the full kind."""
    return kind.rsplit(".", 1)[-1]


class RaceRecord(BaseModel):
    """The envelope of a race record."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["gregario.race/1"] = "gregario.race/1"
    ruleset: str
    seed: int
    stage: dict[str, Any] | str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    entrants: list[Entrant] = Field(min_length=1)
    setup: dict[str, Any] | None = None
    steps: list[dict[str, StepOrder]] = Field(default_factory=list)
    announcements: list[Announced] | None = None
    """What was published after the race (optional; a record without it is read as before)."""

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        if value not in RULESET_IDS:
            raise ValueError(f"unknown rule system {value!r}; choose one of: {', '.join(RULESET_IDS)}")
        return value

    @model_validator(mode="after")
    def _orders_from_entrants(self) -> RaceRecord:
        # Unique ids, the player count and known strategies are checked when the race starts, for every
        # rule system alike (engine.ruleset.check_entrants).
        known = {e.id for e in self.entrants}
        for n, step in enumerate(self.steps, start=1):
            strangers = sorted(set(step) - known)
            if strangers:
                raise ValueError(f"step {n} has an order from {', '.join(strangers)}, who is not an entrant")
        last = 0
        for n, announced in enumerate(self.announcements or []):
            if announced.after_step > len(self.steps):
                raise ValueError(
                    f"announcements.{n}: published after step {announced.after_step}, "
                    f"but the record has {len(self.steps)} steps"
                )
            if announced.after_step < last:
                raise ValueError(f"announcements.{n}: announcements are listed in the order they came out")
            last = announced.after_step
        return self

    def to_json(self) -> str:
        """The record as JSON text, omitting an absent setup."""
        return json.dumps(self.model_dump(mode="json", exclude_none=True), indent=1, ensure_ascii=False) + "\n"


class RecordError(ValueError):
    """A record that cannot be replayed: malformed, or an illegal order at a named step."""

    def __init__(self, text: str, *, step: int | None = None, entrant: str | None = None) -> None:
        super().__init__(text)
        self.step = step
        self.entrant = entrant


def parse_record(text: str | bytes | dict[str, Any]) -> RaceRecord:
    """Read a record from JSON text (or already-parsed data); raise :class:`RecordError` naming the field."""
    if isinstance(text, dict):
        data: Any = text
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object")
    try:
        return RaceRecord.model_validate(data)
    except ValidationError as exc:
        raise RecordError(describe_validation_error(exc)) from exc
