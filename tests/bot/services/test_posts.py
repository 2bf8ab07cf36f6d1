"""Posts are remembered so a restart re-posts only what is missing; members' locales are kept for DMs."""

from __future__ import annotations

from bot.services import posts
from bot.store import outbox
from bot.store.ledger import PostKind
from bot.store.outbox import OwedKind
from tests.bot.services.conftest import Harness, member


async def test_a_restart_reposts_only_the_steps_whose_post_was_not_stored(harness: Harness) -> None:
    """The opening and step 1 were posted; step 2 resolved but its post never returned: only step 2 is re-posted."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    await harness.order_all(race_id)
    await harness.order_all(race_id)
    assert await posts.record_post(harness.ctx, race_id, 0, PostKind.STEP, 2000, 1)
    assert await posts.record_post(harness.ctx, race_id, 1, PostKind.STEP, 2000, 2)
    assert not await posts.record_post(harness.ctx, race_id, 1, PostKind.STEP, 2000, 3)
    await harness.crash()
    await harness.boot()
    assert harness.ctx is not None
    assert await posts.unposted_steps(harness.ctx, race_id) == [2]
    step_post = OwedKind.STEP_POST
    assert (
        outbox.nonce(race_id, step_post, 2)
        == outbox.nonce(race_id, step_post, 2)
        != outbox.nonce(race_id, step_post, 1)
    )
    assert outbox.nonce(race_id, step_post, 2) == f"g{race_id}-step-2", "the nonce round posts always had"
    assert len(outbox.nonce(123456789, step_post, 1234)) <= 25


async def test_a_members_locale_is_refreshed_on_every_interaction(harness: Harness) -> None:
    """Bruno joined in Polish, later uses Discord in French: his DMs follow the latest locale."""
    assert harness.ctx is not None
    await posts.touch_member(harness.ctx, member(2, "Bruno", "pl"))
    assert await posts.locales(harness.ctx, 1000, [2, 3]) == {2: "pl", 3: None}
    await posts.touch_member(harness.ctx, member(2, "Bruno", "fr"))
    assert await posts.locales(harness.ctx, 1000, [2]) == {2: "fr"}


async def test_a_member_clicking_again_as_before_is_not_written_again_until_ten_minutes_pass(
    harness: Harness,
) -> None:
    """Every click touches its member: the same name and locale within ten minutes writes nothing (the
    row's ``seen_at`` stays), a new name or locale is written at once, and after ten minutes ``seen_at``
    moves on."""
    from sqlalchemy import select

    from bot.store.tables import Member

    assert harness.ctx is not None

    async def seen() -> tuple[str, str | None, object]:
        async with harness.ctx.db.sessions() as session:  # type: ignore[union-attr]
            row = (await session.execute(select(Member).where(Member.user_id == 2))).scalar_one()
            return row.name, row.locale, row.seen_at

    await posts.touch_member(harness.ctx, member(2, "Bruno", "pl"))
    first = await seen()
    harness.clock.advance(minutes=9)
    await posts.touch_member(harness.ctx, member(2, "Bruno", "pl"))
    assert await seen() == first, "nothing written for the same member nine minutes on"
    await posts.touch_member(harness.ctx, member(2, "Bruno B.", "pl"))
    renamed = await seen()
    assert renamed[0] == "Bruno B." and renamed[2] != first[2]
    harness.clock.advance(minutes=10)
    await posts.touch_member(harness.ctx, member(2, "Bruno B.", "pl"))
    assert (await seen())[2] != renamed[2], "ten minutes on, seen_at moves"
