"""A round of Mind Cycling: start of round (§4.2), each cyclist's action (§4.3, §6) and the end (§7).

Both input modes (D3) share this module: orders mode runs a whole round from intents in one go,
live mode runs it one action at a time, keeping the :class:`RoundContext` in the state between steps.
"""

from __future__ import annotations

from typing import Any

from engine.messages import Message, event
from engine.mind_cycling.movement import (
    base_maximum,
    can_enter,
    path_end_lane,
    seek_step,
    step_target,
)
from engine.mind_cycling.state import RaceState, RoundContext
from engine.mind_cycling.texts import ride_refusal_reason
from engine.ruleset import Event

FINISHERS_FOR_END = 12
"""D22: the race ends when the 12th cyclist crosses (all of them, with 12 or fewer)."""
SOLO_FINISHERS = 4
"""§8: solo ends when four cyclists have crossed."""


# --- start of the round ---------------------------------------------------------------------------
def possible_passes(state: RaceState) -> dict[str, str]:
    """D12: blue domestique -> the black-based team-mate directly behind it (bases at the round start)."""
    passes: dict[str, str] = {}
    occupied = state.where()
    for c in state.cyclists.values():
        if not (c.on_road and c.role == "domestique" and c.bottle):
            continue
        behind = occupied.get((c.row - 1, c.lane))
        if behind is not None and behind.entrant == c.entrant and not behind.bottle:
            passes[c.key] = behind.key
    return passes


def on_road_numbers(state: RaceState, entrant: str) -> list[int]:
    """The numbers of ``entrant``'s cyclists still on the road."""
    return [c.number for c in state.team(entrant) if c.on_road]


def projected_bottles(
    state: RaceState, entrant: str, intents: dict[str, Any], legal: dict[str, str] | None = None
) -> dict[int, bool]:
    """Bases after this order's own passes (D12: only team-mates, so nobody else changes them); ``legal``:
    :func:`possible_passes` of the state, if already known."""
    bases = {c.number: c.bottle for c in state.team(entrant)}
    legal = possible_passes(state) if legal is None else legal
    for n, intent in intents.items():
        to = intent.get("pass_to")
        giver = f"{entrant}#{n}"
        if to and legal.get(giver) == f"{entrant}#{to}":
            bases[int(n)] = False
            bases[int(to)] = True
    return bases


def apply_passes(state: RaceState, wanted: dict[str, str], events: list[Event] | None) -> None:
    """D12: every pass is checked against the bases at the start of the round, then all apply together."""
    legal = possible_passes(state)
    done: list[tuple[str, str]] = []
    for giver, receiver in wanted.items():
        if legal.get(giver) == receiver:
            done.append((giver, receiver))
        else:
            if events is not None:
                events.append(
                    event(
                        "mc.pass_ignored",
                        "{giver} can't pass its bottle to {receiver}: only a domestique with a bottle passes it, to a "
                        "team-mate without one directly behind it. The pass is ignored.",
                        giver=state.label(giver),
                        receiver=state.label(receiver) if receiver in state.cyclists else receiver,
                        cyclist=giver,
                    )
                )
    for giver, receiver in done:
        state.cyclists[giver].bottle = False
        state.cyclists[receiver].bottle = True
        if events is not None:
            events.append(
                event(
                    "mc.bottle_pass",
                    "{giver} passes its bottle to {receiver}.",
                    giver=state.label(giver),
                    receiver=state.label(receiver),
                    cyclist=giver,
                    to=receiver,
                )
            )


def movement_order(state: RaceState) -> list[str]:
    """§4.1 / D10: furthest first; on the same row the cyclist on the left (lower lane) first."""
    road = [c for c in state.cyclists.values() if c.on_road]
    return [c.key for c in sorted(road, key=lambda c: (-c.row, c.lane))]


