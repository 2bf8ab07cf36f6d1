"""Small builders for Mind Cycling scenarios: races from explicit setups, rounds from text orders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mind_cycling.state import RaceState
from engine.ruleset import Entrant, Event
from tests.logged import LoggedRace

OPEN_COURSE: dict[str, Any] = {
    "course": ["plains", "plains", "sprint", "plains", "mountain", "mountain", "plains"],
    "strip_length": 10,
    "rocks": [],
    "supply_spaces": [],
}
"""The default course without rocks or supply spaces (rows 21-30 sprint, 41-60 mountain, 70 rows)."""

Spot = tuple[str, int, int, int] | tuple[str, int, int, int, str]
"""(entrant, number, row, lane[, base])."""


def race(
    spots: list[Spot],
    *,
    players: tuple[str, ...] = ("a", "b"),
    team_size: int = 3,
    stage: dict[str, Any] | str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 7,
    park: bool = True,
) -> LoggedRace:
    """A race started from ``spots``; cyclists not named are parked far behind the start, out of the way."""
    placed = {(s[0], s[1]) for s in spots}
    cyclists = [
        {"entrant": s[0], "number": s[1], "row": s[2], "lane": s[3], **({"base": s[4]} if len(s) > 4 else {})}
        for s in spots
    ]
    size = 5 if len(players) == 1 else team_size
    if park:
        slot = 0
        for p in players:
            for n in range(1, size + 1):
                if (p, n) not in placed:
                    cyclists.append({"entrant": p, "number": n, "row": -15 - 2 * (slot // 5), "lane": 1 + slot % 5})
                    slot += 1
    opts = {"team_size": team_size, **(options or {})}
    return LoggedRace.start(
        "mind_cycling",
        [Entrant(id=p, name=p.upper()) for p in players],
        seed,
        stage=stage if stage is not None else OPEN_COURSE,
        options=opts,
        setup={"cyclists": cyclists},
    )


def play(r: LoggedRace, orders: Mapping[str, Any] | None = None) -> list[Event]:
    """One step. In an orders-mode round, cyclists left without an intent hold still (``move 0``);
    entrants not given any order get the absent player's automatic order (D24)."""
    sent: dict[str, Any] = {}
    state: RaceState = r.state
    rounds = state.phase == "round" and state.options["mode"] == "orders"
    for d in r.awaited():
        if d.entrant not in (orders or {}):
            sent[d.entrant] = r.absent_order(d.entrant)
            continue
        order = (orders or {})[d.entrant]
        if rounds:
            order = r.validate(d.entrant, order)
            for c in state.team(d.entrant):
                if not c.on_road:
                    continue
                intent = order["intents"].setdefault(str(c.number), {})
                if "action" not in intent:
                    intent.update({"action": "move", "distance": 0})
        sent[d.entrant] = order
    return r.play_step(sent).events


def hold(r: LoggedRace, entrant: str) -> str:
    """Text orders that keep every cyclist of ``entrant`` on the road where it is."""
    state: RaceState = r.state
    return "\n".join(f"#{c.number} move 0" for c in state.team(entrant) if c.on_road)


def spot(r: LoggedRace, key: str) -> tuple[int, int]:
    c = r.state.cyclists[key]
    return c.row, c.lane


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
