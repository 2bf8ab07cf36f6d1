"""Complete races of all four rule systems through the services, and their records rebuilt from the database."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlmodel import col

from bot.services import records
from bot.services.outcomes import RaceFinished, RaceStarted, StepResolved
from bot.store.tables import OrderRow, StepEvents
from engine.registry import get_ruleset
from tests.bot.services.conftest import Harness

RACES: list[tuple[str, int, int, dict[str, Any], Any]] = [
    ("flamme_rouge", 2, 1, {}, None),
    ("tabella", 3, 1, {"mode": "live"}, None),
    ("wyscig", 2, 1, {}, {"stages": 1}),
    ("mind_cycling", 2, 1, {}, "short"),
    ("tabella", 2, 2, {"mode": "plan"}, None),
    ("mind_cycling", 2, 1, {"mode": "live"}, "short"),
]


@pytest.mark.parametrize(
    ("ruleset", "humans", "bots", "options", "stage"),
    RACES,
    ids=[f"{r[0]}-{r[3].get('mode', 'default')}" for r in RACES],
)
async def test_a_race_of_every_system_plays_out_and_its_record_replays(
    harness: Harness, ruleset: str, humans: int, bots: int, options: dict[str, Any], stage: Any
) -> None:
    """Riders and a bot race to the finish; the record rebuilt from the database replays to the stored result."""
    race_id, started = await harness.open_and_start(ruleset, humans, bots, options=options, stage=stage)
    assert isinstance(started[0], RaceStarted)
    await harness.play_out(race_id)
    assert harness.ctx is not None
    row = await harness.race(race_id)
    assert row.status == "finished" and row.awaiting == []
    seats = await harness.seats(race_id)
    assert sum(1 for s in seats.values() if s.bot) >= 1 and sum(1 for s in seats.values() if s.user_id) == humans

    async with harness.ctx.db.sessions() as session:
        steps = (
            await session.execute(
                select(func.count()).select_from(StepEvents).where(col(StepEvents.race_id) == race_id)
            )
        ).scalar()
        by = dict(
            (
                await session.execute(
                    select(col(OrderRow.by), func.count())
                    .where(col(OrderRow.race_id) == race_id)
                    .group_by(col(OrderRow.by))
                )
            ).all()
        )
    assert steps == row.step  # step 0 (the opening) and every resolved step, once each
    assert by.get("player", 0) > 0 and by.get("bot", 0) > 0

    record = await records.race_record(harness.ctx, race_id)
    assert len(record.steps) == row.step - 1
    assert await records.replays_to_stored_result(harness.ctx, race_id)

    resolved = [h for h in harness.posted if isinstance(h, StepResolved)]
    finished = [h for h in harness.posted + started if isinstance(h, RaceFinished)]
    assert len(finished) == 1
    assert sorted(h.step for h in resolved + [h for h in started if isinstance(h, StepResolved)]) == list(
        range(1, row.step)
    )


PRESET_RACES: list[tuple[str, str, dict[str, Any]]] = [
    ("flamme_rouge", "Stage 9", {}),
    ("tabella", "classic-3", {"mode": "live"}),
    ("mind_cycling", "short", {}),
]


@pytest.mark.parametrize(("ruleset", "preset", "options"), PRESET_RACES, ids=[r[0] for r in PRESET_RACES])
async def test_a_race_on_a_preset_keeps_its_own_copy_of_the_stage(
    harness: Harness, ruleset: str, preset: str, options: dict[str, Any]
) -> None:
    """A race opened on a preset stores the preset's data; its record names no preset and replays to the result."""
    race_id, _started = await harness.open_and_start(ruleset, 1, 1, options=options, stage=preset)
    await harness.play_out(race_id)
    assert harness.ctx is not None
    row = await harness.race(race_id)
    assert row.status == "finished"
    assert row.stage == get_ruleset(ruleset).stage_data(preset)
    assert isinstance(row.stage, dict) and "preset" not in row.stage
    assert row.stage_name == preset
    record = await records.race_record(harness.ctx, race_id)
    assert record.stage == row.stage
    assert await records.replays_to_stored_result(harness.ctx, race_id)
