"""Deadlines, the reminder, the Gazzetta and lobby timeouts, with the clock moved by hand; restarts and crashes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select
from sqlmodel import col

from bot.services import lobby, orders, records, resolution, server_settings, stepping
from bot.services.outcomes import (
    AnnouncementPublished,
    OrderReceipt,
    RaceCancelled,
    RaceFinished,
    Refusal,
    ReminderDue,
    StepResolved,
)
from bot.services.queries import utc
from bot.store.tables import OrderRow, ResultRow, StepEvents
from engine.registry import get_ruleset
from tests.bot.services.conftest import CHANNEL, SERVER, Harness, member


async def _step_events(harness: Harness, race_id: int, step: int) -> int:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        count = await session.execute(
            select(func.count())
            .select_from(StepEvents)
            .where(col(StepEvents.race_id) == race_id, col(StepEvents.step) == step)
        )
        return int(count.scalar_one())


async def _order_rows(harness: Harness, race_id: int, step: int) -> dict[str, OrderRow]:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        rows = await session.execute(
            select(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.step) == step)
        )
        return {o.entrant: o for o in rows.scalars()}


async def test_an_absent_player_gets_the_automatic_order_written_out_in_full(harness: Harness) -> None:
    """Carla never orders; at the deadline the rules order for her, in full, marked automatic."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    harness.clock.advance(minutes=14, seconds=59)
    assert [h for h in await harness.scheduler.run_due() if isinstance(h, StepResolved)] == []
    harness.clock.advance(seconds=1)
    (resolved,) = [h for h in await harness.scheduler.run_due() if isinstance(h, StepResolved)]
    assert resolved.step == 1 and resolved.orders["u3"]["auto"] is True
    row = (await _order_rows(harness, race_id, 1))["u3"]
    assert row.by == "auto" and row.complete
    state = get_ruleset("tabella").load((await harness.race(race_id)).state or {})
    assert row.body == {k: v for k, v in resolved.orders["u3"].items() if k not in ("auto", "received_at")}
    assert row.body["start"] in ("A", "B", "C") and state is not None


@pytest.mark.parametrize("policy", ["rules", "bot"])
async def test_the_servers_policy_says_who_orders_for_an_absent_player(harness: Harness, policy: str) -> None:
    """With /settings auto_moves=bot the default bot orders for Carla at the deadline, otherwise the rules do;
    either way the order is written out in full and marked automatic."""
    assert harness.ctx is not None and harness.scheduler is not None
    await server_settings.change(harness.ctx, SERVER, "auto_moves", policy)
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    rules = get_ruleset("tabella")
    before = rules.load((await harness.race(race_id)).state or {})
    by_rules = rules.auto_order(before, "u3", None, None)
    by_bot = rules.auto_order(before, "u3", None, rules.default_strategy)
    assert by_rules != by_bot, "this seed must tell the two policies apart"
    await harness.order_all(race_id, skip={"u3"})
    harness.clock.advance(minutes=15)
    (resolved,) = [h for h in await harness.scheduler.run_due() if isinstance(h, StepResolved)]
    assert resolved.orders["u3"]["auto"] is True
    row = (await _order_rows(harness, race_id, 1))["u3"]
    assert row.by == "auto" and row.body == (by_bot if policy == "bot" else by_rules)


async def test_the_reminder_goes_once_at_three_quarters_to_those_who_have_not_ordered(harness: Harness) -> None:
    """At 11 min 15 s of a 15-minute step, only Carla (who has not ordered) is reminded, and only once."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    harness.clock.advance(minutes=11, seconds=14)
    assert await harness.scheduler.run_due() == []
    harness.clock.advance(seconds=1)
    (reminder,) = await harness.scheduler.run_due()
    assert isinstance(reminder, ReminderDue)
    assert reminder.entrants == ["u3"] and reminder.user_ids == [3] and reminder.step == 1
    assert reminder.deadline == datetime(2026, 5, 1, 18, 15, tzinfo=UTC)
    assert await harness.scheduler.run_due() == []


async def test_the_deadline_and_the_last_order_arriving_together_resolve_the_step_once(harness: Harness) -> None:
    """Carla's order lands just as the deadline fires: the step is resolved exactly once, with her order."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u3"})
    order = await harness.human_order(race_id, "u3")
    harness.clock.advance(minutes=15)
    receipt, from_deadline = await asyncio.gather(
        orders.submit_order(harness.ctx, race_id, 3, order, step=1), harness.scheduler.run_due(), return_exceptions=True
    )
    await harness.ctx.idle()
    assert isinstance(from_deadline, list)
    resolved = [h for h in harness.posted + from_deadline if isinstance(h, StepResolved) and h.step == 1]
    assert len(resolved) == 1
    assert await _step_events(harness, race_id, 1) == 1
    assert (await harness.race(race_id)).step == 2
    used = resolved[0].orders["u3"]
    if isinstance(receipt, Refusal):  # the deadline came first: she is told, and the rules ordered for her
        assert receipt.key == "order.stale" and used.get("auto") is True
    else:  # her order was acknowledged: then it is the one resolved
        assert isinstance(receipt, OrderReceipt)
        assert {k: v for k, v in used.items() if k != "received_at"} == receipt.order


