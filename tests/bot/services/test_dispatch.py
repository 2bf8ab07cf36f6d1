"""The outbox: what a change owes Discord is written with it, and delivered once, in order per race."""

from __future__ import annotations

import asyncio
import os
import random
from collections import Counter

import pytest

from bot.services import dispatch
from bot.services.context import Context
from bot.services.dispatch import MAX_ATTEMPTS, DeliveryFailed, Dispatcher, _now
from bot.store import outbox
from bot.store.database import connect
from bot.store.ledger import NewPost, PostKind
from bot.store.outbox import Delivery, Owed, OwedKind
from tests.bot.services.conftest import Harness


async def _rows(ctx: Context, race_id: int | None = None, *, pending: bool = False) -> list[outbox.Record]:
    async with ctx.db.sessions() as session:
        return await outbox.rows_of(session, race_id, pending=pending)


def _kinds(rows: list[outbox.Record]) -> list[tuple[OwedKind, int, int | None]]:
    return [(r.owed.kind, r.owed.step, r.owed.recipient) for r in rows]


class Recorder:
    """A deliverer that remembers what it delivered, in order, and makes a message id for each row."""

    def __init__(self, pause: float = 0.0) -> None:
        self.calls: list[Owed] = []
        self.pause = pause

    async def __call__(self, row: Owed) -> Delivery:
        self.calls.append(row)
        if self.pause:
            await asyncio.sleep(random.uniform(0, self.pause))
        return Delivery(channel_id=2000, message_id=10_000 + row.id)


async def test_a_start_and_a_step_owe_their_panels_posts_and_closes_in_their_own_transactions(
    harness: Harness,
) -> None:
    """Starting owes the race's thread (first: every post of the race goes there), the first panels, the
    start post and the lobby's edit; a resolved step owes its panels' closes, the next panels, then its
    post, all written before anything is delivered."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    users = [u for _e, u in await harness.awaited_humans(race_id)]
    assert _kinds(await _rows(harness.ctx, race_id)) == [
        (OwedKind.OPEN_THREAD, 0, None),
        *[(OwedKind.OPEN_PANEL, 1, u) for u in users],
        (OwedKind.STEP_POST, 0, None),
        (OwedKind.LOBBY_EDIT, 0, None),
    ]
    await harness.order_all(race_id)
    later = _kinds(await _rows(harness.ctx, race_id))[len(users) + 3 :]
    assert later[: len(users)] == [(OwedKind.CLOSE_PANEL, 1, u) for u in users]
    assert later[-1] == (OwedKind.STEP_POST, 1, None)
    assert all(r.done_at is None for r in await _rows(harness.ctx, race_id)), "nothing delivered without Discord"


async def test_a_finished_race_owes_its_final_post_even_if_the_process_dies_right_after(harness: Harness) -> None:
    """The last step commits and the process dies before posting anything: the final post, the lobby's
    edit, the thread's archive and the last step's post are rows in the database, with the result as it
    stood."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("flamme_rouge", humans=1, bots=1)
    await harness.play_out(race_id)
    await harness.crash()
    await harness.boot()
    assert harness.ctx is not None
    pending = await _rows(harness.ctx, race_id, pending=True)
    final = [r.owed for r in pending if r.owed.kind is OwedKind.FINAL_POST]
    assert len(final) == 1 and final[0].payload["result"]["finished"] is True
    assert final[0].payload["result"]["standings"], "the result as the last step left it"
    kinds = [r.owed.kind for r in pending]
    assert kinds.index(OwedKind.FINAL_POST) > max(i for i, k in enumerate(kinds) if k is OwedKind.STEP_POST)
    after = kinds[kinds.index(OwedKind.FINAL_POST) + 1 :]
    assert after[0] is OwedKind.LOBBY_EDIT, "the lobby says the race is over right after the final post"
    assert set(after[1:-1]) <= {OwedKind.CLOSING_LINE}, "then each player's closing line"
    assert after[-1] is OwedKind.ARCHIVE_THREAD, "the thread archived once it is all told"


