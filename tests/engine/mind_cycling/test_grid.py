"""Teams and the start grid (§3.2, §3.3): roles, bases, placement turns and slots."""

from __future__ import annotations

import pytest

from engine.messages import OrderError
from engine.mind_cycling import RULESET
from engine.ruleset import Entrant
from tests.logged import LoggedRace

THREE = [Entrant(id="a", name="A"), Entrant(id="b", name="B"), Entrant(id="c", name="C")]


@pytest.mark.rules("D2", "3.2")
@pytest.mark.parametrize(
    ("size", "roles"),
    [
        (5, ["sprinter", "climber", "domestique", "domestique", "domestique"]),
        (4, ["sprinter", "climber", "domestique", "domestique"]),
        (3, ["sprinter", "climber", "domestique"]),
    ],
)
def test_a_team_is_a_sprinter_a_climber_and_the_rest_domestiques(size: int, roles: list[str]) -> None:
    """#1 sprinter, #2 climber, #3.. domestiques; team_size 3-5 (default 5)."""
    state = RULESET.new_race(None, {"team_size": size}, THREE, seed=1)
    assert [c.role for c in state.team("b")] == roles
    assert RULESET.new_race(None, {}, THREE, seed=1).team_size == 5


@pytest.mark.rules("D8")
def test_every_cyclist_starts_with_a_blue_base() -> None:
    """All bottles full at the start."""
    state = RULESET.new_race(None, {}, THREE, seed=1)
    assert all(c.bottle for c in state.cyclists.values())


@pytest.mark.rules("D9", "3.3")
def test_players_take_turns_placing_one_cyclist_into_the_next_slot_row_zero_left_to_right_then_row_minus_one() -> None:
    """With an explicit order c, a, b the slots fill (0,1) (0,2) (0,3) (0,4) (0,5) (-1,1)..."""
    race = LoggedRace.start("mind_cycling", THREE, 5, options={"team_size": 3, "placement_order": ["c", "a", "b"]})
    seen = []
    for n in range(9):
        (decision,) = race.awaited()
        assert decision.kind == "place"
        number = [1, 2, 3][n // 3]
        seen.append(decision.entrant)
        race.play_step({decision.entrant: f"#{number}"})
    assert seen == ["c", "a", "b"] * 3
    spots = {k: (c.row, c.lane) for k, c in race.state.cyclists.items()}
    assert spots["c#1"] == (0, 1) and spots["a#1"] == (0, 2) and spots["b#1"] == (0, 3)
    assert spots["c#2"] == (0, 4) and spots["a#2"] == (0, 5) and spots["b#2"] == (-1, 1)
    assert spots["b#3"] == (-1, 4)
    assert race.awaited()[0].kind == "intents"


@pytest.mark.rules("D9")
def test_the_random_placement_order_comes_from_the_race_seed() -> None:
    """Same seed, same order; it is a permutation of the players."""
    orders = {tuple(RULESET.new_race(None, {}, THREE, seed=s).placement_order) for s in range(12)}
    assert all(sorted(o) == ["a", "b", "c"] for o in orders)
    assert len(orders) > 1
    assert (
        RULESET.new_race(None, {}, THREE, seed=3).placement_order
        == RULESET.new_race(None, {}, THREE, seed=3).placement_order
    )


@pytest.mark.rules("D9")
def test_a_placement_order_must_name_every_player_once() -> None:
    """An explicit list missing a player is refused."""
    with pytest.raises(ValueError, match="placement_order must list every entrant"):
        RULESET.new_race(None, {"placement_order": ["a", "b"]}, THREE, seed=1)


@pytest.mark.rules("D9", "D24")
def test_placing_an_already_placed_cyclist_is_refused_and_the_automatic_choice_is_the_first_unplaced() -> None:
    """A clear refusal; an absent player places its first unplaced cyclist in team order."""
    race = LoggedRace.start("mind_cycling", THREE, 5, options={"placement_order": ["a", "b", "c"]})
    race.play_step({"a": "#2"})
    race.play_step({"b": "sprinter"})
    race.play_step({"c": {"cyclist": 4}})
    with pytest.raises(OrderError, match="#2 can't take the slot: your cyclists still to place are #1, #3, #4, #5"):
        race.validate("a", "#2")
    assert race.absent_order("a") == {"cyclist": 1, "auto": True}