async def test_a_restart_in_the_middle_of_a_step_keeps_every_order(harness: Harness) -> None:
    """Two riders order, the bot restarts, the third orders: the step resolves with all three orders."""
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    receipts = {r.entrant: r for r in await harness.order_all(race_id, skip={"u3"})}
    await harness.crash()
    await harness.boot()
    assert harness.scheduler is not None
    assert [h for h in await harness.scheduler.start_up() if isinstance(h, StepResolved)] == []
    await harness.order_all(race_id)
    (resolved,) = [h for h in harness.posted if isinstance(h, StepResolved) and h.step == 1]
    for entrant, receipt in receipts.items():
        assert {k: v for k, v in resolved.orders[entrant].items() if k != "received_at"} == receipt.order
    assert not any(o.get("auto") for o in resolved.orders.values())


async def test_a_deadline_that_passed_while_the_bot_was_down_resolves_at_start_up(harness: Harness) -> None:
    """The bot is down across the deadline; when it comes back, the step resolves at once."""
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    await harness.order_all(race_id, skip={"u2"})
    await harness.crash()
    harness.clock.advance(hours=3)
    await harness.boot()
    assert harness.scheduler is not None
    happened = await harness.scheduler.start_up()
    (resolved,) = [h for h in happened if isinstance(h, StepResolved)]
    assert resolved.step == 1 and resolved.orders["u2"]["auto"] is True
    assert (await harness.race(race_id)).step == 2


