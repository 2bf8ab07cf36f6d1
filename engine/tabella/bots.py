"""Bot strategies: ``cautious`` and ``aggressive`` (rules §4.1 for the automatic order).

What a route move is worth is additive: R + V changes by ``-effort + bonus + terrain`` whatever the
speed (the negative-speed clamp turns V debt into R debt one for one), and the sprint turns R into V
one for one. So the best route is a small dynamic programme over (pair, row), less the expected cost
of being a collision's victim in the traffic the other riders are predicted to make (the victim is
the lowest effort, §6.1). Both strategies use the free specials (Scia, Gancio, an empty bottle
thrown); they differ in the risks: the aggressive one drinks a Bibitone and whatever it steals and
elbows a leader in the last sprint; the cautious one never risks the Gazzetta or a fall, and models
the other riders' own traffic-dodging.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.rng import Rng
from engine.ruleset import Order
from engine.tabella.state import ROUNDS, RaceState, Rider
from engine.tabella.table import ROW_NAMES, Course

STRATEGIES = ("cautious", "aggressive")
STEP = {"S": -1, "D": 1, "R": 0}
DIRECTIONS = (("R", 0), ("S", -1), ("D", 1))
"""The directions in the order the route search tries them (the order decides equal routes)."""
EFFORTS = (5, 4, 3, 2, 1)
"""Efforts in the order the route search tries them: between equal routes the higher effort wins."""


@dataclass(frozen=True)
class Leg:
    effort: int
    dir: str
    worth: int


Efforts = dict[int, float]
"""effort -> probability that one opponent enters a cell with that effort."""


class Crowd(dict[tuple[int, int], list[Efforts]]):
    """(pair, row) -> for each opponent that may enter that cell: effort -> probability.

    Built once per decision (:func:`crowd_of`) and never changed after, so it remembers the victim risks
    asked of it: a route search asks the same cell and effort from every row it may come from, and the
    start row's three searches and the plan's own ask the same crowd again. A plain ``dict`` works too
    (without the memory)."""

    __slots__ = ("risks",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.risks: dict[tuple[Cells, int, int, int], float] = {}


V_LOSS = {"climb": 3, "flat": 2, "descent": 1}
"""§6.1: the collision victim's V loss by terrain (doubled on a curvone)."""
TERRAIN_WORTH = {"climb": -2, "descent": 2, "flat": 0}


class Cells:
    """What the planners read of each cell of a course, worked out once per course (a route search reads
    a cell a few hundred times): ``worth[careful][row][pair][effort]`` is :func:`_leg_worth`, ``risk`` the
    cell's (capacity, curvone factor, victim's V loss)."""

    __slots__ = ("risk", "terrain", "worth")

    def __init__(self, course: Course) -> None:
        self.worth = [[[[0] * 6 for _ in range(6)] for _ in range(3)] for _ in range(2)]
        self.risk: list[list[tuple[int, int, int]]] = [[(0, 0, 0)] * 6 for _ in range(3)]
        self.terrain: list[list[str]] = [[""] * 6 for _ in range(3)]
        for row in range(3):
            for pair in range(1, 6):
                cell = course.pair(row, pair)
                factor = 2 if cell.curvone else 1
                self.risk[row][pair] = (cell.capacity, factor, V_LOSS[cell.terrain] * factor)
                self.terrain[row][pair] = cell.terrain
                for careful in (0, 1):
                    for effort in range(1, 6):
                        self.worth[careful][row][pair][effort] = _leg_worth(course, row, pair, effort, bool(careful))


@lru_cache(maxsize=64)
def cells_of(course: Course) -> Cells:
    """The :class:`Cells` of a course (a race's course never changes, so they are kept; a few KB each, so
    only the courses of the races in hand)."""
    return Cells(course)


def _leg_worth(course: Course, row: int, pair: int, effort: int, careful: bool) -> int:
    cell = course.pair(row, pair)
    bonus = 2 if effort > max(cell.a, cell.b) else 1 if effort > min(cell.a, cell.b) else 0
    terrain = TERRAIN_WORTH[cell.terrain]
    worth = -effort + bonus + terrain
    if careful:
        worth -= int(cell.strettoia) + int(cell.curvone)  # crowded cells hurt
    return worth


