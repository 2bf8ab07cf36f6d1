"""Standings print from the result's own columns, the words in them translated, whatever the system."""

from __future__ import annotations

import pytest

from bot.standings import figure_text, figures_line
from engine.messages import Message
from engine.ruleset import Column, column

MEDALS = Column(
    key="medal_names",
    label=Message("mc.column.medals", {}, "medals"),
    kind="medals",
    format="list",
    words={"best_cyclist": Message("mc.medal.best_cyclist", {}, "best cyclist")},
)


def test_a_word_the_column_knows_reads_as_its_message_not_its_code() -> None:
    """A medal stored as best_cyclist reads "best cyclist"; a code the column does not know stays as it is."""
    assert figure_text(["best_cyclist", "mystery"], "list", MEDALS.words) == "best cyclist, mystery"
    assert figure_text(["best_cyclist"], "list", MEDALS.model_dump()["words"]) == "best cyclist"


def test_the_words_follow_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A French catalogue names the medal in French in the figures line."""
    french = {"mc.medal.best_cyclist": "meilleur coureur", "mc.column.medals": "médailles"}
    monkeypatch.setattr("bot.i18n.catalog", lambda locale: french if locale == "fr" else {})
    line = figures_line({"medal_names": ["best_cyclist"]}, [MEDALS.model_dump()], "fr")
    assert line == "médailles meilleur coureur"


def test_numbers_lists_and_riders_read_as_a_table_shows_them() -> None:
    """Stage times space-separated in hours and minutes, one place per rider, a missing figure as a dash."""
    columns = [
        column("stage_times", "wk.column.stage_times", "stages", "time", "list").model_dump(),
        column("rider_places", "fr.column.rider_places", "riders", "place", "per_rider").model_dump(),
        column("rounds", "fr.column.rounds", "rounds", "round").model_dump(),
    ]
    figures = {"stage_times": [80, 57], "rider_places": {"blue-r": 1, "blue-s": 4}, "rounds": None}
    assert figures_line(figures, columns, "en") == "stages 1:20 0:57 · riders blue-r 1, blue-s 4 · rounds -"


def test_times_read_as_hours_and_minutes_and_penalties_as_minutes() -> None:
    """A race's total 404 minutes reads 6:44; penalty minutes read 7 min, and 75 of them 1:15."""
    columns = [
        column("total_time", "wk.column.total_time", "Total time", "time").model_dump(),
        column("penalty_minutes", "wk.column.penalty_minutes", "Penalty", "minutes").model_dump(),
    ]
    assert figures_line({"total_time": 404, "penalty_minutes": 7}, columns, "en") == "Total time 6:44 · Penalty 7 min"
    assert figures_line({"total_time": 57, "penalty_minutes": 75}, columns, "en") == "Total time 0:57 · Penalty 1:15"
    assert figure_text(None, "number", kind="time") == "-"
