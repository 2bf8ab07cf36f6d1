"""The start of a race: the stage and options read (D1-D3), the seats and first leader (D4), a record's
set-up checked and applied, the first deal (D5) and the first turn."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.rng import Rng
from engine.ruleset import Entrant, Event, PlayerLimits
from engine.validation import checked
from engine.wyscig.classification import WINNER_TIME
from engine.wyscig.deck import Card, deck_presets, is_speed, stacked_deal
from engine.wyscig.models import Options, Setup, Stage
from engine.wyscig.stage import advance, deal
from engine.wyscig.state import Player, RaceState


def new_race(
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any],
    entrants: list[Entrant],
    seed: int,
    setup: Mapping[str, Any] | None,
) -> tuple[RaceState, list[Event]]:
    """The first deal, its opening-hand climbs and the first turn (a climb the leader draws at turn 1)
    are the opening events."""
    model = read_stage(stage)
    plan = checked(Setup, setup or {}, "setup")
    preset = deck_presets()[model.deck]
    ids = [e.id for e in entrants]
    rng = Rng.from_seed(seed, "wyscig")
    seats = _seats(plan, ids, rng)
    leader = plan.leader if plan.leader is not None else rng.choice(seats)  # D4: first leader by lot
    if leader not in ids:
        raise ValueError(f"setup.leader {leader!r} is not an entrant")
    number = plan.stage_number or 1
    if number > model.stages:
        raise ValueError(f"setup.stage_number {number} is past the last stage ({model.stages})")
    players = {e.id: Player(id=e.id, name=e.name) for e in entrants}
    _earlier_times(plan, players, number)
    state = RaceState(deck=model.deck, stages=model.stages, seats=seats, players=players, rng=0)
    state.stage_number = number
    state.leader = leader
    pile, hands = _first_deal(plan, preset.cards(), ids, rng)
    state.stacked = _later_deals(plan, preset.cards(), ids, number, model.stages)
    state.rng = rng.state
    events: list[Event] = []
    deal(state, pile, events, hands)
    for e, minutes in (plan.minutes or {}).items():
        if e not in players:
            raise ValueError(f"setup.minutes names {e!r}, who is not an entrant")
        if minutes < 0:
            raise ValueError(f"setup.minutes.{e} must be 0 or more")
        if minutes and e == leader:
            raise ValueError("setup.minutes: the leader never holds penalty minutes (D11)")
        players[e].minutes = minutes
    _check_first_card(state)
    advance(state, leader, events)
    return state, events


def player_limits(stage: Mapping[str, Any] | str | None, options: Mapping[str, Any]) -> PlayerLimits:
    """2 to the option ``max_players`` (6 by default, D3); 7 or 8 only with the itemised_108 deck (a
    smaller deck with ``max_players`` above its own limit is refused as bad options)."""
    model = read_stage(stage)
    opts = checked(Options, options, "options")
    preset = deck_presets()[model.deck]
    if opts.max_players > preset.max_players:
        raise ValueError(
            f"max_players {opts.max_players} needs the itemised_108 deck: the {model.deck} deck "
            f"allows at most {preset.max_players} players (D3)"
        )
    return PlayerLimits(2, opts.max_players)


def read_stage(stage: Mapping[str, Any] | str | None) -> Stage:
    """The stage object; a bare string is a deck preset of D1 with the default number of stages (D2)."""
    if stage is None:
        return Stage()
    if isinstance(stage, str):
        name = preset_name(stage)
        if name is None:
            raise ValueError(f"unknown Wyścig stage {stage!r}; choose one of: {', '.join(deck_presets())}")
        return Stage.model_validate({"deck": name})
    return checked(Stage, stage, "stage")


_LABEL_SUFFIX = re.compile(r"\s*(\[[^\[\]]*\]|\([^()]*\))\s*$")
"""A status label written after a name, as a listing shows it: ``itemised_108 [default]``."""


def preset_name(text: str) -> str | None:
    """The deck preset ``text`` names (case forgiven), also as a listing shows it: followed by its label in
    brackets (``itemised_108 [default]``, in any language)."""
    for wanted in (text.strip().casefold(), _LABEL_SUFFIX.sub("", text).strip().casefold()):
        for name in deck_presets():
            if name.casefold() == wanted:
                return name
    return None


def _seats(plan: Setup, ids: list[str], rng: Rng) -> list[str]:
    """D4: the seat order is drawn from the seed, unless the setup gives it."""
    if plan.seats is None:
        seats = list(ids)
        rng.shuffle(seats)
        return seats
    if sorted(plan.seats) != sorted(ids):
        raise ValueError("setup.seats must list every entrant exactly once")
    return list(plan.seats)


def _earlier_times(plan: Setup, players: dict[str, Player], number: int) -> None:
    times = plan.earlier_times or {}
    if number == 1 and not times:
        return
    if sorted(times) != sorted(players):
        raise ValueError("setup.earlier_times must give every entrant's times of the stages before stage_number")
    for e, row in times.items():
        if len(row) != number - 1:
            raise ValueError(f"setup.earlier_times.{e} must hold {number - 1} stage time(s)")
        if any(t != WINNER_TIME and t < 60 for t in row):
            raise ValueError(f"setup.earlier_times.{e}: a stage time is 57 (the winner), 60 or more")
    for stage in range(number - 1):
        winners = [e for e in times if times[e][stage] == WINNER_TIME]
        if len(winners) != 1:
            raise ValueError(f"setup.earlier_times: stage {stage + 1} must have exactly one winner on 57")
    for e, row in times.items():
        players[e].times = list(row)
        players[e].penalties = [0 if t == WINNER_TIME else t - 60 for t in row]


def _first_deal(plan: Setup, deck: list[Card], ids: list[str], rng: Rng) -> tuple[list[Card], dict[str, list[Card]]]:
    """The first stage's pile and explicit hands: stacked by the setup, or shuffled from the seed."""
    hands: dict[str, list[Card]] = {e: list(h) for e, h in (plan.hands or {}).items()}
    for e in hands:
        if e not in ids:
            raise ValueError(f"setup.hands names {e!r}, who is not an entrant")
    if plan.pile is None and not hands:
        rng.shuffle(deck)
        return deck, hands
    pile: list[Card] | None = None if plan.pile is None else list(plan.pile)
    return stacked_deal(deck, hands, pile, rng), hands


