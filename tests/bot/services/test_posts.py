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
