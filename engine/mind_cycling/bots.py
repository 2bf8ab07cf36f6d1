"""Bot team strategies and the absent player's automatic action (D24).

- ``steady``: keeps its riders together: wheels whenever it can, attacks only with its sprinter in the
  sprint and its climber in the mountains, and domestiques feed their leaders' empty bottles.
- ``opportunist``: attacks with anyone who can, relays to the front of trains, passes every bottle.

Both are deterministic functions of the state (no randomness needed).
"""

from __future__ import annotations

from typing import Any

from engine.mind_cycling.course import OWN_SECTION
from engine.mind_cycling.movement import ATTACK_BONUS, may_attack, planned_maximum
from engine.mind_cycling.orders import projected_bottles
from engine.mind_cycling.resolution import placer
from engine.mind_cycling.rounds import maximum, next_actor, possible_passes, relay_target, wheel_target
from engine.mind_cycling.state import Cyclist, MindState

STRATEGIES = ("steady", "opportunist")


def placement(state: MindState, entrant: str, strategy: str | None) -> dict[str, Any]:
    """D24: the first unplaced cyclist in team order; bots put domestiques (steady) or the sprinter first."""
    unplaced = [c.number for c in state.team(entrant) if not c.placed]
    if strategy == "steady":
        unplaced.sort(key=lambda n: (n < 3, n))
    return {"cyclist": unplaced[0]}


def _passes(state: MindState, entrant: str, strategy: str | None) -> dict[str, int]:
    """Which of the team's legal bottle passes to make (none for an absent player, D24)."""
    out: dict[str, int] = {}
    for giver, receiver in possible_passes(state).items():
        g = state.cyclists[giver]
        if g.entrant != entrant:
            continue
        r = state.cyclists[receiver]
        wants = strategy == "opportunist" or (strategy == "steady" and r.role != "domestique")
        out[str(g.number)] = r.number if wants else 0
    return out


def intents(state: MindState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """Orders mode: one intent per cyclist on the road, keeping what ``partial`` already chose.

    Cyclists are decided front to back, so a steady rider knows how far the team-mate it would wheel
    behind means to go, and wheels only when that beats its own move.
    """
    chosen = {k: dict(v) for k, v in partial.get("intents", {}).items()}
    passes = _passes(state, entrant, strategy)
    riders = sorted((c for c in state.team(entrant) if c.on_road), key=lambda c: (-c.row, c.lane))
    advance: dict[int, int] = {}
    for c in riders:
        intent = chosen.setdefault(str(c.number), {})
        if strategy is not None and str(c.number) in passes and "pass_to" not in intent:
            intent["pass_to"] = passes[str(c.number)]
        bottle = projected_bottles(state, entrant, chosen)[c.number]
        top = planned_maximum(state, c, bottle)
        if "action" not in intent:
            intent["action"] = "move" if strategy is None else _choose(state, c, strategy, top, bottle, advance)
        action = intent["action"]
        advance[c.number] = top + 3 if action == "attack" else top if action in ("move", "relay") else 0
        if action == "wheel":
            leader = state.at(c.row + 1, c.lane)
            advance[c.number] = advance.get(leader.number, 0) if leader and leader.entrant == entrant else 0
    return {"intents": chosen}


def _choose(state: MindState, c: Cyclist, strategy: str, top: int, bottle: bool, advance: dict[int, int]) -> str:
    """A bot's action for one cyclist, given how far its team-mates in front mean to go."""
    leader = state.at(c.row + 1, c.lane)
    can_ride = leader is not None and not (c.role == "domestique" and not bottle)
    can_ride = can_ride and not (c.role == "sprinter" and state.course.section_kind(c.row) == "mountain")
    can_attack = bottle and state.course.section_kind(c.row) == OWN_SECTION[c.role]
    if strategy == "opportunist":
        if can_attack:
            return "attack"
        return "relay" if can_ride else "move"
    # steady: attack only with the specialists; wheel behind a team-mate going at least as far.
    if can_attack and c.role != "domestique":
        return "attack"
    if can_ride and leader is not None and leader.entrant == c.entrant and advance.get(leader.number, 0) >= top:
        return "wheel"
    return "move"


def live_passes(state: MindState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    chosen = dict(partial.get("passes", {}))
    for giver, to in _passes(state, entrant, strategy).items():
        chosen.setdefault(giver, to)
    return {"passes": chosen}


def live_turn(state: MindState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """A move of the maximum in its lane (D24), or an attack when the strategy wants one."""
    ctx = state.ctx
    assert ctx is not None
    key = next_actor(state, ctx)
    assert key is not None
    c = state.cyclists[key]
    if "action" in partial:
        return dict(partial)
    attack = may_attack(state, c) and (strategy == "opportunist" or (strategy == "steady" and c.role != "domestique"))
    order: dict[str, Any] = {"action": "attack" if attack else "move"}
    # Keep what the player already chose (steps, lane), within the move's maximum.
    top = maximum(state, ctx, key) + (ATTACK_BONUS if attack else 0)
    if "lane" in partial:
        order["lane"] = partial["lane"]
    if "distance" in partial:
        order["distance"] = min(int(partial["distance"]), top)
    return order


def live_prompt(state: MindState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """An absent player declines (D24); steady prefers the wheel, opportunist the relay."""
    ctx = state.ctx
    assert ctx is not None and ctx.prompt is not None
    if "action" in partial:
        return dict(partial)
    if strategy is None:
        return {"action": "later"}
    wheel = wheel_target(state, ctx, ctx.prompt)[0] is not None
    relay = relay_target(state, ctx, ctx.prompt)[0] is not None
    prefs = [("wheel", wheel), ("relay", relay)]
    if strategy == "opportunist":
        prefs.reverse()
    for action, ok in prefs:
        if ok:
            return {"action": action}
    return {"action": "later"}


def auto(state: MindState, entrant: str, partial: dict[str, Any], strategy: str | None) -> dict[str, Any]:
    """A complete order for the current step."""
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
