"""Paces: the three named ones, custom durations, and a clear refusal for anything else."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.services.paces import PaceError, parse_pace
from bot.settings import Settings


@pytest.mark.parametrize(
    ("text", "name", "seconds"),
    [
        ("live", "live", 120),
        ("fast", "fast", 900),
        ("Daily", "daily", 86400),
        ("90s", "custom", 90),
        ("30m", "custom", 1800),
        ("45", "custom", 2700),
        ("6h", "custom", 21600),
        ("2d", "custom", 172800),
    ],
)
def test_a_pace_is_a_name_or_a_duration(text: str, name: str, seconds: int) -> None:
    """live is 2 minutes, fast 15, daily a day; 30m, 6h, 2d and a bare number of minutes are custom paces."""
    pace = parse_pace(text)
    assert (pace.name, pace.seconds) == (name, seconds)


def test_the_reminder_comes_at_three_quarters_of_the_pace() -> None:
    """A fast step (15 minutes) reminds at 11 minutes 15 seconds."""
    assert parse_pace("fast").reminder_seconds == 675


@pytest.mark.parametrize("text", ["chatty", "10x", "5s", "30d", "-5m", ""])
def test_anything_else_is_refused_with_the_accepted_forms(text: str) -> None:
    """Nonsense, too short (under 30 s) and too long (over a week) are refused, naming what works."""
    with pytest.raises(PaceError) as refused:
        parse_pace(text)
    assert "live" in str(refused.value) or "between" in str(refused.value)


def test_the_default_pace_setting_is_checked_at_start() -> None:
    """GREGARIO_DEFAULT_PACE=chatty is refused when the settings are read, naming the paces."""
    assert Settings(default_pace="daily").default_pace == "daily"
    with pytest.raises(ValidationError) as refused:
        Settings(default_pace="chatty")
    assert "live, fast, daily" in str(refused.value)
