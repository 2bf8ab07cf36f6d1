"""Bot strategies: ``cautious`` and ``aggressive`` (rules §4.1 for the automatic order).

Both plan the route alone on the course. What a route move is worth is additive: R + V changes by
``-effort + bonus + terrain`` whatever the speed (the negative-speed clamp turns V debt into R debt
one for one), and the sprint turns R into V one for one. So the best route is a small dynamic
programme over (pair, row); the strategies differ in the risks they take around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rng import Rng
from engine.ruleset import Order
from engine.tabella.state import ROUNDS, RaceState, Rider
from engine.tabella.table import ROW_NAMES, Course

STRATEGIES = ("cautious", "aggressive")
STEP = {"S": -1, "D": 1, "R": 0}


@dataclass(frozen=True)
class Leg:
    effort: int
    dir: str
    worth: int


def _leg_worth(course: Course, row: int, pair: int, effort: int, careful: bool) -> int:
    cell = course.pair(row, pair)
    bonus = 2 if effort > max(cell.a, cell.b) else 1 if effort > min(cell.a, cell.b) else 0
    terrain = {"climb": -2, "descent": 2, "flat": 0}[cell.terrain]
    worth = -effort + bonus + terrain
    if careful:
        worth -= int(cell.strettoia) + int(cell.curvone)  # crowded cells hurt
    return worth


def best_route(course: Course, row: int, first: int, careful: bool, rng: Rng | None = None) -> list[Leg]:
    """The best moves from pair ``first`` to 5 starting in ``row``: dynamic programme on (pair, row).

    Between equally good efforts the higher one wins (the lowest effort is a collision's victim);
    ``rng`` breaks ties between equally good routes, so that two bots of one strategy do not ride
    wheel to wheel into every collision."""
    memo: dict[tuple[int, int], tuple[tuple[int, int], list[Leg]]] = {}

    def go(pair: int, at: int) -> tuple[tuple[int, int], list[Leg]]:
        if pair > 5:
            return (0, 0), []
        if (pair, at) in memo:
            return memo[(pair, at)]
        best: tuple[tuple[int, int], list[Leg]] | None = None
        for direction in ("R", "S", "D"):
            nxt = at + STEP[direction]
            if not 0 <= nxt <= 2:
                continue
            for effort in (5, 4, 3, 2, 1):
                worth = _leg_worth(course, nxt, pair, effort, careful)
                (rest, rest_tie), legs = go(pair + 1, nxt)
                score = (worth + rest, rest_tie + (rng.randbelow(1000) if rng is not None else 0))
                if best is None or score > best[0]:
                    best = (score, [Leg(effort, direction, worth), *legs])
        assert best is not None
        memo[(pair, at)] = best
        return best

    return go(first, row)[1]


def _others(state: RaceState, me: str) -> list[Rider]:
    return [r for r in state.riders if r.id != me and r.status in ("racing", "waiting")]


def _rng(state: RaceState, entrant: str) -> Rng:
    return Rng.from_seed(state.seed, "tabella-bot", entrant, state.round)


def plan_order(state: RaceState, entrant: str, strategy: str) -> Order:
    """A whole plan (plan mode) from the current round."""
    course = state.course
    bold = strategy == "aggressive"
    rider = state.rider(entrant)
    order: Order = {}
    specials: list[dict[str, Any]] = []
    if state.round == 0:
        start = "A" if bold else "C"
        order["start"] = start
        row = ROW_NAMES.index(start)
        r_left = 30 - (2 if bold else 0)
    else:
        row = rider.row if rider.row is not None else 1
        r_left = rider.r
    first_move = max(state.round, 1)
    legs = best_route(course, row, first_move, careful=not bold, rng=_rng(state, entrant))
    for number, leg in zip(range(first_move, 6), legs, strict=True):
        order[ROUNDS[number]] = {"effort": leg.effort, "dir": leg.dir}
        r_left -= leg.effort
    order.update({"s1": 0, "s2": 0, "s3": max(r_left, 0) + 8})
    rng = _rng(state, entrant)
    others = _others(state, entrant)
    if "V" not in rider.used and rider.own_bottle == "full":
        # The aggressive bot drinks before throwing the bottle at s2; the cautious one keeps it for s3.
        specials.append({"code": "V", "round": "s2" if bold and state.round <= 7 else "s3"})
    if state.round <= 8 and "P" not in rider.used:
        specials.append({"code": "P", "round": "s3"})
    if bold:
        order["bibitone"] = state.round == 0
        if first_move <= 5 and "X" not in rider.used:
            straight = [n for n, leg in zip(range(first_move, 6), legs, strict=True) if leg.dir == "R"]
            specials.append({"code": "X", "round": ROUNDS[straight[0] if straight else first_move]})
        if others and state.round <= 7 and "B" not in rider.used:
            specials.append({"code": "B", "round": "s2", "target": rng.choice(others).id})
        if others and state.round <= 6 and "G" not in rider.used:
            specials.append({"code": "G", "round": "s1", "target": rng.choice(others).id})
    order["specials"] = specials
    return order


def live_order(state: RaceState, entrant: str, strategy: str) -> Order:
    """One round's order (live mode), looking at the race as it stands."""
    bold = strategy == "aggressive"
    rider = state.rider(entrant)
    number = state.round
    label = ROUNDS[number]
    specials: list[dict[str, Any]] = []
    order: Order = {}
    others = [r for r in state.riders if r.id != entrant and r.racing]
    if number == 0:
        order["start"] = "A" if bold else "C"
        order["bibitone"] = bold
    elif number <= 5:
        row = rider.row if rider.row is not None else 1
        leg = best_route(state.course, row, number, careful=not bold, rng=_rng(state, entrant))[0]
        order[label] = {"effort": leg.effort, "dir": leg.dir}
        if bold and "X" not in rider.used and leg.dir == "R":
            mates = [o for o in others if o.row == row + STEP[leg.dir]]
            if mates:
                specials.append({"code": "X"})
        if bold and number <= 4 and "J" not in rider.used:
            mates = [o for o in others if o.row == row and o.own_bottle == "full"]
            if mates and leg.dir == "R":
                specials.append({"code": "J", "target": mates[0].id})
    else:
        order[label] = rider.r + 8 if number == 8 else 0
        if number == 8:
            if "V" not in rider.used and rider.own_bottle == "full" and not any(e["code"] == "V" for e in specials):
                specials.append({"code": "V"})
            if "P" not in rider.used:
                specials.append({"code": "P"})
            if rider.stolen is not None and rider.stolen.status == "full":
                specials.append({"code": "V2"})
        if bold and others:
            leader = max(others, key=lambda o: (o.v, o.r))
            if number == 7 and "B" not in rider.used and rider.own_bottle in ("full", "drunk"):
                if rider.own_bottle == "full" and "V" not in rider.used:
                    specials.append({"code": "V"})  # drinks come before throws in a round
                specials.append({"code": "B", "target": leader.id})
            expected = rider.v + (rider.r if number == 8 else 0)
            if number == 8 and "G" not in rider.used and leader.v > expected + 2:
                specials.append({"code": "G", "target": leader.id})
    for entry in specials:
        entry["round"] = label
    order["specials"] = specials
    return order
