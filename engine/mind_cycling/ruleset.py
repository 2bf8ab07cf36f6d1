"""Mind Cycling behind the common :class:`~engine.ruleset.Ruleset` interface: a thin adapter.

The rules live in their own modules: the start (``start``), the decisions awaited now (``decisions``), the
orders and their text syntax (``orders``), a round (``rounds``, ``resolution``), the bots (``bots``), the
standings (``scoring``) and what players see (``views``). This class routes the interface to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.messages import Message
from engine.mind_cycling import bots, decisions, orders, resolution, scoring, start, views
from engine.mind_cycling.models import DEFAULT, Options, Setup, Stage, load_presets, stage_from
from engine.mind_cycling.state import RaceState
from engine.mind_cycling.texts import DEFAULT_LABEL, SUMMARY, message_keys, preset_summary, preset_title
from engine.ruleset import (
    Decision,
    Entrant,
    Event,
    Order,
    OrderMeta,
    PlayerLimits,
    Preset,
    Result,
    Ruleset,
    Validated,
    check_state_format,
)

STATE_FORMAT = "mind_cycling.state/1"


class MindCyclingRuleset(Ruleset[RaceState]):
    """Mind Cycling (rules: ``docs/rules/mind-cycling.md``)."""

    id: ClassVar[str] = "mind_cycling"
    name: ClassVar[str] = "Mind Cycling"
    options_model: ClassVar[type[BaseModel]] = Options
    stage_model: ClassVar[type[BaseModel]] = Stage
    setup_model: ClassVar[type[BaseModel]] = Setup
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = "steady"

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        """The courses of ``data/presets.json``; the default course (``classic``) is labelled ``default``."""
        return [
            Preset(
                name=name,
                summary=preset_summary(name, p.summary),
                label=DEFAULT_LABEL if name == DEFAULT else None,
                title=preset_title(name),
            )
            for name, p in load_presets().items()
        ]

    def summary(self) -> Message:
        return SUMMARY

    def message_keys(self) -> frozenset[str]:
        return message_keys()

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        return views.stage_board(stage, options)

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The course's strips, length, rocks and supply spaces; counts stay counts (the seed places them)."""
        return stage_from(dict(stage) if isinstance(stage, Mapping) else stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """1 (solo, D25) to 6 teams, on every course and with every option."""
        Options.model_validate(dict(options))
        return PlayerLimits(1, 6)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[RaceState, list[Event]]:
        return start.open_race(stage, options, entrants, seed, setup)

    def awaited(self, state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return decisions.awaited(state, partial)

    def awaited_ids(self, state: RaceState) -> list[str]:
        return decisions.awaited_ids(state)

    def validate(self, state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        return orders.validate(state, entrant, order, previous)

    def resolve(
        self, state: RaceState, orders_in: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[RaceState, list[Event]]:
        new = state.copy()
        events: list[Event] = []
        resolution.resolve_step(new, dict(orders_in), events)
        return new, events

    def advance(
        self,
        state: RaceState,
        orders_in: Mapping[str, Order],
        meta: Mapping[str, OrderMeta] | None = None,
        events: list[Event] | None = None,
    ) -> RaceState:
        """:meth:`resolve` on ``state`` itself: a rollout's state needs no copy; without ``events`` the step
        builds none (every event is built behind a test of the list, so the state is the same)."""
        resolution.resolve_step(state, dict(orders_in), events)
        return state

    def auto_order(
        self, state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        base = dict(partial or {})
        if orders.text_of(base) is not None or (base and state.phase != "place"):
            base = orders.validate(state, entrant, base).order if base else {}
        return bots.auto(state, entrant, base, strategy)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: RaceState) -> dict[str, Any]:
        return views.public_view(state)

    def private_view(self, state: RaceState, entrant: str) -> dict[str, Any]:
        return views.private_view(state, entrant)

    def result(self, state: RaceState) -> Result:
        return scoring.race_result(state)

    def finished(self, state: RaceState) -> bool:
        """Done, or a solo race already scored (its result is final then)."""
        return state.phase == "done" or (state.solo and state.solo_score is not None)

    def leader(self, state: RaceState) -> str | None:
        return scoring.leader(state)

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **state.to_json()}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        check_state_format(data, STATE_FORMAT)
        return RaceState.from_json({k: v for k, v in data.items() if k != "format"})
