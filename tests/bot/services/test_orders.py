"""Orders: recorded before they are acknowledged, changed until the step resolves, refused clearly otherwise."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services import orders, resolution
from bot.services.outcomes import Refusal, StepResolved
from bot.services.queries import iso, utc
from bot.store.tables import Job, OrderRow
from tests.bot.services.conftest import Harness


async def _rows(harness: Harness, race_id: int) -> list[tuple[int, str, dict[str, Any], str]]:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        rows = await session.execute(
            select(OrderRow).where(col(OrderRow.race_id) == race_id).order_by(col(OrderRow.id))
        )
        return [(o.step, o.entrant, o.body, o.by) for o in rows.scalars()]


async def _tabella_live(harness: Harness) -> int:
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"mode": "live"})
    return race_id


async def test_the_receipt_is_exactly_what_was_recorded(harness: Harness) -> None:
    """Anna's order is committed before she hears back, and the receipt shows the stored order."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    order = await harness.human_order(race_id, "u1")
    receipt = await orders.submit_order(harness.ctx, race_id, 1, order, step=1)
    stored = [r for r in await _rows(harness, race_id) if r[1] == "u1"]
    assert stored == [(1, "u1", receipt.order, "player")]
    assert receipt.complete and not receipt.changed and receipt.received_at == harness.clock.now()


@pytest.mark.rules("R-SVC-4")
async def test_a_changed_order_replaces_the_first_and_is_the_one_resolved(harness: Harness) -> None:
    """Anna changes her mind before the others order: the step is resolved with her second order."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    first = await harness.human_order(race_id, "u1", "cautious")
    second = await harness.human_order(race_id, "u1", "aggressive")
    assert first != second, "the two strategies should order differently here"
    original = await orders.submit_order(harness.ctx, race_id, 1, first, step=1)
    harness.clock.advance(30)
    changed = await orders.submit_order(harness.ctx, race_id, 1, second, step=1)
    assert changed.changed and not original.changed and changed.order != original.order
    await harness.order_all(race_id, skip={"u1"})
    resolved = next(h for h in harness.posted if isinstance(h, StepResolved) and h.step == 1)
    kept = {k: v for k, v in resolved.orders["u1"].items() if k != "received_at"}
    assert kept == changed.order
    assert resolved.orders["u1"]["received_at"] == iso(changed.received_at)
    assert (changed.received_at - original.received_at).total_seconds() == 30
    assert [r for r in await _rows(harness, race_id) if r[1] == "u1" and r[0] == 1] == [
        (1, "u1", changed.order, "player")
    ]


async def test_a_stranger_a_stale_step_and_a_late_order_are_refused_and_change_nothing(harness: Harness) -> None:
    """Someone not riding, an order for an old step, and an order after the step resolved are all turned down."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    order = await harness.human_order(race_id, "u1")
    before = (await harness.race(race_id)).orders_rev
    with pytest.raises(Refusal) as stranger:
        await orders.submit_order(harness.ctx, race_id, 99, order, step=1)
    assert stranger.value.key == "order.not_seated"
    with pytest.raises(Refusal) as stale:
        await orders.submit_order(harness.ctx, race_id, 1, order, step=0)
    assert stale.value.key == "order.stale" and stale.value.message.params == {"step": 0, "current": 1}
    assert await _rows(harness, race_id) == [] and (await harness.race(race_id)).orders_rev == before

    await harness.order_all(race_id)  # step 1 resolves
    assert (await harness.race(race_id)).step == 2
    rows = await _rows(harness, race_id)
    with pytest.raises(Refusal) as late:
        await orders.submit_order(harness.ctx, race_id, 1, order, step=1)
    assert late.value.key == "order.stale"
    assert await _rows(harness, race_id) == rows


async def test_an_illegal_order_gets_the_rules_message_and_changes_nothing(harness: Harness) -> None:
    """An order the rules refuse comes back with the engine's own typed message; nothing is stored."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    with pytest.raises(Refusal) as refused:
        await orders.submit_order(harness.ctx, race_id, 1, {"start": "Z"}, step=1)
    assert refused.value.key == "td.order.bad_start" and refused.value.message.params == {"value": "Z"}
    assert await _rows(harness, race_id) == []


async def test_only_the_awaited_rider_may_order_in_a_sequential_step(harness: Harness) -> None:
    """In a Wyścig turn, the rider whose turn it is not is told nothing is asked of them."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("wyscig", humans=2, stage={"stages": 1})
    row = await harness.race(race_id)
    (waiting,) = row.awaiting or []
    other = 2 if waiting == "u1" else 1
    order = await harness.human_order(race_id, waiting)
    with pytest.raises(Refusal) as refused:
        await orders.submit_order(harness.ctx, race_id, other, order)
    assert refused.value.key == "order.not_awaited"


