"""Bot strategies: legal, deterministic, and different in spirit."""

from __future__ import annotations

import pytest

from engine.race import Race
from engine.ruleset import Entrant
from engine.tabella import RULESET
from engine.tabella.bots import best_route
from engine.tabella.table import Course, classic_table

from .scenario import CLASSIC_1


def _bots(mode: str, seed: int) -> Race:
    entrants = [
        Entrant(id="c1", name="Calmo", bot="cautious"),
        Entrant(id="a1", name="Audace", bot="aggressive"),
        Entrant(id="c2", name="Prudente", bot="cautious"),
        Entrant(id="a2", name="Feroce", bot="aggressive"),
    ]
    return Race.start("tabella", entrants, seed=seed, options={"mode": mode})


@pytest.mark.parametrize("mode", ["plan", "live"])
def test_bots_play_whole_races_to_a_result_in_both_modes(mode: str) -> None:
    """Every bot order validates (the driver checks it) and the race finishes with everyone listed."""
    for seed in range(3):
        race = _bots(mode, seed)
        race.play_bots_until_human()
        result = race.result()
        assert result.finished and len(result.standings) == 4
        assert all(r.r >= 0 and r.v >= 0 for r in race.state.riders)


def test_bots_are_deterministic_given_the_state() -> None:
    """The same state gives the same bot order."""
    race = _bots("plan", 4)
    assert race.bot_order("a1") == race.bot_order("a1")


def test_the_aggressive_bot_uses_specials_and_the_cautious_one_keeps_out_of_fights() -> None:
    """Aggressive: Aggressiva start, a Bibitone, a Gomitata and a Bottigliata. Cautious: Cavaliera, no G/B/J."""
    race = _bots("plan", 4)
    bold, calm = race.bot_order("a1"), race.bot_order("c1")
    assert bold["start"] == "A" and bold["bibitone"] is True
    assert {"G", "B", "V"} <= {e["code"] for e in bold["specials"]}
    assert calm["start"] == "C" and not {"G", "B", "J"} & {e["code"] for e in calm["specials"]}


def test_the_route_planner_takes_the_descent_and_breaks_effort_ties_upwards() -> None:
    """From row C of rows 1-3: into the C1 descent (worth +1 with effort 1 or 2), effort 2 to win collisions."""
    legs = best_route(Course.of(classic_table(), 1), 2, 1, careful=False)
    assert (legs[0].effort, legs[0].dir, legs[0].worth) == (2, "R", 1) and len(legs) == 5


def test_the_absent_player_order_is_the_automatic_order_of_the_rules() -> None:
    """Live start: Cavaliera, no Bibitone, no specials."""
    race = Race.start(
        "tabella",
        [Entrant(id="a", name="A"), Entrant(id="b", name="B")],
        seed=1,
        stage=CLASSIC_1,
        options={"mode": "live"},
    )
    assert RULESET.auto_order(race.state, "a") == {"start": "C", "bibitone": False, "specials": []}
