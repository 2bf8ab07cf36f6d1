"""What a player is asked: the prompt, the one-message text field and the step-by-step fields (§8).

The fields drive generic front ends: a ``text`` field with an empty path takes the whole order in the
forum syntax; choice and number fields build the same order one part at a time, in the order a
player would decide it (start, each move's effort and direction, the sprint, then the extras).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, OrderError, cached_msg, msg, phrases
from engine.ruleset import Choice, Decision, InputField, Order
from engine.tabella.orders import awaited_ids, context, is_whole, special_parts_missing, validate
from engine.tabella.state import ROUNDS, RaceState
from engine.tabella.syntax import example_text, format_order
from engine.tabella.table import ROW_NAMES
from engine.tabella.vocabulary import (
    ALLOWED_ROUNDS,
    SPECIAL_NAMES,
    START_TITLES,
    OrderContext,
    part_name,
    special_name,
)

START_LABELS = {
    "A": ("td.choice.start_a", "A Aggressiva"),
    "B": ("td.choice.start_b", "B Bersagliera"),
    "C": ("td.choice.start_c", "C Cavaliera"),
}
"""How a player reads each start (§5.2): the letter the syntax uses and the start's Italian title."""
DIRECTION_LABELS = {"S": ("td.choice.dir_s", "S ↑"), "R": ("td.choice.dir_r", "R →"), "D": ("td.choice.dir_d", "D ↓")}
PUSH_LABELS = {"up": ("td.choice.push_up", "up (towards A)"), "down": ("td.choice.push_down", "down (towards C)")}
SPECIAL_LABELS = {
    "V": ("td.choice.special_v", "V Vigorilla"),
    "G": ("td.choice.special_g", "G Gomitata"),
    "J": ("td.choice.special_j", "J Gancio di traino"),
    "B": ("td.choice.special_b", "B Bottigliata"),
    "X": ("td.choice.special_x", "X Scia"),
    "P": ("td.choice.special_p", "P Mi alzo in piedi sui pedali"),
    "V2": ("td.choice.special_v2", "V2 stolen Vigorilla (V2)"),
    "B2": ("td.choice.special_b2", "B2 stolen bottle throw (B2)"),
}
"""Each special as a choice: its code and its name (§6)."""


def _label(pair: tuple[str, str]) -> Message:
    return cached_msg(pair[0], pair[1])


def round_choice(label: str) -> Choice:
    """A round as the syntax writes it (``start``, ``m3``, ``s2``), read as the player reads it."""
    if label == "start":
        return Choice(label, cached_msg("td.choice.round_start", "start"))
    if label.startswith("m"):
        return Choice(label, cached_msg("td.choice.round_move", "m{n}", n=int(label[1])))
    return Choice(label, cached_msg("td.choice.round_sprint", "s{n}", n=int(label[1])))


def awaited(state: RaceState, partial: Mapping[str, Order] | None = None) -> list[Decision]:
    """A decision for each rider asked for an order, showing what ``partial`` already holds."""
    partial = partial or {}
    out = []
    for rid in awaited_ids(state):
        mine = partial.get(rid)
        ctx = context(state, rid)
        order: Order = {}
        complete = False
        if mine:
            try:
                checked = validate(state, rid, mine)
            except OrderError:
                pass  # a broken partial shows as nothing chosen yet
            else:
                order, complete = checked.order, checked.complete
        out.append(decision_for(state, rid, order, complete, ctx))
    return out