async def test_the_last_order_resolves_the_step_at_once(harness: Harness) -> None:
    """When the third rider orders, the step resolves without waiting for the deadline."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    await harness.order_all(race_id, skip={"u3"})
    assert (await harness.race(race_id)).step == 1
    await harness.order_all(race_id)
    assert (await harness.race(race_id)).step == 2
    assert harness.clock.now() < (await resolution_deadline(harness, race_id, 2))


async def resolution_deadline(harness: Harness, race_id: int, step: int) -> datetime:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        due = await session.execute(
            select(col(Job.due_at)).where(
                col(Job.race_id) == race_id, col(Job.step) == step, col(Job.kind) == resolution.DEADLINE
            )
        )
        return utc(due.scalar_one())


async def test_a_players_panel_shows_the_next_part_of_a_decision_and_their_own_view(harness: Harness) -> None:
    """In Tabella's plan, once Anna chose her start, her panel asks for the rest and shows her own rider."""
    assert harness.ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2)
    before = await orders.panel(harness.ctx, race_id, 1)
    assert before.decision is not None and before.decision["entrant"] == "u1" and before.order is None
    await orders.submit_order(harness.ctx, race_id, 1, {"start": "B"}, step=1)
    after = await orders.panel(harness.ctx, race_id, 1)
    assert after.order == {"start": "B"} and after.decision is not None and not after.decision["complete"]
    assert after.view["you"]["id"] == "u1"
    with pytest.raises(Refusal):
        await orders.panel(harness.ctx, race_id, 42)


async def test_a_draft_waits_for_send_and_back_can_empty_it(harness: Harness) -> None:
    """Anna builds a whole order as a draft: stored, not counted, the step waits; a replacing order
    without her last part takes it off; sent, it counts; an empty replacement removes what she stored."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    order = await harness.human_order(race_id, "u1")
    draft = await orders.submit_order(harness.ctx, race_id, 1, order, step=1, draft=True)
    assert not draft.complete
    panel = await orders.panel(harness.ctx, race_id, 1)
    assert panel.order == draft.order and not panel.sent and panel.decision is not None
    assert panel.decision["complete"], "the rules call it complete; only Send makes it count"
    await harness.order_all(race_id, skip={"u1"})
    assert not any(isinstance(h, StepResolved) for h in harness.posted), "a draft holds the step"
    shorter = {k: v for k, v in draft.order.items() if k != "start"}
    replaced = await orders.submit_order(harness.ctx, race_id, 1, shorter, step=1, draft=True, replace=True)
    assert "start" not in replaced.order, "a replacement is not merged with what was stored"
    await orders.submit_order(harness.ctx, race_id, 1, {}, step=1, draft=True, replace=True)
    assert [r for r in await _rows(harness, race_id) if r[1] == "u1"] == [], "an empty replacement removes it"
    sent = await orders.submit_order(harness.ctx, race_id, 1, order, step=1, replace=True)
    assert sent.complete
    await harness.ctx.idle()
    assert any(isinstance(h, StepResolved) and h.step == 1 for h in harness.posted), "sent, it resolves the step"


async def test_the_receipt_says_whether_it_was_the_steps_last_order_and_a_draft_reads_back(harness: Harness) -> None:
    """Send answers at once from the receipt: only the order that completes the step says it resolves now
    (a draft never does); the stored draft reads back as stored, and a step that is not open is stale."""
    assert harness.ctx is not None
    race_id = await _tabella_live(harness)
    first = await orders.submit_order(harness.ctx, race_id, 1, await harness.human_order(race_id, "u1"), step=1)
    assert first.complete and not first.ready
    drafted = await harness.human_order(race_id, "u2")
    as_draft = await orders.submit_order(harness.ctx, race_id, 2, drafted, step=1, draft=True)
    assert not as_draft.ready and await orders.draft(harness.ctx, race_id, 2, 1) == as_draft.order
    assert await orders.draft(harness.ctx, race_id, 3, 1) is None
    second = await orders.submit_order(harness.ctx, race_id, 2, drafted, step=1, replace=True)
    assert second.complete and not second.ready, "the third rider is still awaited"
    harness.clock.advance(5)
    changed = await orders.submit_order(harness.ctx, race_id, 1, await harness.human_order(race_id, "u1"), step=1)
    assert not changed.ready, "a change by a rider who had ordered does not complete the step"
    last = await orders.submit_order(harness.ctx, race_id, 3, await harness.human_order(race_id, "u3"), step=1)
    assert last.ready
    with pytest.raises(Refusal) as stale:
        await orders.draft(harness.ctx, race_id, 1, 0)
    assert stale.value.key == "order.stale"
