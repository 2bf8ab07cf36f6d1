"""Ranking, shared places, points, championship and the Gazzetta (rules §6.10, §7; D21, D29-D31)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.tabella import RULESET
from engine.tabella.ranking import championship, points_for, rank
from engine.tabella.state import Rider

from .scenario import kinds, minute, play, scenario


def _finishers_and_one_exhausted(gazzetta: bool | None, **options: Any):  # type: ignore[no-untyped-def]
    """E8's field before s3: V 14, 12 (a Bibitone drinker), 11, 9, and Eve stopped in m4."""
    riders = {
        "ada": {"row": "C", "v": 14},
        "bea": {"row": "C", "v": 12, "doped": True},
        "cleo": {"row": "C", "v": 11},
        "dora": {"row": "C", "v": 9},
        "eve": {"row": "C", "v": 20, "status": "exhausted", "progress": 4, "r": 0},
    }
    race = scenario(riders, round=8, setup_gazzetta=gazzetta, **options)
    return race


@pytest.mark.rules("example:E8", "D21", "D29", "6.10")
def test_e8_when_the_gazzetta_hits_the_bibitone_drinker_is_ranked_after_the_exhausted_rider() -> None:
    """Hit: V 14, V 11, V 9, the exhausted rider, then V 12 — points 10, 8, 5, 3, 2."""
    race = _finishers_and_one_exhausted(True, gazzetta_delay="immediate")
    events = play(race, {r: "s3: 0" for r in ("ada", "bea", "cleo", "dora")})
    result = race.result()
    assert [s.entrant for s in result.standings] == ["ada", "cleo", "dora", "eve", "bea"]
    assert [s.figures["points"] for s in result.standings] == [10, 8, 5, 3, 2]
    assert kinds(events, "gazzetta")[0].data == {
        "hit": True,
        "caught": ["bea"],
        "names": "Bea",
        "count": 1,
    }
    assert result.provisional is False


@pytest.mark.rules("example:E8", "D21", "D29")
def test_e8_when_the_gazzetta_misses_the_order_is_by_speed_with_the_exhausted_rider_fifth() -> None:
    """Miss: V 14, 12, 11, 9, then the exhausted rider (whose V 20 does not count before finishers)."""
    race = _finishers_and_one_exhausted(False, gazzetta_delay="immediate")
    play(race, {r: "s3: 0" for r in ("ada", "bea", "cleo", "dora")})
    assert [s.entrant for s in race.result().standings] == ["ada", "bea", "cleo", "dora", "eve"]


@pytest.mark.rules("example:E8", "D21", "6.10")
def test_e8_the_standings_stay_provisional_until_the_front_page_is_published() -> None:
    """Next-morning Gazzetta: provisional, doping hidden; after publication final and applied."""
    race = _finishers_and_one_exhausted(True)
    events = play(race, {r: "s3: 0" for r in ("ada", "bea", "cleo", "dora")})
    assert kinds(events, "gazzetta_due") and not kinds(events, "gazzetta")
    before = race.result()
    assert before.finished and before.provisional
    assert [s.entrant for s in before.standings] == ["ada", "bea", "cleo", "dora", "eve"]
    assert RULESET.public_view(race.state)["gazzetta"]["hit"] is None
    due = RULESET.pending_announcement(race.state)
    assert due is not None and (due.kind, due.delay, due.hour) == ("td.gazzetta", "next_morning", 9)
    state, published = RULESET.publish(race.state)
    assert published[0].kind == "td.gazzetta" and published[0].data["caught"] == ["bea"]
    after = RULESET.result(state)
    assert not after.provisional and [s.entrant for s in after.standings][-1] == "bea"
    assert RULESET.pending_announcement(state) is None
    with pytest.raises(ValueError):
        RULESET.publish(state)


@pytest.mark.rules("D21", "D5")
def test_the_gazzetta_draw_follows_its_probability_and_the_seed() -> None:
    """Probability 1 always hits, 0 never; the same seed gives the same front page."""
    for p, expected in ((1.0, True), (0.0, False)):
        race = _finishers_and_one_exhausted(None, gazzetta_probability=p, gazzetta_delay="immediate")
        play(race, {r: "s3: 0" for r in ("ada", "bea", "cleo", "dora")})
        assert race.state.gazzetta_hit is expected
    outcomes = []
    for _ in range(2):
        race = _finishers_and_one_exhausted(None, gazzetta_delay="immediate")
        play(race, {r: "s3: 0" for r in ("ada", "bea", "cleo", "dora")})
        outcomes.append(race.state.gazzetta_hit)
    assert outcomes[0] == outcomes[1]


