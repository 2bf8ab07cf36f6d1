"""Carrying out validated orders: grid placement (§3.3), an orders-mode round (§9.2), live steps (§9.3)."""

from __future__ import annotations

from typing import Any

from engine.messages import event
from engine.mind_cycling.movement import ATTACK_BONUS, may_attack
from engine.mind_cycling.rounds import (
    after_action,
    apply_passes,
    begin_round,
    continue_live,
    end_round,
    free_ride,
    maximum,
    next_actor,
    offer_ride,
    relay_target,
    ride,
    ride_refusal,
    start_round,
    wheel_target,
)
from engine.mind_cycling.state import RaceState, RoundContext, cyclist_key
from engine.mind_cycling.texts import action_label, ride_refusal_reason
from engine.ruleset import Event

Intent = dict[str, Any]


# --- grid placement ----------------------------------------------------------------------------------
def next_slot(state: RaceState) -> tuple[int, int]:
    """D9: row 0 from lane 1 to W, then row -1, ...; slots held by a set-up cyclist are skipped."""
    row = 0
    while True:
        for lane in range(1, state.course.lanes + 1):
            if state.at(row, lane) is None:
                return row, lane
        row -= 1


def placer(state: RaceState) -> tuple[str, int] | None:
    """Whose placement turn it is (D9: players in turn, skipping those with nobody left to place)."""
    count = len(state.placement_order)
    for i in range(count):
        turn = state.placement_turn + i
        entrant = state.placement_order[turn % count]
        if any(not c.placed for c in state.team(entrant)):
            return entrant, turn
    return None


def place(state: RaceState, entrant: str, number: int, events: list[Event] | None) -> None:
    key = cyclist_key(entrant, number)
    row, lane = next_slot(state)
    found = placer(state)
    c = state.cyclists[key]
    c.row, c.lane, c.placed = row, lane, True
    state.placement_turn = (found[1] if found else state.placement_turn) + 1
    if events is not None:
        events.append(
            event(
                "mc.placed",
                "{who} takes the grid slot row {row}, lane {lane}.",
                who=state.label(key),
                cyclist=key,
                row=row,
                lane=lane,
            )
        )
    if placer(state) is None:
        begin_round(state, events)


# --- orders mode ---------------------------------------------------------------------------------------
AUTO_INTENT: Intent = {"action": "move"}
"""D24: a normal move of the maximum, lane-seeking in the cyclist's current lane."""


def resolve_orders_round(state: RaceState, orders: dict[str, dict[str, Any]], events: list[Event] | None) -> None:
    """§9.2: passes first (D11), then wind/fatigue/trains, then every intent in movement order."""
    intents: dict[str, Intent] = {}
    passes: dict[str, str] = {}
    for entrant, order in orders.items():
        for number, intent in order.get("intents", {}).items():
            key = cyclist_key(entrant, int(number))
            intents[key] = intent
            if intent.get("pass_to"):
                passes[key] = cyclist_key(entrant, int(intent["pass_to"]))
    apply_passes(state, passes, events)
    ctx = start_round(state, events)
    state.ctx = ctx
    while state.phase == "round":
        actor = next_actor(state, ctx)
        if actor is None:
            break
        act_at_own_place(state, ctx, actor, intents.get(actor, AUTO_INTENT), events)
        _ride_chain(state, ctx, actor, intents, events)
    if state.phase == "round":
        end_round(state, events)


def _ride_chain(
    state: RaceState, ctx: RoundContext, leader: str, intents: dict[str, Intent], events: list[Event] | None
) -> None:
    """D10: right after a cyclist acts, the one that started behind it wheels or relays if it chose to."""
    follower = ctx.behind(leader)
    while follower is not None and state.phase == "round":
        if follower in ctx.acted or not state.cyclists[follower].on_road:
            return
        action = intents.get(follower, AUTO_INTENT).get("action")
        if action not in ("wheel", "relay"):
            return
        dest, why = (wheel_target if action == "wheel" else relay_target)(state, ctx, follower)
        if dest is None:
            ctx.declined.append(follower)  # D23: falls back at its own place in the order
            if events is not None:
                events.append(
                    event(
                        "mc.fallback",
                        "{who} can't {action}: {why}. It moves normally at its own place instead.",
                        who=state.label(follower),
                        cyclist=follower,
                        action=action_label(action),
                        why=why,
                    )
                )
            return
        free_ride(state, ctx, follower, action, dest, events)
        after_action(state, ctx, follower, events)
        follower = ctx.behind(follower)


