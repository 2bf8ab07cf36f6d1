"""Bot team strategies and the absent player's automatic action (D24).

- ``steady``: plans the round front to back, estimating where every rider ends: a rider relays when the
  space in front of its train's (estimated) new front beats its own move, wheels when the rider in front
  goes further than it could alone, and otherwise rides its maximum. Bottles are kept for the medals:
  the sprinter attacks in the sprint, the climber in the mountains, anyone on the run-in to the line,
  never when it would stop a team-mate behind from riding on; domestiques feed their leaders' bottles.
- ``opportunist``: attacks with anyone who can, relays to the front of trains, passes every bottle.
- ``naive``: the absent player's automatic action (D24): every rider rides its maximum in its lane.
  A baseline for measuring the others.

All are deterministic functions of the state (no randomness needed).
"""

from __future__ import annotations

from typing import Any

from engine.mind_cycling.course import OWN_SECTION
from engine.mind_cycling.movement import ATTACK_BONUS, Occupied, may_attack
from engine.mind_cycling.resolution import placer
from engine.mind_cycling.rounds import (
    maximum,
    next_actor,
    possible_passes,
    projected_bottles,
    relay_target,
    start_round,
    wheel_target,
)
from engine.mind_cycling.state import Cyclist, RaceState, RoundContext
from engine.mind_cycling.tactics import RIDE_PREFERENCE, Plan, expected_ends, may_ride, plan_team, wants_attack

STRATEGIES = ("steady", "opportunist", "naive")


def placement(state: RaceState, entrant: str, strategy: str | None) -> dict[str, Any]:
    """D24: the first unplaced cyclist in team order; bots put domestiques (steady) or the sprinter first."""
    unplaced = [c.number for c in state.team(entrant) if not c.placed]
    if strategy == "steady":
        unplaced.sort(key=lambda n: (n < 3, n))
    return {"cyclist": unplaced[0]}


class Board:
    """What every team's bot reads of one position before it plans (the same for all of them, so worked
    out once per position, each part when first asked): the legal passes and, for a planner, the round as
    it would start now and who holds each space. Only read."""

    __slots__ = ("_ctx", "_ends", "_occupied", "course", "passes")

    def __init__(self, state: RaceState) -> None:
        self.course = state.course  # kept alive, so that its id in the board's key stays its own
        self.passes = possible_passes(state)
        self._ctx: RoundContext | None = None
        self._occupied: Occupied | None = None
        self._ends: dict[str, Plan] | None = None

    def plan_parts(self, state: RaceState) -> tuple[RoundContext, Occupied]:
        """The round as :func:`start_round` would fix it now, and :meth:`RaceState.where` (only which spaces
        are held is read), of ``state``, a state of this board's position."""
        if self._ctx is None or self._occupied is None:
            self._ctx, self._occupied = start_round(state, None), state.where()
        return self._ctx, self._occupied

    def expected(self, state: RaceState) -> dict[str, Plan]:
        """:func:`~engine.mind_cycling.tactics.expected_ends` of this position (every planner reads the same)."""
        if self._ends is None:
            self._ends = expected_ends(state, *self.plan_parts(state))
        return self._ends


_BOARDS: dict[tuple[Any, ...], Board] = {}
_BOARDS_KEPT = 8
"""Positions kept: the teams of a step ask about one; a few for races stepped side by side."""


def board(state: RaceState) -> Board:
    """The :class:`Board` of ``state``'s position, kept by what it is made of -- the course (the expected
    ends read its sections), the round and each cyclist's key (team and role), space, road status and
    base -- so the bots of one step work it out once."""
    key = (
        id(state.course),
        state.round,
        tuple((c.key, c.row, c.lane, c.placed, c.crossed, c.bottle) for c in state.cyclists.values()),
    )
    found = _BOARDS.get(key)
    if found is None:
        found = Board(state)
        if len(_BOARDS) >= _BOARDS_KEPT:
            del _BOARDS[next(iter(_BOARDS))]
        _BOARDS[key] = found
    return found


def _passes(
    state: RaceState, entrant: str, strategy: str | None, legal: dict[str, str] | None = None
) -> dict[str, int]:
    """Which of the team's legal bottle passes to make (none for an absent player, D24)."""
    out: dict[str, int] = {}
    for giver, receiver in (possible_passes(state) if legal is None else legal).items():
        g = state.cyclists[giver]
        if g.entrant != entrant:
            continue
        r = state.cyclists[receiver]
        wants = strategy == "opportunist" or (strategy == "steady" and r.role != "domestique")
        out[str(g.number)] = r.number if wants else 0
    return out


