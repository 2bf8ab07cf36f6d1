"""Resolving one round: the start, a route move or a sprint move (rules §5.2-§5.4, §6.9).

The step order of each kind of round is the one of D10, D11 and D16; every step after the riders'
own moves goes through the round's priority list (D7).
"""

from __future__ import annotations

from engine.messages import cached_msg, msg
from engine.rng import Rng
from engine.tabella.collision import enter
from engine.tabella.context import Intent, RoundContext
from engine.tabella.priority import priority_order
from engine.tabella.specials import bottigliata, drink, gancio, gomitata, scia, stand_up
from engine.tabella.state import LAST_ROUND, ROUNDS, RaceState
from engine.tabella.table import ROW_NAMES, cell_name
from engine.tabella.vocabulary import counter_name

START_EFFECTS = {"A": (2, 2), "B": (1, 1), "C": (0, 0)}
"""§5.2: start -> (V gained, R paid)."""
ROW_STEP = {"S": -1, "D": 1, "R": 0}
START_TITLE_TEXTS = {
    "A": ("td.start.aggressiva", "Aggressiva"),
    "B": ("td.start.bersagliera", "Bersagliera"),
    "C": ("td.start.cavaliera", "Cavaliera"),
}
"""§5.2: each start's name, a message of its own (a translator may keep the Italian or not)."""


def new_context(state: RaceState, number: int, intents: dict[str, Intent]) -> RoundContext:
    """The round's context with its priority list, drawn from the race's random stream (D7)."""
    rng = Rng(state.rng)
    racing = [r for r in state.riders if r.racing]
    priority = priority_order(racing, rng)
    state.rng = rng.state
    return RoundContext(state=state, number=number, intents=intents, priority=priority, course=state.course)


def resolve_round(state: RaceState, number: int, intents: dict[str, Intent]) -> RoundContext:
    """Play round ``number`` on ``state`` (changed in place) with every racing rider's intent."""
    ctx = new_context(state, number, intents)
    name = counter_name(ROUNDS[number])  # the race's counter, in words: "Move 3." (the label stays notation)
    ctx.say("td.round", "{name}.", round=number, label=ROUNDS[number], name=name, priority=list(ctx.priority))
    if number == 0:
        _start(ctx)
    elif number <= 5:
        _route(ctx)
    else:
        _sprint(ctx)
    if number < LAST_ROUND:
        _exhaustion(ctx)
    state.round = number + 1
    return ctx


def _acting(ctx: RoundContext, code: str) -> list[str]:
    """Racing riders that declared ``code`` this round, in priority order."""
    return [rid for rid in ctx.priority if ctx.rider(rid).racing and code in ctx.intents[rid].specials]


def _drinks_and_pedals(ctx: RoundContext) -> None:
    for rid in ctx.priority:
        rider = ctx.rider(rid)
        for code in ("V", "V2"):
            if code in ctx.intents[rid].specials:
                drink(ctx, rider, code)
    for rid in _acting(ctx, "P"):
        stand_up(ctx, ctx.rider(rid))


def _gomitate_and_bottles(ctx: RoundContext, *, hooks: bool) -> None:
    for rid in _acting(ctx, "G"):
        gomitata(ctx, ctx.rider(rid))
    if hooks:
        for rid in _acting(ctx, "J"):
            gancio(ctx, ctx.rider(rid))
        for rid in _acting(ctx, "X"):
            scia(ctx, ctx.rider(rid))
    for rid in ctx.priority:
        for code in ("B", "B2"):
            if ctx.rider(rid).racing and code in ctx.intents[rid].specials:
                bottigliata(ctx, ctx.rider(rid), code)


def _start(ctx: RoundContext) -> None:
    """D10: start effects, drinks, P, Gomitate, Bottigliate; no collisions at the start."""
    for rid in ctx.priority:
        rider = ctx.rider(rid)
        start = ctx.intents[rid].start
        gain, cost = START_EFFECTS[start]
        rider.start = start
        rider.row = ROW_NAMES.index(start)
        rider.pair = 0
        rider.v += gain
        ctx.lose_r(rider, cost)
        ctx.say(
            "td.start",
            "{name} starts {title} from row {start} (R {r}, V {v}).",
            rider=rid,
            name=rider.name,
            start=start,
            title=cached_msg(*START_TITLE_TEXTS[start]),
            r=rider.r,
            v=rider.v,
        )
    _drinks_and_pedals(ctx)
    _gomitate_and_bottles(ctx, hooks=False)