async def test_a_reminder_is_owed_with_its_claim(harness: Harness) -> None:
    """The reminder job is claimed and its DMs written in one transaction: once, for those still to order."""
    assert harness.ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    harness.clock.advance(seconds=(await harness.race(race_id)).pace_seconds * 0.9)
    await harness.scheduler.run_due()
    await harness.scheduler.run_due()
    reminders = [r.owed for r in await _rows(harness.ctx, race_id) if r.owed.kind is OwedKind.REMINDER]
    assert sorted(r.recipient for r in reminders if r.recipient is not None) == [1, 2]
    assert len({r.nonce for r in reminders}) == 2 and all(len(r.nonce) <= 25 for r in reminders)


async def test_rows_are_delivered_in_order_per_race_and_each_once(harness: Harness) -> None:
    """Three races' rows, delivered concurrently across races: each race's rows in the order written."""
    assert harness.ctx is not None
    races = [
        (await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=s))[0] for s in (1, 2, 3)
    ]
    for race_id in races:
        await harness.order_all(race_id)
    recorder = Recorder(pause=0.01)
    dispatcher = Dispatcher(harness.ctx, recorder)
    await dispatcher.drain(10)
    written = await _rows(harness.ctx)
    assert all(r.delivered and r.message_id == 10_000 + r.owed.id for r in written)
    assert Counter(r.id for r in recorder.calls) == Counter(r.owed.id for r in written), "each row delivered once"
    for race_id in races:
        order = [r.id for r in recorder.calls if r.race_id == race_id]
        assert order == sorted(order) == [r.owed.id for r in written if r.owed.race_id == race_id]


async def test_two_dispatchers_on_one_database_never_deliver_a_row_twice(harness: Harness) -> None:
    """Two processes' dispatchers (two engines, two pools) drain the same outbox at once: every row is
    delivered exactly once, and each race's rows still in order."""
    assert harness.ctx is not None
    races = [(await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=s))[0] for s in range(4)]
    for race_id in races:
        await harness.order_all(race_id)
        await harness.order_all(race_id)
    other = Context(db=connect(harness.url), clock=harness.clock)
    try:
        first, second = Recorder(pause=0.02), Recorder(pause=0.02)
        one, two = Dispatcher(harness.ctx, first, batch=2), Dispatcher(other, second, batch=2)
        await asyncio.gather(one.drain(20), two.drain(20))
        calls = first.calls + second.calls
        written = await _rows(harness.ctx)
        assert first.calls and second.calls, "both dispatchers took part"
        assert sorted(r.id for r in calls) == sorted(r.owed.id for r in written), "every row exactly once"
        assert all(r.done_at is not None for r in written)
        for race_id in races:
            times = sorted(
                (r.id, i, who)
                for who, rec in (("a", first), ("b", second))
                for i, r in enumerate(rec.calls)
                if r.race_id == race_id
            )
            assert [t[0] for t in times] == [r.owed.id for r in written if r.owed.race_id == race_id]
    finally:
        await other.db.close()


async def test_a_transient_failure_is_retried_and_a_permanent_one_does_not_block_the_race(harness: Harness) -> None:
    """A 5xx is tried again later (the race waits for it, in order); a 404 is recorded and the race's
    next rows go on."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    written = [r.owed for r in await _rows(harness.ctx, race_id)]
    transient, permanent = written[0].id, written[1].id
    seen: list[int] = []

    async def flaky(row: Owed) -> Delivery:
        seen.append(row.id)
        if row.id == transient and seen.count(transient) == 1:
            raise DeliveryFailed("Discord 503", permanent=False)
        if row.id == permanent:
            raise DeliveryFailed("not found (10008)", permanent=True)
        return Delivery(channel_id=1, message_id=row.id)

    dispatcher = Dispatcher(harness.ctx, flaky)
    assert await dispatcher.drain(2) == 1, "the race waits for its first row, tried again later"
    rows = {r.owed.id: r for r in await _rows(harness.ctx, race_id)}
    assert rows[transient].done_at is None and rows[transient].owed.attempts == 1
    async with harness.ctx.db.sessions() as session, session.begin():
        from sqlalchemy import update

        from bot.store.tables import OutboxRow

        await session.execute(update(OutboxRow).values(retry_at=None))  # the backoff has passed
    await dispatcher.drain(5)
    rows = {r.owed.id: r for r in await _rows(harness.ctx, race_id)}
    assert rows[transient].delivered
    assert rows[permanent].done_at is not None and not rows[permanent].delivered
    assert rows[permanent].outcome == "not found (10008)"
    assert all(r.delivered for i, r in rows.items() if i not in (permanent,)), "the later rows went on"
    assert seen.count(permanent) == 1, "a permanent failure is not tried again"


async def test_a_row_that_keeps_failing_is_given_up_after_its_attempts(harness: Harness) -> None:
    """Discord down for good: after MAX_ATTEMPTS the row is recorded as failed and the race goes on."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    first = (await _rows(harness.ctx, race_id))[0].owed.id

    async def down(row: Owed) -> Delivery:
        if row.id == first:
            raise DeliveryFailed("Discord 502", permanent=False)
        return Delivery()

    dispatcher = Dispatcher(harness.ctx, down)
    from sqlalchemy import update

    from bot.store.tables import OutboxRow

    for _ in range(MAX_ATTEMPTS):
        await dispatcher.deliver_once()
        async with harness.ctx.db.sessions() as session, session.begin():
            await session.execute(update(OutboxRow).values(retry_at=None))
    await dispatcher.drain(5)
    rows = await _rows(harness.ctx, race_id)
    assert rows[0].done_at is not None and not rows[0].delivered and rows[0].owed.attempts == MAX_ATTEMPTS
    assert all(r.done_at is not None for r in rows[1:])