def victim_risk(course: Course, row: int, pair: int, effort: int, crowd: dict[tuple[int, int], list[Efforts]]) -> float:
    """The expected R + V lost as a collision's victim when entering (row, pair) with ``effort``.

    Each opponent may be in the cell (with some effort) or not; a crash hurts us when the cell ends up
    over its capacity and nobody there has a lower effort than ours (an equal effort counts as a
    threat: a cautious rider is usually low in the priority list, so it loses the tie-break).
    """
    return _risk(cells_of(course), row, pair, effort, crowd)


def _risk(cells: Cells, row: int, pair: int, effort: int, crowd: dict[tuple[int, int], list[Efforts]]) -> float:
    """:func:`victim_risk` on a course's :class:`Cells`, remembered by a :class:`Crowd`."""
    risks: dict[tuple[Cells, int, int, int], float] | None = getattr(crowd, "risks", None)
    if risks is not None:
        key = (cells, row, pair, effort)
        found = risks.get(key)
        if found is None:
            found = risks[key] = _unshielded_risk(cells.risk[row][pair], effort, crowd.get((pair, row), ()))
        return found
    return _unshielded_risk(cells.risk[row][pair], effort, crowd.get((pair, row), ()))


def _unshielded_risk(facts: tuple[int, int, int], effort: int, opponents: Any) -> float:
    """The victim risk of a cell with ``facts`` (capacity, factor, V loss) among ``opponents``.

    Only the chances that nobody lower than us is in the cell count, so they alone are followed: by the
    number of opponents in the cell, ``dist[i]`` the chance of ``low + i`` of them and no shield. The
    arithmetic is the full distribution's (over count and shielded) operation for operation, the shielded
    branch left out because nothing it holds is ever counted: the same floats, to the last bit."""
    capacity, factor, v_loss = facts
    dist = [1.0]
    low = 0
    for opponent in opponents:
        # the chances the opponent is there below our effort (a shield) and at or above it (a threat),
        # summed from 0 in the dict's order as sum() would
        shield: float = 0
        threat: float = 0
        for e, p in opponent.items():
            if e < effort:
                shield += p
            else:
                threat += p
        absent = max(0.0, 1.0 - shield - threat)
        if absent:
            if threat:
                nxt = [dist[0] * absent]
                nxt += [low_q * threat + q * absent for low_q, q in itertools.pairwise(dist)]
                nxt.append(dist[-1] * threat)
                dist = nxt
            else:
                dist = [q * absent for q in dist]
        elif threat:
            dist = [q * threat for q in dist]
            low += 1
        else:
            return 0  # the opponent is surely there and lower than us: we are never the victim
    return sum(q * ((count + 1) * factor + v_loss) for count, q in enumerate(dist, start=low) if count >= capacity)


def best_route(
    course: Course,
    row: int,
    first: int,
    careful: bool,
    rng: Rng | None = None,
    crowd: dict[tuple[int, int], list[Efforts]] | None = None,
    jitter: float = 0.0,
) -> list[Leg]:
    """The best moves from pair ``first`` to 5 starting in ``row``: dynamic programme on (pair, row).

    Between equally good efforts the higher one wins (the lowest effort is a collision's victim);
    ``rng`` breaks ties between equally good routes, so that two bots of one strategy do not ride
    wheel to wheel into every collision. With a ``crowd`` the expected cost of being a collision's
    victim replaces the flat ``careful`` penalty."""
    cells = cells_of(course)
    worths = cells.worth[1 if careful and crowd is None else 0]
    if crowd is not None and not isinstance(crowd, Crowd):
        crowd = Crowd(crowd)
    noisy = rng is not None and bool(jitter)
    random = rng.random if rng is not None else None
    randbelow = rng.randbelow if rng is not None else None
    # (pair, row) -> (score, effort, direction, next row): the best first move from there
    memo: dict[tuple[int, int], tuple[tuple[float, int], int, str, int]] = {}
    # (row, pair) -> what each effort is worth there before the noise: worth less the victim risk
    bases: dict[tuple[int, int], list[float]] = {}

    def base_of(nxt: int, pair: int) -> list[float]:
        worth_of = worths[nxt][pair]
        if crowd is None:
            found = [worth - 0.0 for worth in worth_of]
        else:
            found = [0.0] + [worth_of[e] - _risk(cells, nxt, pair, e, crowd) for e in range(1, 6)]
        bases[(nxt, pair)] = found
        return found

    def go(pair: int, at: int) -> tuple[float, int]:
        if pair > 5:
            return (0.0, 0)
        found = memo.get((pair, at))
        if found is not None:
            return found[0]
        best_total = 0.0
        best_tie = 0
        choice: tuple[int, str, int] | None = None
        for direction, step in DIRECTIONS:
            nxt = at + step
            if not 0 <= nxt <= 2:
                continue
            base = bases.get((nxt, pair)) or base_of(nxt, pair)
            rest: float | None = None
            rest_tie = 0
            for effort in EFFORTS:
                value = base[effort]
                if noisy:
                    value += jitter * random()  # type: ignore[misc]  # riders of one mind should not all pick one line
                if rest is None:
                    # searched once, after the first effort's noise (the draws keep their order); then kept
                    rest, rest_tie = go(pair + 1, nxt)
                total = value + rest
                tie = rest_tie + (randbelow(1000) if randbelow is not None else 0)
                # (total, tie) > the best so far, as tuples compare
                if choice is None or total > best_total or (total == best_total and tie > best_tie):
                    best_total, best_tie, choice = total, tie, (effort, direction, nxt)
        assert choice is not None
        memo[(pair, at)] = ((best_total, best_tie), *choice)
        return (best_total, best_tie)

    go(first, row)
    legs = []
    at = row
    for pair in range(first, 6):
        _, effort, direction, nxt = memo[(pair, at)]
        legs.append(Leg(effort, direction, worths[nxt][pair][effort]))
        at = nxt
    return legs