def _later_deals(plan: Setup, deck: list[Card], ids: list[str], first: int, last: int) -> dict[str, dict[str, Any]]:
    """The setup's stacked deals of later stages, checked now (entrants, stage numbers, cards against the
    deck), for the state to deal when each stage starts."""
    stacked: dict[str, dict[str, Any]] = {}
    for number, given in sorted((plan.stage_deals or {}).items()):
        where = f"setup.stage_deals.{number}"
        if not first < number <= last:
            raise ValueError(f"{where}: the stages after the first one played are {first + 1} to {last}")
        hands: dict[str, list[Card]] = {e: list(h) for e, h in (given.hands or {}).items()}
        for e in hands:
            if e not in ids:
                raise ValueError(f"{where}.hands names {e!r}, who is not an entrant")
        pile: list[Card] | None = None if given.pile is None else list(given.pile)
        stacked_deal(deck, hands, pile, Rng.from_seed(0, "check"), where)  # only to check the cards
        stacked[str(number)] = {"hands": hands, "pile": pile}
    return stacked


def _check_first_card(state: RaceState) -> None:
    """§4 and D11: the stage starts with the leader's card, so a setup must let him play one.

    Were he skipped, the first card would meet no L and make its rider leader, minutes and all.
    """
    leader = state.player(state.leader)
    if not leader.speeds and not any(is_speed(card) for card in state.pile):
        raise ValueError(
            f"setup: the leader {state.leader!r} must play the stage's first card, but neither his hand "
            "nor the pile holds a speed card"
        )
