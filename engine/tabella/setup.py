"""Applying a record's ``setup``: riders placed with explicit values, the round to start at."""

from __future__ import annotations

from engine.tabella.models import Setup
from engine.tabella.state import ROUNDS, RaceState, StolenBottle
from engine.tabella.table import ROW_NAMES


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
