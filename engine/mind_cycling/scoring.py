"""Team points, medals and the player standings (§7, D21), and the solo score (§8, D25)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.messages import msg, plural
from engine.mind_cycling.rounds import movement_order
from engine.mind_cycling.state import Cyclist, RaceState
from engine.mind_cycling.texts import medal_name
from engine.ruleset import Column, Result, Standing, column

TEAM_POINTS = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
"""§3.5: places 1-12; D21: 13th and later score 0."""

MEDALS = ("best_cyclist", "best_sprinter", "best_climber", "best_team")
"""§7: the medals by code, in the order the standings list them (``medal_names``); the column says their names."""


def points_for(place: int | None) -> int:
    if place is None or not 1 <= place <= len(TEAM_POINTS):
        return 0
    return TEAM_POINTS[place - 1]


Teams = dict[str, list[Cyclist]]
"""Each entrant's cyclists, in the state's order (``state.team`` for every entrant, read once)."""


def teams_of(state: RaceState) -> Teams:
    """Every entrant's team, in one pass over the cyclists (``state.team`` scans them all each time)."""
    teams: Teams = {e: [] for e in state.entrants}
    for c in state.cyclists.values():
        if c.entrant in teams:
            teams[c.entrant].append(c)
    return teams


def team_points(state: RaceState, places: dict[str, int], teams: Teams | None = None) -> dict[str, int]:
    teams = teams or teams_of(state)
    return {e: sum(points_for(places.get(c.key)) for c in teams[e]) for e in state.entrants}


def best_place(state: RaceState, entrant: str, places: dict[str, int], teams: Teams | None = None) -> int:
    team = teams[entrant] if teams else state.team(entrant)
    found = [places[c.key] for c in team if c.key in places]
    return min(found) if found else 10**6


def medals(
    state: RaceState,
    places: dict[str, int],
    teams: Teams | None = None,
    points: dict[str, int] | None = None,
    best: dict[str, int] | None = None,
) -> dict[str, str | None]:
    """§7: medals belong to players (D21). Best Team tie -> the better best-placed cyclist. ``points`` and
    ``best`` (each entrant's team points and best place) may be given when the caller has them already
    (:func:`ranking`, at every step of a stage analysis)."""
    teams = teams or teams_of(state)
    owner = {c.key: c.entrant for c in state.cyclists.values()}
    crossed = state.finish_order
    winner = crossed[0] if crossed else None  # D22: after a round limit, place 1 on the road
    if points is None:
        points = team_points(state, places, teams)
    if places and best is None:
        best = {e: best_place(state, e, places, teams) for e in state.entrants}
    best_team = min(state.entrants, key=lambda e: (-points[e], best[e])) if best is not None and places else None
    sprint = state.section_winners.get("sprint")
    mountain = state.section_winners.get("mountain")
    return {
        "best_cyclist": owner[winner] if winner else None,
        "best_sprinter": owner[sprint] if sprint else None,
        "best_climber": owner[mountain] if mountain else None,
        "best_team": best_team,
    }


def provisional_places(state: RaceState) -> dict[str, int]:
    """Places so far: the finishers, then (while racing) the cyclists on the road in movement order."""
    places = {k: i for i, k in enumerate(state.finish_order, start=1)}
    if state.phase != "done":
        for key in movement_order(state):
            places[key] = len(places) + 1
    return places


@dataclass(frozen=True)
class Ranking:
    """What the standings are made of: the entrants in ranking order with their sort keys, and the figures."""

    ranked: list[str]
    keys: dict[str, tuple[int, int, int, int]]
    places: dict[str, int]
    points: dict[str, int]
    won: dict[str, str | None]
    count: dict[str, int]
    teams: Teams


def ranking(state: RaceState) -> Ranking:
    """D21: medals, then the Best Team holder, then team points, then the best-placed cyclist."""
    teams = teams_of(state)
    places = provisional_places(state)
    points = team_points(state, places, teams)
    best = {e: best_place(state, e, places, teams) for e in state.entrants}  # once, for the medals and the keys
    won = medals(state, places, teams, points, best)
    count = {e: sum(1 for m in MEDALS if won[m] == e) for e in state.entrants}
    keys = {e: (-count[e], 0 if won["best_team"] == e else 1, -points[e], best[e]) for e in state.entrants}
    return Ranking(sorted(state.entrants, key=keys.__getitem__), keys, places, points, won, count, teams)


def leader(state: RaceState) -> str | None:
    """Who :func:`race_result` puts first (the solo game's one entrant; else the first of the ranking)."""
    if state.solo:
        return state.entrants[0]
    return ranking(state).ranked[0] if state.entrants else None


