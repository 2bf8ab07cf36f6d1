"""§7: the general classification (D19) and the stage ranking (D20)."""

from __future__ import annotations

import pytest

from engine.wyscig import RULESET
from engine.wyscig.classification import general_classification, stage_ranking
from engine.wyscig.state import Player
from tests.engine.wyscig.helpers import last_event, record, run, state


def rider(name: str, times: list[int]) -> Player:
    return Player(id=name, name=name.upper(), times=times, penalties=[0 if t == 57 else t - 60 for t in times])


def places(players: list[Player]) -> list[tuple[str, int]]:
    return [(g.entrant, g.place) for g in general_classification(players)]


@pytest.mark.rules("D19", "7")
def test_the_lowest_total_time_leads_the_general_classification() -> None:
    """177 beats 180 beats 185."""
    players = [rider("c", [60, 65, 60]), rider("a", [60, 60, 60]), rider("b", [57, 60, 60])]
    assert places(players) == [("b", 1), ("a", 2), ("c", 3)]


@pytest.mark.rules("D19")
def test_equal_totals_go_to_more_stage_wins() -> None:
    """Both on 120: the rider with a stage win (57 + 63) is ahead of the one without (60 + 60)."""
    assert places([rider("a", [60, 60]), rider("b", [57, 63])]) == [("b", 1), ("a", 2)]


@pytest.mark.rules("D19")
def test_then_the_lower_time_in_the_latest_stage() -> None:
    """183 each, one win each: 60 in the latest stage beats 66; and 63 in the latest beats 66 even when the
    other rider's first stage (57 against 63) was better, so the latest stage is told from the first."""
    assert places([rider("a", [60, 57, 66]), rider("b", [57, 66, 60])]) == [("b", 1), ("a", 2)]
    assert places([rider("a", [57, 60, 66]), rider("b", [63, 57, 63])]) == [("b", 1), ("a", 2)]


@pytest.mark.rules("D19")
def test_riders_equal_on_every_count_share_the_place() -> None:
    """Standard competition ranking: 1, 2, 2, 4."""
    players = [rider("a", [57, 60]), rider("b", [60, 61]), rider("c", [60, 61]), rider("d", [63, 60])]
    assert places(players) == [("a", 1), ("b", 2), ("c", 2), ("d", 4)]


@pytest.mark.rules("D19")
def test_the_general_classification_is_published_after_every_stage() -> None:
    """The stage-end event carries the standings so far, and the result lists them provisionally."""
    race = run(record({"p1": "45", "p2": "41"}, "", [("p1", "play 45"), ("p2", "play 41")], stages=2))
    assert last_event(race, "wk.stage_end")["gc"] == [
        {"entrant": "p1", "place": 1, "total": 57, "stage_wins": 1},
        {"entrant": "p2", "place": 2, "total": 64, "stage_wins": 0},
    ]
    result = race.result()
    assert (result.finished, result.provisional) == (False, True)
    assert [(s.entrant, s.place, s.figures["total_time"]) for s in result.standings] == [("p1", 1, 57), ("p2", 2, 64)]


@pytest.mark.rules("D19", "7")
def test_a_finished_race_lists_every_rider_with_times_wins_and_minutes() -> None:
    """Two stages from stage 2 on with stage 1's times given: the figures add both stages up."""
    hands = {"p1": "45", "p2": "48", "p3": "44"}
    rec = record(
        hands,
        "",
        [("p1", "play 45"), ("p2", "play 48"), ("p3", "play 44")],
        stages=2,
        stage_number=2,
        earlier_times={"p1": [57], "p2": [64], "p3": [60]},
    )
    race = run(rec)
    result = race.result()
    assert result.finished and not result.provisional
    # Stage 2: P2's 48 takes the lead from P1's 45 and P3's 44 is 4 below it.
    assert [(s.entrant, s.place) for s in result.standings] == [("p1", 1), ("p2", 2), ("p3", 3)]
    figures = {s.entrant: s.figures for s in result.standings}
    assert figures["p1"] == {
        "total_time": 117,
        "stage_wins": 1,
        "last_stage_time": 60,
        "stage_times": [57, 60],
        "penalty_minutes": 0,
        "stages_raced": 2,
    }
    assert (figures["p2"]["total_time"], figures["p2"]["stage_wins"], figures["p2"]["penalty_minutes"]) == (121, 1, 4)
    assert (figures["p3"]["stage_times"], figures["p3"]["penalty_minutes"]) == ([60, 64], 4)


@pytest.mark.rules("D20")
def test_the_stage_ranking_puts_the_winner_then_the_peloton_then_minutes_ascending() -> None:
    """57 first, the 60s sharing second, then 62 and 67."""
    times = {"a": 67, "b": 60, "c": 57, "d": 62, "e": 60}
    ranking = stage_ranking(times, ["a", "b", "c", "d", "e"])
    assert [(r["entrant"], r["place"]) for r in ranking] == [("c", 1), ("b", 2), ("e", 2), ("d", 4), ("a", 5)]


@pytest.mark.rules("D20")
def test_the_stage_end_event_carries_the_stage_ranking() -> None:
    """Leader 57, two riders in the peloton on 60, one on 65."""
    hands = {"p1": "45", "p2": "44", "p3": "40", "p4": "43"}
    steps = [("p1", "play 45"), ("p2", "play 44"), ("p3", "play 40"), ("p4", "play 43")]
    race = run(record(hands, "", steps))
    ranking = last_event(race, "wk.stage_end")["ranking"]
    assert RULESET.public_view(state(race))["stage_results"][0]["ranking"] == ranking
    assert [(r["entrant"], r["place"], r["time"]) for r in ranking] == [
        ("p1", 1, 57),
        ("p2", 2, 60),
        ("p4", 2, 60),
        ("p3", 4, 65),
    ]


@pytest.mark.rules("R-WK-5")
def test_before_the_first_stage_ends_everybody_shares_first_place() -> None:
    """A provisional classification: all on 0, all first."""
    race = run(record({"p1": "45 44", "p2": "45 44"}, "", [("p1", "play 45")]))
    result = race.result()
    assert (result.finished, result.provisional) == (False, True)
    assert [(s.entrant, s.place, s.figures["total_time"]) for s in result.standings] == [("p1", 1, 0), ("p2", 1, 0)]
