"""Shared helpers for the Flamme Rouge conformance suite: races from records with explicit setups."""

from __future__ import annotations

from typing import Any

from engine.flamme_rouge import RULESET
from engine.flamme_rouge.movement import occupancy
from engine.flamme_rouge.state import RaceState, Rider
from engine.record import parse_record
from engine.ruleset import Entrant, Event
from tests.logged import LoggedRace, logged_replay

FLAT = "S5 _60 F5"
"""A plain flat stage: squares 1-5 start, 6-65 flat, 66-70 finish."""

PLAYERS = ("anna", "ben", "carl", "dana", "eve", "finn")
"""In a two-rider race the entrants take the colours in order: black, blue, green, red, pink, white."""


def record(
    players: int | list[str] = 2,
    bots: list[str] | None = None,
    stage: Any = FLAT,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    steps: list[dict[str, Any]] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """A race record (as JSON data) with ``players`` people and the given bot seats."""
    names = list(PLAYERS[:players]) if isinstance(players, int) else players
    entrants: list[dict[str, Any]] = [{"id": n, "name": n.capitalize()} for n in names]
    for n, kind in enumerate(bots or []):
        entrants.append({"id": f"{kind}{n}", "name": kind.capitalize(), "bot": kind})
    rec: dict[str, Any] = {
        "format": "gregario.race/1",
        "ruleset": "flamme_rouge",
        "seed": seed,
        "stage": stage,
        "options": options or {},
        "entrants": entrants,
        "steps": steps or [],
    }
    if setup is not None:
        rec["setup"] = setup
    return rec


def play(rec: dict[str, Any]) -> LoggedRace:
    """Replay a record (through JSON text, as a fresh process would read it)."""
    import json

    return logged_replay(parse_record(json.dumps(rec)))


def start(rec: dict[str, Any]) -> LoggedRace:
    return LoggedRace.from_record_start(parse_record(rec))


def at(state: RaceState, rider_id: str) -> tuple[int, int]:
    """A rider's (square, lane)."""
    r = state.rider(rider_id)
    return r.square, r.lane


def rider(state: RaceState, rider_id: str) -> Rider:
    return state.rider(rider_id)


def kinds(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def exhausted(events: list[Event]) -> list[str]:
    """The riders that took an exhaustion card in these events, in order."""
    return [rid for e in events if e.kind == "fr.exhaustion" for rid in e.data["riders"]]


def placed(positions: dict[str, tuple[int, int] | int], hands: dict[str, list[Any]] | None = None) -> dict[str, Any]:
    """A setup placing riders (square or (square, lane)) and giving them their next hands."""
    riders: dict[str, Any] = {}
    for rid, pos in positions.items():
        sq, lane = pos if isinstance(pos, tuple) else (pos, None)
        riders[rid] = {"square": sq} | ({"lane": lane} if lane else {})
    for rid, hand in (hands or {}).items():
        riders.setdefault(rid, {})["hand"] = hand
    return {"riders": riders}


def entrants(*specs: str) -> list[Entrant]:
    """``"anna"`` -> a person; ``"pel:peloton"`` -> a bot seat."""
    out = []
    for spec in specs:
        eid, _, bot = spec.partition(":")
        out.append(Entrant(id=eid, name=eid, bot=bot or None))
    return out


def occupied(state: RaceState) -> dict[int, list[str]]:
    """Square -> rider ids by lane ('' = free lane), for readable assertions."""
    occ = occupancy(state)
    return {sq: ["" if i < 0 else state.riders[i].id for i in row] for sq, row in sorted(occ.items())}


__all__ = ["RULESET"]
