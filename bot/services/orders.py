"""Order intake: check an order with the rules, commit it, answer with exactly what was recorded.

Any process may store an order. The insert runs in a transaction that first bumps the race row's
``orders_rev`` with a compare-and-set on the step (and on the revision read), so an order can never
land in a step that has just been resolved: it is refused as stale instead, and nothing changes. Once
committed, the race's owner is told (directly in this process, by NOTIFY or the poll elsewhere).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, text, update
from sqlmodel import col

from bot.services import resolution, stepping
from bot.services.context import Context
from bot.services.outcomes import OrderReceipt, PanelView, Refusal, closed
from bot.services.queries import bump_orders, load, step_orders
from bot.store.tables import OrderRow
from engine.messages import OrderError

NOTIFY_CHANNEL = "gregario_orders"
MAX_ATTEMPTS = 20


async def submit_order(
    ctx: Context,
    race_id: int,
    user_id: int,
    order: dict[str, Any] | str,
    *,
    step: int | None = None,
    draft: bool = False,
    replace: bool = False,
) -> OrderReceipt:
    """Record ``user_id``'s order (or its change) for the race's current step.

    ``step`` is the step the player's panel showed; an order for another step is refused as stale.
    ``draft``: a panel's order being built, stored but not counted (the step never resolves on it) until
    it is sent. ``replace``: ``order`` is the whole order, not merged with what was stored (a panel's
    Back or a changed part); an empty one removes what was stored.
    Raises :class:`Refusal` (keys ``race.not_found``, ``order.not_seated``, ``race.not_started``/``race.already_*``,
    ``order.stale``, ``order.not_awaited``, or the engine's own key for an illegal order)."""
    for _attempt in range(MAX_ATTEMPTS):
        async with ctx.db.sessions() as session:
            loaded = await load(session, race_id)
            race = loaded.race
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise Refusal.of("order.not_seated")
            if race.status != "running":
                raise closed(race.status)
            if seat.left_at_step is not None:
                raise Refusal.of("race.you_left", race=race_id)
            current, rev = race.step, race.orders_rev
            if step is not None and step > current:  # a step the race has not reached: made before a restore
                raise Refusal.of("order.undone", race=race_id)
            if step is not None and step != current:
                raise Refusal.of(
                    "order.stale",
                    step=step,
                    current=current,
                )
            if seat.entrant not in (race.awaiting or []):
                raise Refusal.of("order.not_awaited")
            others = await step_orders(session, race_id, current)
            previous = others.get(seat.entrant)
        assert race.state is not None
        try:
            merged_with = None if replace or previous is None else dict(previous.body)
            if replace and order == {}:
                checked = stepping.Checked({}, False)
            else:
                checked = stepping.check(loaded.spec, race.state, seat.entrant, order, merged_with)
        except stepping.NotAwaited:
            raise Refusal.of("order.not_awaited") from None
        except OrderError as exc:
            raise Refusal(exc.message) from None
        if draft:
            checked = stepping.Checked(checked.order, False)
        now = ctx.clock.now()
        async with ctx.db.sessions() as session, session.begin():
            if not await bump_orders(session, race_id, current, rev):
                continue  # another order or the resolution came first: read again
            if not checked.order and replace:
                if previous is not None:
                    await session.execute(delete(OrderRow).where(col(OrderRow.id) == previous.id))
            elif previous is None:
                session.add(
                    OrderRow(
                        race_id=race_id,
                        step=current,
                        entrant=seat.entrant,
                        body=checked.order,
                        complete=checked.complete,
                        by="player",
                        received_at=now,
                    )
                )
            else:
                await session.execute(
                    update(OrderRow)
                    .where(col(OrderRow.id) == previous.id)
                    .values(body=checked.order, complete=checked.complete, by="player", received_at=now)
                )
            if ctx.db.is_postgres and race.owner != ctx.owner:
                await session.execute(
                    text("SELECT pg_notify(:channel, :race)"), {"channel": NOTIFY_CHANNEL, "race": str(race_id)}
                )
        # The orders read are the ones this revision holds (the compare-and-set above), so whether the
        # step is now ready is known without reading again: an answer can say so at once.
        ready = checked.complete and resolution.ready_with(loaded, others, seat.entrant)
        if checked.complete and race.owner == ctx.owner:
            ctx.spawn(_resolve_and_publish(ctx, race_id))
        return OrderReceipt(
            race_id, current, seat.entrant, checked.order, checked.complete, now, previous is not None, ready
        )
    raise Refusal.of("order.busy")


async def _resolve_and_publish(ctx: Context, race_id: int) -> None:
    await ctx.publish(await resolution.resolve_if_ready(ctx, race_id))


def without_last(order: dict[str, Any]) -> dict[str, Any]:
    """``order`` without its last decided value (the deepest last leaf), to ask that value again."""
    trimmed: dict[str, Any] = {}
    keys = list(order)
    for key in keys[:-1]:
        trimmed[key] = order[key]
    if keys:
        last = order[keys[-1]]
        if isinstance(last, dict):
            rest = without_last(last)
            if rest:
                trimmed[keys[-1]] = rest
    return trimmed


async def draft(ctx: Context, race_id: int, user_id: int, step: int) -> dict[str, Any] | None:
    """What ``user_id`` has stored for ``step`` (a draft or a sent order; None: nothing), read without asking
    the rules anything: what Send sends, so its answer is not held up by the engine (Discord wants one
    within 3 s). Refuses as :func:`panel` does, and a step that is not the open one as stale."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise Refusal.of("order.not_seated")
        race = loaded.race
        if race.status != "running" or race.state is None:
            raise closed(race.status)
        if seat.left_at_step is not None:
            raise Refusal.of("race.you_left", race=race_id)
        if race.step != step:
            raise Refusal.of("order.stale", step=step, current=race.step)
        if seat.entrant not in (race.awaiting or []):
            raise Refusal.of("order.not_awaited")
        sent = (await step_orders(session, race_id, step)).get(seat.entrant)
    return dict(sent.body) if sent is not None else None


async def panel(
    ctx: Context, race_id: int, user_id: int, *, change: bool = False, asking: dict[str, Any] | None = None
) -> PanelView:
    """``user_id``'s private panel: what they must decide now (given what they sent) and what they see.

    ``change``: their last decided value is asked again (earlier parts stay). ``asking``: the decision
    as it is asked given these parts instead (a panel re-asking the whole order, or one part of it);
    the panel's ``order`` stays what was stored."""
    async with ctx.db.sessions() as session:
        loaded = await load(session, race_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise Refusal.of("order.not_seated")
        race = loaded.race
        if race.status != "running" or race.state is None:
            raise closed(race.status)
        if seat.left_at_step is not None:  # no more panels for a member who left
            raise Refusal.of("race.you_left", race=race_id)
        sent = (await step_orders(session, race_id, race.step)).get(seat.entrant)
    partial = dict(sent.body) if sent is not None else None
    counted = sent is not None and sent.complete
    if asking is not None:
        got = stepping.panel(loaded.spec, race.state, seat.entrant, asking or None)
        return PanelView(race_id, race.step, seat.entrant, got.decision, got.view, partial, counted)
    if change and partial:
        partial = without_last(partial)
    got = stepping.panel(loaded.spec, race.state, seat.entrant, partial)
    return PanelView(race_id, race.step, seat.entrant, got.decision, got.view, partial, counted)
