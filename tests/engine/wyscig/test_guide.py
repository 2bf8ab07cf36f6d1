"""The player's guide ships with the package and says what the rules say."""

from __future__ import annotations

from engine.wyscig import RULESET


def test_the_guide_ships_with_the_package_and_covers_the_game() -> None:
    """Read through the package resources: the numbers a player needs are there."""
    guide = RULESET.guide()
    for needle in ("yellow", "57 minutes", "**60**", "+2 km/h", "`play 50 +2`", "second", "steady", "attacker"):
        assert needle in guide, needle


def test_the_summary_is_the_short_form() -> None:
    """A few sentences, with the core numbers."""
    summary = RULESET.summary()
    assert len(summary) < 800
    for needle in ("39-50", "+2", "2 km/h", "57", "60"):
        assert needle in summary, needle
