"""The steady bot's round plan: relays that beat its own move, lining up behind a team-mate, medal attacks."""

from __future__ import annotations

from engine.mind_cycling import RULESET

from .scenario import play, race, spot


def test_steady_relays_when_the_front_of_the_moved_train_is_further_than_its_own_move() -> None:
    """Head a#3 rides 7 - 1 = 6 to row 18; the climber behind would ride 5 to 16 but relays to 19."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3)])
    order = RULESET.auto_order(r.state, "a", None, "steady")
    assert order["intents"]["3"]["action"] == "move" and order["intents"]["2"]["action"] == "relay"
    play(r, {"a": order})
    assert spot(r, "a#2") == (19, 3)


def test_steady_gives_up_one_row_to_end_directly_behind_a_team_mate() -> None:
    """The sprinter ends on (16, 1); the domestique stops on (15, 1) instead of (16, 3): a train next round."""
    r = race([("a", 1, 12, 1), ("a", 3, 10, 3)])
    order = RULESET.auto_order(r.state, "a", None, "steady")
    assert order["intents"]["3"] == {"action": "move", "distance": 5, "lane": 1}
    play(r, {"a": order})
    assert spot(r, "a#1") == (16, 1) and spot(r, "a#3") == (15, 1)


def test_steady_keeps_its_domestiques_bottles_until_the_run_in_to_the_line() -> None:
    """A domestique alone on the plains at row 12 does not attack; on row 61 (61 + 9 + 9 > 70) it does."""
    early = race([("a", 3, 12, 3)])
    late = race([("a", 3, 61, 3)])
    assert RULESET.auto_order(early.state, "a", None, "steady")["intents"]["3"]["action"] == "move"
    assert RULESET.auto_order(late.state, "a", None, "steady")["intents"]["3"]["action"] == "attack"


def test_steady_attacks_out_of_the_sprint_even_if_the_rider_behind_then_may_not_ride() -> None:
    """6 + 3 = 9 takes the sprinter from row 22 out of the sprint: attack; in a longer sprint it keeps the train."""
    out = race([("a", 1, 22, 1), ("a", 2, 21, 1)])
    assert RULESET.auto_order(out.state, "a", None, "steady")["intents"]["1"]["action"] == "attack"
    short = race(
        [("a", 1, 21, 1), ("a", 2, 20, 1)], stage={**_OPEN, "course": ["plains", "plains", "sprint", "sprint"]}
    )
    assert RULESET.auto_order(short.state, "a", None, "steady")["intents"]["1"]["action"] == "move"


def test_the_naive_bot_plays_the_absent_players_automatic_action() -> None:
    """naive = D24: every rider moves its maximum in its lane, no pass."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black")])
    naive = RULESET.auto_order(r.state, "a", None, "naive")
    assert naive == RULESET.auto_order(r.state, "a", None, None)
    assert naive["intents"] == {"3": {"action": "move"}, "1": {"action": "move"}, "2": {"action": "move"}}


_OPEN = {"course": ["plains"], "strip_length": 10, "rocks": [], "supply_spaces": []}