def decision_for(state: RaceState, rid: str, order: Order, complete: bool, ctx: OrderContext) -> Decision:
    """What ``rid`` sees on its panel: the text field, the next step-by-step fields, the course."""
    rider = state.rider(rid)
    live = state.mode == "live"
    fields: list[InputField] = [
        InputField(
            path=[],
            label=msg("td.field.text", "Write it in one message"),
            kind="text",
            required=False,
        )
    ]
    fields += next_fields(state, ctx, order)
    missing = [part_name(ROUNDS[n]) for n in ctx.rounds if ROUNDS[n] not in order or not is_whole(order[ROUNDS[n]])]
    if live and complete:
        prompt = msg(
            "td.prompt.round_ready",
            "Your order: {order}. You may still change it until the round resolves.",
            order=format_order(order, ctx.names, live_round=state.round),
        )
    elif live:
        prompt = round_prompt(state.round)
    elif complete:
        prompt = msg(
            "td.prompt.plan_ready",
            "Your plan is complete: {plan}. You may still change it until the deadline.",
            plan=format_order(order, ctx.names),
        )
    else:
        prompt = msg(
            "td.prompt.plan",
            "Send your whole race plan: start, five route moves, three sprint moves and any specials "
            "(still missing: {missing})",
            missing=phrases(missing),
        )
    info = [
        msg("td.info.course", "{row} (row {number}): {pairs}", row=row, number=number, pairs=pairs)
        for row, number, pairs in state.course.drawn_rows()
    ]
    if rider.row is None:
        info.append(msg("td.info.rider", "{name}: Resistenza {r}, Velocità {v}", name=rider.name, r=rider.r, v=rider.v))
    else:
        info.append(
            msg(
                "td.info.rider_placed",
                "{name}: Resistenza {r}, Velocità {v}, in {cell}",
                name=rider.name,
                r=rider.r,
                v=rider.v,
                cell=f"{ROW_NAMES[rider.row]}{rider.pair or ''}",
            )
        )
    return Decision(
        entrant=rid,
        kind="round" if live else "plan",
        prompt=prompt,
        fields=fields,
        partial=order,
        complete=complete,
        required=live,  # D8: in plan mode a player who sends nothing does not start
        example=example_text(ctx),
        info=info,
    )


def round_prompt(number: int) -> Message:
    """What a live round asks: the start, a route move or a sprint move, with any specials."""
    label = ROUNDS[number]
    if number == 0:
        return cached_msg(
            "td.prompt.round_start",
            "Round {label}: choose your start (A Aggressiva, B Bersagliera, C Cavaliera), Bibitone or not, "
            "and any specials",
            label=label,
        )
    if number <= 5:
        return cached_msg(
            "td.prompt.round_move",
            "Round {label}: choose the effort (1-5) and the direction (S up, R straight, D down) of your move, "
            "and any specials",
            label=label,
        )
    return cached_msg(
        "td.prompt.round_sprint",
        "Round {label}: choose how much Resistenza to put into this sprint move, and any specials",
        label=label,
    )


def next_fields(state: RaceState, ctx: OrderContext, order: Order) -> list[InputField]:
    """The step-by-step fields: the first part of the order still missing (start, a move, the sprint)."""
    for n in ctx.rounds:
        label = ROUNDS[n]
        if n == 0 and "start" not in order:
            return [
                InputField(
                    path=["start"],
                    label=msg("td.field.start", "Start"),
                    kind="choice",
                    choices=[Choice(value=k, label=_label(START_LABELS[k])) for k in START_TITLES],
                )
            ]
        if 1 <= n <= 5 and not is_whole(order.get(label, {})):
            move = order.get(label) or {}
            fields = []
            if "effort" not in move:
                fields.append(
                    InputField(
                        path=[label, "effort"],
                        label=msg("td.field.effort", "Move {n}: effort", n=n),
                        kind="choice",
                        choices=[
                            Choice(value=e, label=cached_msg("td.choice.effort", "{effort}", effort=e))
                            for e in range(1, 6)
                        ],
                    )
                )
            if "dir" not in move:
                fields.append(
                    InputField(
                        path=[label, "dir"],
                        label=msg("td.field.dir", "Move {n}: direction", n=n),
                        kind="choice",
                        choices=[Choice(value=d, label=_label(DIRECTION_LABELS[d])) for d in ("S", "R", "D")],
                    )
                )
            return fields
        if n >= 6 and label not in order:
            return [
                InputField(
                    path=[label],
                    label=msg("td.field.sprint", "Sprint {n}: intensity", n=n - 5),
                    kind="number",
                    minimum=0,
                )
            ]
    extras = special_fields(state, ctx, order)
    extras += [
        InputField(
            path=["specials"],
            label=msg("td.field.specials", "Specials (like V@m3 bibitone, G@m2 @Luca down)"),
            kind="text",
            # The specials the order holds, named, so a front end reads them back as words (a text field
            # offers no buttons: these label the values it holds).
            choices=[Choice(value=e, label=special_entry_label(e, ctx)) for e in order.get("specials") or []],
            required=False,
        )
    ]
    if 0 in ctx.rounds and "bibitone" not in order:
        extras.insert(
            0,
            InputField(
                path=["bibitone"],
                label=msg("td.field.bibitone", "Bibitone (reinforced Vigorilla)?"),
                kind="choice",
                choices=[
                    Choice(value=False, label=cached_msg("td.choice.no", "No")),
                    Choice(value=True, label=cached_msg("td.choice.yes", "Yes")),
                ],
                required=False,
            ),
        )
    return extras