def start_round(state: RaceState, events: list[Event] | None) -> RoundContext:
    """§4.2 steps 2-4 (after the passes): wind, fatigue and trains, fixed for the whole round."""
    order = movement_order(state)
    occupied = {(state.cyclists[k].row, state.cyclists[k].lane): k for k in order}
    wind: list[str] = []
    front: dict[str, str] = {}
    for key in order:
        c = state.cyclists[key]
        ahead = occupied.get((c.row + 1, c.lane))
        if ahead is None:
            wind.append(key)  # §4.2: nobody directly in front (rocks give no shelter)
        else:
            front[key] = ahead  # D13: same lane, consecutive rows
    fatigued = [k for k in order if state.cyclists[k].role == "domestique" and not state.cyclists[k].bottle]
    train: dict[str, list[str]] = {}
    for key in order:
        c = state.cyclists[key]
        if key in front or (c.row - 1, c.lane) not in occupied:
            continue
        members = [key]
        row = c.row - 1
        while (row, c.lane) in occupied:
            members.append(occupied[(row, c.lane)])
            row -= 1
        for m in members:
            train[m] = members
    ctx = RoundContext(
        order=order,
        wind=wind,
        fatigued=fatigued,
        front=front,
        train=train,
        start_rows={k: state.cyclists[k].row for k in order},
    )
    if events is not None:
        events.append(
            event(
                "mc.round_start",
                "Round {round}: {count} cyclist on the road; {wind} in the wind."
                if len(order) == 1
                else "Round {round}: {count} cyclists on the road; {wind} in the wind.",
                round=state.round,
                count=len(order),
                wind=len(wind),
                order=list(order),
                in_wind=list(wind),
                fatigued=list(fatigued),
                trains=[list(m) for k, m in train.items() if m[0] == k],
            )
        )
    return ctx


def maximum(state: RaceState, ctx: RoundContext, key: str) -> int:
    """The normal maximum of ``key`` this round (§5.2)."""
    return base_maximum(state, state.cyclists[key], key in ctx.wind, key in ctx.fatigued)


# --- wheel and relay ------------------------------------------------------------------------------
def ride_refusal(state: RaceState, ctx: RoundContext, key: str) -> Message | None:
    """Why ``key`` may neither wheel nor relay now (§6.1, §6.2), or None."""
    c = state.cyclists[key]
    if key not in ctx.front:
        return ride_refusal_reason("not_in_train")  # D15
    if key in ctx.declined:
        return ride_refusal_reason("declined")
    if c.role == "sprinter" and state.course.section_kind(ctx.start_rows[key]) == "mountain":
        return ride_refusal_reason("sprinter_mountain")  # §6.1
    if key in ctx.fatigued:
        return ride_refusal_reason("fatigued")
    if ctx.front[key] in ctx.attacked:
        return ride_refusal_reason("front_attacked")
    members = ctx.train[key]
    ahead = members[: members.index(key)]
    if any(m in ctx.crossed for m in ahead):
        return ride_refusal_reason("train_broken")
    return None


def wheel_target(state: RaceState, ctx: RoundContext, key: str) -> tuple[tuple[int, int] | None, Message | None]:
    """D16: the space directly behind the followed cyclist's current position (or why not)."""
    refusal = ride_refusal(state, ctx, key)
    if refusal:
        return None, refusal
    leader = state.cyclists[ctx.front[key]]
    me = state.cyclists[key]
    dest = (leader.row - 1, leader.lane)
    if dest == (me.row, me.lane):
        return dest, None
    if dest in state.course.rocks or state.at(*dest) is not None:
        return None, ride_refusal_reason("wheel_space", who=state.label(leader.key), row=dest[0], lane=dest[1])
    return dest, None


def relay_target(state: RaceState, ctx: RoundContext, key: str) -> tuple[tuple[int, int] | None, Message | None]:
    """D16: the space directly in front of the train's frontmost cyclist now (or why not)."""
    refusal = ride_refusal(state, ctx, key)
    if refusal:
        return None, refusal
    members = ctx.train[key]
    if members.index(key) > 3:
        return None, ride_refusal_reason("not_front_four")  # §6.2
    others = [state.cyclists[m] for m in members if m != key and state.cyclists[m].on_road]
    front = min(others, key=lambda c: (-c.row, c.lane))
    dest = (front.row + 1, front.lane)
    if dest[0] <= state.course.last_row and (dest in state.course.rocks or state.at(*dest) is not None):
        return None, ride_refusal_reason("relay_space", who=state.label(front.key), row=dest[0], lane=dest[1])
    return dest, None


# --- actions -------------------------------------------------------------------------------------
def _cross(state: RaceState, ctx: RoundContext, key: str, events: list[Event] | None) -> None:
    c = state.cyclists[key]
    c.crossed = True
    state.finish_order.append(key)
    c.place = len(state.finish_order)
    c.finish_round = state.round
    ctx.crossed.append(key)
    if events is not None:
        events.append(
            event(
                "mc.crossed",
                "{who} crosses the finish line in place {place}.",
                who=state.label(key),
                cyclist=key,
                place=c.place,
                round=state.round,
            )
        )


