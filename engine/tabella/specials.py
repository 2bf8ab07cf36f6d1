"""The six special moves and the stolen-bottle actions (rules §6.2-§6.7, D20-D26, D28).

Each special is used up when it resolves, whether it works or not (D28). Conditions are checked at
that moment, never in advance.
"""

from __future__ import annotations

from engine.messages import cached_msg, msg
from engine.tabella.collision import enter
from engine.tabella.context import RoundContext, clamp_text
from engine.tabella.state import ROUNDS, Rider, StolenBottle
from engine.tabella.table import ROW_NAMES, cell_name

PUSH = {"up": -1, "down": 1}
DRINK_TEXTS = {
    ("V", False): ("td.drink.own", "{name} drinks the Vigorilla: +4 R (R {r}, V {v})."),
    ("V", True): (
        "td.drink.own_bibitone",
        "{name} drinks the Vigorilla — it's a Bibitone!: +4 R, +3 V (R {r}, V {v}).",
    ),
    ("V2", False): ("td.drink.stolen", "{name} drinks a stolen Vigorilla: +4 R (R {r}, V {v})."),
    ("V2", True): (
        "td.drink.stolen_bibitone",
        "{name} drinks a stolen Vigorilla — it's a Bibitone!: +4 R, +3 V (R {r}, V {v}).",
    ),
}
"""(code, reinforced) -> the drink's message key and English text (§6.2, D20): one sentence per case."""
GOMITATA_REASONS = {
    "not_racing": ("td.gomitata.reason.not_racing", "not racing"),
    "slower_start": ("td.gomitata.reason.slower_start", "did not choose a faster start"),
    "not_faster": ("td.gomitata.reason.not_faster", "not faster"),
    "out_of_reach": ("td.gomitata.reason.out_of_reach", "out of reach"),
    "off_the_road": ("td.gomitata.reason.off_the_road", "would leave the road"),
}
"""Why a Gomitata fails (§6.3, D22) -> the reason's message key and English words."""


def _use(rider: Rider, code: str) -> None:
    if code not in rider.used:
        rider.used.append(code)


def drink(ctx: RoundContext, rider: Rider, code: str) -> None:
    """V drinks the own bottle, V2 the stolen one: +4 R, and +3 V if reinforced (§6.2, D20)."""
    _use(rider, code)
    if code == "V":
        ok = rider.own_bottle == "full"
        reinforced = rider.reinforced
        if ok:
            rider.own_bottle = "drunk"
    else:
        stolen = rider.stolen
        ok = stolen is not None and stolen.status == "full"
        reinforced = stolen.reinforced if stolen is not None else False
        if stolen is not None and ok:
            stolen.status = "drunk"
    if not ok:
        # D28: no full bottle of that kind in hand -> no effect.
        ctx.say(
            "td.drink_failed",
            "{name} reaches for a bottle ({code}), but has none to drink.",
            rider=rider.id,
            name=rider.name,
            code=code,
        )
        return
    rider.r += 4  # D20: R has no upper limit
    if reinforced:
        rider.v += 3
        rider.doped = True  # D21: whoever drinks a reinforced bottle carries the doping risk
    ctx.drank.add(rider.id)
    ctx.say_as(
        "td.drink",
        *DRINK_TEXTS[(code, reinforced)],
        rider=rider.id,
        name=rider.name,
        code=code,
        reinforced=reinforced,
        r=rider.r,
        v=rider.v,
    )


def stand_up(ctx: RoundContext, rider: Rider) -> None:
    """P: +2 V; a Bottigliata this round costs 2 R more (D26)."""
    _use(rider, "P")
    rider.v += 2
    ctx.played_p.add(rider.id)
    ctx.say("td.pedals", "{name} stands up on the pedals: +2 V (V {v}).", rider=rider.id, name=rider.name, v=rider.v)


def _where(ctx: RoundContext, rider: Rider) -> str:
    if rider.row is None:
        return "-"
    if ctx.number == 0:
        return ROW_NAMES[rider.row]
    return cell_name(rider.row, rider.pair)


def gomitata(ctx: RoundContext, pusher: Rider) -> None:
    """G: elbow a faster opponent in reach; any failure makes the pusher fall instead (§6.3, D22)."""
    _use(pusher, "G")
    entry = ctx.intents[pusher.id].specials["G"]
    target = ctx.rider(entry["target"])
    direction = entry.get("dir")
    delta = PUSH.get(direction or "", 0) if not ctx.in_sprint else 0
    reason: str | None = None
    if not target.racing:
        reason = "not_racing"
    elif ctx.number == 0 and not (target.start or "C") < (pusher.start or "C"):
        reason = "slower_start"  # §5.2: A is faster than B, B than C
    elif target.v <= pusher.v:
        reason = "not_faster"  # D22: strictly higher V at the moment of resolution
    elif not ctx.in_sprint and (
        target.row is None or pusher.row is None or abs(target.row - pusher.row) > 1 or target.pair != pusher.pair
    ):
        reason = "out_of_reach"
    elif not ctx.in_sprint and target.row is not None and not 0 <= target.row + delta <= 2:
        reason = "off_the_road"  # D22: a push off the road is in vain
    faller = pusher if reason else target
    clamp = ctx.fall(faller)
    moved = False
    if not ctx.in_sprint and faller.row is not None and 0 <= faller.row + delta <= 2 and delta:
        faller.row += delta
        moved = True
    if reason:
        key = "td.gomitata.fails"
        text = "{name} throws a Gomitata at {target_name}, but it fails ({reason}): {name} falls, -2 R, -2 V"
    else:
        key = "td.gomitata.falls"
        text = "{name} elbows {target_name}, who falls: -2 R, -2 V"
    where = _where(ctx, faller)
    ctx.say_as(
        "td.gomitata",
        key,
        text + "{clamp_text}{move_text}.",
        rider=pusher.id,
        name=pusher.name,
        target=target.id,
        target_name=target.name,
        dir=direction,
        success=reason is None,
        reason=cached_msg(*GOMITATA_REASONS[reason]) if reason else "",
        faller=faller.id,
        clamp=clamp,
        clamp_text=clamp_text(clamp),
        moved=moved,
        to=where,
        move_text=msg("td.gomitata.moved", "; {name} goes to {to}", name=faller.name, to=where) if moved else "",
        r=faller.r,
        v=faller.v,
    )
    if moved and ctx.on_route:
        enter(ctx, faller.id)  # D19: a lane change is an entry, checked at once


