"""Smoke."""

from tests.bot.services.conftest import Harness


async def test_a_flamme_rouge_race_plays_out(harness: Harness) -> None:
    """Two players and the bot team ride a Flamme Rouge race to the line."""
    race_id, started = await harness.open_and_start("flamme_rouge", humans=2)
    steps = await harness.play_out(race_id)
    row = await harness.race(race_id)
    print(steps, row.status, row.step, started[:1])
    assert row.status == "finished"
