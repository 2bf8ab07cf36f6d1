"""The decisions a Mind Cycling race awaits now (§3.3, §9.2, §9.3), with the fields a panel renders.

Grid placement asks one player for a cyclist; orders mode asks every team with cyclists on the road for
an intent per cyclist (its action first, then its optional steps, lane and bottle pass); live mode asks
for the bottle passes before a round, then one cyclist at a time for its move or attack, and the
cyclist behind a mover whether it wheels or relays now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, msg
from engine.mind_cycling import resolution
from engine.mind_cycling.course import OWN_SECTION
from engine.mind_cycling.movement import ATTACK_BONUS, base_maximum, may_attack, planned_maximum, sheltered
from engine.mind_cycling.rounds import (
    maximum,
    next_actor,
    on_road_numbers,
    possible_passes,
    projected_bottles,
    relay_target,
    wheel_target,
)
from engine.mind_cycling.state import Cyclist, RaceState, RoundContext
from engine.mind_cycling.texts import (
    action_label,
    cyclist_info,
    cyclist_label,
    keep_label,
    lane_label,
    modifiers_info,
    pass_to_label,
)
from engine.ruleset import Decision, InputField, Order, choice


def awaited(state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
    """The decisions pending now, each given what its entrant has sent so far (``partial``)."""
    partial = partial or {}
    if state.phase == "done":
        return []
    if state.phase == "place":
        found = resolution.placer(state)
        assert found is not None
        return [_place_decision(state, found[0], partial.get(found[0], {}))]
    if state.phase == "passes":
        givers = sorted({state.cyclists[k].entrant for k in possible_passes(state)}, key=state.entrants.index)
        return [_passes_decision(state, e, partial.get(e, {})) for e in givers]
    if state.options["mode"] == "orders":
        return [_intents_decision(state, e, partial.get(e, {})) for e in state.entrants if on_road_numbers(state, e)]
    ctx = state.ctx
    assert ctx is not None
    if ctx.prompt is not None:
        c = state.cyclists[ctx.prompt]
        return [_prompt_decision(state, ctx, c, partial.get(c.entrant, {}))]
    key = next_actor(state, ctx)
    assert key is not None
    c = state.cyclists[key]
    return [_turn_decision(state, ctx, c, partial.get(c.entrant, {}))]


def _place_decision(state: RaceState, entrant: str, partial: Order) -> Decision:
    row, lane = resolution.next_slot(state)
    unplaced = [c for c in state.team(entrant) if not c.placed]
    field = InputField(
        path=["cyclist"],
        label=msg("mc.field_cyclist", "Cyclist"),
        kind="choice",
        choices=[choice(c.number, cyclist_label(c)) for c in unplaced],
    )
    chosen = "cyclist" in partial
    return Decision(
        entrant=entrant,
        kind="place",
        prompt=msg(
            "mc.prompt_place", "Choose the cyclist for the grid slot on row {row}, lane {lane}", row=row, lane=lane
        ),
        fields=[] if chosen else [field],
        partial=dict(partial),
        complete=chosen,
        example=f"#{unplaced[0].number}",
    )


def _intents_decision(state: RaceState, entrant: str, partial: Order) -> Decision:
    """Orders mode: each cyclist's action first, then its optional steps, lane and bottle pass."""
    road = [c for c in state.team(entrant) if c.on_road]
    intents: dict[str, Any] = dict(partial.get("intents", {}))
    bottles = projected_bottles(state, entrant, intents)
    info: list[Message] = []
    for c in road:
        wind, fatigued = not sheltered(state, c), c.role == "domestique" and not bottles[c.number]
        info.append(cyclist_info(c, bottles[c.number], base_maximum(state, c, wind, fatigued)))
        info += modifiers_info(c, base_maximum(state, c, False, False), wind, fatigued)
    undecided = [c for c in road if "action" not in intents.get(str(c.number), {})]
    if undecided:
        fields = [_action_field(state, undecided[0], bottles[undecided[0].number])]
    else:
        # Every cyclist's optional parts at once, each field grouped by its cyclist (a panel pages them).
        fields = [f for c in road for f in _detail_fields(state, c, intents[str(c.number)], bottles[c.number])]
    if fields:
        fields.append(InputField(path=[], label=msg("mc.field_text", "Orders as text"), kind="text", required=False))
    return Decision(
        entrant=entrant,
        kind="intents",
        prompt=msg(
            "mc.prompt_intents",
            "Round {round}: give an intent to each of your cyclists on the road",
            round=state.round,
        )
        if len(undecided) == len(road) or not undecided
        else msg(
            "mc.prompt_intents_missing",
            "Round {round}: still to give an intent to {missing}",
            round=state.round,
            missing=", ".join(f"#{c.number}" for c in undecided),
        ),
        fields=fields,
        partial=dict(partial),
        complete=not undecided,
        example="; ".join(f"#{c.number} move" for c in road),
        info=info,
    )