def act_at_own_place(state: RaceState, ctx: RoundContext, key: str, intent: Intent, events: list[Event] | None) -> None:
    """One cyclist's intent at its own place in the movement order, with the D23 fallbacks."""
    c = state.cyclists[key]
    action = intent.get("action", "move")
    top = maximum(state, ctx, key)
    path: list[str] | None = intent.get("path")
    lane: int | None = intent.get("lane")
    wanted: int | None = intent.get("distance")
    if action in ("wheel", "relay"):
        if key not in ctx.declined and events is not None:
            why = ride_refusal(state, ctx, key) or ride_refusal_reason("nobody_moved")
            events.append(
                event(
                    "mc.fallback",
                    "{who} can't {action}: {why}. It moves normally instead.",
                    who=state.label(key),
                    cyclist=key,
                    action=action_label(action),
                    why=why,
                )
            )
        ride(state, ctx, key, top, None, lane or c.lane, False, events)
    elif action == "attack" and may_attack(state, c):
        cap = top + ATTACK_BONUS  # D14: +3 after the wind and fatigue modifiers
        steps = _reduce(state, key, wanted if wanted is not None else (len(path) if path else cap), cap, events)
        ctx.attacked.append(key)
        ride(state, ctx, key, steps, path, lane, True, events)
    else:
        if action == "attack" and events is not None:
            events.append(
                event(
                    "mc.fallback",
                    "{who} can't attack (it needs a bottle and its own section): it moves normally and keeps "
                    "its bottle.",
                    who=state.label(key),
                    cyclist=key,
                    action=action_label("attack"),
                )
            )
        steps = _reduce(state, key, wanted if wanted is not None else (len(path) if path else top), top, events)
        ride(state, ctx, key, steps, path, lane, False, events)
    after_action(state, ctx, key, events)


def _reduce(state: RaceState, key: str, wanted: int, top: int, events: list[Event] | None) -> int:
    if wanted <= top:
        return wanted
    if events is not None:
        events.append(
            event(
                "mc.reduced",
                "{who} can ride at most {top} this round, not {wanted}: its move is cut to {top}.",
                who=state.label(key),
                cyclist=key,
                wanted=wanted,
                top=top,
            )
        )
    return top


# --- live mode --------------------------------------------------------------------------------------------
def resolve_live_passes(state: RaceState, orders: dict[str, dict[str, Any]], events: list[Event] | None) -> None:
    """§9.3: the bottle passes of the round, all at once, then the round starts."""
    passes = {
        cyclist_key(entrant, int(giver)): cyclist_key(entrant, int(to))
        for entrant, order in orders.items()
        for giver, to in order.get("passes", {}).items()
        if to
    }
    apply_passes(state, passes, events)
    state.phase = "round"
    state.ctx = start_round(state, events)
    continue_live(state, events)


def resolve_live_turn(state: RaceState, entrant: str, order: dict[str, Any], events: list[Event] | None) -> None:
    """A normal move or an attack of the next cyclist in the movement order."""
    ctx = state.ctx
    assert ctx is not None
    key = next_actor(state, ctx)
    assert key is not None and state.cyclists[key].entrant == entrant
    top = maximum(state, ctx, key)
    attack = order["action"] == "attack"
    if attack:
        top += ATTACK_BONUS
        ctx.attacked.append(key)
    path = order.get("path")
    steps = order.get("distance", len(path) if path else top)
    ride(state, ctx, key, steps, path, order.get("lane"), attack, events)
    after_action(state, ctx, key, events)
    if state.phase == "round":
        ctx.prompt = offer_ride(state, ctx, key)
    continue_live(state, events)


def resolve_live_prompt(state: RaceState, entrant: str, order: dict[str, Any], events: list[Event] | None) -> None:
    """The answer to a wheel/relay prompt (§9.3): ride now, or act later at its own place."""
    ctx = state.ctx
    assert ctx is not None and ctx.prompt is not None
    key = ctx.prompt
    ctx.prompt = None
    action = order["action"]
    if action == "later":
        ctx.declined.append(key)
        if events is not None:
            events.append(event("mc.declined", "{who} will act at its own place.", who=state.label(key), cyclist=key))
    else:
        dest, _ = (wheel_target if action == "wheel" else relay_target)(state, ctx, key)
        assert dest is not None
        free_ride(state, ctx, key, action, dest, events)
        after_action(state, ctx, key, events)
        if state.phase == "round":
            ctx.prompt = offer_ride(state, ctx, key)
    continue_live(state, events)


def resolve_step(state: RaceState, orders: dict[str, dict[str, Any]], events: list[Event] | None) -> None:
    """One step of the race with every awaited, validated order: a placement, the live passes, an
    orders-mode round, or a live turn or wheel/relay answer. Changes ``state`` (the caller's copy, or a
    rollout's own state); its events are appended to ``events``, or not built at all when it is ``None``
    (a quiet rollout: the same state either way, the events only describe it)."""
    if state.phase == "place":
        ((entrant, order),) = orders.items()
        place(state, entrant, int(order["cyclist"]), events)
    elif state.phase == "passes":
        resolve_live_passes(state, orders, events)
    elif state.options["mode"] == "orders":
        resolve_orders_round(state, orders, events)
    else:
        ((entrant, order),) = orders.items()
        assert state.ctx is not None
        if state.ctx.prompt is not None:
            resolve_live_prompt(state, entrant, order, events)
        else:
            resolve_live_turn(state, entrant, order, events)
