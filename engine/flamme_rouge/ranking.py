"""End of race and ranking (§8, D5, D25)."""

from __future__ import annotations

from engine.flamme_rouge.state import DONE, RaceState, Rider
from engine.ruleset import Column, Result, Standing, column


def rider_order(state: RaceState) -> list[Rider]:
    """Riders best first.

    ``finish="all"`` (D5): riders that crossed, by round of crossing, then distance past the line, then
    lane (right first); then the riders still racing by road position. ``finish="first"``: by road
    position, square (virtual squares included) then lane.
    """
    if state.options["finish"] == "all":
        crossed = sorted((r for r in state.riders if r.crossed), key=lambda r: (r.crossed, -r.past, r.lane))
        racing = sorted((r for r in state.riders if not r.crossed), key=lambda r: (-r.square, r.lane))
        return crossed + racing
    return sorted(state.riders, key=lambda r: (-r.square, r.lane))


def result(state: RaceState) -> Result:
    """Standings per entrant: D25, a team's place is that of its best-placed rider."""
    order = rider_order(state)
    place_of = {r.id: n for n, r in enumerate(order, start=1)}
    entrants = [e["id"] for e in state.entrants]
    best: dict[str, int] = {}
    for e in entrants:
        places = [place_of[r.id] for r in state.riders if r.owner == e]
        best[e] = min(places) if places else len(order) + 1
    ranked = sorted(entrants, key=lambda e: best[e])
    standings = []
    for n, e in enumerate(ranked, start=1):
        mine = [r for r in order if r.owner == e]
        standings.append(
            Standing(
                entrant=e,
                riders=[r.id for r in mine],
                place=n,
                figures={
                    "rider_places": {r.id: place_of[r.id] for r in mine},
                    "squares": {r.id: r.square for r in mine},
                    "crossed_round": {r.id: r.crossed for r in mine},
                    "past_line": {r.id: r.past for r in mine},
                    "exhaustion": {r.id: r.exhaustion for r in mine},
                },
            )
        )
    finished = state.phase == DONE
    return Result(finished=finished, provisional=not finished, standings=standings, columns=columns())


def columns() -> list[Column]:
    """The figures of :func:`result`, as a table shows them.
    New objects each call: a result belongs to its caller."""
    return [
        column("rider_places", "fr.column.rider_places", "Rider places", "place", "per_rider"),
        column("squares", "fr.column.squares", "Square", "square", "per_rider"),
        column("crossed_round", "fr.column.crossed_round", "Crossed in round", "round", "per_rider"),
        column("past_line", "fr.column.past_line", "Squares past the line", "square", "per_rider"),
        column("exhaustion", "fr.column.exhaustion", "Exhaustion cards", "count", "per_rider"),
    ]
