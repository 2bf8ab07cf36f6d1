"""Text drawings of the course and the race, finish line at the top (public information only)."""

from __future__ import annotations

from engine.mind_cycling.course import Course
from engine.mind_cycling.state import RaceState

SECTION_MARK = {"plains": "P", "sprint": "S", "mountain": "M"}
ROLE_MARK = {"sprinter": "s", "climber": "c", "domestique": "d"}


def _cell(course: Course, row: int, lane: int) -> str:
    if (row, lane) in course.rocks:
        return " ## "
    if (row, lane) in course.supply:
        return " ++ "
    return "  . "


def _row_line(course: Course, row: int, cells: list[str]) -> str:
    return f"{row:>4} {SECTION_MARK[course.section_kind(row)]} |{''.join(cells)}|"


def draw_stage(course: Course) -> str:
    """The whole course, one line per row from the finish down: P/S/M section, ## rock, ++ supply space.
    No word in it: the words FINISH and START are the stage board's template's (:func:`stage_frame`)."""
    lines = []
    for row in range(course.last_row, 0, -1):
        lines.append(_row_line(course, row, [_cell(course, row, lane) for lane in range(1, course.lanes + 1)]))
    return "\n".join(lines)


def stage_frame(course: Course) -> dict[str, str]:
    """The finish and start lines under the words of the stage board's template, as wide as the road."""
    width = course.lanes * 4
    return {"finish": "=" * width, "start": "-" * width}


def draw_board(state: RaceState) -> str:
    """The part of the course where the cyclists are: each cyclist as team letter + number (a3 = team a #3)."""
    course = state.course
    letters = {e: chr(ord("a") + i) for i, e in enumerate(state.entrants)}
    on_road = [c for c in state.cyclists.values() if c.on_road]
    where = {(c.row, c.lane): c for c in on_road}
    top = min(course.last_row, max((c.row for c in on_road), default=0) + 2)
    bottom = min((c.row for c in on_road), default=0) - 1
    width = course.lanes * 4
    lines = [
        f"Round {state.round} ({state.phase}) - "
        + ", ".join(f"{letters[e]} = {state.names[e]}" for e in state.entrants)
    ]
    if top == course.last_row:
        lines.append("  FINISH " + "=" * width)
    for row in range(top, bottom - 1, -1):
        cells = []
        for lane in range(1, course.lanes + 1):
            c = where.get((row, lane))
            if c is None:
                cells.append(_cell(course, row, lane))
            else:
                base = "" if c.bottle else "*"
                cells.append(f" {letters[c.entrant]}{c.number}{base or ' '}")
        lines.append(_row_line(course, row, cells))
    crossed = [state.cyclists[k] for k in state.finish_order if state.cyclists[k].crossed]
    if crossed:
        lines.append("Across the line: " + ", ".join(f"{c.place}. {letters[c.entrant]}{c.number}" for c in crossed))
    lines.append("(* = black base, no bottle; ## rock; ++ supply space)")
    return "\n".join(lines)
