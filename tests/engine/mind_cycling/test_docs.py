"""The documentation ships and works: the example record replays, the guide and summary exist."""

from __future__ import annotations

import re

from engine.mind_cycling import RULESET
from engine.record import parse_record
from tests.conformance import ROOT
from tests.logged import logged_replay

DOC = ROOT / "docs" / "race-record" / "mind_cycling.md"


def test_the_example_record_in_the_docs_replays_to_annas_four_medals() -> None:
    """Anna: places 1, 3, 6 = 29 points against 28, both sections and the win: 4 medals."""
    block = re.search(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    race = logged_replay(parse_record(block.group(1)))
    result = RULESET.result(race.state)
    assert result.finished
    anna, bot = result.standings
    assert anna.entrant == "anna" and anna.place == 1
    assert anna.figures["team_points"] == 12 + 10 + 7 and bot.figures["team_points"] == 11 + 9 + 8
    assert anna.figures["medal_names"] == ["best_cyclist", "best_sprinter", "best_climber", "best_team"]
    words = next(c for c in result.columns if c.key == "medal_names").words
    names = [(words[m].key, words[m].text) for m in anna.figures["medal_names"]]
    assert names == [
        ("mc.medal.best_cyclist", "Best Cyclist"),
        ("mc.medal.best_sprinter", "Best Sprinter"),
        ("mc.medal.best_climber", "Best Climber"),
        ("mc.medal.best_team", "Best Team"),
    ]


def test_the_guide_ships_with_the_package_and_the_summary_is_short() -> None:
    """guide.md is readable from the package; summary() is a paragraph."""
    guide = RULESET.guide()
    for word in ("wheel", "relay", "attack", "bottle", "Solo", "#3 move"):
        assert word in guide
    assert 200 < len(RULESET.summary().text) < 1200
