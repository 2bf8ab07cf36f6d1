"""Solo (§8, D25): one team of five, four across in the fewest rounds, the fifth's distance breaks ties."""

from __future__ import annotations

from typing import Any

import pytest

from engine.mind_cycling import RULESET
from engine.mind_cycling.scoring import solo_key, solo_line
from engine.ruleset import Entrant
from tests.logged import LoggedRace

from .scenario import play

SOLO = [Entrant(id="s", name="Solo")]
OPEN = {"course": ["plains"] * 7, "strip_length": 10, "rocks": [], "supply_spaces": []}


def _solo(fifth_row: int, setup_round: int = 6, **options: Any) -> LoggedRace:
    """Four cyclists one step from the line; the climber #2 further back, all at round ``setup_round``."""
    cyclists = [
        {"entrant": "s", "number": 3, "row": 70, "lane": 1},
        {"entrant": "s", "number": 4, "row": 70, "lane": 2},
        {"entrant": "s", "number": 5, "row": 70, "lane": 3},
        {"entrant": "s", "number": 1, "row": 69, "lane": 4},
        {"entrant": "s", "number": 2, "row": fifth_row, "lane": 5},
    ]
    return LoggedRace.start(
        "mind_cycling", SOLO, 3, stage=OPEN, options=options, setup={"cyclists": cyclists, "round": setup_round}
    )


@pytest.mark.rules("D25", "8")
def test_the_solo_team_always_has_five_cyclists_whatever_the_team_size() -> None:
    """team_size is ignored in solo."""
    state = RULESET.new_race(None, {"team_size": 3}, SOLO, seed=1)
    assert state.solo and len(state.team("s")) == 5


@pytest.mark.rules("D9", "8", "3.3")
def test_the_solo_player_orders_its_five_cyclists_side_by_side_on_row_zero() -> None:
    """Five placement steps fill row 0, lanes 1 to 5, in the order chosen."""
    race = LoggedRace.start("mind_cycling", SOLO, 1)
    for n in (2, 5, 1, 4, 3):
        race.play_step({"s": f"#{n}"})
    assert [(c.row, c.lane) for c in race.state.team("s")] == [(0, 3), (0, 1), (0, 5), (0, 4), (0, 2)]


@pytest.mark.rules("D25", "8", "example:solo-scoring")
def test_solo_scores_the_round_of_the_fourth_crossing_and_the_fifths_spaces_to_the_line() -> None:
    """Round 6: four cross; the climber rides 4 from row 64 to 68 after them: 70 - 68 + 1 = 3 spaces short."""
    race = _solo(64)
    play(race, {"s": "#3 move; #4 move; #5 move; #1 move; #2 move 4"})
    result = RULESET.result(race.state)
    assert result.finished
    figures = result.standings[0].figures
    assert (figures["rounds"], figures["remaining"], figures["crossed"]) == (6, 3, 4)
    note = result.notes[0]
    assert (note.key, note.params) == ("mc.solo_line", {"count": 6, "remaining": 3})
    assert note.text == "6 rounds; spaces left for the fifth cyclist to cross the finish line: 3"


@pytest.mark.rules("example:solo-scoring", "8")
def test_six_rounds_three_spaces_short_beats_six_rounds_six_spaces_short() -> None:
    """The seed's example: game 1 (6, 3) is better than game 2 (6, 6)."""
    game1, game2 = _solo(64), _solo(64)
    play(game1, {"s": "#3 move; #4 move; #5 move; #1 move; #2 move 4"})
    play(game2, {"s": "#3 move; #4 move; #5 move; #1 move; #2 move 1"})
    one = RULESET.result(game1.state).standings[0].figures
    two = RULESET.result(game2.state).standings[0].figures
    assert (one["rounds"], one["remaining"]) == (6, 3) and (two["rounds"], two["remaining"]) == (6, 6)
    assert solo_key(one["rounds"], one["remaining"]) < solo_key(two["rounds"], two["remaining"])
    assert solo_line(6, 6) == "6 rounds and 6 spaces left for the fifth cyclist to cross the finish line"


@pytest.mark.rules("D25")
def test_a_fifth_cyclist_that_crosses_in_the_same_round_is_zero_spaces_short() -> None:
    """All five across in round 6: remaining 0."""
    race = _solo(68)
    play(race, {"s": "#3 move; #4 move; #5 move; #1 move; #2 move"})
    assert RULESET.result(race.state).standings[0].figures["remaining"] == 0


@pytest.mark.rules("8", "D25")
def test_solo_goes_on_until_four_are_across() -> None:
    """Three across after round 6: the race goes on to round 7."""
    race = _solo(60)
    play(race, {"s": "#3 move; #4 move; #5 move; #1 move 0; #2 move 0"})
    assert race.awaited() and race.state.round == 7 and not RULESET.result(race.state).finished


@pytest.mark.rules("D22", "8")
def test_a_solo_race_stopped_by_the_round_limit_has_no_score() -> None:
    """max_rounds reached before four cross: finished, not scored."""
    race = _solo(60, setup_round=6, max_rounds=6)
    play(race, {"s": "#3 move 0; #4 move 0; #5 move 0; #1 move 0; #2 move 0"})
    result = RULESET.result(race.state)
    assert result.finished and result.standings[0].figures["scored"] is False
    assert "no score" in result.notes[0].text


@pytest.mark.rules("8")
def test_the_solo_line_says_one_space_and_one_round_in_the_singular() -> None:
    """'1 space left', not '1 spaces left'."""
    assert solo_line(7, 1) == "7 rounds and 1 space left for the fifth cyclist to cross the finish line"
    assert solo_line(1, 0) == "1 round and 0 spaces left for the fifth cyclist to cross the finish line"