def intents(state: RaceState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """Orders mode: one intent per cyclist on the road, keeping what ``partial`` already chose."""
    chosen = {k: dict(v) for k, v in partial.get("intents", {}).items()}
    seen = board(state)
    passes = _passes(state, entrant, strategy, seen.passes)
    riders = sorted((c for c in state.team(entrant) if c.on_road), key=lambda c: (-c.row, c.lane))
    for c in riders:
        intent = chosen.setdefault(str(c.number), {})
        if strategy is not None and str(c.number) in passes and "pass_to" not in intent:
            intent["pass_to"] = passes[str(c.number)]
    bottles = projected_bottles(state, entrant, chosen, seen.passes)
    plans: dict[int, dict[str, Any]] = {}
    if strategy == "steady":
        fixed = {c.number: chosen[str(c.number)]["action"] for c in riders if "action" in chosen[str(c.number)]}
        ctx, occupied = seen.plan_parts(state)
        plans = plan_team(state, entrant, bottles, fixed, ctx, occupied, seen.expected(state))
    for c in riders:
        intent = chosen[str(c.number)]
        if "action" not in intent:
            if strategy is None:
                intent["action"] = "move"
            elif strategy == "steady":
                intent.update(plans[c.number])
            else:
                intent["action"] = _opportunist(state, c, bottles[c.number])
    return {"intents": chosen}


def _opportunist(state: RaceState, c: Cyclist, bottle: bool) -> str:
    """Attack whenever allowed; otherwise relay whenever the rider is behind someone and may ride."""
    if bottle and state.course.section_kind(c.row) == OWN_SECTION[c.role]:
        return "attack"
    return "relay" if state.at(c.row + 1, c.lane) is not None and may_ride(state, c, bottle) else "move"


def live_passes(state: RaceState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    chosen = dict(partial.get("passes", {}))
    for giver, to in _passes(state, entrant, strategy).items():
        chosen.setdefault(giver, to)
    return {"passes": chosen}


def live_turn(state: RaceState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """A move of the maximum in its lane (D24), or an attack when the strategy wants one."""
    ctx = state.ctx
    assert ctx is not None
    key = next_actor(state, ctx)
    assert key is not None
    c = state.cyclists[key]
    if "action" in partial:
        return dict(partial)
    attack = may_attack(state, c) and (strategy == "opportunist" or (strategy == "steady" and _steady_attack(state, c)))
    order: dict[str, Any] = {"action": "attack" if attack else "move"}
    # Keep what the player already chose (steps, lane), within the move's maximum.
    top = maximum(state, ctx, key) + (ATTACK_BONUS if attack else 0)
    if "lane" in partial:
        order["lane"] = partial["lane"]
    if "distance" in partial:
        order["distance"] = min(int(partial["distance"]), top)
    return order


def _steady_attack(state: RaceState, c: Cyclist) -> bool:
    """Live mode: attack for a medal (see :func:`wants_attack`), unless a team-mate behind could ride on."""
    ctx = state.ctx
    assert ctx is not None
    if not wants_attack(state, c, maximum(state, ctx, c.key)):
        return False
    behind = ctx.behind(c.key)
    if behind is None or state.cyclists[behind].entrant != c.entrant:
        return True
    mate = state.cyclists[behind]
    return mate.key in ctx.acted or not may_ride(state, mate, mate.bottle)


def live_prompt(state: RaceState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """An absent player declines (D24); steady takes the ride that ends furthest if it beats its own
    maximum; opportunist prefers the relay."""
    ctx = state.ctx
    assert ctx is not None and ctx.prompt is not None
    if "action" in partial:
        return dict(partial)
    if strategy is None:
        return {"action": "later"}
    wheel_dest = wheel_target(state, ctx, ctx.prompt)[0]
    relay_dest = relay_target(state, ctx, ctx.prompt)[0]
    wheel, relay = wheel_dest is not None, relay_dest is not None
    if strategy == "steady":
        own = state.cyclists[ctx.prompt].row + maximum(state, ctx, ctx.prompt)
        rides = [(d[0], RIDE_PREFERENCE[a], a) for a, d in (("wheel", wheel_dest), ("relay", relay_dest)) if d]
        best = max(rides)
        return {"action": best[2] if best[0] >= own else "later"}
    prefs = [("wheel", wheel), ("relay", relay)]
    if strategy == "opportunist":
        prefs.reverse()
    for action, ok in prefs:
        if ok:
            return {"action": action}
    return {"action": "later"}


def auto(state: RaceState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """A complete order for the current step."""
    if strategy == "naive":
        strategy = None  # the baseline plays the absent player's automatic action (D24)
    if state.phase == "place":
        found = placer(state)
        assert found is not None and found[0] == entrant
        return dict(partial) if "cyclist" in partial else placement(state, entrant, strategy)
    if state.phase == "passes":
        return live_passes(state, entrant, partial, strategy)
    if state.options["mode"] == "orders":
        return intents(state, entrant, partial, strategy)
    assert state.ctx is not None
    if state.ctx.prompt is not None:
        return live_prompt(state, entrant, partial, strategy)
    return live_turn(state, entrant, partial, strategy)