def ride(
    state: RaceState,
    ctx: RoundContext,
    key: str,
    steps: int,
    path: list[str] | None,
    lane: int | None,
    attack: bool,
    events: list[Event] | None,
) -> int:
    """A normal move or an attack of up to ``steps`` steps (D4, D17, D23); returns the steps taken.

    Follows ``path`` while it can; a blocked path step hands the rest to lane-seeking towards the
    lane where the path would have ended (D23); without a path it seeks ``lane`` (default: its own).
    """
    c = state.cyclists[key]
    start = (c.row, c.lane)
    refill = c.role == "domestique" and not c.bottle and not attack  # D17, D18: none while attacking
    plan = list(path[:steps]) if path else []
    target_lane = path_end_lane(c.lane, plan) if plan else (lane or c.lane)
    seeking = not plan
    taken = 0
    crossing = False
    # Nobody else moves during this move, and its own space is never a step ahead: who blocks is fixed now.
    occupied = state.where()
    while taken < steps:
        step: str | None = None
        if not seeking and taken >= len(plan):
            seeking = True
        if not seeking:
            wanted = plan[taken]
            if can_enter(state, *step_target(c.row, c.lane, wanted), occupied):
                step = wanted
            else:
                seeking = True
                if events is not None:
                    events.append(
                        event(
                            "mc.path_blocked",
                            "{who}: step {n} ({step}) of its path is blocked; it seeks lane {lane} for the rest.",
                            who=state.label(key),
                            cyclist=key,
                            n=taken + 1,
                            step=wanted,
                            lane=target_lane,
                        )
                    )
        if seeking:
            step = seek_step(state, c.row, c.lane, target_lane, occupied)
            if step is None:
                break
        assert step is not None
        row, new_lane = step_target(c.row, c.lane, step)
        taken += 1
        if row > state.course.last_row:
            c.lane = new_lane
            crossing = True
            break  # D4: the move ends on the line, the rest is lost
        c.row, c.lane = row, new_lane
        if refill and (row, new_lane) in state.course.supply:
            c.bottle = True  # §6.5: blue at once; this move keeps its maximum (D17)
            refill = False
            if events is not None:
                events.append(
                    event(
                        "mc.refill",
                        "{who} takes a bottle at the feed zone on row {row}, lane {lane}.",
                        who=state.label(key),
                        cyclist=key,
                        row=row,
                        lane=new_lane,
                    )
                )
    if attack:
        c.bottle = False  # D18: thrown away at the end of the attacking move, even if blocked
    # One kind per sentence, so a translator has one template for each: a move that ends on the road,
    # and one that crosses the line (the steps taken of those allowed, counted without a plural noun).
    if crossing:
        kind = "mc.attack_finish" if attack else "mc.move_finish"
        text = (
            "{who} attacks from row {from_row}, lane {from_lane} over the finish line (steps: {taken} of {steps})."
            if attack
            else "{who} moves from row {from_row}, lane {from_lane} over the finish line (steps: {taken} of {steps})."
        )
    else:
        kind = "mc.attack" if attack else "mc.move"
        text = (
            "{who} attacks from row {from_row}, lane {from_lane} to row {row}, lane {lane} (steps: {taken} of {steps})."
            if attack
            else "{who} moves from row {from_row}, lane {from_lane} to row {row}, lane {lane} "
            "(steps: {taken} of {steps})."
        )
    if events is not None:
        events.append(
            event(
                kind,
                text,
                who=state.label(key),
                cyclist=key,
                taken=taken,
                steps=steps,
                from_row=start[0],
                from_lane=start[1],
                row=c.row,
                lane=c.lane,
                crossed=crossing,
            )
        )
    if crossing:
        _cross(state, ctx, key, events)
    return taken


def free_ride(
    state: RaceState, ctx: RoundContext, key: str, kind: str, dest: tuple[int, int], events: list[Event] | None
) -> None:
    """D15: a wheel or relay moves straight to its destination, no maximum and no path."""
    c = state.cyclists[key]
    start = (c.row, c.lane)
    if dest[0] > state.course.last_row:
        c.lane = dest[1]
        if events is not None:
            events.append(
                event(
                    "mc.relay_finish",
                    "{who} relays over the finish line.",
                    who=state.label(key),
                    cyclist=key,
                    row=dest[0],
                    lane=dest[1],
                )
            )
        _cross(state, ctx, key, events)
        return
    c.row, c.lane = dest
    if events is not None:
        events.append(
            event(
                "mc.wheel" if kind == "wheel" else "mc.relay",
                "{who} wheels to row {row}, lane {lane}."
                if kind == "wheel"
                else "{who} relays to row {row}, lane {lane}.",
                who=state.label(key),
                cyclist=key,
                row=dest[0],
                lane=dest[1],
                from_row=start[0],
                from_lane=start[1],
            )
        )


