"""What everyone may see of the course and the riders (no secrets: §9): the views, the boards and the rules' summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, cached_msg, msg
from engine.ruleset import PROGRESS_KEY, progress_marker
from engine.tabella.presets import stage_of
from engine.tabella.state import LAST_ROUND, ROUNDS, RaceState, Rider
from engine.tabella.table import PAIRS, ROW_NAMES, Course, check_table, classic_table
from engine.tabella.vocabulary import counter_name

LEGEND = "^ climb, v descent, = flat; a 0 makes a curvone, a 1 a strettoia"
"""How to read :func:`course_board` (§3, D18), written once for the stage boards."""


def summary() -> Message:
    """The rules in a few lines (``gregario rules``, ``/rules``)."""
    return cached_msg(
        "td.summary",
        "Tabella del Destino: one rider each, Resistenza 30 and Velocità 5. The course is three rows "
        "(A, B, C) of digit pairs: climbs cost 2 V, descents give 2 V. Plan a start (A/B/C), five route "
        "moves (effort 1-5 and S/D/R, paid in Resistenza) and three sprint moves (R turned into V), plus "
        "specials used once each: Vigorilla, Gomitata, Gancio, Bottigliata, Scia, Pedali. A third rider "
        "in a cell (second in a strettoia) causes a Tamponamento. Highest Velocità after the sprint wins.",
    )


def course_board(course: Course) -> str:
    """The course as a grid: a row per line, each pair's digits and its terrain mark (:data:`LEGEND`)."""
    lines = ["    " + "    ".join(str(p) for p in range(1, PAIRS + 1))]
    for r, name in enumerate(ROW_NAMES):
        cells = []
        for p in range(1, PAIRS + 1):
            pair = course.pair(r, p)
            mark = "^" if pair.terrain == "climb" else "v" if pair.terrain == "descent" else "="
            cells.append(f"{pair.a}{pair.b}{mark}")
        lines.append(f"{name}   " + "  ".join(cells))
    return "\n".join(lines)


def stage_board(stage: Mapping[str, Any] | str | None) -> Message:
    """A stage before its race: the course with its legend, or the table its rows will be drawn from."""
    chosen = stage_of(stage)
    if isinstance(chosen.table, list):
        table = check_table(chosen.table)
    elif chosen.table == "classic":
        table = classic_table()
    else:
        return cached_msg("td.board.random_table", "A fresh balanced table of digits, drawn when the race starts.")
    if chosen.rows == "random":
        rows = "\n".join(f"{i + 1:2}: {' '.join(map(str, row))}" for i, row in enumerate(table))
        return msg(
            "td.board.table",
            "The table's rows:\n{rows}\nThree consecutive rows are drawn when the race starts.",
            rows=rows,
        )
    return msg("td.board.course", "{board}\n" + LEGEND, board=course_board(Course.of(table, int(chosen.rows))))


def course_data(course: Course) -> list[list[dict[str, Any]]]:
    return [
        [
            {
                "cell": f"{ROW_NAMES[r]}{p}",
                "digits": [course.pair(r, p).a, course.pair(r, p).b],
                "terrain": course.pair(r, p).terrain,
                "curvone": course.pair(r, p).curvone,
                "strettoia": course.pair(r, p).strettoia,
            }
            for p in range(1, 6)
        ]
        for r in range(3)
    ]


def public_rider(r: Rider) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "status": r.status,
        "R": r.r,
        "V": r.v,
        "row": ROW_NAMES[r.row] if r.row is not None else None,
        "pair": r.pair,
        "start": r.start,
        "progress": r.progress,
        "v_at_stop": r.v_at_stop,
        "used": list(r.used),
        "bottle": r.own_bottle,
        # The Bibitone is secret until drunk (its +3 V shows it); then it is public.
        "drank_bibitone": r.doped,
        "stolen_bottle": r.stolen.status if r.stolen else None,
    }


def public_view(state: RaceState) -> dict[str, Any]:
    """The race as everyone sees it: the course, the riders' public figures, the round, the Gazzetta."""
    published = state.gazzetta_published
    return {
        "ruleset": "tabella",
        "mode": state.mode,
        "options": dict(state.options),
        "table": state.table_source,
        "rows": state.first_row,
        "course": course_data(state.course),
        "round": min(state.round, LAST_ROUND + 1),
        "round_label": ROUNDS[state.round] if state.round <= LAST_ROUND else "finished",
        PROGRESS_KEY: progress_marker(
            "round",
            min(state.round, LAST_ROUND) + 1,
            LAST_ROUND + 1,
            None,
            counter_name(ROUNDS[state.round] if state.round <= LAST_ROUND else "finished").model_dump(),
        ),
        "void": state.void,
        "riders": [public_rider(r) for r in state.riders],
        "gazzetta": {
            "published": published,
            "hit": state.gazzetta_hit if published else None,
            "delay": state.options["gazzetta_delay"],
        },
    }


def private_view(state: RaceState, entrant: str) -> dict[str, Any]:
    """The public view plus what only ``entrant`` knows: the Bibitone, a stolen bottle, a free effort."""
    view = public_view(state)
    rider = state.rider(entrant)
    view["you"] = {
        "id": rider.id,
        "bibitone": rider.reinforced,
        "stolen_bottle": (
            {"owner": rider.stolen.owner, "reinforced": rider.stolen.reinforced, "status": rider.stolen.status}
            if rider.stolen
            else None
        ),
        "free_effort": rider.free_effort,
    }
    return view
