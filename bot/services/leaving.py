"""A member leaving a race: from its lobby the seat goes; from a race under way the seat stays and a bot
rides it (R-SVC-5).

Under way, the seat remembers the step during which its member left (``seats.left_at_step``). From that
step on, every order of the seat that the member did not complete is the automatic one (the rules', or the
server's default bot under ``/settings`` *moves for absent players*), played at once and marked
``"auto": true`` in the record; nobody waits for the seat, no panel or reminder goes to the member, and the
step resolves at once if they were the last one awaited. The seat keeps its place in the result and the
league credits it to the member as usual. A member who left cannot take the seat back. When the last
member of a race leaves it, nobody is left to ride for, and the race is cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text, update
from sqlmodel import col

from bot.services import lobby, orders, owed, resolution
from bot.services.context import Context
from bot.services.outcomes import Happening, RaceView, Refusal, closed
from bot.services.queries import bump_orders, load
from bot.store.tables import Seat

ABANDONED = "abandoned"
"""The reason of a race cancelled because its last member left it."""


@dataclass(frozen=True)
class Left:
    """What leaving did: the race as it stands, the step from which a bot rides the seat (None: the seat
    went, from a lobby), and what happened at once (the race cancelled when its last member left). The step
    the member was awaited in is resolved by :func:`ride_on`, after the member has been answered."""

    race: RaceView
    from_step: int | None
    happened: list[Happening]


async def leave(ctx: Context, race_id: int, user_id: int) -> Left:
    """Leave a lobby (the seat goes) or a race under way (a bot rides the seat from the step now open)."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
    if loaded.race.status == "lobby":
        return Left(await lobby.leave(ctx, race_id, user_id, edit_lobby=True), None, [])
    if loaded.race.status != "running":
        raise closed(loaded.race.status)
    seat = loaded.seat_of(user_id)
    if seat is None:
        raise Refusal.of("lobby.not_in")
    if seat.left_at_step is not None:
        raise Refusal.of("race.you_left", race=race_id)
    step, rev = loaded.race.step, loaded.race.orders_rev
    async with ctx.db.sessions() as session, session.begin():
        # The same guard as an order's: a resolution computed before the member left does not commit (it
        # is computed again without waiting for them), and a step resolved meanwhile is not told wrong.
        if not await bump_orders(session, race_id, step, rev):
            raise Refusal.of("race.busy")
        await session.execute(
            update(Seat)
            .where(col(Seat.race_id) == race_id, col(Seat.entrant) == seat.entrant)
            .values(left_at_step=step)
        )
        owed.lobby_changed(session, race_id, "left", ctx.clock.now())  # the header says a bot rides the seat
        if ctx.db.is_postgres and loaded.race.owner != ctx.owner:  # the owner resolves, as after an order
            await session.execute(
                text("SELECT pg_notify(:channel, :race)"), {"channel": orders.NOTIFY_CHANNEL, "race": str(race_id)}
            )
    riding = [s for s in loaded.seats if s.user_id is not None and s.bot is None and s.entrant != seat.entrant]
    if not any(s.left_at_step is None for s in riding):
        cancelled = await lobby.cancel(ctx, race_id, None, reason=ABANDONED)
        return Left(await lobby.view(ctx, race_id), step, [cancelled])
    return Left(await lobby.view(ctx, race_id), step, [])


async def ride_on(ctx: Context, left: Left) -> list[Happening]:
    """The race goes on without the member who left: the step now open resolves if they were the last one
    it waited for (and the steps after it that only bots or members who left are awaited in)."""
    if left.from_step is None or left.race.status != "running":
        return []
    return await resolution.resolve_if_ready(ctx, left.race.race_id)