Presence = dict[str, dict[tuple[int, int], dict[int, float]]]
"""opponent id -> (pair, row) -> effort -> probability that it enters that cell with that effort."""


@lru_cache(maxsize=4096)
def plain_route(course: Course, row: int, first: int, careful: bool) -> tuple[Leg, ...]:
    """:func:`best_route` without traffic or noise: the same for every rider, so computed once."""
    return tuple(best_route(course, row, first, careful))


def predicted_presence(state: RaceState, me: str, first: int, smart: bool = False) -> Presence:
    """Where the other riders are likely to ride from move ``first`` on, and with which effort.

    Each opponent is assumed to follow one of the planners' routes from its row (from each row when
    its start is not known yet): the plain best line, the careful line and, when ``smart``, the line
    that dodges the traffic the plain lines make and that line ridden one effort harder (other riders
    think too).

    What a rider is predicted to do does not depend on who asks, so every bot of a step shares one
    prediction per rider (:func:`_field_presence`); the answer leaves out ``me``.
    """
    field = _field_presence(state, first, smart)
    return {other.id: field[other.id] for other in _others(state, me)}


_FIELD_CACHE: dict[tuple[Any, ...], dict[str, dict[tuple[int, int], Efforts]]] = {}
_FIELD_CACHE_SIZE = 8
"""Predictions kept: one per step a bot is asked about (every bot of the step shares it), a few for races
stepped side by side; few, so that the memory of a race in progress stays what bench/memory.py measures."""


