"""A tiny rule system for the bot's tests while no real one is merged (registered by tests/bot/conftest.py).

It implements only the catalogue side the bot's commands read (name, summary, presets, stage board,
guide); a race with it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.ruleset import Decision, Event, Order, Preset, Result, Ruleset, Validated


class _Empty(BaseModel):
    pass


class SampleRuleset(Ruleset[dict[str, Any]]):
    id: ClassVar[str] = "sample"
    name: ClassVar[str] = "Sample Sprint"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[BaseModel]] = _Empty
    stage_model: ClassVar[type[BaseModel]] = _Empty
    setup_model: ClassVar[type[BaseModel]] = _Empty
    strategies: ClassVar[tuple[str, ...]] = ()
    default_strategy: ClassVar[str] = ""

    def presets(self) -> list[Preset]:
        return [
            Preset(name="Flat Run", summary="Twelve flat squares and a sprint.", label="official"),
            Preset(name="Col du Test", summary="A climb of six squares, then a descent."),
            Preset(name="Côte d'Azur", summary="Windy coast road."),
        ]

    def summary(self) -> str:
        return "Race your rider to the line: play a card, move that many squares."

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> str:
        return f"{stage}\n" + "|" + "_" * 12 + "|  finish\n"

    def new_race(self, stage: Any, options: Any, entrants: Any, seed: int, setup: Any = None) -> dict[str, Any]:
        raise ValueError("the sample rule system cannot race")

    def awaited(self, state: dict[str, Any], partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return []

    def validate(
        self, state: dict[str, Any], entrant: str, order: Order | str, previous: Order | None = None
    ) -> Validated:
        raise ValueError("the sample rule system cannot race")

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Order]) -> tuple[dict[str, Any], list[Event]]:
        return state, []

    def auto_order(
        self, state: dict[str, Any], entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        return {}

    def public_view(self, state: dict[str, Any]) -> dict[str, Any]:
        return {}

    def private_view(self, state: dict[str, Any], entrant: str) -> dict[str, Any]:
        return {}

    def result(self, state: dict[str, Any]) -> Result:
        return Result(finished=True)

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)


RULESET = SampleRuleset()
