"""The pydantic models of a Tabella race record: stage, options and setup (rules §1, §4, race-record.md).

They forbid unknown keys so that a bad record names the offending field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

StartRow = Literal["A", "B", "C"]
SPECIAL_CODES = ("V", "G", "J", "B", "X", "P", "V2", "B2")


class Options(BaseModel):
    """The rule variants of §1 (``table`` and ``rows`` live in the stage, see :class:`Stage`)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["plan", "live"] = "plan"
    """D1: the whole race in one private plan, or one order per round."""
    gazzetta_probability: float = Field(default=0.2, ge=0.0, le=1.0)
    """D21: the chance that the Gazzetta's front page is a doping inquiry."""
    gazzetta_delay: Literal["next_morning", "immediate"] = "next_morning"
    """D21: when the front page is published (the bot schedules ``next_morning`` at 09:00)."""
    scia_reading: Literal["straight_move", "flat_terrain"] = "straight_move"
    """D25: what "in rettilineo" means for the Scia."""


class Stage(BaseModel):
    """The ground raced on: which table (D3) and which three consecutive rows of it (D4)."""

    model_config = ConfigDict(extra="forbid")

    table: Literal["classic", "random"] | list[list[int]] = "classic"
    rows: int | Literal["random"] = "random"

    @field_validator("table", mode="before")
    @classmethod
    def _known_table(cls, value: object) -> object:
        """An unknown table name is one line, not one per member of the union."""
        if isinstance(value, str) and value not in ("classic", "random"):
            raise PydanticCustomError(
                "unknown_table",
                "unknown table {table}; choose 'classic' or 'random', or give the table's rows as lists of numbers",
                {"table": repr(value)},
            )
        return value

    @field_validator("rows", mode="before")
    @classmethod
    def _rows_or_random(cls, value: object) -> object:
        """Rows are a number or ``"random"``: one line says so (what pydantic reads as a number, ``"3"``
        or ``3.0``, still passes to it)."""
        if isinstance(value, bool) or (isinstance(value, str) and value != "random" and not value.strip().isdigit()):
            raise PydanticCustomError(
                "bad_rows", "rows must be a row number or 'random', not {rows}", {"rows": repr(value)}
            )
        return value


class StolenBottleSetup(BaseModel):
    """A bottle taken with a Gancio (D20)."""

    model_config = ConfigDict(extra="forbid")

    owner: str
    reinforced: bool = False
    status: Literal["full", "drunk", "thrown"] = "full"


class RiderSetup(BaseModel):
    """Explicit values for one rider; whatever is left out is as at a normal start."""

    model_config = ConfigDict(extra="forbid")

    r: int | None = Field(default=None, ge=0)
    v: int | None = Field(default=None, ge=0)
    row: StartRow | None = None
    start: StartRow | None = None
    """The start move the rider made (matters only for a Gomitata at the start)."""
    status: Literal["racing", "exhausted"] = "racing"
    progress: int | None = Field(default=None, ge=0, le=7)
    bottle: Literal["full", "drunk", "thrown", "stolen"] = "full"
    bibitone: bool | None = None
    stolen: StolenBottleSetup | None = None
    used: list[Literal["V", "G", "J", "B", "X", "P", "V2", "B2"]] = Field(default_factory=list)
    doped: bool = False
    free_effort: bool = False
    order_time: str | None = None

    @field_validator("order_time")
    @classmethod
    def _iso_time(cls, value: str | None) -> str | None:
        if value is not None:
            datetime.fromisoformat(value.replace("Z", "+00:00"))  # raises ValueError with the reason
        return value


class Setup(BaseModel):
    """An exact situation to start from (rules tests, tutorials, puzzles)."""

    model_config = ConfigDict(extra="forbid")

    round: int = Field(default=0, ge=0, le=8)
    """The first round to play: 0 = start, 1-5 = m1-m5, 6-8 = s1-s3."""
    riders: dict[str, RiderSetup] = Field(default_factory=dict)
    gazzetta_hit: bool | None = None
    """Fix the Gazzetta's outcome (the draw is still made, so the random stream is unchanged)."""
