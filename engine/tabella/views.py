"""What everyone may see of the course and the riders (no secrets: §9, BRIEF rule 11)."""

from __future__ import annotations

from typing import Any

from engine.tabella.state import Rider
from engine.tabella.table import ROW_NAMES, Course


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


def course_text(course: Course) -> str:
    lines = []
    for r, name in enumerate(ROW_NAMES):
        lines.append(f"{name}: " + " | ".join(course.pair(r, p).describe() for p in range(1, 6)))
    return "\n".join(lines)


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
