"""Wyścig kolarski behind the common :class:`~engine.ruleset.Ruleset` interface.

Turns are sequential: one step is one player's turn, and ``awaited`` names exactly that player. The rules
live beside this adapter: the start in ``start``, the decision in ``decisions``, orders in ``orders``, a
turn and a stage in ``turn`` and ``stage``, what players see in ``views``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.messages import Message
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
from engine.wyscig import bots, decisions, orders, start, views
from engine.wyscig.classification import gc_leader
from engine.wyscig.keys import message_keys
from engine.wyscig.models import Options, Setup, Stage
from engine.wyscig.stage import play_turn
from engine.wyscig.state import RaceState, dump_state, load_state

STATE_FORMAT = "wyscig.state/1"


class WyscigRuleset(Ruleset[RaceState]):
    """The Polish card race over several stages (``docs/rules/wyscig-kolarski.md``)."""

    id: ClassVar[str] = views.RULESET_ID
    name: ClassVar[str] = "Wyścig kolarski"
    options_model: ClassVar[type[BaseModel]] = Options
    stage_model: ClassVar[type[BaseModel]] = Stage
    setup_model: ClassVar[type[BaseModel]] = Setup
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = bots.DEFAULT_STRATEGY

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        return views.presets()

    def summary(self) -> Message:
        return views.summary()

    def message_keys(self) -> frozenset[str]:
        return message_keys()

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        return views.stage_board(stage, options)

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The deck (a deck of D1, named by the rules) and the number of stages."""
        return start.read_stage(stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        return start.player_limits(stage, options)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[RaceState, list[Event]]:
        return start.new_race(stage, options, entrants, seed, setup)

    def awaited(self, state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return decisions.awaited(state, partial)

    def awaited_ids(self, state: RaceState) -> list[str]:
        return decisions.awaited_ids(state)

    def validate(self, state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        return orders.validate(state, entrant, order, previous)

    def resolve(
        self, state: RaceState, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[RaceState, list[Event]]:
        return play_turn(state, orders)

    def advance(
        self,
        state: RaceState,
        orders: Mapping[str, Order],
        meta: Mapping[str, OrderMeta] | None = None,
        events: list[Event] | None = None,
    ) -> RaceState:
        """:meth:`resolve` on ``state`` itself: a rollout's state needs no copy (the step's events are
        still built, and dropped without ``events``)."""
        return play_turn(state, orders, in_place=True, events=events)[0]

    def auto_order(
        self, state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        return bots.auto_order(state, entrant, partial, strategy)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: RaceState) -> dict[str, Any]:
        return views.public_view(state)

    def private_view(self, state: RaceState, entrant: str) -> dict[str, Any]:
        return views.private_view(state, entrant)

    def result(self, state: RaceState) -> Result:
        return views.result(state)

    def finished(self, state: RaceState) -> bool:
        return state.finished

    def leader(self, state: RaceState) -> str | None:
        """The general classification's first line (the result's standings are its lines, in order)."""
        return gc_leader([state.players[e] for e in state.seats]).id if state.seats else None

    # --- persistence -----------------------------------------------------------------------------
    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **dump_state(state)}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        check_state_format(data, STATE_FORMAT)
        return load_state({k: v for k, v in data.items() if k != "format"})


__all__ = ["WyscigRuleset"]
