"""The pydantic models of the race record's ``stage``, ``options`` and ``setup`` (boundary only).

``extra="forbid"`` everywhere, so a misspelt field in a record is named in the error.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

WeatherToken = Literal["clear", "crosswind", "tailwind", "headwind", "wet"]


class Options(BaseModel):
    """The rule variants (rules §1, "Decisions at a glance")."""

    model_config = ConfigDict(extra="forbid")

    finish: Literal["all", "first"] = "all"
    """D5."""
    finish_overflow: Literal["extend", "clip"] = "extend"
    """D4."""
    grid: Literal["choose", "random"] = "choose"
    """D6."""
    breakaway: Literal["off", "on"] = "off"
    """D8."""
    meteo: Literal["off", "random"] | list[WeatherToken] = "off"
    """D10."""
    riders_per_player: Literal[1, 2] = 2
    """D23."""
    show_deck_contents: bool = False
    """D24."""
    bots: list[Literal["peloton", "muscle"]] | None = None
    """D22: the default bot seats a lobby adds (``None`` = by player count)."""

    @model_validator(mode="after")
    def _one_peloton(self) -> Options:
        if self.bots is not None and self.bots.count("peloton") > 1:
            raise ValueError("at most one Peloton bot team")
        return self


class Stage(BaseModel):
    """The ground raced on: a catalogue stage, a tile string or a terrain profile (D12)."""

    model_config = ConfigDict(extra="forbid")

    preset: str | None = None
    tiles: str | None = None
    profile: str | None = None
    name: str | None = None
    large_tiles: str | None = Field(default=None, json_schema_extra={"editor": False})
    """With ``tiles`` only: the stage's own 5-6-player version (D13), as a Peloton catalogue stage carries
    it; without it a large field races ``tiles`` widened the usual way. A preset copied into a race
    (``stage_data``) keeps it, so the copy races exactly as the preset."""

    @model_validator(mode="after")
    def _exactly_one(self) -> Stage:
        given = [k for k in ("preset", "tiles", "profile") if getattr(self, k)]
        if len(given) != 1:
            raise ValueError("a stage is exactly one of: preset (a catalogue name), tiles, profile")
        if self.large_tiles is not None and not self.tiles:
            raise ValueError("large_tiles goes with tiles only")
        return self


Card = int | str


class RiderSetup(BaseModel):
    """An explicit situation for one rider (every field optional)."""

    model_config = ConfigDict(extra="forbid")

    square: int | None = Field(default=None, ge=1)
    lane: int | None = Field(default=None, ge=1, le=3)
    deck: list[Card] | None = None
    """The face-down deck from the top (replaces the shuffled deck)."""
    hand: list[Card] | None = None
    """The cards of its next hand: put on top of its deck."""
    recycled: list[Card] | None = None
    exhaustion: int = Field(default=0, ge=0)
    """Exhaustion cards already taken: added to its recycled pile."""
    crossed: int | None = Field(default=None, ge=1)
    """The round in which it already crossed the finish line (``finish: "all"``; before the first round
    played): it is off the track, ranked by that round and ``past`` (R-FR-9)."""
    past: int | None = Field(default=None, ge=1)
    """How far past the line it crossed (the first finish square = 1; default 1); only with ``crossed``."""
    bid: Card | None = None
    """Breakaway (D8): the card this rider bid in bidding round 1, set aside face down; the race then starts
    at bidding round 2, drawing from its deck (``hand`` = the 4 cards it draws). Every bidding player's rider
    has one, nobody is on the grid yet (R-FR-11)."""


class Setup(BaseModel):
    """An explicit start (race-record.md "Setup"); whatever it does not fix comes from the seed."""

    model_config = ConfigDict(extra="forbid")

    riders: dict[str, RiderSetup] = Field(default_factory=dict)
    """By rider id (``blue-r``, ``white-p1``...)."""
    owners: dict[str, str] | None = None
    """One-rider mode: rider id -> entrant, instead of the rider-choice steps."""
    turn_order: list[str] | None = None
    """The players' turn order (D7), instead of the one drawn from the seed."""
    round: int = Field(default=1, ge=1)
    """The number of the first round."""
