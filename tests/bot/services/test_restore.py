"""After a restore: what Discord shows that the database cannot explain, and what the races are owed then."""

from __future__ import annotations

import pytest

from bot.services import boards, orders, owed, restore
from bot.services.context import Context
from bot.services.dispatch import Dispatcher
from bot.services.outcomes import Refusal
from bot.services.restore import Found, Verdict
from bot.store import outbox
from bot.store.ledger import NewPost, PostKind
from bot.store.outbox import Delivery, NewOwed, Owed, OwedKind
from tests.bot.services.conftest import CHANNEL, Harness

DM = 3_000
"""A member's DM channel here: ``DM + user``."""


class Ledgered:
    """A deliverer that records each create in the ledger as the Discord side does (ids grow like Discord's)."""

    async def __call__(self, row: Owed) -> Delivery:
        message = 10_000 + row.id
        if row.kind in (OwedKind.OPEN_PANEL, OwedKind.REOPEN_PANEL):
            assert row.recipient is not None
            dm = DM + row.recipient
            return Delivery(dm, message, posts=[NewPost(row.step, PostKind.PANEL, dm, message, row.recipient)])
        if row.kind is OwedKind.STEP_POST:
            return Delivery(CHANNEL, message, posts=[NewPost(row.step, PostKind.STEP, CHANNEL, message)])
        return Delivery(outcome="moot")


async def _started(harness: Harness) -> tuple[Context, int, list[int]]:
    """A live Tabella race of two members, everything owed delivered."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    await Dispatcher(harness.ctx, Ledgered()).drain(10)
    users = [u for _e, u in await harness.awaited_humans(race_id)]
    return harness.ctx, race_id, users


async def _pending(ctx: Context, race_id: int) -> list[outbox.Record]:
    async with ctx.db.sessions() as session:
        return await outbox.rows_of(session, race_id, pending=True)


async def test_places_start_after_the_newest_message_the_ledger_knows(harness: Harness) -> None:
    """The race channel is read after its newest known post; each member's DMs after their newest panel."""
    ctx, race_id, users = await _started(harness)
    places = {(p.channel_id, p.member): p.after for p in await restore.places(ctx)}
    posts = await owed.posts(ctx, race_id)
    assert places[(CHANNEL, None)] == max(p.message_id for p in posts if p.channel_id == CHANNEL)
    for user in users:
        assert places[(DM + user, user)] == max(p.message_id for p in posts if p.member == user)


async def test_nothing_unknown_or_a_delivery_cut_off_is_no_restore(harness: Harness) -> None:
    """Known messages, a panel whose open_panel row is still owed, and one post while the race's oldest owed
    row is a post (a crash between Discord's answer and the bookkeeping) are explained: no restore."""
    ctx, race_id, users = await _started(harness)
    posts = await owed.posts(ctx, race_id)
    known = [Found(p.channel_id, p.message_id, p.member, race_id if p.member else None, p.step) for p in posts]
    assert not (await restore.judge(ctx, known)).restored
    await harness.order_all(race_id)  # step 1 resolves: closes, panels of step 2 and the post are owed
    rows = await _pending(ctx, race_id)
    assert rows[0].owed.kind is OwedKind.CLOSE_PANEL
    cut_off = [Found(DM + users[0], 99_000, users[0], race_id, 2)]
    assert not (await restore.judge(ctx, cut_off)).restored, "its open_panel row is still owed"
    for row in rows:  # only the post is left owed, as when a crash cut its delivery off
        if row.owed.kind is not OwedKind.STEP_POST:
            await outbox.give_up(ctx.db, row.owed, "test", ctx.clock.now())
    assert not (await restore.judge(ctx, [Found(CHANNEL, 99_001)])).restored, "one post in flight"
    verdict = await restore.judge(ctx, [Found(CHANNEL, 99_001), Found(CHANNEL, 99_002)])
    assert verdict.lost == [Found(CHANNEL, 99_002)], "the second post no owed row explains"


async def test_a_panel_of_a_step_the_database_does_not_have_is_a_restore(harness: Harness) -> None:
    """A panel of step 2 while the race is at step 1 and nothing is owed: a later moment made it."""
    ctx, race_id, users = await _started(harness)
    lost = Found(DM + users[1], 99_000, users[1], race_id, 2)
    assert await restore.judge(ctx, [lost]) == Verdict([lost])


@pytest.mark.rules("R-SVC-6")
async def test_a_restore_tells_each_running_race_once_reopens_its_panels_and_restarts_its_deadline(
    harness: Harness,
) -> None:
    """Resuming owes, per running race, the notice, a fresh panel per awaited member and the lobby's edit;
    the open step's deadline is a whole pace from now. Found again at the same step, no second notice."""
    ctx, race_id, users = await _started(harness)
    race = await harness.race(race_id)
    before = await boards.deadline(ctx, race_id, race.step)
    assert before is not None
    harness.clock.advance(race.pace_seconds * 2)  # the copy is older than the pace: the deadline has passed
    verdict = Verdict([Found(CHANNEL, 99_000)])
    assert await restore.resume(ctx, verdict) == [race_id]
    kinds = [(r.owed.kind, r.owed.recipient) for r in await _pending(ctx, race_id)]
    assert kinds == [
        (OwedKind.RESUMED, None),
        *[(OwedKind.REOPEN_PANEL, u) for u in users],
        (OwedKind.LOBBY_EDIT, None),
    ]
    after = await boards.deadline(ctx, race_id, race.step)
    assert after is not None and (after - ctx.clock.now()).total_seconds() == race.pace_seconds
    assert await restore.resume(ctx, verdict) == [], "told once per step"


async def test_rows_owed_after_a_restore_carry_nonces_of_their_own(harness: Harness) -> None:
    """Discord remembers a nonce for minutes: a panel owed after the restore for the same step and member
    as one of the lost moment gets another nonce; one owed before it keeps its own."""
    ctx, race_id, users = await _started(harness)
    async with ctx.db.sessions() as session, session.begin():
        outbox.add(session, race_id, NewOwed(OwedKind.OPEN_PANEL, 5, users[0]), ctx.clock.now())
    await restore.resume(ctx, Verdict([Found(CHANNEL, 99_000)]))
    async with ctx.db.sessions() as session, session.begin():
        outbox.add(session, race_id, NewOwed(OwedKind.OPEN_PANEL, 5, users[0]), ctx.clock.now())
    first, *_, second = [r.owed for r in await _pending(ctx, race_id) if r.owed.kind is OwedKind.OPEN_PANEL]
    assert first.nonce == second.nonce, "as written, the two rows share their nonce"
    assert await owed.nonce_of(ctx, first) == first.nonce
    assert await owed.nonce_of(ctx, second) != second.nonce
    assert len(await owed.nonce_of(ctx, second)) <= 25


async def test_an_order_for_a_step_the_race_has_not_reached_is_refused_as_undone(harness: Harness) -> None:
    """An order sent from a panel of a lost moment (a step beyond the race's) is refused, saying so."""
    ctx, race_id, users = await _started(harness)
    race = await harness.race(race_id)
    entrant = next(e for e, u in await harness.awaited_humans(race_id) if u == users[0])
    order = await harness.human_order(race_id, entrant)
    with pytest.raises(Refusal) as refused:
        await orders.submit_order(ctx, race_id, users[0], order, step=race.step + 1)
    assert refused.value.key == "order.undone"
    assert (await orders.panel(ctx, race_id, users[0])).order is None
