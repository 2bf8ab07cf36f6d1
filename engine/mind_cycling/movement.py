"""Movement on the grid (§5): steps, blocking, rocks, lane-seeking and the maximum of a move."""

from __future__ import annotations

from engine.messages import Message
from engine.mind_cycling.course import CAPS, OWN_SECTION
from engine.mind_cycling.state import Cyclist, RaceState
from engine.mind_cycling.texts import path_problem

STEPS: dict[str, int] = {"F": 0, "FL": -1, "FR": 1}
"""D4: a step is forward, or diagonally forward-left / forward-right; each costs 1."""

ATTACK_BONUS = 3

Occupied = dict[tuple[int, int], Cyclist]
"""The cyclists on the road by space (:meth:`RaceState.where`)."""


def can_enter(state: RaceState, row: int, lane: int, occupied: Occupied | None = None) -> bool:
    """D4: a step may not leave the road, enter a rock or a space held by a cyclist on the road.

    A step beyond the last row crosses the finish line and is always possible if its lane exists.
    ``occupied`` (:meth:`RaceState.where`, taken while nobody else moves) saves scanning the cyclists.
    """
    if not 1 <= lane <= state.course.lanes:
        return False
    if row > state.course.last_row:
        return True
    if (row, lane) in state.course.rocks:
        return False
    return (row, lane) not in occupied if occupied is not None else state.at(row, lane) is None


def step_target(row: int, lane: int, step: str) -> tuple[int, int]:
    return row + 1, lane + STEPS[step]


def seek_step(state: RaceState, row: int, lane: int, target: int, occupied: Occupied | None = None) -> str | None:
    """D23 lane-seeking: the first possible step towards lane ``target`` (None: the move ends)."""
    if lane == target:
        tries = ("F", "FL", "FR")
    elif lane < target:
        tries = ("FR", "F", "FL")
    else:
        tries = ("FL", "F", "FR")
    for step in tries:
        if can_enter(state, row + 1, lane + STEPS[step], occupied):
            return step
    return None


def path_end_lane(lane: int, path: list[str]) -> int:
    return lane + sum(STEPS[s] for s in path)


def base_maximum(state: RaceState, cyclist: Cyclist, wind: bool, fatigued: bool) -> int:
    """§5.2 / D14: cap by role and starting section, -1 in the wind, -1 fatigued (they stack)."""
    cap = CAPS[cyclist.role][state.course.section_kind(cyclist.row)]
    return cap - (1 if wind else 0) - (1 if fatigued else 0)


def sheltered(state: RaceState, cyclist: Cyclist, occupied: Occupied | None = None) -> bool:
    """§4.2: a cyclist on the road directly in front (same lane, next row) keeps the wind off."""
    if occupied is not None:
        return (cyclist.row + 1, cyclist.lane) in occupied
    return state.at(cyclist.row + 1, cyclist.lane) is not None


def planned_maximum(state: RaceState, cyclist: Cyclist, bottle: bool, occupied: Occupied | None = None) -> int:
    """The maximum a cyclist will have this round, from the positions now and its base after the passes."""
    wind = not sheltered(state, cyclist, occupied)
    return base_maximum(state, cyclist, wind, cyclist.role == "domestique" and not bottle)


def in_own_section(state: RaceState, cyclist: Cyclist) -> bool:
    """§6.3: sprinter in the sprint, domestique on the plains, climber in the mountains."""
    return state.course.section_kind(cyclist.row) == OWN_SECTION[cyclist.role]


def may_attack(state: RaceState, cyclist: Cyclist) -> bool:
    """§6.3: a blue base and a move that starts in the cyclist's own section."""
    return cyclist.bottle and in_own_section(state, cyclist)


def check_path(state: RaceState, cyclist: Cyclist, path: list[str]) -> Message | None:
    """Why an explicit path can't be ridden from the cyclist's space (None if it can)."""
    row, lane = cyclist.row, cyclist.lane
    for i, step in enumerate(path, start=1):
        row, lane = step_target(row, lane, step)
        if not 1 <= lane <= state.course.lanes:
            return path_problem("off_road", n=i, step=step, lanes=state.course.lanes)
        if row > state.course.last_row:
            return None if i == len(path) else path_problem("crosses", n=i, step=step)
        if (row, lane) in state.course.rocks:
            return path_problem("rock", n=i, step=step, row=row, lane=lane)
        other = state.at(row, lane)
        if other is not None:
            return path_problem("cyclist", n=i, step=step, who=state.label(other.key), row=row, lane=lane)
    return None
