"""The race journal: every race event is one INFO line naming the race, its server and its step."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from bot.services import lobby
from tests.bot.services.conftest import SERVER, Harness


def _journal(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.services.journal" and r.levelno == logging.INFO]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_tabella_race_is_journalled_from_lobby_to_gazzetta(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Opened, started, one line per resolved step, finished with its provisional result, then the Gazzetta."""
    assert harness.ctx is not None and harness.scheduler is not None
    caplog.set_level(logging.INFO, logger="bot.services.journal")
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"gazzetta_probability": 1.0})
    await harness.order_all(race_id)
    harness.clock.set(datetime(2026, 5, 2, 9, 0, tzinfo=UTC))
    await harness.scheduler.run_due()
    lines = _journal(caplog)
    race = f"race {race_id} (server {SERVER})"
    assert lines[0] == f"{race}: lobby opened for tabella by user 1"
    assert lines[1] == f"{race}: started with 3 entrants (0 bots)"
    assert lines[2].startswith(f"{race} step 1: resolved in ")
    assert lines[3] == f"{race}: finished at step 1 (provisional result, news held back)"
    assert lines[4] == f"{race}: the Gazzetta published"
    assert len(lines) == 5


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_forgotten_lobby_is_journalled_as_timed_out(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """The scheduler's lobby timeout is one line, with its reason in words."""
    assert harness.ctx is not None and harness.scheduler is not None
    from tests.bot.services.conftest import CHANNEL, member

    caplog.set_level(logging.INFO, logger="bot.services.journal")
    view = await lobby.open_lobby(harness.ctx, member(1, "Anna"), CHANNEL, "wyscig")
    harness.clock.advance(minutes=61)
    await harness.scheduler.run_due()
    assert _journal(caplog)[-1] == f"race {view.race_id} (server {SERVER}): cancelled (lobby timeout)"
