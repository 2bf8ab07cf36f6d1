"""The record schemas of Wyścig: stage, options, setup and order (``docs/race-record/wyscig.md``).

``extra="forbid"`` everywhere so a misspelt field in a record is named, not ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.wyscig.deck import CardName, DeckName

DEFAULT_STAGES = 6
"""D2: a race is 6 stages unless its stage says otherwise (the seed: "not fewer than six"). The one source of
the number: presets, boards and the guide read it (a test holds the guide to it)."""


class Stage(BaseModel):
    """The ground raced on: which deck (D1) and how many stages (D2)."""

    model_config = ConfigDict(extra="forbid")

    deck: DeckName = "itemised_108"
    """D1: ``itemised_108`` (default), ``total_102`` or ``classic_96``."""
    stages: int = Field(default=DEFAULT_STAGES, ge=1, le=21)
    """D2: 6 by default (the seed's minimum); 1-5 is a house rule; at most 21."""


class Options(BaseModel):
    """The rule variants that are not the ground raced on."""

    model_config = ConfigDict(extra="forbid")

    max_players: int = Field(default=6, ge=2, le=8)
    """D3: 2-6 players by default; 7 or 8 only with the 108-card deck."""


class StageDeal(BaseModel):
    """A later stage's stacked deal: explicit opening hands and pile (top first), like the first stage's."""

    model_config = ConfigDict(extra="forbid")

    hands: dict[str, list[CardName]] | None = None
    pile: list[CardName] | None = None


class Setup(BaseModel):
    """An exact starting situation for tests, tutorials and puzzles (every field optional)."""

    model_config = ConfigDict(extra="forbid")

    seats: list[str] | None = None
    """Seat order (every entrant once); otherwise drawn from the seed (D4)."""
    leader: str | None = None
    """Who holds the yellow token at the start; otherwise drawn from the seed (D4)."""
    stage_number: int | None = Field(default=None, ge=1, le=21)
    """The stage to start at (1 by default); earlier stages' times come from ``earlier_times``."""
    earlier_times: dict[str, list[int]] | None = None
    """Every entrant's recorded times of the stages before ``stage_number`` (57, 60 or more)."""
    hands: dict[str, list[CardName]] | None = None
    """Explicit opening hands of the first stage played (a climb in it is laid at once)."""
    pile: list[CardName] | None = None
    """The first stage's pile, top first: hands not given are dealt from it, the rest is the draw pile."""
    minutes: dict[str, int] | None = None
    """Penalty minutes held at the start of the first stage played."""
    stage_deals: dict[int, StageDeal] | None = None
    """Stacked hands and pile of a later stage, by its number, dealt when that stage starts (the first
    stage played takes ``hands`` and ``pile``)."""


class CardPlay(BaseModel):
    """A turn: one speed card from the hand and how many descent cards go with it (§8.1)."""

    model_config = ConfigDict(extra="forbid")

    card: int | None = None
    descents: int | None = None

    @field_validator("card", "descents", mode="before")
    @classmethod
    def _not_a_boolean(cls, value: object) -> object:
        """``true`` is not a card or a count (pydantic would otherwise read it as 1)."""
        if isinstance(value, bool):
            raise ValueError("a number is needed, not true or false")
        return value