def _route(ctx: RoundContext) -> None:
    """D11: steps 1-12 of a route move."""
    k = ctx.number
    _drinks_and_pedals(ctx)
    for rid in ctx.priority:  # steps 3-6: each rider alone
        rider = ctx.rider(rid)
        intent = ctx.intents[rid]
        free = rider.free_effort
        rider.free_effort = False
        paid = 0 if free else ctx.lose_r(rider, intent.effort)  # D15, D23
        assert rider.row is not None
        before = rider.row
        row = rider.row + ROW_STEP[intent.dir]
        if not 0 <= row <= 2:
            row = rider.row  # D12: only the sideways part is ignored
            ctx.sideways_ignored.add(rid)
        rider.row, rider.pair = row, k
        pair = ctx.course.pair(row, k)
        # D13: strictly greater; +1 above the lower digit, +2 above both.
        bonus = 2 if intent.effort > max(pair.a, pair.b) else 1 if intent.effort > min(pair.a, pair.b) else 0
        rider.v += bonus
        terrain_v = {"climb": -2, "descent": 2, "flat": 0}[pair.terrain]
        clamp = ctx.change_v(rider, terrain_v)  # D14: the climb's -2 is clamped at once
        ctx.say(
            "td.move",
            "{name} plays {effort}{dir}{free_text}: {frm} -> {cell} {pair_text}, bonus +{bonus}, "
            "terrain {terrain_v:+d}{clamp_text} (R {r}, V {v}).",
            rider=rid,
            name=rider.name,
            effort=intent.effort,
            dir=intent.dir,
            paid=paid,
            free=free,
            free_text=cached_msg("td.move.free", " (free, Gancio)") if free else "",
            frm=ROW_NAMES[before] + (str(k - 1) if k > 1 else ""),
            cell=cell_name(row, k),
            pair_text=pair.describe(),
            blocked=rid in ctx.sideways_ignored,
            bonus=bonus,
            terrain=pair.terrain,
            terrain_v=terrain_v,
            clamp=clamp,
            clamp_text=msg("td.move.clamp", ", V below 0 costs {clamp} R", clamp=clamp) if clamp else "",
            r=rider.r,
            v=rider.v,
        )
    for rid in ctx.priority:  # step 7: entries one at a time (D17)
        enter(ctx, rid)
    _gomitate_and_bottles(ctx, hooks=True)  # steps 8-11


def _sprint(ctx: RoundContext) -> None:
    """D16: drinks, P, intensity, Gomitate (no lane change), Bottigliate."""
    _drinks_and_pedals(ctx)
    for rid in ctx.priority:
        rider = ctx.rider(rid)
        wanted = ctx.intents[rid].intensity
        paid = ctx.lose_r(rider, wanted)  # D16: reduced to R, V gained = R paid
        rider.v += paid
        ctx.say(
            "td.sprint",
            "{name} sprints {paid}{reduced} (R {r}, V {v}).",
            rider=rid,
            name=rider.name,
            intensity=wanted,
            paid=paid,
            reduced=msg("td.sprint.reduced", " (of {asked} asked)", asked=wanted) if paid < wanted else "",
            r=rider.r,
            v=rider.v,
        )
    _gomitate_and_bottles(ctx, hooks=False)


def _exhaustion(ctx: RoundContext) -> None:
    """D27: at the end of rounds 0-7 a racing rider at R 0 that did not drink this round stops."""
    for rid in ctx.priority:
        rider = ctx.rider(rid)
        if rider.racing and rider.r == 0 and rid not in ctx.drank:
            rider.status = "exhausted"
            rider.progress = ctx.number
            rider.v_at_stop = rider.v
            ctx.say(
                "td.exhausted",
                "{name} is out of Resistenza and stops ({where}, V {v}).",
                rider=rid,
                name=rider.name,
                progress=ctx.number,
                where=ROUNDS[ctx.number],
                v=rider.v,
            )