def race_result(state: RaceState) -> Result:
    if state.solo:
        return solo_result(state)
    finished = state.phase == "done"
    found = ranking(state)
    ranked, key, places, points, won, count = (
        found.ranked,
        found.keys,
        found.places,
        found.points,
        found.won,
        found.count,
    )
    standings: list[Standing] = []
    for i, e in enumerate(ranked):
        place = i + 1
        if i and key[ranked[i - 1]] == key[e]:
            place = standings[-1].place  # still tied -> shared place
        team = found.teams[e]
        figures: dict[str, Any] = {
            "medals": count[e],
            "medal_names": [m for m in MEDALS if won[m] == e],
            "team_points": points[e],
            "best_place": next(iter(sorted(places[c.key] for c in team if c.key in places)), None),
            "places": {c.key: places.get(c.key) for c in team},
        }
        standings.append(Standing(entrant=e, riders=[c.key for c in team], place=place, figures=figures))
    notes = (
        [msg("mc.round_limit_note", "The race was stopped by the round limit.")] if state.round_limit_reached else []
    )
    return Result(finished=finished, provisional=not finished, standings=standings, notes=notes, columns=columns())


def solo_line(rounds: int, remaining: int) -> str:
    """The solo result line of the rules (§8), in English: the rounds, and the spaces the fifth cyclist
    still needs to cross the line (bookkeeping: players read the ``mc.solo_line`` note)."""
    round_word = "round" if rounds == 1 else "rounds"
    space_word = "space" if remaining == 1 else "spaces"
    return f"{rounds} {round_word} and {remaining} {space_word} left for the fifth cyclist to cross the finish line"


def solo_key(rounds: int, remaining: int) -> tuple[int, int]:
    """§8: fewer rounds wins; tie -> fewer spaces left for the fifth cyclist."""
    return (rounds, remaining)


def solo_result(state: RaceState) -> Result:
    entrant = state.entrants[0]
    riders = [c.key for c in state.team(entrant)]
    score = state.solo_score
    crossed = sum(1 for c in state.cyclists.values() if c.crossed)
    if score is None:
        figures: dict[str, Any] = {"rounds": None, "remaining": None, "crossed": crossed, "scored": False}
        notes = (
            [msg("mc.solo_unfinished", "Stopped by the round limit before four cyclists crossed: no score.")]
            if state.phase == "done"
            else []
        )
        return Result(
            finished=state.phase == "done",
            provisional=state.phase != "done",
            standings=[Standing(entrant=entrant, riders=riders, place=1, figures=figures)],
            notes=notes,
            columns=solo_columns(),
        )
    line = solo_line(score["rounds"], score["remaining"])
    figures = {
        "rounds": score["rounds"],
        "remaining": score["remaining"],
        "crossed": crossed,
        "scored": True,
        "line": line,
    }
    return Result(
        finished=True,
        standings=[Standing(entrant=entrant, riders=riders, place=1, figures=figures)],
        notes=[
            plural(
                "mc.solo_line",
                score["rounds"],
                "{count} round; spaces left for the fifth cyclist to cross the finish line: {remaining}",
                "{count} rounds; spaces left for the fifth cyclist to cross the finish line: {remaining}",
                remaining=score["remaining"],
            )
        ],
        columns=solo_columns(),
    )


def columns() -> list[Column]:
    """The figures of a race's :func:`result`, as a table shows them.
    New objects each call: a result belongs to its caller."""
    return [
        column("medals", "mc.column.medals", "Medals", "count"),
        medal_column(),
        column("team_points", "mc.column.team_points", "Team points", "points"),
        column("best_place", "mc.column.best_place", "Best place", "place"),
        column("places", "mc.column.places", "Cyclist places", "place", "per_rider"),
    ]


def solo_columns() -> list[Column]:
    """The figures of a solo race's result (§8): rounds, then the fifth cyclist's distance.
    New objects each call: a result belongs to its caller."""
    return [
        column("rounds", "mc.column.rounds", "Rounds", "count"),
        column("remaining", "mc.column.remaining", "Spaces left for the fifth cyclist", "square"),
        column("crossed", "mc.column.crossed", "Cyclists across the line", "count"),
    ]


def medal_column() -> Column:
    """The medals each player won: codes in the figures (the league and the database keep them), their
    names in the column's ``words``, so a front end says them in the reader's language."""
    medals = column("medal_names", "mc.column.medal_names", "Medals won", "medals", "list")
    medals.words = {code: medal_name(code) for code in MEDALS}
    return medals
