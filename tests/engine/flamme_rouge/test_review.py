"""Conformance review: scenarios whose expected values were worked out by hand from the rules document."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.deck import hand_of
from engine.flamme_rouge.movement import movement_order
from engine.flamme_rouge.ranking import rider_order

from .helpers import at, exhausted, kinds, placed, play, record, start


def decks(**cards: list[Any]) -> dict[str, Any]:
    """Setup riders' face-down decks (top first), keyed ``black_r`` -> ``black-r``."""
    return {rid.replace("_", "-"): {"deck": deck} for rid, deck in cards.items()}


def with_decks(positions: dict[str, Any], **cards: list[Any]) -> dict[str, Any]:
    setup = placed(positions)
    for rid, spec in decks(**cards).items():
        setup["riders"][rid].update(spec)
    return setup


@pytest.mark.rules("example:X3", "D5", "8")
def test_x3_played_out_riders_rank_by_round_then_distance_then_lane() -> None:
    """X3 played over three rounds: C crosses 4 past, then D (right) and E (left) 2 past, then F."""
    # "S5 _10 F5": flat 6-15, finish area 16-20, so a rider on 19 is 4 past the line.
    setup = with_decks(
        {"blue-r": 13, "blue-s": (10, 1), "black-r": (9, 1), "black-s": (5, 1)},
        blue_r=[6, 3, 4, 5, 3, 4, 5, 6, 3, 4, 5, 6],
        blue_s=[2, 3, 4, 5, 5, 2, 3, 4, 2, 3, 4, 5],
        black_r=[3, 4, 5, 6, 5, 3, 4, 6, 3, 4, 5, 6],
        black_s=[2, 3, 4, 5, 2, 3, 4, 5, 9, 2, 3, 4],
    )
    steps = [{"anna": "r3 s2", "ben": "r6 s2"}, {"anna": "r5 s2", "ben": "s5"}, {"anna": "s9"}]
    race = play(record(players=2, stage="S5 _10 F5", setup=setup, steps=steps))
    s = race.state
    # round 1: C 13+6 = 19; D 10+2 = 12 right lane; E 9+3 = 12 left lane; F 5+2 = 7
    assert kinds(race.events[0], "fr.cross") == [{"rider": "blue-r", "past": 4, "round": 1}]
    assert sorted(exhausted(race.events[0])) == ["black-r", "black-s", "blue-s"]
    # round 2: D 12+5 = 17 right lane, E 12+5 = 17 left lane (2 past each); F 7+2 = 9
    assert kinds(race.events[1], "fr.cross") == [
        {"rider": "blue-s", "past": 2, "round": 2},
        {"rider": "black-r", "past": 2, "round": 2},
    ]
    # round 3: F 9+9 = 18, 3 past, but a round later
    assert kinds(race.events[2], "fr.cross") == [{"rider": "black-s", "past": 3, "round": 3}]
    assert race.finished
    assert [r.id for r in rider_order(s)] == ["blue-r", "blue-s", "black-r", "black-s"]
    assert [st.entrant for st in race.result().standings] == ["ben", "anna"]


@pytest.mark.rules("D17", "5.2", "6.5", "D4")
def test_a_rider_blocked_back_onto_its_square_keeps_its_left_lane_and_the_next_arrival_takes_the_right() -> None:
    """Clip: 25-27 are one-lane and fill up, the blue Sprinteur stays in lane 3 of 24; green comes in lane 1."""
    # 6-23 flat (2 lanes), 24 flat with 3 lanes, 25 flat with 1 lane, 26-27 finish with 1 lane (27 = last)
    stage = "S5 _18 _[3L]x1 _[1L]x1 F[1L]x2"
    setup = placed(
        {
            "black-r": (25, 1),
            "black-s": (24, 1),
            "blue-r": (24, 2),
            "blue-s": (24, 3),
            "green-r": (23, 1),
            "green-s": (10, 1),
        },
        {"black-r": [6, 6, 6, 6], "black-s": [5, 5, 5, 5], "blue-r": [3, 3, 3, 3], "blue-s": [2, 2, 2, 2]}
        | {"green-r": [3, 3, 3, 3], "green-s": [2, 2, 2, 2]},
    )
    steps = [{"anna": "r6 s5", "ben": "r3 s2", "carl": "r3 s2"}]
    race = play(record(players=3, stage=stage, options={"finish_overflow": "clip"}, setup=setup, steps=steps))
    s = race.state
    moves = {m["rider"]: (m["target"], m["to"], m["lane"]) for m in kinds(race.events[0], "fr.move")}
    assert moves["black-r"] == (27, 27, 1)  # 25+6 = 31, clipped to the last square 27
    assert moves["black-s"] == (27, 26, 1)  # 27 is full: 26
    assert moves["blue-r"] == (27, 25, 1)  # 27 and 26 full: 25, vacated by the black Rouleur
    assert moves["blue-s"] == (26, 24, 3)  # 26 and 25 full: it stays on 24, in its own lane 3
    assert moves["green-r"] == (26, 24, 1)  # 26 and 25 full: 24, whose lanes 1 and 2 are free now
    assert exhausted(race.events[0]) == ["green-s"]  # 12 -> 13 empty; 24 and 25 have riders ahead
    assert kinds(race.events[0], "fr.slipstream") == []
    order = [s.riders[i].id for i in movement_order(s.riders)]
    assert order.index("green-r") < order.index("blue-s")  # next round green (lane 1) moves first