def after_action(state: RaceState, ctx: RoundContext, key: str, events: list[Event] | None) -> None:
    """Record the action: section exits (D20) and the end of a race at its 12th finisher (D22)."""
    ctx.acted.append(key)
    c = state.cyclists[key]
    for kind, section in (("sprint", state.course.medal_sprint), ("mountain", state.course.medal_mountain)):
        if section is None or state.section_winners.get(kind):
            continue
        if c.crossed or c.row > section.last:
            state.section_winners[kind] = key
            if events is not None:
                events.append(
                    event(
                        "mc.sprint_exit" if kind == "sprint" else "mc.mountain_exit",
                        "{who} is the first out of the sprint section."
                        if kind == "sprint"
                        else "{who} is the first out of the mountain section.",
                        who=state.label(key),
                        cyclist=key,
                    )
                )
    if not state.solo and len(state.finish_order) >= min(FINISHERS_FOR_END, len(state.cyclists)):
        finish_race(state, events)


def finish_race(state: RaceState, events: list[Event] | None) -> None:
    state.phase = "done"
    state.ctx = None
    if events is not None:
        events.append(event("mc.race_over", "The race is over after round {round}.", round=state.round))


def next_actor(state: RaceState, ctx: RoundContext) -> str | None:
    """The next cyclist to act at its own place in the movement order (D10)."""
    for key in ctx.order:
        if key not in ctx.acted and state.cyclists[key].on_road:
            return key
    return None


# --- end of the round ------------------------------------------------------------------------------
def end_round(state: RaceState, events: list[Event] | None) -> None:
    """Solo scoring (D25), the round limit (D22), else the next round."""
    state.ctx = None
    if state.solo and len(state.finish_order) >= SOLO_FINISHERS:
        rest = [c for c in state.cyclists.values() if c.key not in state.finish_order[:SOLO_FINISHERS]]
        fifth = rest[0] if rest else None
        remaining = 0 if fifth is None or fifth.crossed else state.course.last_row - fifth.row + 1
        state.solo_score = {"rounds": state.round, "remaining": remaining}
        if events is not None:
            events.append(
                event(
                    "mc.solo_score",
                    "Four cyclists are across after round {rounds}. Spaces left for the fifth: {remaining}.",
                    rounds=state.round,
                    remaining=remaining,
                )
            )
        finish_race(state, events)
        return
    limit = state.options.get("max_rounds") or state.course.last_row
    if state.round >= limit:
        state.round_limit_reached = True
        for key in movement_order(state):  # D22: furthest first, ties to the left
            c = state.cyclists[key]
            state.finish_order.append(key)
            c.place = len(state.finish_order)
        if events is not None:
            events.append(
                event(
                    "mc.round_limit",
                    "The round limit ({limit}) is reached: the cyclists on the road take the next places.",
                    limit=limit,
                )
            )
        finish_race(state, events)
        return
    state.round += 1
    begin_round(state, events)


def begin_round(state: RaceState, events: list[Event] | None) -> None:
    """Open a round: orders mode waits for intents; live mode asks for bottle passes, if any."""
    if state.options["mode"] == "orders":
        state.phase = "round"
        return
    if possible_passes(state):
        state.phase = "passes"
        return
    state.phase = "round"
    state.ctx = start_round(state, events)
    continue_live(state, events)


def continue_live(state: RaceState, events: list[Event] | None) -> None:
    """Live mode: end the round once nobody is left to act."""
    ctx = state.ctx
    if ctx is None or ctx.prompt is not None:
        return
    if next_actor(state, ctx) is None:
        end_round(state, events)


def offer_ride(state: RaceState, ctx: RoundContext, leader: str) -> str | None:
    """Live mode (§9.3): the cyclist that started directly behind ``leader``, if it can wheel or relay now."""
    follower = ctx.behind(leader)
    if follower is None or follower in ctx.acted or not state.cyclists[follower].on_road:
        return None
    if wheel_target(state, ctx, follower)[0] or relay_target(state, ctx, follower)[0]:
        return follower
    return None
