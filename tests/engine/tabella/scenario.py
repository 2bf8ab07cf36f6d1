"""Small builders for Tabella scenarios: riders placed by ``setup``, orders in the forum syntax."""

from __future__ import annotations

from typing import Any

from engine.ruleset import Entrant, Event
from engine.tabella.state import Rider
from tests.logged import LoggedRace

CLASSIC_1 = {"table": "classic", "rows": 1}
"""§10.2's course: rows 1-3 of the classic table as A-C."""


def minute(n: int) -> str:
    """An ISO 8601 receive time, ``n`` minutes after 10:00 (earlier = higher priority, §5.1)."""
    return f"2026-11-29T10:{n:02d}:00+00:00"


def scenario(
    riders: dict[str, dict[str, Any]],
    *,
    round: int = 0,
    mode: str = "live",
    stage: dict[str, Any] | str | None = None,
    seed: int = 1,
    setup_gazzetta: bool | None = None,
    **options: Any,
) -> LoggedRace:
    """A race of the named riders (id = lower-case name) starting at ``round`` with explicit values."""
    entrants = [Entrant(id=rid, name=rid.capitalize()) for rid in riders]
    setup: dict[str, Any] = {"round": round, "riders": riders}
    if setup_gazzetta is not None:
        setup["gazzetta_hit"] = setup_gazzetta
    return LoggedRace.start(
        "tabella",
        entrants,
        seed=seed,
        stage=stage if stage is not None else CLASSIC_1,
        options={"mode": mode, **options},
        setup=setup,
    )


def play(race: LoggedRace, orders: dict[str, Any], times: dict[str, int] | None = None) -> list[Event]:
    """Resolve one step; ``times`` gives each order a receive time in minutes (its priority key)."""
    sent: dict[str, Any] = {}
    for rid, order in orders.items():
        body = {"text": order} if isinstance(order, str) else dict(order)
        if times and rid in times:
            body["received_at"] = minute(times[rid])
        sent[rid] = body
    return race.play_step(sent).events


def rider(race: LoggedRace, rid: str) -> Rider:
    return race.state.rider(rid)


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == f"td.{kind}"]