@pytest.mark.rules("D2", "D1", "6.6", "D18")
def test_a_sliding_pair_meets_a_one_lane_cobble_gap_and_the_left_rider_stays_behind() -> None:
    """9 (two riders) -> empty one-lane 10 -> 11: the right rider slides to 10, the left one stays on 9."""
    # 6-9 flat, 10 a one-lane cobble, 11-20 flat, 21-25 finish
    setup = placed(
        {"blue-r": (6, 1), "black-r": (5, 1), "black-s": (4, 1), "blue-s": (3, 1)},
        {"blue-r": [5, 5, 5, 5], "black-r": [4, 4, 4, 4], "black-s": [5, 5, 5, 5], "blue-s": [2, 2, 2, 2]},
    )
    steps = [{"anna": "r4 s5", "ben": "r5 s2"}]
    race = play(record(players=2, stage="S5 _4 C1 _10 F5", setup=setup, steps=steps))
    s = race.state
    # moves: blue-r 6+5 = 11; black-r 5+4 = 9 right lane; black-s 4+5 = 9 left lane; blue-s 3+2 = 5
    # slipstream: 9 (flat) - 10 empty - 11 (flat): black-r keeps lane 1 on 10; lane 2 does not exist there
    # and 10 is then full, so black-s stays on 9. D1: the cobbled gap square does not matter.
    assert kinds(race.events[0], "fr.slipstream") == [{"rider": "black-r", "from": 9, "to": 10, "lane": 1}]
    assert (at(s, "blue-r"), at(s, "black-r"), at(s, "black-s"), at(s, "blue-s")) == ((11, 1), (10, 1), (9, 2), (5, 1))
    # exhaustion: 5 has an empty 6; 11 has an empty 12; 9 and 10 have a rider directly ahead
    assert sorted(exhausted(race.events[0])) == ["blue-r", "blue-s"]


@pytest.mark.rules("5.1", "5.3", "6.7")
def test_a_short_deck_reshuffles_only_the_old_recycled_pile_and_the_exhaustion_card_waits_for_the_next() -> None:
    """Deck [3], recycled [E, 7]: a hand of exactly those 3 cards; then the rest and the new exhaustion card."""
    rec = record(
        players=1,
        setup={
            "riders": {
                "black-r": {"square": 10, "deck": [3], "recycled": ["E", 7]},
                "black-s": {"square": 3, "hand": [2, 3, 4, 5]},
            }
        },
        steps=[{"anna": "r7 s2"}],
    )
    first = start(rec)
    hand = hand_of(first.state, first.state.riders.index(first.state.rider("black-r")))[0]
    assert sorted(C.value(c) for c in hand) == [2, 3, 7]  # 1 from the deck + the 2 reshuffled; never 4
    race = play(rec)
    r = race.state.rider("black-r")
    # 10 + 7 = 17 with 18 empty: an exhaustion card onto the recycled pile, after the unchosen 3 and E
    assert r.square == 17 and "black-r" in exhausted(race.events[0])
    assert r.deck == () and sorted(C.value(c) for c in r.recycled) == [2, 2, 3]
    nxt = hand_of(race.state, race.state.riders.index(r))[0]
    assert sorted(C.value(c) for c in nxt) == [2, 2, 3]


@pytest.mark.rules("D10", "7.6")
def test_weather_tokens_go_on_six_square_peloton_tiles_but_not_on_the_start_or_the_short_tile_9() -> None:
    """Stage 9 (5-6 players) '1 2 _9 3 ...': tokens go to 2 (7-12), then 3 (16-21); _9 (13-15) takes none."""
    race = start(record(players=5, stage="Stage 9", options={"meteo": ["tailwind", "headwind", "crosswind"]}))
    t = race.state.track
    assert t.tokens[:4] == ("1", "2", "_9", "3")
    assert [t.wind[n] for n in (6, 7, 12, 13, 15, 16, 21)] == [
        "",
        "tailwind",
        "tailwind",
        "",
        "",
        "headwind",
        "headwind",
    ]
    # the 3rd straight tile is 5, after the curve p (22-23): squares 24-29 are crosswind, no slipstream there
    assert t.tokens[4:6] == ("p", "5")
    assert [t.wind[n] for n in (23, 24, 29, 30)] == ["", "crosswind", "crosswind", ""]
    assert all(t.no_slip[n] for n in range(24, 30))


@pytest.mark.rules("example:X2", "D4", "D5")
@pytest.mark.parametrize(("overflow", "winner"), [("extend", "blue-s"), ("clip", "black-r")])
def test_x2_with_finish_all_ranks_the_same_round_by_distance_then_lane(overflow: str, winner: str) -> None:
    """X2 under finish="all": extend, B (79, 6 past) beats A (78, 5 past); clip, both 5 past, A's right lane wins."""
    setup = placed(
        {"black-r": 72, "blue-s": 70, "black-s": 2, "blue-r": 3},
        {"black-r": [6, 3, 4, 5], "blue-s": [9, 2, 3, 4], "black-s": [2, 3, 4, 5], "blue-r": [3, 4, 5, 6]},
    )
    steps = [{"anna": "r6 s2", "ben": "r3 s9"}]
    opts = {"finish_overflow": overflow}
    race = play(record(players=2, stage="Avenue Corso Paseo", options=opts, setup=setup, steps=steps))
    crossed = {c["rider"]: c["past"] for c in kinds(race.events[0], "fr.cross")}
    assert crossed == ({"black-r": 5, "blue-s": 6} if overflow == "extend" else {"black-r": 5, "blue-s": 5})
    assert not race.finished
    assert [r.id for r in rider_order(race.state)][:2] == [winner, ({"blue-s", "black-r"} - {winner}).pop()]