async def test_a_row_claimed_by_a_dispatcher_that_died_is_delivered_after_its_lease(harness: Harness) -> None:
    """A dispatcher claimed a race's row and died before recording it: nobody else touches that race
    until the lease runs out; then the row is delivered (with the same nonce) and the race goes on."""
    assert harness.ctx is not None
    await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    dead = Dispatcher(harness.ctx, Recorder(), lease=0.3)
    (claimed,) = await outbox.claim(harness.ctx.db, dead.claimer, _now(), 0.3, 1)
    alive = Recorder()
    dispatcher = Dispatcher(harness.ctx, alive)
    assert await dispatcher.deliver_once() == 0, "the race's next row waits for the claimed one"
    await asyncio.sleep(0.4)
    await dispatcher.drain(5)
    assert alive.calls[0].id == claimed.id and alive.calls[0].nonce == claimed.nonce


async def test_a_claim_of_a_killed_process_on_this_machine_is_taken_over_at_once(harness: Harness) -> None:
    """A process of this machine claimed a row and was killed: the next dispatcher sees its process is
    gone and delivers the row without waiting for the lease; a live process's claim is left alone."""
    assert harness.ctx is not None
    await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=3)
    child = await asyncio.create_subprocess_exec("true")
    await child.wait()  # a pid that was ours and is gone
    gone = f"main@{dispatch.HOST}:{child.pid}:deadbeef"
    alive_elsewhere = f"main@{dispatch.HOST}:{os.getpid()}:cafe0000"
    (first,) = await outbox.claim(harness.ctx.db, gone, _now(), 600, 1)
    (second,) = await outbox.claim(harness.ctx.db, alive_elsewhere, _now(), 600, 1)
    assert first.race_id != second.race_id
    recorder = Recorder()
    dispatcher = Dispatcher(harness.ctx, recorder)
    assert await dispatcher.take_over() == 1
    await dispatcher.drain(5)
    delivered = {r.id for r in recorder.calls}
    assert first.id in delivered and second.id not in delivered, "only the dead process's claim was taken over"


