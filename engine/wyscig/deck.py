"""The deck: speed cards 39-50 km/h, climbs and descents, in the three presets of D1.

A card is a plain JSON value so that piles and records read like the game: a speed card is its
value (``47``), the special cards are ``"climb"`` and ``"descent"``. Climbs are never held (they are
laid at once, §5.2), so a hand is only speed values plus a count of descent cards.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from engine.rng import Rng

CLIMB: Literal["climb"] = "climb"
DESCENT: Literal["descent"] = "descent"
MIN_SPEED = 39
MAX_SPEED = 50
DESCENT_BONUS = 2
"""Each descent card adds 2 km/h to the speed card it goes with (§5.3)."""

SpeedValue = Annotated[int, Field(ge=MIN_SPEED, le=MAX_SPEED)]
Card = int | str
"""A speed value (39-50), ``"climb"`` or ``"descent"``."""
CardName = SpeedValue | Literal["climb", "descent"]
"""A card as written in a record (validated by pydantic)."""

DeckName = Literal["itemised_108", "total_102", "classic_96"]


class DeckPreset(BaseModel):
    """One deck of D1: how many of each card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    summary: str
    speed_values: list[SpeedValue]
    per_speed: int = Field(ge=1)
    climbs: int = Field(ge=0)
    descents: int = Field(ge=0)
    max_players: int = Field(ge=2, le=8)
    """D3: 7 or 8 players only with the 108-card deck."""

    @property
    def size(self) -> int:
        return len(self.speed_values) * self.per_speed + self.climbs + self.descents

    def cards(self) -> list[Card]:
        """The whole deck in a fixed, unshuffled order."""
        cards: list[Card] = [v for v in self.speed_values for _ in range(self.per_speed)]
        cards += [CLIMB] * self.climbs + [DESCENT] * self.descents
        return cards


class DeckPresets(RootModel[dict[str, DeckPreset]]):
    """The data file ``data/decks.json``."""


@cache
def deck_presets() -> Mapping[str, DeckPreset]:
    """The deck presets of D1, read from the package data (cached: read-only, the presets frozen)."""
    text = resources.files("engine.wyscig").joinpath("data/decks.json").read_text(encoding="utf-8")
    return MappingProxyType(DeckPresets.model_validate(json.loads(text)).root)


def shuffled_deck(name: str, rng: Rng) -> list[Card]:
    """A fresh shuffle of the whole deck (D5: every stage is a new deal), top of the pile first."""
    cards = deck_presets()[name].cards()
    rng.shuffle(cards)
    return cards


def is_speed(card: Card) -> bool:
    return isinstance(card, int)


def stacked_deal(
    deck: list[Card], hands: dict[str, list[Card]], pile: list[Card] | None, rng: Rng, where: str = "setup"
) -> list[Card]:
    """The pile of a stacked deal (a record's setup): ``pile`` as given, or the deck less ``hands`` shuffled.

    The hands and the pile together hold only cards of the deck, no more of each than it holds (R-WK-6): a
    stacked stage is a deal the table could have had. A pile may be short (the stage then ends sooner).
    ``where`` names the setup part in the refusal (``setup``, ``setup.stage_deals.2``)."""
    rest = Counter(deck)
    rest.subtract(Counter(c for h in hands.values() for c in h))
    _refuse_excess(rest, deck, f"{where}.hands hold more cards than the deck has")
    if pile is not None:
        rest.subtract(Counter(pile))
        _refuse_excess(rest, deck, f"{where}.pile: with the hands it holds more cards than the deck has")
        return list(pile)
    cards = list(rest.elements())
    rng.shuffle(cards)
    return cards


def _refuse_excess(rest: Counter[Card], deck: list[Card], what: str) -> None:
    """One line naming each card stacked more often than the deck holds it: ``39 (10, the deck holds 8)``."""
    held = Counter(deck)
    over = sorted((str(c), held[c] - n, held[c]) for c, n in rest.items() if n < 0)
    if over:
        raise ValueError(f"{what}: " + ", ".join(f"{c} ({n}, the deck holds {h})" for c, n, h in over))
