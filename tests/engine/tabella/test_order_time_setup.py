"""Tabella: a setup's ``order_time`` (D6's third priority key) stands until a step gives a new
``received_at``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.record import parse_record
from tests.logged import logged_replay


def _priorities(steps: list[dict[str, Any]]) -> list[list[str]]:
    record = {
        "format": "gregario.race/1",
        "ruleset": "tabella",
        "seed": 11,
        "stage": {"table": "classic", "rows": 1},
        "options": {"mode": "live", "gazzetta_delay": "immediate"},
        "entrants": [{"id": "anna", "name": "Anna"}, {"id": "luca", "name": "Luca"}],
        "setup": {
            "riders": {
                "anna": {"order_time": "2026-11-29T18:00:00Z"},
                "luca": {"order_time": "2026-11-29T17:00:00Z"},
            }
        },
        "steps": steps,
    }
    race = logged_replay(parse_record(record))
    return [e.data["priority"] for step in race.events for e in step if e.kind == "td.round"]


@pytest.mark.rules("5.1", "R-TDD-6")
def test_the_setup_time_decides_a_tie_when_the_step_gives_none() -> None:
    """Both start Cavaliera (same V and R): Luca's order came at 17:00, Anna's at 18:00, so Luca acts first."""
    assert _priorities([{"anna": {"start": "C"}, "luca": {"start": "C"}}]) == [["luca", "anna"]]


@pytest.mark.rules("5.1", "R-TDD-6")
def test_a_new_received_at_replaces_the_setup_time() -> None:
    """In round m1 Anna's order arrives at 16:00 and Luca sends none with a time: his 17:00 stands, she
    is now first."""
    steps = [
        {"anna": {"start": "C"}, "luca": {"start": "C"}},
        {"anna": {"m1": "1R", "received_at": "2026-11-29T16:00:00Z"}, "luca": {"m1": "1R"}},
    ]
    assert _priorities(steps) == [["luca", "anna"], ["anna", "luca"]]