def gancio(ctx: RoundContext, rider: Rider) -> None:
    """J: hook a rider in your cell: a free effort next move and its bottle if still full (§6.4, D23)."""
    _use(rider, "J")
    target = ctx.rider(ctx.intents[rider.id].specials["J"]["target"])
    same_cell = target.racing and target.row == rider.row and target.pair == rider.pair
    stole = False
    if same_cell:
        rider.free_effort = True
        if target.own_bottle == "full":
            target.own_bottle = "stolen"
            rider.stolen = StolenBottle(owner=target.id, reinforced=target.reinforced)
            stole = True
    if not same_cell:
        key = "td.gancio.missed"
        text = "{name} reaches for {target_name}'s saddle with the Gancio, but {target_name} is not in the same cell."
    elif stole:
        key = "td.gancio.stole"
        text = "{name} hooks on to {target_name}: next move is free, and {target_name}'s Vigorilla changes hands."
    else:
        key = "td.gancio.hooked"
        text = "{name} hooks on to {target_name}: next move is free (no full bottle to steal)."
    ctx.say_as(
        "td.gancio",
        key,
        text,
        rider=rider.id,
        name=rider.name,
        target=target.id,
        target_name=target.name,
        success=same_cell,
        stole=stole,
    )


def scia(ctx: RoundContext, rider: Rider) -> None:
    """X: on a descent or after a straight move, take the group's best V, or +2 if you lead it (§6.6, D25)."""
    _use(rider, "X")
    pair = ctx.pair_of(rider)
    reading = ctx.state.options["scia_reading"]
    declared = ctx.intents[rider.id].dir
    if reading == "straight_move":
        works = pair.terrain == "descent" or declared == "R"
    else:
        works = pair.terrain in ("descent", "flat")
    others = [
        o.v for o in ctx.state.riders if o.racing and o.id != rider.id and o.row == rider.row and o.pair == rider.pair
    ]
    before = rider.v
    if works and others:
        best = max(others)
        if rider.v > best:
            rider.v += 2
        elif best > rider.v:
            rider.v = best
    if not works:
        key, text = "td.scia.none_here", "{name} looks for a Scia, but there is none here."
    elif not others:
        key, text = "td.scia.alone", "{name} looks for a Scia, but rides alone."
    else:
        key, text = "td.scia.rides", "{name} rides in the Scia: V {before} -> {v}."
    ctx.say_as(
        "td.scia", key, text, rider=rider.id, name=rider.name, works=works and bool(others), before=before, v=rider.v
    )


def bottigliata(ctx: RoundContext, rider: Rider, code: str) -> None:
    """B throws the own bottle, B2 the stolen one: 3 R in the same cell, 2 elsewhere (§6.5, D24)."""
    _use(rider, code)
    target = ctx.rider(ctx.intents[rider.id].specials[code]["target"])
    if code == "B":
        held = rider.own_bottle in ("full", "drunk")
        if held:
            rider.own_bottle = "thrown"
    else:
        stolen = rider.stolen
        held = stolen is not None and stolen.status in ("full", "drunk")
        if stolen is not None and held:
            stolen.status = "thrown"
    if not held:
        ctx.say(
            "td.bottle_missing",
            "{name} wants to throw a bottle ({code}), but has none in hand.",
            rider=rider.id,
            name=rider.name,
            code=code,
        )
        return
    if not target.racing:
        ctx.say(
            "td.bottle_lost",
            "{name} throws a bottle at {target_name}, who is no longer racing: the bottle is lost.",
            rider=rider.id,
            name=rider.name,
            code=code,
            target=target.id,
            target_name=target.name,
        )
        return
    same_cell = ctx.on_route and target.row == rider.row and target.pair == rider.pair
    damage = 3 if same_cell else 2
    if target.id in ctx.played_p:
        damage += 2  # §6.7, D26: standing on the pedals this round
    paid = ctx.lose_r(target, damage)
    ctx.say(
        "td.bottigliata",
        "{name} hits {target_name} with a bottle: -{damage} R (R {r}).",
        rider=rider.id,
        name=rider.name,
        code=code,
        target=target.id,
        target_name=target.name,
        damage=paid,
        r=target.r,
        same_cell=same_cell,
        round=ROUNDS[ctx.number],
    )
