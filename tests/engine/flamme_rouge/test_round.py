"""One race round (§5): the cards played, the bot teams' flipped cards, the end of the race.

Each test here was written to kill a surviving mutant of ``engine/flamme_rouge/round.py`` (mutmut, the
``mutation`` extra): the expected values are worked by hand from docs/rules/flamme-rouge.md.
"""

from __future__ import annotations

import pytest

from .helpers import at, play, record


@pytest.mark.rules("7.3", "D21")
def test_a_muscle_rider_flips_the_next_card_of_its_deck_each_round() -> None:
    """A Muscle Rouleur whose deck is 3, 5, 7 moves 3, then 5, and keeps the 7 for the next round."""
    rec = record(
        players=1,
        bots=["muscle"],
        setup={
            "riders": {
                "black-r": {"square": 2, "deck": [3] * 8},
                "black-s": {"square": 3, "deck": [2] * 8},
                "blue-s": {"square": 30, "deck": [4, 4]},
                "blue-r": {"square": 10, "deck": [3, 5, 7]},
            }
        },
        steps=[{"anna": "r3 s2"}, {"anna": "r3 s2"}],
    )
    s = play(rec).state
    assert at(s, "blue-r")[0] == 10 + 3 + 5
    assert s.rider("blue-r").deck == (7,)


@pytest.mark.rules("7.2", "7.3", "D20")
def test_the_peloton_announces_its_empty_deck_and_muscle_teams_never_do() -> None:
    """An empty Peloton deck is announced with its move of 2; a Muscle team's round mentions no Peloton."""
    peloton = record(
        players=1,
        bots=["peloton"],
        setup={
            "riders": {
                "black-r": {"square": 2, "deck": [3] * 8},
                "black-s": {"square": 3, "deck": [2] * 8},
                "blue-p1": {"square": 20, "deck": []},
                "blue-p2": {"square": 17},
            }
        },
        steps=[{"anna": "r3 s2"}],
    )
    race = play(peloton)
    said = [(e.kind, e.data) for e in race.events[0] if e.kind.startswith("fr.peloton")]
    assert said == [("fr.peloton_empty", {"value": 2})]
    assert (at(race.state, "blue-p1")[0], at(race.state, "blue-p2")[0]) == (22, 19)
    muscle = record(
        players=1,
        bots=["muscle"],
        setup={
            "riders": {
                "black-r": {"square": 2, "deck": [3] * 8},
                "black-s": {"square": 3, "deck": [2] * 8},
                "blue-s": {"square": 30, "deck": [4]},
                "blue-r": {"square": 10, "deck": [3]},
            }
        },
        steps=[{"anna": "r3 s2"}],
    )
    assert not [e for e in play(muscle).events[0] if e.kind.startswith("fr.peloton")]
