"""Text drawings of the course and the race, finish line at the top (public information only)."""

from __future__ import annotations

from engine.mind_cycling.course import Course

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
