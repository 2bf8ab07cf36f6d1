"""The final ranking, shared places and points (rules §7, D29-D31) and the Gazzetta (§6.10, D21)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.messages import Message, cached_msg, msg
from engine.ruleset import Column, Result, Standing, column
from engine.tabella.priority import time_key
from engine.tabella.state import RaceState, Rider


def columns() -> list[Column]:
    """The figures of the result (§7: Velocità ranks, then Resistenza), as a table shows them.
    New objects each call: a result belongs to its caller."""
    status = column("status", "td.column.status", "Status", "status", "text")
    status.words = {
        "finished": cached_msg("td.status.finished", "finished"),
        "racing": cached_msg("td.status.racing", "racing"),
        "exhausted": cached_msg("td.status.exhausted", "exhausted"),
        "did_not_start": cached_msg("td.status.did_not_start", "did not start"),
        "waiting": cached_msg("td.status.waiting", "waiting to start"),
        "void": cached_msg("td.status.void", "void race"),
    }
    gazzetta = column("gazzetta", "td.column.gazzetta", "Gazzetta", "status", "text")
    gazzetta.words = {"caught": cached_msg("td.status.caught", "caught doping, ranked last")}
    return [
        column("points", "td.column.points", "Points", "points"),
        column("V", "td.column.velocita", "Velocità", "rating"),
        column("R", "td.column.resistenza", "Resistenza", "rating"),
        status,
        column("progress", "td.column.progress", "Rounds completed", "count"),
        gazzetta,
    ]


POINTS = (10, 8, 5, 3, 2)
"""§7: 1st-5th; 6th and below score 1."""


def points_for(place: int) -> int:
    return POINTS[place - 1] if place <= len(POINTS) else 1


@dataclass(frozen=True)
class Placed:
    rider: Rider
    place: int
    caught: bool
    """Ranked last by the Gazzetta."""


def ranking_key(rider: Rider, caught: bool) -> tuple[int, int, int, int, float]:
    """D29: caught riders last; finishers before exhausted; then V, R or progress, V at stopping, time."""
    time = time_key(rider.order_time)
    if rider.status == "exhausted":
        return (int(caught), 1, -(rider.progress or 0), -(rider.v_at_stop or 0), time)
    return (int(caught), 0, -rider.v, -rider.r, time)


def rank(riders: Sequence[Rider], gazzetta_hit: bool) -> list[Placed]:
    """Classified riders (started ones) in order, with shared places (D30: 1, 2, 2, 4)."""
    keyed = sorted(
        ((ranking_key(r, gazzetta_hit and r.doped), r) for r in riders if r.status in ("racing", "exhausted")),
        key=lambda pair: pair[0],
    )
    placed: list[Placed] = []
    for i, (key, rider) in enumerate(keyed):
        place = placed[-1].place if placed and keyed[i - 1][0] == key else i + 1
        placed.append(Placed(rider=rider, place=place, caught=bool(key[0])))
    return placed


def gazzetta_applies(state: RaceState) -> bool:
    """The doping block counts only once the front page is out (until then results are provisional)."""
    return bool(state.gazzetta_published and state.gazzetta_hit)


def championship(results: Sequence[Mapping[str, int]]) -> list[tuple[str, int, int]]:
    """D31: several races' places (entrant -> place) -> (entrant, points, shared place).

    Points are summed; a tie goes to more wins, then more second places, and so on; riders still
    equal share the place.
    """
    totals: dict[str, int] = {}
    counts: dict[str, dict[int, int]] = {}
    for race in results:
        for entrant, place in race.items():
            totals[entrant] = totals.get(entrant, 0) + points_for(place)
            counts.setdefault(entrant, {})[place] = counts.setdefault(entrant, {}).get(place, 0) + 1
    deepest = max((p for c in counts.values() for p in c), default=1)

    def key(entrant: str) -> tuple[int, ...]:
        return (-totals[entrant], *(-counts[entrant].get(p, 0) for p in range(1, deepest + 1)))

    order = sorted(totals, key=key)
    table: list[tuple[str, int, int]] = []
    for i, entrant in enumerate(order):
        place = table[-1][2] if table and key(order[i - 1]) == key(entrant) else i + 1
        table.append((entrant, totals[entrant], place))
    return table


def result(state: RaceState) -> Result:
    """The standings (§7), non-starters after the classified riders (R-TDD-1), provisional until the Gazzetta."""
    finished = state.over
    if state.void:
        return Result(
            finished=True,
            standings=[
                Standing(entrant=r.id, riders=[r.id], place=1, figures={"status": "void", "points": 0})
                for r in state.riders
            ],
            notes=[msg("td.note.void", "The race is void: fewer than 2 riders started.")],
            columns=columns(),
        )
    placed = rank(state.riders, gazzetta_applies(state))
    standings = []
    for p in placed:
        r = p.rider
        status = "exhausted" if r.status == "exhausted" else ("finished" if finished else "racing")
        figures: dict[str, Any] = {
            "points": points_for(p.place) if finished else 0,
            "V": r.v_at_stop if r.status == "exhausted" else r.v,
            "R": r.r,
            "status": status,
        }
        if r.status == "exhausted":
            figures["progress"] = r.progress
        if p.caught:
            figures["gazzetta"] = "caught"
        standings.append(Standing(entrant=r.id, riders=[r.id], place=p.place, figures=figures))
    after = len(placed) + 1
    for r in state.riders:
        if r.status in ("dns", "waiting"):
            # R-TDD-1: non-starters are listed after the classified riders, with no points.
            label = "did_not_start" if r.status == "dns" else "waiting"
            standings.append(Standing(entrant=r.id, riders=[r.id], place=after, figures={"status": label, "points": 0}))
    notes: list[Message] = []
    provisional = finished and not state.gazzetta_published
    if provisional:
        notes.append(
            msg(
                "td.note.provisional",
                "Provisional until the Gazzetta dello Sport's front page is published.",
            )
        )
    return Result(finished=finished, provisional=provisional, standings=standings, notes=notes, columns=columns())