def _field_presence(state: RaceState, first: int, smart: bool) -> dict[str, dict[tuple[int, int], Efforts]]:
    """Every rider still in the race (racing or waiting): where it is predicted to ride from move ``first``.

    Kept by what it depends on and nothing else -- the course, ``first``, whether the start is played and
    each rider's id, row and status -- so every bot deciding on one step computes it once. The cells and
    efforts are read-only from then on (the planners only read them)."""
    course = state.course
    started = state.round > 0
    key = (
        course.table_rows,
        course.first_row,
        first,
        smart,
        started,
        tuple((r.id, r.row, r.status) for r in state.riders),
    )
    found = _FIELD_CACHE.get(key)
    if found is not None:
        return found
    rows_of = {
        r.id: [r.row] if r.row is not None and started else [0, 1, 2]
        for r in state.riders
        if r.status in ("racing", "waiting")
    }
    plain = {
        rid: [(row, list(plain_route(course, row, first, careful))) for row in rows for careful in (False, True)]
        for rid, rows in rows_of.items()
    }
    # Riders on the same rows ride the same plain lines: one prediction for them all (the same object).
    by_rows: dict[tuple[int, ...], dict[tuple[int, int], Efforts]] = {}
    naive: dict[str, dict[tuple[int, int], Efforts]] = {}
    for rid, rows in rows_of.items():
        shape = tuple(rows)
        if shape not in by_rows:
            by_rows[shape] = _presence_of(plain[rid], first)
        naive[rid] = by_rows[shape]
    if smart:
        found = {}
        # A rider's dodging line depends on its rows and on the others' predictions in rider order: riders
        # alike in both (every rider before the start) dodge alike, so it is worked out once for them.
        dodged: dict[tuple[Any, ...], dict[tuple[int, int], Efforts]] = {}
        for rid in rows_of:
            alike = (tuple(rows_of[rid]), tuple(id(cells) for other, cells in naive.items() if other != rid))
            got = dodged.get(alike)
            if got is None:
                routes = list(plain[rid])
                crowd = crowd_of({other: cells for other, cells in naive.items() if other != rid})
                dodging = [(row, best_route(course, row, first, True, crowd=crowd)) for row in rows_of[rid]]
                # ... and, more likely still, push one harder to win the effort duel that dodging starts
                # (measured: weighting this twice halves the crashes a cautious rider suffers in a pack)
                raised = [
                    (row, [Leg(min(leg.effort + 1, 5), leg.dir, leg.worth) for leg in legs]) for row, legs in dodging
                ]
                routes += dodging + raised + raised
                got = dodged[alike] = _presence_of(routes, first)
            found[rid] = got
    else:
        found = naive
    if len(_FIELD_CACHE) >= _FIELD_CACHE_SIZE:
        del _FIELD_CACHE[next(iter(_FIELD_CACHE))]
    _FIELD_CACHE[key] = found
    return found


def _presence_of(routes: list[tuple[int, list[Leg]]], first: int) -> dict[tuple[int, int], dict[int, float]]:
    """The cells and efforts of equally likely routes, as probabilities."""
    weight = 1.0 / len(routes)
    seen: dict[tuple[int, int], dict[int, float]] = {}
    for row, legs in routes:
        for pair, at, leg in _cells(row, first, legs):
            efforts = seen.setdefault((pair, at), {})
            efforts[leg.effort] = efforts.get(leg.effort, 0.0) + weight
    return seen


def crowd_of(presence: Presence) -> Crowd:
    """The opponents that may enter each cell (a :class:`Crowd`, which remembers its victim risks)."""
    crowd = Crowd()
    for cells in presence.values():
        for cell, efforts in cells.items():
            crowd.setdefault(cell, []).append(efforts)
    return crowd


def route_value(course: Course, row: int, first: int, legs: list[Leg], crowd: Crowd) -> float:
    """What a route is expected to be worth in R + V, collisions suffered included."""
    cells = cells_of(course)
    total = 0.0
    at = row
    for pair, leg in zip(range(first, 6), legs, strict=True):
        at = min(max(at + STEP[leg.dir], 0), 2)
        total += leg.worth - _risk(cells, at, pair, leg.effort, crowd)
    return total


def _cells(row: int, first: int, legs: list[Leg]) -> list[tuple[int, int, Leg]]:
    """(pair, row, leg) of each move of a route."""
    out = []
    at = row
    for pair, leg in zip(range(first, 6), legs, strict=True):
        at = min(max(at + STEP[leg.dir], 0), 2)
        out.append((pair, at, leg))
    return out


def _company(presence: Presence, cell: tuple[int, int]) -> float:
    """The expected number of opponents in a cell."""
    return sum(sum(cells.get(cell, {}).values()) for cells in presence.values())


def _scia_works(course: Course, cell: tuple[int, int], leg: Leg, reading: str) -> bool:
    """D25: X works on a descent, or after a declared R (straight_move) / on the flat (flat_terrain)."""
    terrain = course.pair(cell[1], cell[0]).terrain
    if reading == "straight_move":
        return terrain == "descent" or leg.dir == "R"
    return terrain in ("descent", "flat")


def _others(state: RaceState, me: str) -> list[Rider]:
    return [r for r in state.riders if r.id != me and r.status in ("racing", "waiting")]


def _rng(state: RaceState, entrant: str) -> Rng:
    return Rng.from_seed(state.seed, "tabella-bot", entrant, state.round)


