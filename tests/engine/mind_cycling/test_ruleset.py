"""The engine contract for Mind Cycling: round-trips, purity of resolve, views, records and replays."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mind_cycling import RULESET
from engine.mind_cycling.decisions import awaited_entrants
from engine.record import parse_record
from engine.ruleset import Entrant
from tests.logged import LoggedRace, logged_replay

from .scenario import play, race, spot


def _bots(n: int, mode: str, seed: int, stage: str = "short") -> LoggedRace:
    strategies = ("steady", "opportunist")
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[i % 2]) for i in range(n)]
    return LoggedRace.start("mind_cycling", entrants, seed, stage=stage, options={"mode": mode})


def _run(r: LoggedRace) -> None:
    for _ in range(2000):
        if not r.awaited():
            return
        before = RULESET.dump(r.state)
        snapshot = copy.deepcopy(before)
        r.play_step({})
        assert before == snapshot  # resolve never mutates the state it is given
        dumped = RULESET.dump(r.state)
        assert RULESET.dump(RULESET.load(dumped)) == dumped
        json.dumps(dumped)
        json.dumps(RULESET.public_view(r.state))
    raise AssertionError("the race did not end")


@pytest.mark.parametrize(("players", "mode"), [(1, "orders"), (2, "live"), (3, "orders"), (1, "live")])
def test_bot_races_run_to_the_end_round_trip_and_replay_identically(players: int, mode: str) -> None:
    """Bots of both strategies finish a race; every state round-trips; the record replays to the same state."""
    r = _bots(players, mode, seed=11)
    _run(r)
    result = RULESET.result(r.state)
    assert result.finished and len(result.standings) == players
    again = logged_replay(parse_record(r.full_record.to_json()))
    assert RULESET.dump(again.state) == RULESET.dump(r.state)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_any_seeded_bot_race_ends_with_every_player_ranked(seed: int, players: int) -> None:
    """Whatever the seed: a finished race lists every player once, places from 1."""
    r = _bots(players, "orders", seed)
    _run(r)
    standings = RULESET.result(r.state).standings
    assert sorted(s.entrant for s in standings) == sorted(f"p{i}" for i in range(players))
    assert standings[0].place == 1


def test_bots_are_deterministic_and_the_two_strategies_differ() -> None:
    """Same seed, same race; steady and opportunist choose differently somewhere."""
    a, b = _bots(2, "orders", 5), _bots(2, "orders", 5)
    _run(a)
    _run(b)
    assert a.steps == b.steps
    r = race([("a", 1, 22, 1), ("a", 2, 21, 1), ("a", 3, 20, 1)])
    steady = RULESET.auto_order(r.state, "a", None, "steady")
    opportunist = RULESET.auto_order(r.state, "a", None, "opportunist")
    # Both sprinters attack (6 + 3 = 9, out of the sprint); steady knows the climber behind may not ride.
    assert steady["intents"]["1"]["action"] == opportunist["intents"]["1"]["action"] == "attack"
    assert steady["intents"]["2"]["action"] == "move" and opportunist["intents"]["2"]["action"] == "relay"


def test_the_public_view_shows_positions_and_bases_and_the_private_view_adds_the_teams_maxima() -> None:
    """Orders are never stored in the state; the private view adds each own cyclist's maximum."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black")])
    view = RULESET.public_view(r.state)
    mine = {c["id"]: c for c in view["cyclists"]}
    assert mine["a#1"]["base"] == "black" and (mine["a#3"]["row"], mine["a#3"]["lane"]) == (12, 2)
    assert view["awaiting"] == ["a", "b"]
    private = RULESET.private_view(r.state, "a")
    assert {c["id"]: c["maximum"] for c in private["team"]}["a#3"] == 6
    assert "team" not in view


