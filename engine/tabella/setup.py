"""How a race begins: its table and rows drawn (D3-D5), and a record's ``setup`` applied (riders placed with
explicit values, the round to start at)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rng import Rng
from engine.ruleset import Entrant, Event
from engine.tabella.models import Options, Setup
from engine.tabella.presets import stage_of
from engine.tabella.state import ROUNDS, RaceState, Rider, StolenBottle
from engine.tabella.table import ROW_NAMES, check_table, classic_table, random_table


def apply_setup(state: RaceState, setup: Setup) -> None:
    """Place the riders and set their values; what setup leaves out stays as at a normal start."""
    ids = {r.id for r in state.riders}
    strangers = sorted(set(setup.riders) - ids)
    if strangers:
        raise ValueError(f"setup.riders names {', '.join(strangers)}, who is not an entrant")
    state.round = setup.round
    for rider in state.riders:
        given = setup.riders.get(rider.id)
        if given is None:
            if setup.round > 0:
                raise ValueError(
                    f"setup.riders.{rider.id}: every rider needs a position when the race starts at "
                    f"{ROUNDS[setup.round]}"
                )
            continue
        if given.r is not None:
            rider.r = given.r
        if given.v is not None:
            rider.v = given.v
        rider.start = given.start
        if given.row is not None:
            rider.row = ROW_NAMES.index(given.row)
        elif 1 <= setup.round <= 5:
            raise ValueError(f"setup.riders.{rider.id}.row: say in which row (A, B or C) the rider is")
        if setup.round > 0:
            rider.status = given.status
            rider.pair = min(setup.round - 1, 5)
            if given.status == "exhausted":
                rider.progress = given.progress if given.progress is not None else setup.round - 1
                rider.v_at_stop = rider.v
        rider.own_bottle = given.bottle
        if given.bibitone is not None:
            rider.reinforced = given.bibitone
        if given.stolen is not None:
            if given.stolen.owner not in ids:
                raise ValueError(f"setup.riders.{rider.id}.stolen.owner: {given.stolen.owner} is not an entrant")
            rider.stolen = StolenBottle(given.stolen.owner, given.stolen.reinforced, given.stolen.status)
        rider.used = list(given.used)
        rider.doped = given.doped
        rider.free_effort = given.free_effort
        rider.order_time = given.order_time


def new_race(
    stage: Mapping[str, Any] | str | None,
    options: Mapping[str, Any],
    entrants: list[Entrant],
    seed: int,
    setup: Mapping[str, Any] | None,
) -> tuple[RaceState, list[Event]]:
    """A new race on ``stage``: the table and first row drawn from the seed when they are random (D5)."""
    opts = Options.model_validate(dict(options or {}))
    chosen = stage_of(stage)
    plan = Setup.model_validate(dict(setup or {}))
    rng = Rng.from_seed(seed, "tabella")
    if isinstance(chosen.table, list):
        table, source = [list(r) for r in check_table(chosen.table)], "explicit"
    elif chosen.table == "random":
        table, source = random_table(rng), "random"  # D3, D5
    else:
        table, source = classic_table(), "classic"
    if chosen.rows == "random":
        first = rng.randint(1, 8)  # D4, D5
    elif isinstance(chosen.rows, int) and 1 <= chosen.rows <= 8:
        first = chosen.rows
    else:
        raise ValueError(f"stage.rows must be 1 to 8 or 'random', not {chosen.rows!r}")
    riders = [Rider(id=e.id, name=e.name) for e in entrants]
    state = RaceState(
        seed=seed,
        options=opts.model_dump(),
        table=table,
        table_source=source,
        first_row=first,
        riders=riders,
        bots={e.id: e.bot for e in entrants},
        rng=rng.state,
        gazzetta_forced=plan.gazzetta_hit,
    )
    apply_setup(state, plan)
    return state, []