JITTER = 1.0
"""Up to 1 point of seeded noise on each move's value: two bots of one mind should not pick one line."""
START_ORDER = (0, 1, 2)
"""Equal routes: the faster start first (it trades R for V one for one, §5.2, and V wins priority ties)."""
ALL_IN = 30
"""Added to the R a plan expects to hold in s3 (drinks, a free move and luck may add to it)."""
SMART_LIMIT = 8
"""The cautious bot models the other riders' own traffic-dodging only in races this small (cost)."""


def _smart(state: RaceState, bold: bool) -> bool:
    return not bold and len(state.riders) <= SMART_LIMIT


def _start_row(state: RaceState, bold: bool, crowd: Crowd) -> int:
    """Aggressive: always Aggressiva (row A). Cautious: the row whose route looks best in the traffic.

    A start trades R for V one for one (§5.2), so it is worth only its row; ties go to Cavaliera."""
    if bold:
        return 0
    course = state.course
    values = {
        row: route_value(course, row, 1, best_route(course, row, 1, True, crowd=crowd), crowd) for row in START_ORDER
    }
    return max(values, key=lambda row: values[row])


def _hook(presence: Presence, route: list[tuple[int, int, Leg]], last: int) -> tuple[str, int, float] | None:
    """The Gancio most likely to work: (target, move, probability), on moves up to ``last`` (D23: m4)."""
    best: tuple[str, int, float] | None = None
    for pair, row, _leg in route:
        if pair > last:
            continue
        for rid, cells in presence.items():
            chance = sum(cells.get((pair, row), {}).values())
            if chance > 0 and (best is None or chance > best[2]):
                best = (rid, pair, chance)
    return best


def _slipstream(state: RaceState, presence: Presence, route: list[tuple[int, int, Leg]]) -> int | None:
    """The move where a Scia most likely finds company (and works, D25), or None."""
    reading = str(state.options["scia_reading"])
    scored = [
        (_company(presence, (pair, row)), pair)
        for pair, row, leg in route
        if _scia_works(state.course, (pair, row), leg, reading)
    ]
    scored = [(c, pair) for c, pair in scored if c > 0]
    return max(scored)[1] if scored else None


def plan_order(state: RaceState, entrant: str, strategy: str) -> Order:
    """A whole plan (plan mode) from the current round.

    Both strategies: the planned route, every R left into ``s3``, the Vigorilla drunk at once (a full
    bottle can be stolen, D23) and the empty bottle thrown in ``s2`` (a bottle in ``s3`` would land
    after the target has spent its R), P in ``s3``, and the free specials: a Scia where company is
    likely, a Gancio on the likeliest rider.
    Cautious: the start and route that avoid being a collision's victim; no Bibitone, no Gomitata,
    and a stolen bottle is thrown (it might be a Bibitone). Aggressive: Aggressiva, a Bibitone, the
    plain best route, and whatever it steals is drunk.
    """
    course = state.course
    bold = strategy == "aggressive"
    rider = state.rider(entrant)
    order: Order = {}
    specials: list[dict[str, Any]] = []
    first_move = max(state.round, 1)
    presence = predicted_presence(state, entrant, first_move, _smart(state, bold)) if first_move <= 5 else {}
    crowd = crowd_of(presence)
    if state.round == 0:
        row = _start_row(state, bold, crowd)
        order["start"] = ROW_NAMES[row]
        r_left = 30 - (2 - row if row < 2 else 0)
    else:
        row = rider.row if rider.row is not None else 1
        r_left = rider.r
    rng = _rng(state, entrant)
    route: list[tuple[int, int, Leg]] = []
    if first_move <= 5:
        legs = best_route(course, row, first_move, careful=not bold, rng=rng, crowd=crowd, jitter=JITTER)
        route = _cells(row, first_move, legs)
        for number, leg in zip(range(first_move, 6), legs, strict=True):
            order[ROUNDS[number]] = {"effort": leg.effort, "dir": leg.dir}
            r_left -= leg.effort
    for number in range(max(state.round, 6), 9):
        # D16: the last sprint is reduced to the R left, so ask for more than any R the rider may hold
        order[ROUNDS[number]] = max(r_left, 0) + ALL_IN if number == 8 else 0
    others = _others(state, entrant)
    throw_at = max(state.round, 7)  # s2, or later if the plan starts later
    if "V" not in rider.used and rider.own_bottle == "full":
        specials.append({"code": "V", "round": ROUNDS[state.round]})
    if others and "B" not in rider.used and rider.own_bottle in ("full", "drunk"):
        specials.append({"code": "B", "round": ROUNDS[throw_at], "target": rng.choice(others).id})
    if "P" not in rider.used:
        specials.append({"code": "P", "round": "s3"})
    if route and "X" not in rider.used:
        scia = _slipstream(state, presence, route)
        if scia is not None:
            specials.append({"code": "X", "round": ROUNDS[scia]})
    if route and "J" not in rider.used:
        hook = _hook(presence, route, 4)
        if hook is not None:
            specials.append({"code": "J", "round": ROUNDS[hook[1]], "target": hook[0]})
            if bold:
                specials.append({"code": "V2", "round": "s3"})
            elif others:
                specials.append({"code": "B2", "round": ROUNDS[throw_at], "target": rng.choice(others).id})
    if bold:
        order["bibitone"] = state.round == 0
    order["specials"] = specials
    return order


