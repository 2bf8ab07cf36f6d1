"""Round planning for the ``steady`` bot: where each rider is likely to end, and which action goes furthest.

Orders are given before anybody moves, so the bot estimates: a rider of another team rides its maximum;
a team-mate does what the bot already planned for it (riders are planned front to back). A wheel ends
one row behind the estimated end of the rider in front; a relay one row in front of the furthest
estimated end among the train's riders ahead. A wrong estimate costs little: an illegal wheel or relay
falls back to a normal move of the maximum (D23).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.mind_cycling.course import OWN_SECTION
from engine.mind_cycling.movement import ATTACK_BONUS, Occupied, planned_maximum
from engine.mind_cycling.rounds import start_round
from engine.mind_cycling.state import Cyclist, RaceState, RoundContext

LINE_UP_LOSS = 1
"""Rows a rider gives up to end directly behind a team-mate (worth it: shelter and a ride next round)."""

RIDE_PREFERENCE = {"relay": 2, "wheel": 1, "move": 0}
"""On an equal estimate, a ride keeps the rider sheltered in its train: relay, then wheel, then move."""


@dataclass(slots=True)
class Plan:
    """An intent with the space where the bot expects it to end."""

    action: str
    row: int
    lane: int
    distance: int | None = None
    """Only for a move that stops short to line up behind a team-mate."""

    def intent(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        if self.distance is not None:
            out.update(distance=self.distance, lane=self.lane)
        return out


def wants_attack(state: RaceState, c: Cyclist, top: int) -> bool:
    """Bottles go on the medals: the sprinter in the sprint, the climber in the climb, anyone whose attack
    crosses the line or who is on the last two rounds' worth of road."""
    if c.role != "domestique":
        return True
    return c.row + 2 * (top + ATTACK_BONUS) > state.course.last_row


def decisive(state: RaceState, row: int) -> bool:
    """Ending on ``row`` crosses the line or leaves a medal section nobody has left yet."""
    if row > state.course.last_row:
        return True
    for kind, section in (("sprint", state.course.medal_sprint), ("mountain", state.course.medal_mountain)):
        if section is not None and not state.section_winners.get(kind) and row > section.last:
            return True
    return False


def may_ride(state: RaceState, c: Cyclist, bottle: bool) -> bool:
    """§6.1: not a fatigued domestique, not a sprinter starting in the mountains."""
    if c.role == "domestique" and not bottle:
        return False
    return not (c.role == "sprinter" and state.course.section_kind(c.row) == "mountain")


def _line_up(
    state: RaceState, c: Cyclist, top: int, mates: list[Plan], held: dict[tuple[int, int], int], own: tuple[int, int]
) -> Plan | None:
    """A move ending directly behind a team-mate's expected end, giving up at most one row: next round the
    two form a train (shelter, and a wheel or relay for the one behind). ``held`` counts the expected ends
    of every rider, ``own`` is ``c``'s: a space is taken when another rider is expected there."""
    best: Plan | None = None
    for mate in mates:
        row, lane = mate.row - 1, mate.lane
        steps = row - c.row
        if not top - LINE_UP_LOSS <= steps <= top or abs(lane - c.lane) > steps:
            continue
        spot = (row, lane)
        if held.get(spot, 0) - (spot == own) > 0:
            continue
        if row > state.course.last_row or spot in state.course.rocks:
            continue
        if best is None or row > best.row:
            best = Plan("move", row, lane, distance=steps)
    return best


def expected_ends(state: RaceState, ctx: RoundContext, occupied: Occupied) -> dict[str, Plan]:
    """Where every rider of the round ``ctx`` is expected to end when it rides its maximum (its base as it is
    now): the same for every team's plan, so a step's bots can share it (``bots.Board``)."""
    ends: dict[str, Plan] = {}
    for k in ctx.order:
        other = state.cyclists[k]
        ends[k] = Plan("move", other.row + planned_maximum(state, other, other.bottle, occupied), other.lane)
    return ends


def plan_team(
    state: RaceState,
    entrant: str,
    bottles: dict[int, bool],
    fixed: dict[int, str],
    ctx: RoundContext | None = None,
    occupied: Occupied | None = None,
    expected: Mapping[str, Plan] | None = None,
) -> dict[int, dict[str, Any]]:
    """The best intent of each of ``entrant``'s riders on the road; ``fixed`` holds actions already chosen.

    ``ctx`` (the round as :func:`start_round` would fix it now), ``occupied`` (:meth:`RaceState.where`) and
    ``expected`` (:func:`expected_ends` of both) may be given when already known; they are only read."""
    if ctx is None:
        ctx = start_round(state, None)  # wind, trains and who is in front of whom, from the positions now
    if occupied is None:
        occupied = state.where()
    ends = dict(expected) if expected is not None else expected_ends(state, ctx, occupied)
    held: dict[tuple[int, int], int] = {}  # how many riders are expected to end on each space
    for p in ends.values():
        spot = (p.row, p.lane)
        held[spot] = held.get(spot, 0) + 1
    riders = [state.cyclists[k] for k in ctx.order if state.cyclists[k].entrant == entrant]
    behind_of: dict[str, str] = {}  # RoundContext.behind for every rider at once: the first follower found
    for follower, ahead_of_it in ctx.front.items():
        behind_of.setdefault(ahead_of_it, follower)
    attackers: set[str] = set()
    mates: list[Plan] = []
    plans: dict[int, dict[str, Any]] = {}
    for c in riders:
        bottle = bottles[c.number]
        top = planned_maximum(state, c, bottle, occupied)
        was = ends[c.key]
        own = (was.row, was.lane)
        options = [Plan("move", c.row + top, c.lane)]
        line_up = _line_up(state, c, top, mates, held, own) if mates else None
        if line_up is not None:
            options.append(line_up)
        leader = ctx.front.get(c.key)
        if leader is not None and leader not in attackers and may_ride(state, c, bottle):
            options.append(Plan("wheel", ends[leader].row - 1, ends[leader].lane))
            members = ctx.train[c.key]
            ahead = [ends[m] for m in members[: members.index(c.key)]]
            if len(ahead) <= 3:  # §6.2: the front four relay
                front = max(ahead, key=lambda p: (p.row, -p.lane))
                options.append(Plan("relay", front.row + 1, front.lane))
        best = max(options, key=_value)
        behind = behind_of.get(c.key)  # ctx.behind
        mate = state.cyclists[behind] if behind is not None else None
        mate_rides = mate is not None and mate.entrant == entrant and may_ride(state, mate, bottles[mate.number])
        attack = Plan("attack", c.row + top + ATTACK_BONUS, c.lane)
        if (
            bottle
            and state.course.section_kind(c.row) == OWN_SECTION[c.role]
            and wants_attack(state, c, top)
            and attack.row > best.row
            and (not mate_rides or decisive(state, attack.row))  # behind an attacker, no wheel or relay (§6.3)
        ):
            best = attack
        if c.number in fixed:
            action = fixed[c.number]
            best = attack if action == "attack" else next((p for p in options if p.action == action), options[0])
        if best.action == "attack":
            attackers.add(c.key)
        ends[c.key] = best
        held[own] -= 1
        spot = (best.row, best.lane)
        held[spot] = held.get(spot, 0) + 1
        mates.append(best)
        plans[c.number] = best.intent()
    return plans


def _value(plan: Plan) -> tuple[int, int]:
    """Furthest first; a line-up counts its lost row back; on a tie, the ride that keeps shelter."""
    bonus = LINE_UP_LOSS if plan.distance is not None else 0
    return (plan.row + bonus, RIDE_PREFERENCE[plan.action] if plan.distance is None else 1)