async def test_a_delivery_writes_its_ledger_entries_and_what_it_owes_in_turn(harness: Harness) -> None:
    """A panel found undeliverable (closed DMs) is recorded in the ledger, and owes the lobby an edit."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})

    async def closed(row: Owed) -> Delivery:
        if row.kind is OwedKind.OPEN_PANEL and row.recipient == 2:
            return Delivery(
                outcome="dms_closed",
                posts=[NewPost(0, PostKind.DMS_CLOSED, 0, 0, member=2)],
                then=[outbox.NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": "dms_closed"})],
            )
        return Delivery(channel_id=1, message_id=row.id)

    await Dispatcher(harness.ctx, closed).drain(5)
    from bot.services import owed

    assert await owed.closed_dms(harness.ctx, race_id) == {2}
    rows = await _rows(harness.ctx, race_id)
    assert rows[-1].owed.kind is OwedKind.LOBBY_EDIT and rows[-1].owed.payload == {"why": "dms_closed"}
    assert all(r.done_at is not None for r in rows)


async def test_a_lobby_edit_with_a_later_one_owed_is_superseded_by_it(harness: Harness) -> None:
    """A backlog of told steps owes one header edit each: every one but the last is superseded (the last
    shows the race as it is then), and once the later one is done the earlier would no longer be."""
    assert harness.ctx is not None
    from bot.services import owed

    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    async with harness.ctx.db.sessions() as session, session.begin():
        for _ in range(3):
            outbox.add(session, race_id, outbox.NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": "step"}), _now())
    edits = [r.owed for r in await _rows(harness.ctx, race_id, pending=True) if r.owed.kind is OwedKind.LOBBY_EDIT]
    assert len(edits) == 4, "the start's edit and three more"
    assert [await owed.superseded(harness.ctx, e) for e in edits] == [True, True, True, False]
    start = next(r.owed for r in await _rows(harness.ctx, race_id, pending=True) if r.owed.kind is OwedKind.STEP_POST)
    assert not await owed.superseded(harness.ctx, start), "only a row of the same kind supersedes"
    for later in edits[1:]:
        await outbox.give_up(harness.ctx.db, later, "delivered elsewhere", _now())
    assert not await owed.superseded(harness.ctx, edits[0]), "only a later edit not done yet supersedes"


@pytest.mark.parametrize("kind", list(OwedKind))
def test_nonces_are_short_and_deterministic(kind: OwedKind) -> None:
    """A row's nonce is at most 25 characters, the same for the same row, different for another."""
    big = 1577516461834895380
    assert outbox.nonce(9_999_999, kind, 12_345, big) == outbox.nonce(9_999_999, kind, 12_345, big)
    assert len(outbox.nonce(9_999_999, kind, 12_345, big)) <= 25
    assert len(outbox.nonce(9_999_999, kind, 12_345)) <= 25
    assert outbox.nonce(1, kind, 2, 3) != outbox.nonce(1, kind, 2, 4) != outbox.nonce(1, kind, 3, 4)


async def test_a_player_s_panel_is_claimed_before_an_older_lobby_edit_of_another_race(harness: Harness) -> None:
    """Past the limit, the most urgent of the races' next rows go first (a panel, then a post or a thread,
    then the rest), whatever their age; a race's own rows still go in the order they were owed."""
    assert harness.ctx is not None
    db = harness.ctx.db
    first, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    second, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"}, seed=3)
    claimer = "main@test:1:ranked"
    while True:  # the first race delivered up to its lobby edit, the last of what its start owes
        (head,) = [r for r in await outbox.claim(db, claimer, _now(), 60, 2) if r.race_id == first] or [None]
        await outbox.release(db, claimer)
        assert head is not None
        if head.kind is OwedKind.LOBBY_EDIT:
            break
        await outbox.finish(db, head, claimer, Delivery(channel_id=1, message_id=head.id), _now())
    (taken,) = await outbox.claim(db, claimer, _now(), 60, 1)
    assert (taken.race_id, taken.kind) == (second, OwedKind.OPEN_THREAD), "the thread before an older lobby edit"
    await outbox.finish(db, taken, claimer, Delivery(channel_id=1, message_id=taken.id), _now())
    order: list[tuple[int, OwedKind]] = []
    while claimed := await outbox.claim(db, claimer, _now(), 60, 1):
        order.append((claimed[0].race_id, claimed[0].kind))
        await outbox.finish(db, claimed[0], claimer, Delivery(channel_id=1, message_id=claimed[0].id), _now())
    assert order == [
        (second, OwedKind.OPEN_PANEL),
        (second, OwedKind.OPEN_PANEL),
        (second, OwedKind.STEP_POST),
        (first, OwedKind.LOBBY_EDIT),  # the oldest of the two last-ranked rows
        (second, OwedKind.LOBBY_EDIT),
    ]
    assert [outbox.rank(k) for k in (OwedKind.CLOSE_PANEL, OwedKind.LAP_TURN, OwedKind.FINAL_POST)] == [0, 1, 2]