def special_entry_label(entry: Mapping[str, Any], ctx: OrderContext) -> Message:
    """A special of the order in words: "Vigorilla with m3", "Gomitata with start on Luca, up (towards A)"."""
    name = special_name(str(entry.get("code")))
    when = round_choice(str(entry.get("round"))).label
    target = entry.get("target")
    if target is None:
        return msg("td.choice.special_entry", "{name} with {round}", name=name, round=when)
    who = ctx.names.get(str(target), str(target))
    push = entry.get("dir")
    if push not in PUSH_LABELS:
        return msg(
            "td.choice.special_entry_target", "{name} with {round} on {target}", name=name, round=when, target=who
        )
    return msg(
        "td.choice.special_entry_push",
        "{name} with {round} on {target}, {push}",
        name=name,
        round=when,
        target=who,
        push=_label(PUSH_LABELS[push]),
    )


def special_fields(state: RaceState, ctx: OrderContext, order: Order) -> list[InputField]:
    """The specials as fields (§8.1), one at a time under ``special``: which special (those not used yet
    that this order's rounds allow, D9), then the round it goes with, its target among the other riders
    (those still racing, in live mode) and a Gomitata's push direction. The text field stays the fast path."""
    pending = order.get("special")
    if isinstance(pending, dict) and pending.get("code") in SPECIAL_NAMES:
        code = pending["code"]
        group = msg("td.group.special", "{name}", name=special_name(code))
        fields = []
        for part in special_parts_missing(pending, ctx):
            if part == "round":
                rounds = [ROUNDS[n] for n in ctx.rounds if n in ALLOWED_ROUNDS[code]]
                label = msg("td.field.special_round", "{name}: with which move", name=special_name(code))
                choices = [round_choice(r) for r in rounds]
            elif part == "target":
                label = msg("td.field.special_target", "{name}: target", name=special_name(code))
                choices = [
                    Choice(value=r.id, label=cached_msg("td.choice.rider", "{name}", name=r.name))
                    for r in state.riders
                    if r.id != ctx.entrant
                    and (ctx.mode != "live" or r.racing or (state.round == 0 and r.status == "waiting"))
                ]
            else:
                label = msg("td.field.special_dir", "{name}: push", name=special_name(code))
                choices = [Choice(value=d, label=_label(PUSH_LABELS[d])) for d in ("up", "down")]
            fields.append(InputField(["special", part], label, "choice", choices, None, None, False, group))
        return fields
    taken = ctx.used | {e["code"] for e in order.get("specials", [])}
    codes = [c for c in SPECIAL_NAMES if c not in taken and ALLOWED_ROUNDS[c] & set(ctx.rounds)]
    if not codes:
        return []
    return [
        InputField(
            path=["special", "code"],
            label=msg("td.field.special", "Add a special"),
            kind="choice",
            choices=[Choice(value=c, label=_label(SPECIAL_LABELS[c])) for c in codes],
            required=False,
        )
    ]
