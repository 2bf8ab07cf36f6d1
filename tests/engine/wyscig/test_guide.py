"""The player's guide ships with the package and says what the rules say."""

from __future__ import annotations

from engine.wyscig import RULESET
from engine.wyscig.models import DEFAULT_STAGES, Stage


def test_the_guide_ships_with_the_package_and_covers_the_game() -> None:
    """Read through the package resources: the numbers a player needs are there."""
    guide = RULESET.guide()
    for needle in ("yellow", "57 minutes", "**60**", "+2 km/h", "`play 50 +2`", "second", "steady", "attacker"):
        assert needle in guide, needle


def test_the_summary_is_the_short_form() -> None:
    """A few sentences, with the core numbers."""
    summary = RULESET.summary().text
    assert len(summary) < 800
    for needle in ("39-50", "+2", "2 km/h", "57", "60"):
        assert needle in summary, needle


def test_the_presets_the_boards_and_the_guide_agree_on_the_number_of_stages() -> None:
    """A preset is a race of D2's default 6 stages: its summary, its board, its data and the guide say so."""
    assert Stage().stages == DEFAULT_STAGES == 6
    assert f"{DEFAULT_STAGES} stages unless the race says otherwise" in RULESET.guide()
    for preset in RULESET.presets():
        stages = RULESET.stage_data(preset.name)["stages"]
        assert stages == DEFAULT_STAGES
        assert f"{stages} stages" in str(preset.summary)
        assert str(RULESET.stage_board(preset.name, {})).startswith(f"{stages} stages")
    assert str(RULESET.stage_board({"stages": 3}, {})).startswith("3 stages")
