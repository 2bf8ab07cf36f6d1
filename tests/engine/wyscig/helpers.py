"""Race records for the Wyścig conformance suite: stacked piles, explicit hands, text orders.

Cards are written the way the rules talk about them: ``"47 45 d c"`` is a 47, a 45, a descent and a
climb. Players are ``p1``, ``p2``... seated in that order unless a test says otherwise, and ``p1``
leads unless a test says otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from engine.record import parse_record
from engine.wyscig import RULESET
from engine.wyscig.state import RaceState
from tests.logged import LoggedRace, logged_replay

RULES_DOCUMENT = "wyscig-kolarski.md"
FILLER = 39
"""A neutral card to pad stacked piles (its value only matters if somebody plays it)."""


def cards(text: str) -> list[Any]:
    """``"47 45 d c"`` -> ``[47, 45, "descent", "climb"]``."""
    names = {"d": "descent", "c": "climb"}
    return [names[t] if t in names else int(t) for t in text.split()]


def record(
    hands: dict[str, str],
    pile: str | list[Any] = "",
    steps: list[tuple[str, str]] | None = None,
    *,
    leader: str | None = "p1",
    seats: list[str] | None = None,
    minutes: dict[str, int] | None = None,
    stages: int = 1,
    deck: str = "itemised_108",
    options: dict[str, Any] | None = None,
    bots: dict[str, str] | None = None,
    **setup: Any,
) -> dict[str, Any]:
    """A ``gregario.race/1`` record with an explicit setup; ``steps`` are ``(entrant, "play 47")``."""
    seats = seats or sorted(hands)
    ids = seats
    bots = bots or {}
    plan: dict[str, Any] = {"seats": seats, "hands": {e: cards(h) for e, h in hands.items()}, **setup}
    if leader is not None:
        plan["leader"] = leader
    plan["pile"] = cards(pile) if isinstance(pile, str) else pile
    if minutes:
        plan["minutes"] = minutes
    return {
        "format": "gregario.race/1",
        "ruleset": "wyscig",
        "seed": 1,
        "stage": {"deck": deck, "stages": stages},
        "options": options or {},
        "entrants": [{"id": e, "name": e.upper(), **({"bot": bots[e]} if e in bots else {})} for e in ids],
        "setup": plan,
        "steps": [{who: text} for who, text in (steps or [])],
    }


def run(rec: dict[str, Any]) -> LoggedRace:
    """Replay a record from its JSON text, as the CLI would."""
    return logged_replay(parse_record(json.dumps(rec)))


def state(race: LoggedRace) -> RaceState:
    assert isinstance(race.state, RaceState)
    return race.state


def minutes(race: LoggedRace) -> dict[str, int]:
    return {e: p.minutes for e, p in state(race).players.items()}


def hand(race: LoggedRace, entrant: str) -> list[int]:
    return list(state(race).player(entrant).speeds)


def played(race: LoggedRace) -> list[dict[str, Any]]:
    """This stage's cards so far, as the public view lists them."""
    return list(RULESET.public_view(state(race))["played"])


def last_event(race: LoggedRace, kind: str) -> dict[str, Any]:
    """The data of the latest event of ``kind`` over the whole race."""
    found = [e.data for step in race.events for e in step if e.kind == kind]
    assert found, f"no {kind} event"
    return found[-1]


def kinds(race: LoggedRace) -> list[str]:
    return [e.kind for step in race.events for e in step]
