"""Reads for posts and panels: a panel's frame in one read says what the three reads it replaces say."""

from __future__ import annotations

import pytest

from bot.services import boards, lobby, owed
from tests.bot.services.conftest import Harness


@pytest.mark.parametrize("ruleset", ["tabella", "wyscig", "mind_cycling", "flamme_rouge"])
async def test_a_panel_frame_is_the_race_its_deadline_and_its_counter(harness: Harness, ruleset: str) -> None:
    """At each of the first three steps the frame is the race's
    view, the step's deadline and the marker players saw while it was open, as each read alone gives them;
    a step with no deadline (one already resolved) has none."""
    assert harness.ctx is not None
    options = {"mode": "live"} if ruleset == "tabella" else None
    race_id, _ = await harness.open_and_start(ruleset, humans=2, options=options)
    for _ in range(3):
        step = (await harness.race(race_id)).step
        frame = await boards.panel_frame(harness.ctx, race_id, step)
        assert frame.race == await lobby.view(harness.ctx, race_id)
        assert frame.deadline == await boards.deadline(harness.ctx, race_id, step)
        assert frame.deadline is not None
        assert frame.progress == await owed.progress_before(harness.ctx, race_id, step)
        await harness.order_all(race_id)
    moved = await boards.panel_frame(harness.ctx, race_id, 1)
    assert moved.deadline is None and moved.progress == await owed.progress_before(harness.ctx, race_id, 1)
    assert (await boards.panel_frame(harness.ctx, race_id, 0)).progress == {}, "nothing before the start"
