"""The starting grid (§4.2-4.4, D6, D9, D20, D21): bots first, then the players one rider at a time."""

from __future__ import annotations

import pytest

from engine.messages import OrderError

from .helpers import at, entrants, record, start


@pytest.mark.rules("D20", "D21", "4.4", "7.2", "7.3", "R-FR-2", "R-FR-7")
def test_bot_teams_are_placed_first_peloton_then_muscle_teams_in_order() -> None:
    """Peloton on P1 and P2 (right lane); each Muscle Sprinteur frontmost, its Rouleur frontmost behind it."""
    race = start(record(players=1, bots=["peloton", "muscle", "muscle"], stage="Avenue Corso Paseo"))
    s = race.state
    # colours in entrant order: anna black, peloton blue, muscle green, muscle red; P1 = square 5
    assert at(s, "blue-p1") == (5, 1) and at(s, "blue-p2") == (4, 1)
    assert at(s, "green-s") == (5, 2) and at(s, "green-r") == (4, 2)
    assert at(s, "red-s") == (3, 1) and at(s, "red-r") == (2, 1)
    assert s.phase == "place" and at(s, "black-r") == (0, 0)


@pytest.mark.rules("D6", "4.3", "4.4", "9.3")
def test_players_place_one_rider_at_a_time_in_turn_order_and_lanes_are_automatic() -> None:
    """Ben then Anna, round and round; a full square, a square outside the start area and a placed rider are refused."""
    race = start(record(players=2, setup={"turn_order": ["ben", "anna"]}))
    assert [d.entrant for d in race.awaited()] == ["ben"]
    race.play_step({"ben": "place s 1"})
    assert at(race.state, "blue-s") == (5, 1)
    race.play_step({"anna": {"place": {"rider": "r", "square": 1}}})
    assert at(race.state, "black-r") == (5, 2)
    with pytest.raises(OrderError, match="Your Sprinteur is already on the grid"):
        race.validate("ben", "place s 2")
    race.play_step({"ben": "place 2"})  # its only unplaced rider
    with pytest.raises(OrderError, match="Square 5 is full; choose another start square"):  # P1, told as the board
        race.validate("anna", "place s 1")
    with pytest.raises(OrderError, match="P7 is not a start square: the start area is P1-P5"):
        race.validate("anna", "place s 7")
    with pytest.raises(OrderError, match="It's anna's turn"):
        race.validate("ben", "place r 3")
    race.play_step({"anna": "place s 3"})
    assert at(race.state, "black-s") == (3, 1)
    assert race.state.phase == "energy"


@pytest.mark.rules("R-FR-12", "9.4", "4.2")
def test_a_placement_may_name_the_boards_square_and_is_refused_in_that_numbering() -> None:
    """Ben puts his Sprinteur on square 4 (P2 on a five-square start) by the number the buttons show; a
    square past the start area and a full one are refused by the board's numbers; the old `place r 1` is P1
    still; the panel's example names a free square the same way."""
    race = start(record(players=2, setup={"turn_order": ["ben", "anna"]}))
    assert race.awaited()[0].example == "place s square 5"  # P1, the frontmost, is square 5
    race.play_step({"ben": "place s square 4"})
    assert at(race.state, "blue-s") == (4, 1)
    with pytest.raises(OrderError) as refused:
        race.validate("anna", "place s sq 9")
    assert refused.value.message.text == "Square 9 is not a start square: the start squares are 1 to 5."
    race.play_step({"anna": {"place": {"rider": "s", "on": 5}}})
    assert at(race.state, "black-s") == (5, 1)
    race.play_step({"ben": "place r 1"})  # §9.4 as written: P1, the square just behind the line
    assert at(race.state, "blue-r") == (5, 2)
    with pytest.raises(OrderError, match=r"^Square 5 is full; choose another start square\.$"):
        race.validate("anna", "place r square 5")
    example = race.awaited()[0].example
    assert example is not None and example.startswith("place r square ")


@pytest.mark.rules("D6")
def test_a_random_grid_places_everyone_at_once_on_start_squares() -> None:
    """grid=random: no placement steps; every rider on a start square, never two in one lane."""
    race = start(record(players=3, options={"grid": "random"}))
    s = race.state
    assert s.phase == "energy"
    spots = [at(s, r.id) for r in s.riders]
    assert all(1 <= sq <= 5 for sq, _ in spots) and len(set(spots)) == 6


@pytest.mark.rules("D6")
def test_a_random_grid_is_random_not_packed_from_the_front() -> None:
    """grid=random over ten seeds: the rear start squares are drawn too, and the grids differ from seed to seed."""
    grids = []
    for seed in range(10):
        race = start(record(players=3, options={"grid": "random"}, seed=seed))
        grids.append(tuple(sorted(at(race.state, r.id) for r in race.state.riders)))
    # Six riders packed from the front fill P1-P3 (squares 5, 4, 3); drawn at random, P4/P5 come up.
    assert any(sq <= 2 for grid in grids for sq, _ in grid)
    assert len(set(grids)) > 1


@pytest.mark.rules("D9", "9.2")
def test_an_absent_player_gets_its_next_rider_on_the_rearmost_free_start_square() -> None:
    """Automatic placement: Rouleur first, on the rearmost start square with a free lane."""
    race = start(record(players=2, setup={"turn_order": ["anna", "ben"]}))
    order = race.absent_order("anna")
    assert order["place"] == {"rider": "r", "square": 5} and order["auto"] is True
    race.play_step({"anna": order})
    assert at(race.state, "black-r") == (1, 1)
    # a partial choice is kept: Ben chose his Sprinteur, the engine picks the square
    assert race.absent_order("ben", {"place": {"rider": "s"}})["place"] == {"rider": "s", "square": 5}


@pytest.mark.rules("D22", "R-FR-5")
def test_default_bot_seats_by_player_count() -> None:
    """Solo: Peloton + 2 Muscle; 2 players: Peloton; 3 or more: none; the bots option overrides."""
    rs = start(record(players=1)).ruleset
    one = rs.default_entrants(entrants("anna"), {})
    assert [e.bot for e in one] == [None, "peloton", "muscle", "muscle"]
    assert [e.bot for e in rs.default_entrants(entrants("anna", "ben"), {})] == [None, None, "peloton"]
    assert [e.bot for e in rs.default_entrants(entrants("a", "b", "c"), {})] == [None, None, None]
    assert [e.bot for e in rs.default_entrants(entrants("a", "b", "c"), {"bots": ["muscle"]})][-1] == "muscle"


@pytest.mark.rules("D22", "7.5")
def test_at_most_six_teams_and_one_peloton() -> None:
    """Seven teams or two Pelotons are refused with a clear message."""
    with pytest.raises(Exception, match="entrants: Flamme Rouge takes 1 to 6 entrants"):
        start(record(players=6, bots=["muscle"], stage="Avenue Corso Paseo"))
    with pytest.raises(Exception, match="at most one Peloton"):
        start(record(players=1, bots=["peloton", "peloton"]))
