"""The start of a Mind Cycling race: the teams (D2, D25), the placement order (D9) and a record's set-up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mind_cycling import resolution
from engine.mind_cycling.course import build_course
from engine.mind_cycling.models import Options, Setup, stage_from
from engine.mind_cycling.rounds import begin_round
from engine.mind_cycling.state import Cyclist, RaceState, cyclist_key, role_of
from engine.rng import Rng
from engine.ruleset import Entrant, Event

SOLO_TEAM = 5
"""D25: the solo team always has five cyclists."""


def open_race(
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any],
    entrants: list[Entrant],
    seed: int,
    setup: Mapping[str, Any] | None,
) -> tuple[RaceState, list[Event]]:
    """When the set-up places every cyclist, the first round starts at once: its start line (order,
    wind, fatigue, trains) is the opening event."""
    opts = Options.model_validate(dict(options))
    stage_model = stage_from(dict(stage) if isinstance(stage, Mapping) else stage)
    setup_model = Setup.model_validate(dict(setup or {}))
    course = build_course(stage_model, opts.lanes, opts.medal_section, seed)
    solo = len(entrants) == 1 and opts.solo
    size = SOLO_TEAM if solo else opts.team_size  # D25
    ids = [e.id for e in entrants]
    if opts.placement_order == "random":
        order = list(ids)
        Rng.from_seed(seed, "placement").shuffle(order)  # D9
    else:
        order = list(opts.placement_order)
        if sorted(order) != sorted(ids):
            raise ValueError("placement_order must list every entrant exactly once: " + ", ".join(ids))
    cyclists = {
        cyclist_key(e, n): Cyclist(key=cyclist_key(e, n), entrant=e, number=n, role=role_of(n))
        for e in ids
        for n in range(1, size + 1)
    }
    state = RaceState(
        course=course,
        options=opts.model_dump(mode="json"),
        entrants=ids,
        names={e.id: e.name for e in entrants},
        solo=solo,
        team_size=size,
        cyclists=cyclists,
        phase="place",
        placement_order=order,
        round=setup_model.round,
        section_winners={"sprint": None, "mountain": None},
    )
    apply_setup(state, setup_model)
    events: list[Event] = []
    if resolution.placer(state) is None:
        begin_round(state, events)
    return state, events


def apply_setup(state: RaceState, setup: Setup) -> None:
    """A record's exact starting situation (R-MC-8, R-MC-10): cyclists placed, across the line or left out,
    and section medals already won; ``ValueError`` naming the part of the setup that is wrong."""
    for i, s in enumerate(setup.cyclists):
        where = f"setup.cyclists.{i}"
        key = cyclist_key(s.entrant, s.number)
        if key not in state.cyclists:
            raise ValueError(f"{where}: there is no cyclist #{s.number} in {s.entrant!r}'s team")
        c = state.cyclists[key]
        if c.placed:
            raise ValueError(f"{where}: {key} is set up twice")
        if s.place is not None:
            if s.row is not None or s.lane is not None:
                raise ValueError(f"{where}: a cyclist already across (place) has no row or lane")
            c.placed, c.crossed, c.place, c.bottle = True, True, s.place, s.base == "blue"
            continue
        if s.row is None or s.lane is None:
            raise ValueError(f"{where}: row and lane are needed (or place, for a cyclist already across)")
        if s.row > state.course.last_row or s.lane > state.course.lanes:
            raise ValueError(f"{where}: row {s.row}, lane {s.lane} is not on the course")
        if (s.row, s.lane) in state.course.rocks or state.at(s.row, s.lane) is not None:
            raise ValueError(f"{where}: row {s.row}, lane {s.lane} is not free")
        c.row, c.lane, c.placed, c.bottle = s.row, s.lane, True, s.base == "blue"
    if setup.only_listed:
        state.cyclists = {k: c for k, c in state.cyclists.items() if c.placed}
        missing = [e for e in state.entrants if not state.team(e)]
        if missing:
            raise ValueError(f"setup.only_listed: {', '.join(missing)} would have no cyclist; list at least one")
    across = sorted((c for c in state.cyclists.values() if c.crossed), key=lambda c: c.place or 0)
    if [c.place for c in across] != list(range(1, len(across) + 1)):
        raise ValueError(f"setup.cyclists: the places of the cyclists already across must be 1 to {len(across)}")
    state.finish_order = [c.key for c in across]
    for kind, key in (setup.medals or {}).items():
        if key not in state.cyclists:
            raise ValueError(f"setup.medals.{kind}: no cyclist {key!r} in this race")
        state.section_winners[kind] = key
