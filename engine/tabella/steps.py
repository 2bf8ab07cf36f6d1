"""A step of the race: plan mode plays every round left at once (D1), live mode the round at hand; then the
race's end and the Gazzetta (D21)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.messages import event
from engine.ruleset import Event, Order, OrderMeta
from engine.tabella import gazzetta
from engine.tabella.context import Intent
from engine.tabella.orders import automatic_order, awaited_ids, checked, context, names_of, specials_in
from engine.tabella.rounds import resolve_round
from engine.tabella.state import LAST_ROUND, MIN_PLAYERS, ROUNDS, RaceState
from engine.tabella.syntax import format_order


def resolve(
    state: RaceState, orders: Mapping[str, Order], meta: Mapping[str, OrderMeta] | None = None
) -> tuple[RaceState, list[Event]]:
    """``meta`` gives each order's ``received_at`` (D6's third priority key) and ``auto`` (the plan
    event says an absent player's plan was the automatic one)."""
    new = state.copy()
    events: list[Event] = []
    if new.over:
        raise ValueError("the race is over: nothing to resolve")
    awaited = awaited_ids(new)
    strangers = sorted(set(orders) - set(awaited))
    if strangers:
        raise ValueError(f"orders from riders who are not awaited: {', '.join(strangers)}")
    meta = meta or {}
    valid = {rid: checked(new, rid, order, meta.get(rid)) for rid, order in orders.items()}
    if new.mode == "plan":
        _resolve_plan(new, valid, events)
    else:
        _resolve_live(new, valid, events)
    if new.over:
        gazzetta.finish_race(new, events)
    return new, events


def _resolve_plan(state: RaceState, orders: Mapping[str, Order], events: list[Event]) -> None:
    names = names_of(state)
    for rider in state.riders:
        if rider.status not in ("waiting", "racing"):
            continue
        plan = orders.get(rider.id)
        if plan is None:
            rider.status = "dns"  # D8: no plan, no start
            events.append(
                event("td.did_not_start", "{name} sent no plan and does not start.", rider=rider.id, name=rider.name)
            )
            continue
        if plan.get("received_at") is not None:  # else the setup's order_time stands
            rider.order_time = plan["received_at"]
        if state.round == 0:
            rider.status = "racing"
            rider.reinforced = bool(plan.get("bibitone"))  # D20: fixed at the start
        events.append(
            event(
                "td.plan",
                "{name}'s plan: {plan_text}",
                rider=rider.id,
                name=rider.name,
                plan_text=format_order(plan, names),
                auto=bool(plan.get("auto")),
            )
        )
    starters = [r for r in state.riders if r.status in ("racing", "exhausted")]
    if state.round == 0 and len(starters) < MIN_PLAYERS:
        state.void = True  # D8: fewer than 2 starters -> void: the race is not run
        for rider in starters:
            rider.status = "waiting"
        count = len(starters)
        one = "Only {count} rider started: the race is void and awards no points."
        other = "Only {count} riders started: the race is void and awards no points."
        events.append(event("td.void", one if count == 1 else other, count=count))  # plural by count
        return
    for number in range(state.round, LAST_ROUND + 1):
        if state.over:
            break
        intents = {r.id: intent(orders[r.id], number) for r in state.riders if r.racing}
        events += resolve_round(state, number, intents).events


def _resolve_live(state: RaceState, orders: Mapping[str, Order], events: list[Event]) -> None:
    number = state.round
    ctx_orders: dict[str, Order] = {}
    for rid in awaited_ids(state):
        order = orders.get(rid)
        if order is None:
            # D8: live mode plays the automatic order for a missing one.
            order = {**automatic_order(context(state, rid)), "auto": True}
        ctx_orders[rid] = order
        rider = state.rider(rid)
        if order.get("received_at") is not None:  # D6: the time of this round's order; until a step
            rider.order_time = order["received_at"]  # gives one, the setup's order_time stands
        if number == 0:
            rider.status = "racing"
            rider.reinforced = bool(order.get("bibitone"))
    intents = {rid: intent(order, number) for rid, order in ctx_orders.items()}
    events += resolve_round(state, number, intents).events


def publish(state: RaceState) -> tuple[RaceState, list[Event]]:
    """Publish the Gazzetta's front page (D21): the result stops being provisional."""
    if not state.over or state.void:
        raise ValueError("the Gazzetta is published only after a race that was run")
    if state.gazzetta_published:
        raise ValueError("the Gazzetta has already been published")
    new = state.copy()
    return new, [gazzetta.publish(new)]


def intent(order: Order, number: int) -> Intent:
    label = ROUNDS[number]
    intent = Intent(specials=specials_in(order, number))
    if number == 0:
        intent.start = order["start"]
    elif number <= 5:
        intent.effort, intent.dir = order[label]["effort"], order[label]["dir"]
    else:
        intent.intensity = order[label]
    return intent