def _action_field(state: RaceState, c: Cyclist, bottle: bool) -> InputField:
    """The actions worth offering from the positions at the start of the round."""
    actions = ["move"]
    if bottle and state.course.section_kind(c.row) == OWN_SECTION[c.role]:
        actions.append("attack")
    ahead = 0
    while state.at(c.row + ahead + 1, c.lane) is not None:
        ahead += 1
    fatigued = c.role == "domestique" and not bottle
    climbing_sprinter = c.role == "sprinter" and state.course.section_kind(c.row) == "mountain"
    if ahead and not fatigued and not climbing_sprinter:
        actions += ["wheel", "relay"] if ahead <= 3 else ["wheel"]  # §6.2: the front four relay
    return InputField(
        path=["intents", str(c.number), "action"],
        label=msg("mc.field_action", "#{n}: action", n=c.number),
        kind="choice",
        choices=[choice(a, action_label(a)) for a in actions],
        group=cyclist_label(c),
    )


def _detail_fields(state: RaceState, c: Cyclist, intent: dict[str, Any], bottle: bool) -> list[InputField]:
    """The optional parts of one cyclist's intent still open: steps, lane, bottle pass."""
    n = str(c.number)
    fields: list[InputField] = []
    if intent["action"] in ("move", "attack") and "distance" not in intent:
        top = planned_maximum(state, c, bottle) + (ATTACK_BONUS if intent["action"] == "attack" else 0)
        fields.append(
            InputField(
                path=["intents", n, "distance"],
                label=msg("mc.field_distance", "#{n}: steps", n=c.number),
                kind="number",
                minimum=0,
                maximum=top,
                required=False,
                group=cyclist_label(c),
            )
        )
    if "lane" not in intent and "path" not in intent:
        fields.append(
            InputField(
                path=["intents", n, "lane"],
                label=msg("mc.field_lane", "#{n}: lane to seek", n=c.number),
                kind="choice",
                choices=[choice(k, lane_label(k)) for k in range(1, state.course.lanes + 1)],
                required=False,
                group=cyclist_label(c),
            )
        )
    receiver = possible_passes(state).get(c.key)
    if receiver is not None and "pass_to" not in intent:
        to = state.cyclists[receiver].number
        fields.append(
            InputField(
                path=["intents", n, "pass_to"],
                label=msg("mc.field_pass", "#{n}: pass the bottle?", n=c.number),
                kind="choice",
                choices=[choice(to, pass_to_label(to)), choice(0, keep_label())],
                required=False,
                group=cyclist_label(c),
            )
        )
    return fields


def _passes_decision(state: RaceState, entrant: str, partial: Order) -> Decision:
    passes = dict(partial.get("passes", {}))
    fields = []
    for giver, receiver in possible_passes(state).items():
        g, r = state.cyclists[giver], state.cyclists[receiver]
        if g.entrant == entrant and str(g.number) not in passes:
            fields.append(
                InputField(
                    path=["passes", str(g.number)],
                    label=msg("mc.field_pass", "#{n}: pass the bottle?", n=g.number),
                    kind="choice",
                    choices=[choice(r.number, pass_to_label(r.number)), choice(0, keep_label())],
                    group=cyclist_label(g),
                )
            )
    return Decision(
        entrant=entrant,
        kind="passes",
        prompt=msg("mc.prompt_passes", "Round {round}: pass water bottles before the round?", round=state.round),
        fields=fields[:1],
        partial=dict(partial),
        complete=not fields,
        example="pass",
    )


