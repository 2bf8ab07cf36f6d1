"""Tabella del Destino behind the common :class:`~engine.ruleset.Ruleset` interface: a thin adapter.

Plan mode (D1) is one step: every player sends the whole race plan and the engine plays the nine rounds at
once, reporting them round by round. Live mode is nine steps, one per round, all riders deciding together.
The Gazzetta's front page (D21) comes after the last round and may be published later: until
:meth:`TabellaRuleset.publish` the result is provisional. Each method delegates to the module named after
what it does: :mod:`~engine.tabella.decisions` (what is asked), :mod:`~engine.tabella.orders` (checking
what is sent), :mod:`~engine.tabella.steps` (playing it), :mod:`~engine.tabella.views` and
:mod:`~engine.tabella.ranking` (what is shown), :mod:`~engine.tabella.setup` and
:mod:`~engine.tabella.presets` (how a race begins).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.messages import Message
from engine.ruleset import (
    Announcement,
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
from engine.tabella import bots, decisions, orders, ranking, steps, views
from engine.tabella.keys import MESSAGE_KEYS
from engine.tabella.models import Options, Setup, Stage
from engine.tabella.presets import preset_list, stage_of
from engine.tabella.setup import new_race
from engine.tabella.state import MAX_PLAYERS, MIN_PLAYERS, RaceState

STATE_FORMAT = "tabella.state/1"


class TabellaRuleset(Ruleset[RaceState]):
    """The Tabella del Destino rule system (``docs/rules/tabella-del-destino.md``)."""

    id: ClassVar[str] = "tabella"
    name: ClassVar[str] = "Tabella del Destino"
    options_model: ClassVar[type[Options]] = Options
    stage_model: ClassVar[type[Stage]] = Stage
    setup_model: ClassVar[type[Setup]] = Setup
    strategies: ClassVar[tuple[str, ...]] = bots.STRATEGIES
    default_strategy: ClassVar[str] = "cautious"

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        return preset_list()

    def summary(self) -> Message:
        return views.summary()

    def message_keys(self) -> frozenset[str]:
        return MESSAGE_KEYS

    def default_entrants(self, humans: list[Entrant], options: Mapping[str, Any]) -> list[Entrant]:
        seats = list(humans)
        n = 1
        while len(seats) < MIN_PLAYERS:
            taken = {e.id for e in seats}
            while f"bot{n}" in taken:
                n += 1
            seats.append(Entrant(id=f"bot{n}", name=f"Bot {n}", bot=self.default_strategy))
            n += 1
        return seats

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        return views.stage_board(stage)

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        """The preset's table and rows; ``"classic"`` and ``"random"`` stay (the rules' table, drawn at the start)."""
        return stage_of(stage).model_dump(mode="json")

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """2 to 20 riders, one per player, on every table and in both modes."""
        Options.model_validate(dict(options or {}))
        return PlayerLimits(MIN_PLAYERS, MAX_PLAYERS)

    # --- a race ----------------------------------------------------------------------------------
    def open_race(
        self,
        stage: Mapping[str, Any] | str | None,
        options: Mapping[str, Any],
        entrants: list[Entrant],
        seed: int,
        setup: Mapping[str, Any] | None,
    ) -> tuple[RaceState, list[Event]]:
        return new_race(stage, options, entrants, seed, setup)

    def awaited(self, state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
        return decisions.awaited(state, partial)

    def awaited_ids(self, state: RaceState) -> list[str]:
        """Who :meth:`awaited` asks, in its order, without building a panel: ``decisions.awaited`` builds one
        decision for each rider of ``orders.awaited_ids``, so the list is that one (the driver's bot loop asks
        at every step; the default built every decision, about a tenth of an all-bot race)."""
        return orders.awaited_ids(state)

    def validate(self, state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        return orders.validate(state, entrant, order, previous)

    def auto_order(
        self, state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        return orders.auto_order(state, entrant, partial, strategy)

    def resolve(
        self, state: RaceState, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[RaceState, list[Event]]:
        """``meta`` gives each order's ``received_at`` (D6's third priority key) and ``auto`` (the plan
        event says an absent player's plan was the automatic one)."""
        return steps.resolve(state, orders, meta)

    def publish(self, state: RaceState) -> tuple[RaceState, list[Event]]:
        """Publish the Gazzetta's front page (D21): the result stops being provisional."""
        return steps.publish(state)

    def pending_announcement(self, state: RaceState) -> Announcement | None:
        """What the bot must publish later, and when (``next_morning`` = 09:00 the next day), or None."""
        if not state.over or state.void or state.gazzetta_published:
            return None
        return Announcement(kind="td.gazzetta", delay=state.options["gazzetta_delay"], hour=9)

    # --- views -----------------------------------------------------------------------------------
    def public_view(self, state: RaceState) -> dict[str, Any]:
        return views.public_view(state)

    def private_view(self, state: RaceState, entrant: str) -> dict[str, Any]:
        return views.private_view(state, entrant)

    def result(self, state: RaceState) -> Result:
        return ranking.result(state)

    def finished(self, state: RaceState) -> bool:
        """``result(state).finished`` without ranking anyone: ``ranking.result`` says finished exactly when the
        race is over (a void race is over). A rollout asks at every step, where the standings cost 6%."""
        return state.over

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **state.to_data()}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        check_state_format(data, STATE_FORMAT)
        return RaceState.from_data({k: v for k, v in data.items() if k != "format"})
