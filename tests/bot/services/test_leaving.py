"""Leaving a race under way: a bot rides the seat from that step, marked automatic in the record (R-SVC-5)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services import league, leaving, orders, records, server_settings
from bot.services.outcomes import RaceCancelled, Refusal, ReminderDue, StepResolved
from bot.store.tables import OrderRow
from tests.bot.services.conftest import SERVER, Harness


async def _ride_out(harness: Harness, race_id: int, without: str) -> None:
    """Every member but ``without`` (who left) orders until the race is over."""
    for _ in range(2000):
        if (await harness.race(race_id)).status != "running":
            return
        await harness.order_all(race_id, skip={without})
    raise AssertionError("the race did not finish")


async def _orders_of(harness: Harness, race_id: int, entrant: str) -> list[OrderRow]:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        rows = await session.execute(
            select(OrderRow)
            .where(col(OrderRow.race_id) == race_id, col(OrderRow.entrant) == entrant)
            .order_by(col(OrderRow.step))
        )
        return list(rows.scalars())


@pytest.mark.rules("R-SVC-5")
async def test_the_last_awaited_player_leaves_and_the_round_resolves_at_once(harness: Harness) -> None:
    """Flamme Rouge (simultaneous): Anna has ordered, Bruno leaves instead; the round resolves at once with
    his automatic order, every later order of his is automatic too, the race finishes and both are credited."""
    ctx = harness.ctx
    assert ctx is not None
    race_id, _ = await harness.open_and_start("flamme_rouge", humans=2, options={"grid": "random"})
    await harness.order_all(race_id)  # round 1: both ride
    await harness.order_all(race_id, skip={"u2"})
    step = (await harness.race(race_id)).step
    left = await leaving.leave(ctx, race_id, 2)
    assert left.from_step == step
    resolved = [h for h in await leaving.ride_on(ctx, left) if isinstance(h, StepResolved)]
    assert resolved and resolved[0].step == step and resolved[0].orders["u2"]["auto"] is True
    assert all("u2" not in h.awaiting for h in resolved), "nobody waits for Bruno any more"
    assert (await harness.seats(race_id))["u2"].left_at_step == step
    with pytest.raises(Refusal) as refused:
        await orders.panel(ctx, race_id, 2)
    assert refused.value.key == "race.you_left"
    with pytest.raises(Refusal) as again:
        await leaving.leave(ctx, race_id, 2)
    assert again.value.key == "race.you_left", "a member who left cannot leave (nor come back) twice"
    await _ride_out(harness, race_id, "u2")
    row = await harness.race(race_id)
    assert row.status == "finished"
    mine = await _orders_of(harness, race_id, "u2")
    assert {o.by for o in mine if o.step < step} == {"player"}, "before he left his orders were his own"
    assert {o.by for o in mine if o.step >= step} == {"auto"}, "from the step he left in, a bot rode for him"
    record = await records.race_record(ctx, race_id)
    assert all(s["u2"].get("auto") is True for s in record.steps[step - 1 :] if "u2" in s)
    assert await records.replays_to_stored_result(ctx, race_id)
    points = await league.points_for_race(ctx, race_id)
    assert {"u1", "u2"} <= set(points), "the seat that a bot rode to the line still earns its member's points"


@pytest.mark.rules("R-SVC-5")
async def test_a_wyscig_player_who_left_has_every_later_turn_played_at_once(harness: Harness) -> None:
    """Wyścig (one turn at a time): after Bruno leaves, his turns resolve the moment they come, so Anna
    is the only one ever awaited again, and the race reaches its end."""
    ctx = harness.ctx
    assert ctx is not None
    race_id, _ = await harness.open_and_start("wyscig", humans=2, stage={"stages": 1})
    left = await leaving.leave(ctx, race_id, 2)
    assert left.from_step is not None
    await leaving.ride_on(ctx, left)
    for _ in range(500):
        row = await harness.race(race_id)
        if row.status != "running":
            break
        assert row.awaiting == ["u1"], "a turn of Bruno's never waits: it is played the moment it comes"
        await harness.order_all(race_id, skip={"u2"})
    row = await harness.race(race_id)
    assert row.status == "finished"
    mine = await _orders_of(harness, race_id, "u2")
    assert mine and all(o.by == "auto" for o in mine)
    assert await records.replays_to_stored_result(ctx, race_id)


@pytest.mark.rules("R-SVC-5")
async def test_a_server_that_lets_the_bot_move_for_absent_players_lets_it_ride_for_one_who_left(
    harness: Harness,
) -> None:
    """With /settings auto_moves at the default bot, the seat's orders are the bot's (still marked automatic)."""
    ctx = harness.ctx
    assert ctx is not None
    await server_settings.change(ctx, SERVER, "auto_moves", "bot")
    race_id, _ = await harness.open_and_start("mind_cycling", humans=2, stage="short")
    await harness.order_all(race_id, skip={"u2"})
    left = await leaving.leave(ctx, race_id, 2)
    played = next(h for h in await leaving.ride_on(ctx, left) if isinstance(h, StepResolved)).orders["u2"]
    assert played["auto"] is True
    await _ride_out(harness, race_id, "u2")
    assert (await harness.race(race_id)).status == "finished"


@pytest.mark.rules("R-SVC-5")
async def test_when_the_last_member_leaves_the_race_is_cancelled(harness: Harness) -> None:
    """Anna rides alone beside a bot; when she leaves nobody is left to ride for, and the race is cancelled."""
    ctx = harness.ctx
    assert ctx is not None
    race_id, _ = await harness.open_and_start("wyscig", humans=1, bots=1, stage={"stages": 1})
    left = await leaving.leave(ctx, race_id, 1)
    assert [type(h) for h in left.happened] == [RaceCancelled] and await leaving.ride_on(ctx, left) == []
    assert (await harness.race(race_id)).status == "cancelled"


@pytest.mark.rules("R-SVC-5", "R-TDD-1")
async def test_a_tabella_rider_who_leaves_before_sending_a_plan_does_not_start(harness: Harness) -> None:
    """Plan mode: the rules let a player send nothing (they do not start). Anna and Rider 3 have sent their
    plans; Bruno leaves without one, so the race resolves at once, their plans are raced and Bruno is listed
    as a non-starter, as at the deadline."""
    ctx = harness.ctx
    assert ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3)
    await harness.order_all(race_id, skip={"u2"})
    assert (await harness.race(race_id)).status == "running", "the plan step waits for Bruno"
    await leaving.ride_on(ctx, await leaving.leave(ctx, race_id, 2))
    row = await harness.race(race_id)
    assert row.status == "finished"
    assert await _orders_of(harness, race_id, "u2") == [], "nothing is sent for a plan he never sent"
    result = await records.stored_result(ctx, race_id)
    standings = (result[0] or {})["standings"]
    bruno = next(s for s in standings if s["entrant"] == "u2")
    assert "did_not_start" in json.dumps(bruno)


@pytest.mark.rules("R-SVC-5")
async def test_a_member_who_left_is_not_reminded_and_the_deadline_waits_only_for_the_others(harness: Harness) -> None:
    """Live Tabella for three: nobody has ordered, Bruno leaves; at three quarters of the step only Anna and
    Rider 3 are reminded, and the step still waits for them until its deadline."""
    ctx = harness.ctx
    assert ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    left = await leaving.leave(ctx, race_id, 2)
    assert await leaving.ride_on(ctx, left) == [], "the others have not ordered: nothing resolves yet"
    harness.clock.advance(minutes=11, seconds=15)
    (reminder,) = await harness.scheduler.run_due()
    assert isinstance(reminder, ReminderDue)
    assert reminder.entrants == ["u1", "u3"] and reminder.user_ids == [1, 3]
    await harness.order_all(race_id, skip={"u2"})
    row = await harness.race(race_id)
    assert row.step == 2, "the last of the others to order resolves the step"
    assert [o.by for o in await _orders_of(harness, race_id, "u2")] == ["auto"]