def _turn_decision(state: RaceState, ctx: RoundContext, c: Cyclist, partial: Order) -> Decision:
    top = maximum(state, ctx, c.key)
    fields: list[InputField] = []
    action = partial.get("action")
    if action is None:
        choices = [choice("move", action_label("move"))]
        if may_attack(state, c):
            choices.append(choice("attack", action_label("attack")))
        fields.append(
            InputField(
                path=["action"],
                label=msg("mc.field_action_live", "Action"),
                kind="choice",
                choices=choices,
                group=cyclist_label(c),
            )
        )
    elif "path" not in partial:
        most = top + (ATTACK_BONUS if action == "attack" else 0)
        if "distance" not in partial:
            fields.append(
                InputField(
                    path=["distance"],
                    label=msg("mc.field_steps", "Steps"),
                    kind="number",
                    minimum=0,
                    maximum=most,
                    required=False,
                    group=cyclist_label(c),
                )
            )
        if "lane" not in partial:
            fields.append(
                InputField(
                    path=["lane"],
                    label=msg("mc.field_lane_live", "Lane to seek"),
                    kind="choice",
                    choices=[choice(k, lane_label(k)) for k in range(1, state.course.lanes + 1)],
                    required=False,
                    group=cyclist_label(c),
                )
            )
    if fields:
        fields.append(
            InputField(path=[], label=msg("mc.field_text_live", "Answer as text"), kind="text", required=False)
        )
    return Decision(
        entrant=c.entrant,
        kind="turn",
        prompt=msg(
            "mc.prompt_turn",
            "{who} is next: move or attack (maximum {top})",
            who=state.label(c.key),
            top=top,
        ),
        fields=fields,
        partial=dict(partial),
        complete=action is not None,
        example="move F,F,FL,F",
        info=[
            msg("mc.info_where", "Row {row}, lane {lane}", row=c.row, lane=c.lane),
            *modifiers_info(c, base_maximum(state, c, False, False), c.key in ctx.wind, c.key in ctx.fatigued),
        ],
    )


def _prompt_decision(state: RaceState, ctx: RoundContext, c: Cyclist, partial: Order) -> Decision:
    choices = []
    if wheel_target(state, ctx, c.key)[0] is not None:
        choices.append(choice("wheel", action_label("wheel")))
    if relay_target(state, ctx, c.key)[0] is not None:
        choices.append(choice("relay", action_label("relay")))
    choices.append(choice("later", action_label("later")))
    done = "action" in partial
    return Decision(
        entrant=c.entrant,
        kind="wheel_or_relay",
        prompt=msg(
            "mc.prompt_ride",
            "{leader} has moved: does {who} wheel or relay now, or act later?",
            leader=state.label(ctx.front[c.key]),
            who=state.label(c.key),
        ),
        fields=[]
        if done
        else [
            InputField(
                path=["action"],
                label=msg("mc.field_ride", "Wheel or relay"),
                kind="choice",
                choices=choices,
                group=cyclist_label(c),
            )
        ],
        partial=dict(partial),
        complete=done,
        example="wheel",
    )


def awaited_entrants(state: RaceState) -> set[str]:
    """Who :func:`awaited` asks now, without building the decisions (``validate`` runs on every order)."""
    if state.phase == "done":
        return set()
    if state.phase == "place":
        found = resolution.placer(state)
        return {found[0]} if found else set()
    if state.phase == "passes":
        return {state.cyclists[k].entrant for k in possible_passes(state)}
    if state.options["mode"] == "orders":
        return {c.entrant for c in state.cyclists.values() if c.on_road}
    ctx = state.ctx
    assert ctx is not None
    key = ctx.prompt or next_actor(state, ctx)
    return {state.cyclists[key].entrant} if key else set()


def awaited_ids(state: RaceState) -> list[str]:
    """The entrants :func:`awaited` returns decisions for, in the same order (the race's entrant order)."""
    awaited = awaited_entrants(state)
    return [e for e in state.entrants if e in awaited]
