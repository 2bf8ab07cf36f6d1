"""Flamme Rouge behind the common engine interface (``engine.ruleset.Ruleset``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.flamme_rouge.breakaway import resolve_bids
from engine.flamme_rouge.decisions import awaited, awaited_ids
from engine.flamme_rouge.grid import place, square_of
from engine.flamme_rouge.keys import MESSAGE_KEYS
from engine.flamme_rouge.models import Options, Setup, Stage
from engine.flamme_rouge.orders import validate
from engine.flamme_rouge.ranking import result
from engine.flamme_rouge.round import play_bot_round, play_round
from engine.flamme_rouge.start import (
    MAX_TEAMS,
    after_choice,
    max_riders,
    new_race,
    next_placer,
    normalise_stage,
    options_of,
    placed_event,
    race_track,
    stage_data,
    start_grid,
)
from engine.flamme_rouge.state import (
    BID,
    BOT_TEAMS,
    CHOOSE,
    DONE,
    ENERGY,
    PLACE,
    RaceState,
)
from engine.flamme_rouge.strategies import auto_order, energy_order
from engine.flamme_rouge.texts import preset_label, preset_summary, stage_board, summary
from engine.flamme_rouge.track import catalogue
from engine.flamme_rouge.views import private_view, public_view
from engine.messages import Message, event
from engine.rng import Rng
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

STATE_FORMAT = "flamme_rouge.state/1"


class FlammeRougeRuleset(Ruleset[RaceState]):
    """Flamme Rouge with Peloton and Meteo (rules: ``docs/rules/flamme-rouge.md``)."""

    id: ClassVar[str] = "flamme_rouge"
    name: ClassVar[str] = "Flamme Rouge"
    options_model: ClassVar[type[BaseModel]] = Options
    stage_model: ClassVar[type[BaseModel]] = Stage
    setup_model: ClassVar[type[BaseModel]] = Setup
    strategies: ClassVar[tuple[str, ...]] = ("heuristic", "simple", "first", "peloton", "muscle")
    default_strategy: ClassVar[str] = "heuristic"

    # --- catalogue -------------------------------------------------------------------------------
    def presets(self) -> list[Preset]:
        """Every catalogue stage; the default one labelled ``default``, the others by their data's status."""
        book = catalogue()
        out = []
        for s in book.stages:
            track = race_track({"preset": s.name}, False, [])
            label = preset_label(s, default=s.name == book.default)
            out.append(Preset(name=s.name, summary=preset_summary(s, track), label=label))
        return out

    def summary(self) -> Message:
        return summary()

    def message_keys(self) -> frozenset[str]:
        return MESSAGE_KEYS

    def default_entrants(self, humans: list[Entrant], options: Mapping[str, Any]) -> list[Entrant]:
        """D22: solo -> Peloton + 2 Muscle teams; 2 players -> Peloton; 3 or more -> none (or ``bots``)."""
        opts = Options.model_validate(dict(options))
        defaults: dict[int, list[str]] = {1: ["peloton", "muscle", "muscle"], 2: ["peloton"]}
        bots: list[str] = list(opts.bots) if opts.bots is not None else defaults.get(len(humans), [])
        out = list(humans)
        taken = {e.id for e in humans}
        n = {"peloton": 0, "muscle": 0}
        for kind in bots:
            n[kind] += 1
            bid = f"{kind}{n[kind]}" if kind == "muscle" else kind
            while bid in taken:
                bid += "_"
            taken.add(bid)
            out.append(
                Entrant(id=bid, name=f"{kind.capitalize()}" + (f" {n[kind]}" if kind == "muscle" else ""), bot=kind)
            )
        return out

    def stage_board(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> Message:
        return stage_board(race_track(normalise_stage(stage), False, []))

    def stage_data(self, stage: Mapping[str, Any] | str | None) -> dict[str, Any]:
        return stage_data(stage)

    def player_limits(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
        """1 to 6 teams with two riders each (D22), or 1 to 12 riders with one each (D23), fewer where the
        stage's start area is smaller. A bot team takes two riders: the race refuses a mix that does not fit."""
        riders = max_riders(stage)
        if options_of(options).riders_per_player == 1:
            return PlayerLimits(1, riders)
        return PlayerLimits(1, min(MAX_TEAMS, riders // 2))

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
        # Fresh decisions every time: they belong to the caller, who may change them.
        return awaited(state, dict(partial) if partial else None)

    def awaited_ids(self, state: RaceState) -> list[str]:
        return awaited_ids(state)

    def validate(self, state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
        kinds = state.bot_kinds()
        if entrant not in kinds:
            raise _not_entrant(entrant)
        if kinds[entrant]:
            raise _bot_team(entrant)
        return validate(state, entrant, order, previous)

    def resolve(
        self, state: RaceState, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
    ) -> tuple[RaceState, list[Event]]:
        events: list[Event] = []
        return self._resolve(state, orders, events), events

    def advance(
        self,
        state: RaceState,
        orders: Mapping[str, Order],
        meta: Mapping[str, OrderMeta] | None = None,
        events: list[Event] | None = None,
    ) -> RaceState:
        """:meth:`resolve` on ``state`` itself (no copy); without ``events``, the rounds build none (the rare
        setup steps still build theirs, dropped)."""
        return self._resolve(state, orders, events, in_place=True)

    def _resolve(
        self, state: RaceState, orders: Mapping[str, Order], events: list[Event] | None, in_place: bool = False
    ) -> RaceState:
        """The new state after one step (``state`` itself, changed, when ``in_place``); its events appended to
        ``events`` (``None``: a round builds none)."""
        phase = state.phase
        if in_place:
            new = state
        else:
            new = state.copy()
            if phase == ENERGY:
                # Until its first rider moves the copy is the same position: it keeps what the orders' checks
                # and the bots have worked out (each entrant's racing riders, the drawn hands). The round reads
                # the cache only in its energy phase, before anything moves, and it is cleared after it.
                new.cache.update(state.cache)
        if phase == ENERGY:
            # The round only reads the orders (a dict already from both drivers: no copy then). What it leaves
            # in the hands and the cache is dropped by _advance, here or below, before anything reads them.
            play_round(new, orders if type(orders) is dict else dict(orders), events)
            _bot_teams_ride_on(new, events)
        else:
            said: list[Event] = []
            if phase == PLACE:
                said = self._place(new, orders)
            elif phase == BID:
                rng = Rng(new.rng)
                said = resolve_bids(new, dict(orders), rng)
                new.rng = rng.state
                new.hands = {}
                if new.bid_round == 2 and len(new.bids) and all(len(v) == 3 for v in new.bids.values()):
                    said.extend(start_grid(new))
            elif phase == CHOOSE:
                said = self._choose(new, orders)
            if events is not None:
                events.extend(said)
        _advance(new)
        return new

    def play_bots(self, state: RaceState, bots: Mapping[str, str]) -> RaceState:
        """A quiet rollout step in place: a round's cards are chosen by each bot's strategy and played at
        once (``round.play_bot_round``), without asking who is awaited nor writing the orders ``auto_order``
        would write and the energy phase would read back; the rare set-up steps go through the orders."""
        if state.phase != ENERGY:
            return super().play_bots(state, bots)
        play_bot_round(state, bots)
        _bot_teams_ride_on(state, None)
        _advance(state)
        return state

    def _place(self, state: RaceState, orders: Mapping[str, Order]) -> list[Event]:
        entrant = state.turn_order[state.cursor]
        order = orders[entrant]["place"]
        rider = next(r for r in state.riders_of(entrant) if r.kind == order["rider"] and r.square == 0)
        place(state, rider, square_of(state, int(order["square"])))
        return [placed_event(rider.id, rider.square, rider.lane), *next_placer(state)]

    def _choose(self, state: RaceState, orders: Mapping[str, Order]) -> list[Event]:
        entrant = state.turn_order[state.cursor]
        rid = orders[entrant]["rider"]
        state.rider(rid).owner = entrant
        state.teams = {}
        events = [event("fr.rider_chosen", "{entrant} takes the {rider}.", entrant=entrant, rider=rid)]
        state.cursor += 1
        if state.cursor >= len(state.turn_order):
            events.extend(after_choice(state))
        return events

    def auto_order(
        self, state: RaceState, entrant: str, partial: Order | None = None, strategy: str | None = None
    ) -> Order:
        if strategy in BOT_TEAMS:
            return {}
        if not partial:
            if state.phase == ENERGY:  # the bots' every round: straight to the energy order
                return energy_order(state, entrant, {}, strategy)
            return auto_order(state, entrant, None, strategy)
        return auto_order(state, entrant, validate(state, entrant, partial, None).order, strategy)

    def public_view(self, state: RaceState) -> dict[str, Any]:
        return public_view(state)

    def private_view(self, state: RaceState, entrant: str) -> dict[str, Any]:
        return private_view(state, entrant)

    def result(self, state: RaceState) -> Result:
        return result(state)

    def finished(self, state: RaceState) -> bool:
        return state.phase == DONE

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"format": STATE_FORMAT, **state.to_json()}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        check_state_format(data, STATE_FORMAT)
        body = {k: v for k, v in data.items() if k != "format"}
        return RaceState.from_json(body, race_track(dict(data["stage"]), bool(data["large"]), list(data["weather"])))


def _bot_teams_ride_on(state: RaceState, events: list[Event] | None) -> None:
    """R-FR-6: once every player has crossed, the bot teams' rounds need nobody: they are played at once."""
    while state.phase != DONE and not any(r.crossed == 0 and not r.bot for r in state.riders):
        _advance(state)
        play_round(state, {}, events)


def _advance(state: RaceState) -> None:
    """A new stream of chance for the next step (the hands of a step derive from the state's generator)."""
    state.rng = Rng.after_draw(state.rng)
    state.hands = {}  # a new dict: the state this one was copied from keeps its (still valid) cache
    state.cache.clear()


def _not_entrant(entrant: str) -> Exception:
    from engine.messages import OrderError

    return OrderError.of("fr.not_entrant", "{entrant} is not in this race.", entrant=entrant)


def _bot_team(entrant: str) -> Exception:
    from engine.messages import OrderError

    return OrderError.of(
        "fr.bot_team", "{entrant} is a bot team: its cards are turned up from its deck.", entrant=entrant
    )


__all__ = ["FlammeRougeRuleset"]