@pytest.mark.rules("D21", "D20")
def test_holding_or_throwing_a_reinforced_bottle_is_no_doping() -> None:
    """Bea holds Ada's stolen Bibitone and never drinks it: the Gazzetta does not catch her."""
    riders = {
        "ada": {"row": "C", "v": 5, "bottle": "stolen", "bibitone": True},
        "bea": {"row": "C", "v": 9, "stolen": {"owner": "ada", "reinforced": True}},
    }
    race = scenario(riders, round=8, setup_gazzetta=True, gazzetta_delay="immediate")
    events = play(race, {"ada": "s3: 0", "bea": "s3: 0 ; B2 @Ada"})
    assert kinds(events, "gazzetta")[0].data["caught"] == []
    assert race.result().standings[0].entrant == "bea"


def _rider(rid: str, v: int, r: int = 5, **extra: Any) -> Rider:
    rider = Rider(id=rid, name=rid, status="racing", r=r, v=v)
    for key, value in extra.items():
        setattr(rider, key, value)
    return rider


@pytest.mark.rules("D29", "7")
def test_finishers_rank_by_speed_then_resistenza_then_time_and_before_every_exhausted_rider() -> None:
    """V 10 > V 9 (R 8) > V 9 (R 3, order at minute 1) > V 9 (R 3, minute 7), each alone in its place: with
    speed and Resistenza equal, the earlier order decides; exhausted: progress 6 before progress 3 whatever
    the speed. (The later order is listed first, so only the time can put it second.)"""
    riders = [
        _rider("late_stop", v=1, status="exhausted", progress=6, v_at_stop=1),
        _rider("v9_weak_late", v=9, r=3, order_time=minute(7)),
        _rider("v9_weak", v=9, r=3, order_time=minute(1)),
        _rider("early_stop", v=30, status="exhausted", progress=3, v_at_stop=30),
        _rider("v10", v=10),
        _rider("v9_strong", v=9, r=8, order_time=minute(9)),
    ]
    ranked = rank(riders, False)
    assert [p.rider.id for p in ranked] == ["v10", "v9_strong", "v9_weak", "v9_weak_late", "late_stop", "early_stop"]
    assert [p.place for p in ranked] == [1, 2, 3, 4, 5, 6]


@pytest.mark.rules("D29")
def test_exhausted_riders_with_the_same_progress_rank_by_speed_at_stopping_then_time() -> None:
    """Both stopped in m4: V 6 ahead of V 4; equal V: the earlier order first."""
    riders = [
        _rider("slow", v=4, status="exhausted", progress=4, v_at_stop=4),
        _rider("fast_late", v=6, status="exhausted", progress=4, v_at_stop=6, order_time=minute(9)),
        _rider("fast_early", v=6, status="exhausted", progress=4, v_at_stop=6, order_time=minute(2)),
    ]
    assert [p.rider.id for p in rank(riders, False)] == ["fast_early", "fast_late", "slow"]


@pytest.mark.rules("D30", "7")
def test_riders_equal_on_every_key_share_the_place_and_its_points() -> None:
    """1, 2, 2, 4: the two equal riders both score 8 points, the next is fourth with 3."""
    race = scenario(
        {"a": {"row": "C", "v": 9}, "b": {"row": "C", "v": 7}, "c": {"row": "C", "v": 7}, "d": {"row": "C", "v": 2}},
        round=8,
        gazzetta_delay="immediate",
    )
    play(race, {r: {"text": "s3: 0", "received_at": minute(5)} for r in "abcd"})
    standings = race.result().standings
    assert [(s.place, s.figures["points"]) for s in standings] == [(1, 10), (2, 8), (2, 8), (4, 3)]


@pytest.mark.rules("7")
def test_points_are_10_8_5_3_2_then_1_for_everyone_below() -> None:
    """Places 1-8 score 10, 8, 5, 3, 2, 1, 1, 1."""
    assert [points_for(p) for p in range(1, 9)] == [10, 8, 5, 3, 2, 1, 1, 1]