def test_bad_setups_and_options_are_refused_with_the_field_named() -> None:
    """Unknown cyclist, double placement, rocks, unknown option, bad bot."""
    two = [Entrant(id="a", name="A"), Entrant(id="b", name="B")]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"cyclists": [{"entrant": "z", "number": 1, "row": 1, "lane": 1}]}, "no cyclist #1 in 'z'"),
        (
            {
                "cyclists": [
                    {"entrant": "a", "number": 1, "row": 1, "lane": 1},
                    {"entrant": "b", "number": 1, "row": 1, "lane": 1},
                ]
            },
            "setup.cyclists.1: row 1, lane 1 is not free",
        ),
        ({"cyclists": [{"entrant": "a", "number": 1, "row": 99, "lane": 1}]}, "not on the course"),
    ]
    for setup, message in bad:
        with pytest.raises(ValueError, match=message):
            RULESET.new_race(None, {}, two, seed=1, setup=setup)
    with pytest.raises(ValueError, match="speed"):
        RULESET.new_race(None, {"speed": 3}, two, seed=1)
    with pytest.raises(ValueError, match=r"entrants\.0\.bot: unknown bot"):
        RULESET.new_race(None, {}, [Entrant(id="a", name="A", bot="kamikaze")], seed=1)
    with pytest.raises(ValueError, match="takes 1 to 6 entrants"):
        RULESET.new_race(None, {}, [Entrant(id=f"p{i}", name="P") for i in range(7)], seed=1)


@pytest.mark.rules("R-MC-1")
def test_set_up_cyclists_skip_the_grid_and_the_others_are_placed_in_the_free_slots() -> None:
    """Only a#1 is set up on (0,1): the placement turns fill (0,2), (0,3)... around it."""
    r = LoggedRace.start(
        "mind_cycling",
        [Entrant(id="a", name="A"), Entrant(id="b", name="B")],
        2,
        options={"team_size": 3, "placement_order": ["b", "a"]},
        setup={"cyclists": [{"entrant": "a", "number": 1, "row": 0, "lane": 1, "base": "black"}]},
    )
    assert r.awaited()[0].entrant == "b"
    play(r, {"b": "#2"})
    assert spot(r, "b#2") == (0, 2)
    assert r.state.cyclists["a#1"].bottle is False


@pytest.mark.parametrize(("mode", "players", "seed"), [("live", 2, 31), ("live", 1, 32), ("orders", 3, 33)])
def test_random_legal_orders_in_both_modes_replay_identically(mode: str, players: int, seed: int) -> None:
    """Orders built from the decisions' fields (whole, partial, automatic, bot) replay to the same events."""
    import random

    from tests.engine.random_orders import play_randomly

    entrants = [Entrant(id=f"h{i}", name=f"H{i}") for i in range(players)]
    r = LoggedRace.start("mind_cycling", entrants, seed, stage="short", options={"mode": mode})
    play_randomly(r, random.Random(seed))
    assert not r.awaited() and RULESET.result(r.state).finished
    again = logged_replay(parse_record(r.full_record.to_json()))
    assert [[e.model_dump() for e in step] for step in again.events] == [
        [e.model_dump() for e in step] for step in r.events
    ]


@pytest.mark.rules("D4", "D19")
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), mode=st.sampled_from(["orders", "live"]))
def test_riders_never_share_a_space_stand_on_a_rock_leave_the_road_or_go_backwards(seed: int, mode: str) -> None:
    """Random legal orders on the rocky short course keep every position legal; places run 1, 2, 3..."""
    import random

    from tests.engine.random_orders import random_order

    entrants = [Entrant(id=f"h{i}", name=f"H{i}") for i in range(3)]
    r = LoggedRace.start("mind_cycling", entrants, seed, stage="short", options={"mode": mode, "team_size": 4})
    rnd = random.Random(seed)
    rows: dict[str, int] = {}
    for _ in range(600):
        awaited = r.awaited()
        if not awaited:
            break
        r.play_step({d.entrant: random_order(r, d, rnd) for d in awaited})
        road = [c for c in r.state.cyclists.values() if c.on_road]
        spaces = [(c.row, c.lane) for c in road]
        assert len(spaces) == len(set(spaces))
        assert not set(spaces) & r.state.course.rocks
        assert all(1 <= c.lane <= 5 and c.row <= r.state.course.last_row for c in road)
        for c in road:
            assert c.row >= rows.get(c.key, c.row)
            rows[c.key] = c.row
    assert not r.awaited()
    places = [c.place for c in r.state.cyclists.values() if c.place is not None]
    assert sorted(places) == list(range(1, len(places) + 1))


def test_validate_asks_exactly_the_entrants_that_awaited_lists() -> None:
    """Through placement, passes, rounds and prompts of bot races, the refusal 'not your turn' matches awaited()."""
    for mode, players in (("orders", 3), ("live", 2)):
        r = _bots(players, mode, seed=3)
        for _ in range(400):
            decisions = r.awaited()
            if not decisions:
                break
            assert awaited_entrants(r.state) == {d.entrant for d in decisions}
            assert RULESET.awaited_ids(r.state) == [d.entrant for d in decisions]
            r.play_step({})
        assert not r.awaited()
