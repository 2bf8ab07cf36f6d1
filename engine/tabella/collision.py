"""Tamponamento: a rider entering a full cell (rules §6.1, D17-D19).

Every entry is checked: the route move of step 7 (riders enter one at a time in priority order) and
every lane change caused by a Gomitata (D19).
"""

from __future__ import annotations

from engine.tabella.context import RoundContext, clamp_text
from engine.tabella.table import cell_name

V_LOSS = {"climb": 3, "flat": 2, "descent": 1}
"""§6.1: the victim's V loss by the terrain of the cell."""


def enter(ctx: RoundContext, rider_id: str) -> None:
    """``rider_id`` enters the cell it now occupies; a collision happens if the cell was full."""
    rider = ctx.rider(rider_id)
    occupants = [
        other
        for other in ctx.state.riders
        if other.racing
        and other.id != rider_id
        and other.id in ctx.entered
        and other.row == rider.row
        and other.pair == rider.pair
    ]
    ctx.entered.add(rider_id)
    pair = ctx.pair_of(rider)
    # D17: capacity 2, or 1 in a strettoia (D18: either digit 1).
    if len(occupants) < pair.capacity:
        return
    group = [*occupants, rider]
    # D17: the victim has the lowest declared effort; a tie goes to the rider lower in priority.
    victim = min(group, key=lambda r: (ctx.intents[r.id].effort, -ctx.rank(r.id)))
    factor = 2 if pair.curvone else 1  # §6.1: the curvone doubles R and V damage
    r_loss = len(group) * factor
    v_loss = V_LOSS[pair.terrain] * factor
    paid = ctx.lose_r(victim, r_loss)
    clamp = ctx.change_v(victim, -v_loss)
    assert rider.row is not None
    ctx.say(
        "td.collision",
        "Tamponamento in {cell}: {newcomer_name} arrives, {victim_name} (effort {effort}) is hit: "
        "-{r_loss} R, -{v_loss} V{clamp_text} (group of {group}).",
        cell=cell_name(rider.row, rider.pair),
        newcomer=rider.id,
        newcomer_name=rider.name,
        victim=victim.id,
        victim_name=victim.name,
        effort=ctx.intents[victim.id].effort,
        group=len(group),
        r_loss=paid,
        v_loss=v_loss,
        clamp=clamp,
        clamp_text=clamp_text(clamp),
        curvone=pair.curvone,
        strettoia=pair.strettoia,
        r=victim.r,
        v=victim.v,
    )
