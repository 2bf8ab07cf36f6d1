"""Bot strategies of an ordinary team: first, simple, heuristic (deterministic, always legal)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge import RULESET
from tests.logged import LoggedRace

from .helpers import entrants, placed, record, start


def hands_race(positions: dict[str, Any], hands: dict[str, list[Any]], stage: str = "S5 _60 F5") -> LoggedRace:
    return start(record(players=1, stage=stage, setup=placed(positions, hands)))


def test_first_plays_the_first_card_drawn_and_simple_the_highest() -> None:
    """Hand 4 7 3 5: first -> 4, simple -> 7."""
    race = hands_race({"black-r": 10, "black-s": 3}, {"black-r": [4, 7, 3, 5], "black-s": [3, 9, 2, 5]})
    first = RULESET.auto_order(race.state, "anna", None, "first")
    simple = RULESET.auto_order(race.state, "anna", None, "simple")
    assert first["cards"] == {"r": 4, "s": 3}
    assert simple["cards"] == {"r": 7, "s": 9}


def test_the_heuristic_keeps_the_sprinteurs_nines_far_from_the_line_and_spends_them_near_it() -> None:
    """Square 10 (56 to go): not the 9; square 55 (11 to go): the 9."""
    far = hands_race({"black-r": 3, "black-s": 10}, {"black-s": [9, 2, 3, 5], "black-r": [3, 4, 5, 6]})
    assert RULESET.auto_order(far.state, "anna", None, "heuristic")["cards"]["s"] != 9
    near = hands_race({"black-r": 3, "black-s": 55}, {"black-s": [9, 2, 3, 5], "black-r": [3, 4, 5, 6]})
    assert RULESET.auto_order(near.state, "anna", None, "heuristic")["cards"]["s"] == 9


def test_the_heuristic_plays_a_cheap_card_where_the_terrain_makes_it_worth_as_much() -> None:
    """On a descent (minimum 5) it plays its exhaustion card rather than a 5; under an ascent cap, not the 7."""
    descent = hands_race(
        {"black-r": 12, "black-s": 3}, {"black-r": ["E", 5, 4, 3], "black-s": [2, 3, 4, 5]}, stage="S5 _6 d3 _51 F5"
    )
    assert RULESET.auto_order(descent.state, "anna", None, "heuristic")["cards"]["r"] == 2
    ascent = hands_race(
        {"black-r": 10, "black-s": 3}, {"black-r": [7, 5, 4, 3], "black-s": [2, 3, 4, 5]}, stage="S5 _6 u20 _34 F5"
    )
    assert RULESET.auto_order(ascent.state, "anna", None, "heuristic")["cards"]["r"] == 5


@pytest.mark.parametrize("strategy", ["heuristic", "simple", "first"])
def test_every_strategy_plays_whole_races_deterministically(strategy: str) -> None:
    """Two runs of the same all-bot race give the same record; every step validated on the way."""

    def run() -> Any:
        race = LoggedRace.start(
            "flamme_rouge",
            entrants(f"a:{strategy}", f"b:{strategy}", "p:peloton", "m:muscle"),
            21,
            "Le Col du Ballon",
            {"breakaway": "on"},
        )
        race.play_bots_until_human()
        assert race.result().finished
        return race.steps

    assert run() == run()


def test_the_heuristic_beats_simple_head_to_head_on_a_flat_stage() -> None:
    """40 seeded races, seats alternating: the heuristic team is placed ahead in clearly more than half."""
    wins = 0
    for i in range(40):
        teams = entrants("h:heuristic", "s:simple") if i % 2 == 0 else entrants("s:simple", "h:heuristic")
        race = LoggedRace.start("flamme_rouge", teams, 1000 + i, "Avenue Corso Paseo", {"finish": "first"})
        race.play_bots_until_human()
        places = {st.entrant: st.place for st in race.result().standings}
        wins += places["h"] < places["s"]
    assert wins >= 26