@pytest.mark.rules("D31", "7")
def test_a_championship_sums_points_and_breaks_ties_by_wins_then_second_places() -> None:
    """Points add up over races; equal totals go to the rider with more wins, then more second places."""
    races = [
        {"ann": 1, "bo": 2, "cy": 3},  # 10, 8, 5
        {"ann": 6, "bo": 4, "cy": 2},  # 1, 3, 8
    ]
    # ann 11, bo 11, cy 13: cy first; ann (1 win) before bo (0 wins)
    assert championship(races) == [("cy", 13, 1), ("ann", 11, 2), ("bo", 11, 3)]
    # same places in every race -> shared
    assert championship([{"x": 1, "y": 2}, {"x": 2, "y": 1}]) == [("x", 18, 1), ("y", 18, 1)]


@pytest.mark.rules("D29")
def test_a_slow_finisher_ranks_before_an_exhausted_rider_whatever_its_progress() -> None:
    """A finisher at V 3 is ahead of a rider who stopped in m6 with V 9: completing the sprint comes first."""
    riders = [_rider("stopped_m6", v=9, status="exhausted", progress=6, v_at_stop=9), _rider("finisher", v=3, r=0)]
    assert [p.rider.id for p in rank(riders, False)] == ["finisher", "stopped_m6"]


@pytest.mark.rules("D29")
def test_exhausted_riders_rank_by_progress_then_speed_at_stopping_even_against_an_earlier_order() -> None:
    """m4: V 6 (minute 9) before V 4 (minute 1); m3: V 1 before V 0; stopped in m1 before stopped at the start."""
    riders = [
        _rider("start_fast", v=9, status="exhausted", progress=0, v_at_stop=9, order_time=minute(1)),
        _rider("m1_slow", v=2, status="exhausted", progress=1, v_at_stop=2, order_time=minute(9)),
        _rider("m3_zero_early", v=0, status="exhausted", progress=3, v_at_stop=0, order_time=minute(1)),
        _rider("m3_one_late", v=1, status="exhausted", progress=3, v_at_stop=1, order_time=minute(9)),
        _rider("m4_slow_early", v=4, status="exhausted", progress=4, v_at_stop=4, order_time=minute(1)),
        _rider("m4_fast_late", v=6, status="exhausted", progress=4, v_at_stop=6, order_time=minute(9)),
    ]
    assert [p.rider.id for p in rank(riders, False)] == [
        "m4_fast_late",
        "m4_slow_early",
        "m3_one_late",
        "m3_zero_early",
        "m1_slow",
        "start_fast",
    ]


@pytest.mark.rules("D29", "D21")
def test_only_the_riders_the_gazzetta_caught_are_marked_caught_in_the_last_block() -> None:
    """The doped V 12 ranks after the clean V 9 and the exhausted rider, and only it is marked caught."""
    riders = [
        _rider("doped", v=12, doped=True),
        _rider("clean", v=9),
        _rider("stopped", v=20, status="exhausted", progress=5, v_at_stop=20),
    ]
    assert [(p.rider.id, p.place, p.caught) for p in rank(riders, True)] == [
        ("clean", 1, False),
        ("stopped", 2, False),
        ("doped", 3, True),
    ]


@pytest.mark.rules("D31", "D30")
def test_a_championship_counts_repeated_places_reaches_the_deepest_place_and_shares_only_equal_riders() -> None:
    """Two wins beat one win and a second; a sixth place beats a seventh; two seconds behind a win share 2nd."""
    # ann: 1st, 1st, 6th = 10 + 10 + 1 = 21; bo: 2nd, 4th, 1st = 8 + 3 + 10 = 21; ann has two wins.
    assert championship([{"ann": 1, "bo": 2}, {"ann": 1, "bo": 4}, {"bo": 1, "ann": 6}]) == [
        ("ann", 21, 1),
        ("bo", 21, 2),
    ]
    # cy: 3rd, 6th = 5 + 1; dee: 3rd, 7th = 5 + 1; equal down to sixth places, where cy has one.
    assert championship([{"cy": 3, "dee": 3}, {"cy": 6, "dee": 7}]) == [("cy", 6, 1), ("dee", 6, 2)]
    assert championship([{"eva": 1, "flo": 2, "gil": 2}]) == [("eva", 10, 1), ("flo", 8, 2), ("gil", 8, 2)]