async def test_a_crash_in_the_middle_of_a_resolution_leaves_the_step_to_resolve_at_the_next_start(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies while writing the step: nothing of it is kept, and the next start resolves it."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    written = resolution._write

    async def dies(*args: object, **kwargs: object) -> object:
        await written(*args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("power cut")

    monkeypatch.setattr(resolution, "_write", dies)
    await harness.order_all(race_id)
    assert (await harness.race(race_id)).step == 1
    assert await _step_events(harness, race_id, 1) == 0
    monkeypatch.setattr(resolution, "_write", written)
    await harness.crash()
    await harness.boot()
    assert harness.scheduler is not None
    (resolved,) = [h for h in await harness.scheduler.start_up() if isinstance(h, StepResolved)]
    assert resolved.step == 1 and not any(o.get("auto") for o in resolved.orders.values())
    assert await _step_events(harness, race_id, 1) == 1


async def test_the_gazzetta_is_published_the_next_morning(harness: Harness) -> None:
    """A Tabella race ends at 18:00; its Gazzetta comes out at 09:00 UTC the next day, and the result is final."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"gazzetta_probability": 1.0})
    await harness.order_all(race_id)
    (finished,) = [h for h in harness.posted if isinstance(h, RaceFinished)]
    assert finished.result.provisional and finished.announcement_due == datetime(2026, 5, 2, 9, 0, tzinfo=UTC)
    harness.clock.set(datetime(2026, 5, 2, 8, 59, 59, tzinfo=UTC))
    assert await harness.scheduler.run_due() == []
    harness.clock.set(datetime(2026, 5, 2, 9, 0, tzinfo=UTC))
    (published,) = await harness.scheduler.run_due()
    assert isinstance(published, AnnouncementPublished) and published.kind == "td.gazzetta"
    assert published.events and published.events[0]["kind"].startswith("td.")
    async with harness.ctx.db.sessions() as session:
        result = await session.get(ResultRow, race_id)
    assert result is not None and not result.provisional
    assert await records.replays_to_stored_result(harness.ctx, race_id)
    # The record rebuilt from the database says the Gazzetta came out after the last step, and replays
    # by itself to the final standings.
    record = await records.race_record(harness.ctx, race_id)
    assert [(a.kind, a.after_step) for a in record.announcements or []] == [("gazzetta", len(record.steps))]
    replayed = stepping.replay_result(record, False)
    assert not replayed["provisional"] and replayed["standings"] == result.standings
    assert await harness.scheduler.run_due() == []


async def test_an_unstarted_lobby_is_cancelled_when_its_time_runs_out(harness: Harness) -> None:
    """Nobody starts Anna's lobby; an hour later it is cancelled."""
    assert harness.ctx is not None and harness.scheduler is not None
    view = await lobby.open_lobby(harness.ctx, member(1, "Anna"), CHANNEL, "wyscig")
    harness.clock.advance(minutes=59)
    assert await harness.scheduler.run_due() == []
    harness.clock.advance(minutes=1)
    assert await harness.scheduler.run_due() == [RaceCancelled(view.race_id, "lobby_timeout")]
    assert (await harness.race(view.race_id)).status == "cancelled"


@pytest.mark.rules("R-SVC-2")
async def test_a_half_built_plan_counts_as_sent_at_the_deadline_and_no_plan_does_not_start(harness: Harness) -> None:
    """Tabella plan mode: Bruno chose only his start, Carla sent nothing; at the deadline Bruno's plan is
    completed by the automatic order and he starts, Carla does not start."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=3)
    plan = await harness.human_order(race_id, "u1")
    await orders.submit_order(harness.ctx, race_id, 1, plan, step=1)
    partial = await orders.submit_order(harness.ctx, race_id, 2, {"start": "A"}, step=1)
    assert not partial.complete
    harness.clock.advance(minutes=15)
    (resolved,) = [h for h in await harness.scheduler.run_due() if isinstance(h, StepResolved)]
    assert set(resolved.orders) == {"u1", "u2"}
    bruno = resolved.orders["u2"]
    assert bruno["auto"] is True and bruno["start"] == "A" and bruno["m1"] == {"effort": 1, "dir": "R"}
    kinds = [(e["kind"], e["data"].get("rider")) for e in resolved.events]
    assert ("td.did_not_start", "u3") in kinds
    assert ("td.did_not_start", "u2") not in kinds


@pytest.mark.rules("R-SVC-1")
async def test_a_race_finishing_just_after_midnight_gets_its_gazzetta_at_nine_the_following_day() -> None:
    """Finished at 00:30 UTC on 2 May: the "next morning" is the day after the finish's date, 3 May at 09:00."""
    finished = datetime(2026, 5, 2, 0, 30, tzinfo=UTC)
    assert resolution.announcement_due("next_morning", 9, finished) == datetime(2026, 5, 3, 9, 0, tzinfo=UTC)
    assert resolution.announcement_due("immediate", None, finished) == finished


@pytest.mark.rules("R-SVC-3")
async def test_a_bot_answers_the_moment_the_step_opens(harness: Harness) -> None:
    """The bot's order is stored at the start, timed at the start; Anna's, a minute later, is timed after it."""
    assert harness.ctx is not None
    opened_at = harness.clock.now()
    race_id, _ = await harness.open_and_start("tabella", humans=2, bots=1, options={"mode": "live"})
    bot = (await _order_rows(harness, race_id, 1))["bot1"]
    assert bot.by == "bot" and bot.complete and utc(bot.received_at) == opened_at
    harness.clock.advance(minutes=1)
    await harness.order_all(race_id)
    (resolved,) = [h for h in harness.posted if isinstance(h, StepResolved) and h.step == 1]
    assert resolved.orders["bot1"]["received_at"] < resolved.orders["u1"]["received_at"]
    assert resolved.orders["bot1"]["by"] == "bot"


async def test_an_immediate_gazzetta_leaves_nothing_to_schedule(harness: Harness) -> None:
    """With gazzetta_delay = immediate, the rules publish at the finish: the result is final, nothing is scheduled."""
    assert harness.ctx is not None and harness.scheduler is not None
    options = {"gazzetta_probability": 1.0, "gazzetta_delay": "immediate"}
    race_id, _ = await harness.open_and_start("tabella", humans=2, options=options)
    await harness.order_all(race_id)
    (finished,) = [h for h in harness.posted if isinstance(h, RaceFinished)]
    assert not finished.result.provisional and finished.announcement_due is None
    assert await harness.scheduler.next_due() is None
    assert await records.replays_to_stored_result(harness.ctx, race_id)


# --- any process runs any due job, one at a time -----------------------------------------------------


async def _reown(harness: Harness, race_id: int, owner: str) -> None:
    """The race and its jobs as another process (shard range) would have written them."""
    from bot.store.tables import Job, RaceRow

    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session, session.begin():
        row = await session.get(RaceRow, race_id)
        assert row is not None
        row.owner = owner
        for job in (await session.execute(select(Job).where(col(Job.race_id) == race_id))).scalars():
            job.owner = owner


async def test_a_due_deadline_of_another_process_s_race_is_run_by_a_free_one(harness: Harness) -> None:
    """The race belongs to ``shards 1-1 of 2`` (alive, but busy: it has not run the deadline): this process's
    scheduler runs the deadline at once, as its own, without waiting to adopt the race."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    await _reown(harness, race_id, "shards 1-1 of 2")
    harness.clock.advance(minutes=15)
    happened = await harness.scheduler.run_due()
    assert [type(h) for h in happened if isinstance(h, StepResolved)] == [StepResolved]
    assert (await harness.race(race_id)).step == 2
    assert (await harness.race(race_id)).owner == "shards 1-1 of 2", "the race keeps its owner"


async def test_a_job_another_process_holds_waits_for_its_claim_to_lapse(harness: Harness) -> None:
    """Another scheduler claimed the due deadline (and died before running it): this one leaves it while
    the claim is live, and runs it once the claim has lapsed."""
    from bot.services.scheduler import Scheduler

    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    harness.clock.advance(minutes=15)
    other = Scheduler(harness.ctx, lease=0.3)
    claimed = await other.claim()
    assert resolution.DEADLINE in [j.kind for j in claimed]  # and the reminder, due since 11 min 15 s
    assert await harness.scheduler.run_due() == [] and (await harness.race(race_id)).step == 1
    await asyncio.sleep(0.4)
    assert any(isinstance(h, StepResolved) for h in await harness.scheduler.run_due())
    assert (await harness.race(race_id)).step == 2


async def test_two_schedulers_at_once_run_each_due_job_once(harness: Harness) -> None:
    """Twelve races with a due reminder, two schedulers (two processes) looking at the same moment: each
    reminder is claimed and told by exactly one of them, and together they tell all twelve."""
    from bot.services.scheduler import Scheduler
    from bot.store import outbox
    from bot.store.outbox import OwedKind

    assert harness.ctx is not None
    races = [
        (await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=s))[0] for s in range(12)
    ]
    harness.clock.advance(minutes=11, seconds=15)
    first, second = Scheduler(harness.ctx), Scheduler(harness.ctx)
    one, two = await asyncio.gather(first.run_due(), second.run_due())
    told = [h.race_id for h in one + two if isinstance(h, ReminderDue)]
    assert sorted(told) == sorted(races), "each race's reminder told once, by one of the two"
    async with harness.ctx.db.sessions() as session:
        rows = await outbox.rows_of(session, None)
    reminders = [(r.owed.race_id, r.owed.recipient) for r in rows if r.owed.kind is OwedKind.REMINDER]
    assert len(reminders) == len(set(reminders)) == 24, "two players a race, each reminded once"


async def test_two_schedulers_claiming_at_once_take_disjoint_jobs(harness: Harness) -> None:
    """Claims are exclusive: two schedulers claiming the same due jobs at the same moment split them
    (PostgreSQL: ``SKIP LOCKED``; SQLite: one writer at a time), none taken twice, none left."""
    from bot.services.scheduler import Scheduler

    assert harness.ctx is not None
    for seed in range(8):
        await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=seed)
    harness.clock.advance(minutes=15)  # every race's reminder and deadline
    first, second = Scheduler(harness.ctx), Scheduler(harness.ctx)
    a, b = await asyncio.gather(first.claim(limit=10), second.claim(limit=10))
    ids_a, ids_b = {j.id for j in a}, {j.id for j in b}
    assert not ids_a & ids_b and len(ids_a | ids_b) == 16


# --- a step is not played for a player who has not seen it --------------------------------------------


async def _deadline_and_reminder(harness: Harness, race_id: int, step: int) -> dict[str, datetime]:
    from bot.store.tables import Job

    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        rows = await session.execute(select(Job).where(col(Job.race_id) == race_id, col(Job.step) == step))
        return {j.kind: utc(j.due_at) for j in rows.scalars() if j.done_at is None}


async def test_a_panel_reaching_its_player_late_moves_the_deadline_to_a_whole_pace_from_then(
    harness: Harness,
) -> None:
    """The step opened at 18:00 with a 15-minute pace (deadline 18:15, reminder 18:11:15). Its panel
    delivered at 18:00:04 changes nothing; delivered at 18:10 (the bot was behind), the deadline is 18:25
    and the reminder 18:21:15: the player has the whole pace from when they saw the panel."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    before = await _deadline_and_reminder(harness, race_id, 1)
    assert before == {
        resolution.DEADLINE: datetime(2026, 5, 1, 18, 15, tzinfo=UTC),
        resolution.REMINDER: datetime(2026, 5, 1, 18, 11, 15, tzinfo=UTC),
    }
    harness.clock.advance(seconds=4)
    await resolution.fair_deadline(harness.ctx, race_id, 1)
    assert await _deadline_and_reminder(harness, race_id, 1) == before, "on time: nothing moves"
    harness.clock.advance(minutes=9, seconds=56)
    await resolution.fair_deadline(harness.ctx, race_id, 1)
    assert await _deadline_and_reminder(harness, race_id, 1) == {
        resolution.DEADLINE: datetime(2026, 5, 1, 18, 25, tzinfo=UTC),
        resolution.REMINDER: datetime(2026, 5, 1, 18, 21, 15, tzinfo=UTC),
    }


async def test_a_deadline_waits_while_its_panels_are_still_owed_then_plays(harness: Harness) -> None:
    """A process that delivers panels (a dispatcher runs) and is behind: at the deadline the step's panels
    are still in the outbox, so the deadline is looked at again a whole pace on instead of playing the
    step; once they are delivered (on time for that) it plays then."""
    from bot.store import outbox
    from bot.store.outbox import Delivery

    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    harness.ctx.delivering = True
    harness.clock.advance(minutes=15)
    await harness.scheduler.run_due()
    assert (await harness.race(race_id)).step == 1, "the panels never reached the players: not played"
    due = (await _deadline_and_reminder(harness, race_id, 1))[resolution.DEADLINE]
    assert due == datetime(2026, 5, 1, 18, 30, tzinfo=UTC), "looked at again a pace on"
    claimer = "main@test:1:deliver"
    while rows := await outbox.claim(harness.ctx.db, claimer, datetime.now(UTC), 60, 8):
        for row in rows:  # every row delivered, the panels among them
            done = Delivery(channel_id=1, message_id=row.id)
            await outbox.finish(harness.ctx.db, row, claimer, done, datetime.now(UTC))
    async with harness.ctx.db.sessions() as session:
        assert not await outbox.panels_owed(session, race_id, 1)
    harness.clock.advance(minutes=15)
    await harness.scheduler.run_due()
    assert (await harness.race(race_id)).step == 2


async def test_a_job_claimed_by_a_killed_process_of_this_machine_runs_at_the_next_start(harness: Harness) -> None:
    """A process of this machine claimed the due deadline and was killed: the next start frees its claim and
    runs the deadline at once, without waiting out the lease; a live claimer's job is looked at when its
    claim lapses, not in a busy loop meanwhile."""
    from bot.services import dispatch
    from bot.services.scheduler import Scheduler
    from bot.store.tables import Job

    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    harness.clock.advance(minutes=15)
    child = await asyncio.create_subprocess_exec("true")
    await child.wait()  # a pid that was ours and is gone
    killed = Scheduler(harness.ctx)
    killed.claimer = f"main@{dispatch.HOST}:{child.pid}:deadbeef"
    assert await killed.claim()
    async with harness.ctx.db.sessions() as session:
        held = (await session.execute(select(Job).where(col(Job.race_id) == race_id))).scalars().all()
    assert {j.claimed_by for j in held if j.kind == resolution.DEADLINE} == {killed.claimer}
    assert await harness.scheduler.run_due() == [], "held: not run"
    happened = await harness.scheduler.start_up()
    assert any(isinstance(h, StepResolved) for h in happened) and (await harness.race(race_id)).step == 2

    other_race, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=5)
    harness.clock.advance(minutes=15)
    alive = Scheduler(harness.ctx, lease=30)
    assert await alive.claim()
    due = await harness.scheduler.next_due()
    assert due is not None and (due - harness.clock.now()).total_seconds() > 25, "waits for the live claim"
    assert (await harness.race(other_race)).step == 1