def live_order(state: RaceState, entrant: str, strategy: str) -> Order:
    """One round's order (live mode), looking at the race as it stands.

    The same ideas as :func:`plan_order`, with what a live rider can see: the others' rows (for the
    traffic), the leader (for the bottle), whether a stolen bottle is a Bibitone (private, D20)."""
    bold = strategy == "aggressive"
    rider = state.rider(entrant)
    number = state.round
    label = ROUNDS[number]
    specials: list[dict[str, Any]] = []
    order: Order = {}
    others = [r for r in state.riders if r.id != entrant and r.racing]
    if number == 0:
        presence = predicted_presence(state, entrant, 1, _smart(state, bold))
        order["start"] = ROW_NAMES[_start_row(state, bold, crowd_of(presence))]
        order["bibitone"] = bold
        if "V" not in rider.used and rider.own_bottle == "full":
            specials.append({"code": "V"})  # drunk at once: a full bottle can be stolen (D23)
    elif number <= 5:
        row = rider.row if rider.row is not None else 1
        presence = predicted_presence(state, entrant, number, _smart(state, bold))
        crowd = crowd_of(presence)
        legs = best_route(
            state.course, row, number, careful=not bold, rng=_rng(state, entrant), crowd=crowd, jitter=JITTER
        )
        pair, cell_row, leg = _cells(row, number, legs)[0]
        order[label] = {"effort": leg.effort, "dir": leg.dir}
        company = _company(presence, (pair, cell_row))
        reading = str(state.options["scia_reading"])
        works = _scia_works(state.course, (pair, cell_row), leg, reading)
        if "X" not in rider.used and works and (company >= 0.5 or (number == 5 and company > 0)):
            specials.append({"code": "X"})  # the last chance to use it, or likely company
        if number <= 4 and "J" not in rider.used:
            hook = _hook(presence, [(pair, cell_row, leg)], 4)
            if hook is not None and (hook[2] >= 0.5 or number == 4):
                specials.append({"code": "J", "target": hook[0]})
    else:
        order[label] = rider.r + ALL_IN if number == 8 else 0
        leader = max(others, key=lambda o: (o.v + o.r, o.v)) if others else None
        stolen = rider.stolen if rider.stolen is not None and rider.stolen.status == "full" else None
        if number == 7 or (number == 8 and state.round == 8):
            if "V" not in rider.used and rider.own_bottle == "full":
                specials.append({"code": "V"})
            if leader is not None and "B" not in rider.used and rider.own_bottle in ("full", "drunk"):
                specials.append({"code": "B", "target": leader.id})
            if stolen is not None and "V2" not in rider.used and (bold or not stolen.reinforced):
                specials.append({"code": "V2"})  # a cautious rider never drinks a stolen Bibitone
            elif stolen is not None and leader is not None and "B2" not in rider.used:
                specials.append({"code": "B2", "target": leader.id})
        if number == 8 and "P" not in rider.used:
            specials.append({"code": "P"})
        if bold and number == 8 and leader is not None and "G" not in rider.used:
            # G resolves after the sprint payments: push only a leader sure to stay faster than us.
            mine = rider.v + rider.r + (2 if "P" not in rider.used else 0)
            if leader.v + leader.r > mine + 2:
                specials.append({"code": "G", "target": leader.id})
    for entry in specials:
        entry["round"] = label
    order["specials"] = specials
    return order
