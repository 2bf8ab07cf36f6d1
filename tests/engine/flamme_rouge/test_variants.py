"""Variants: one rider per player for up to 12 (D23, §7.4), published deck contents (D24)."""

from __future__ import annotations

import json

import pytest

from engine.messages import OrderError

from .helpers import record, start


@pytest.mark.rules("D23", "7.4", "D9")
def test_players_choose_one_rider_each_in_turn_order() -> None:
    """Three players, turn order set: each takes a free rider; a taken one is refused; absent -> first free."""
    race = start(record(players=3, options={"riders_per_player": 1}, setup={"turn_order": ["carl", "anna", "ben"]}))
    d = race.awaited()
    assert [x.entrant for x in d] == ["carl"] and d[0].fields[0].choices[0].value == "black-r"
    race.play_step({"carl": "rider blue s"})
    with pytest.raises(OrderError, match="already taken"):
        race.validate("anna", "rider blue s")
    race.play_step({"anna": "rider blue r"})
    auto = race.absent_order("ben")
    assert auto["rider"] == "black-r"
    race.play_step({"ben": auto})
    s = race.state
    assert {r.id: r.owner for r in s.riders} == {"blue-s": "carl", "blue-r": "anna", "black-r": "ben"}
    assert s.phase == "place"


@pytest.mark.rules("D23", "7.4")
def test_a_rider_choice_naming_a_free_rider_is_whole_and_asks_nothing_more() -> None:
    """The choice is one value: once a free rider is named, the decision is complete with no field left
    (a panel then shows the review to send); a taken rider, or none, is still asked for."""
    race = start(record(players=2, options={"riders_per_player": 1}, setup={"turn_order": ["anna", "ben"]}))
    (asked,) = race.awaited({"anna": {"rider": "blue-s"}})
    assert asked.complete and asked.fields == []
    (empty,) = race.awaited()
    assert not empty.complete and [f.path for f in empty.fields] == [["rider"]]
    race.play_step({"anna": "rider blue s"})
    (taken,) = race.awaited({"ben": {"rider": "blue-s"}})
    assert not taken.complete and "blue-s" not in [c.value for c in taken.fields[0].choices]


@pytest.mark.rules("D23", "D25")
def test_in_one_rider_mode_each_player_is_ranked_on_its_own_rider() -> None:
    """Two players holding the two riders of one colour get separate places; orders name the single rider."""
    race = start(
        record(
            players=2,
            options={"riders_per_player": 1, "finish": "first"},
            setup={
                "owners": {"blue-s": "anna", "blue-r": "ben"},
                "riders": {
                    "blue-s": {"square": 10, "hand": [9, 9, 9, 9]},
                    "blue-r": {"square": 12, "hand": [3, 3, 3, 3]},
                },
            },
        )
    )
    assert race.validate("anna", "s9") == {"first": "s", "cards": {"s": 9}}
    with pytest.raises(OrderError, match="You have no Rouleur"):
        race.validate("anna", "r3")
    race.play_step({"anna": "s9", "ben": "r3"})
    standings = race.result().standings
    assert [(st.entrant, st.riders) for st in standings] == [("anna", ["blue-s"]), ("ben", ["blue-r"])]


@pytest.mark.rules("D23", "D13")
def test_up_to_twelve_riders_and_never_more() -> None:
    """12 one-rider players fit (on the 3-lane start); 13 do not; bots count in the total."""
    names = [f"p{n}" for n in range(12)]
    race = start(record(players=names, stage="Avenue Corso Paseo", options={"riders_per_player": 1}))
    assert race.state.large and race.state.track.lanes[1] == 3
    with pytest.raises(Exception, match="at most 12 riders"):
        start(
            record(
                players=[*names[:11]], bots=["peloton"], stage="Avenue Corso Paseo", options={"riders_per_player": 1}
            )
        )


@pytest.mark.rules("D24", "5.1")
def test_deck_contents_are_published_only_when_asked_and_never_their_order() -> None:
    """show_deck_contents: counts per card in the public view; otherwise only the deck size."""
    plain = start(record(players=2, options={"grid": "random"}))
    view = plain.ruleset.public_view(plain.state)
    assert "deck_contents" not in view["riders"][0] and view["riders"][0]["deck_size"] == 15
    shown = start(record(players=2, options={"grid": "random", "show_deck_contents": True}))
    view = shown.ruleset.public_view(shown.state)
    assert view["riders"][0]["deck_contents"] == {"3": 3, "4": 3, "5": 3, "6": 3, "7": 3}
    text = json.dumps(view)
    deck = shown.state.riders[0].deck
    assert json.dumps(deck) not in text


@pytest.mark.rules("D23", "R-FR-2")
def test_in_one_rider_mode_bot_teams_take_colours_from_the_end() -> None:
    """With a Peloton, white is the Peloton's; the players choose among black ... pink riders."""
    race = start(record(players=2, bots=["peloton"], options={"riders_per_player": 1}))
    s = race.state
    assert {r.id for r in s.riders if r.bot} == {"white-p1", "white-p2"}
    values = [c.value for c in race.awaited()[0].fields[0].choices]
    assert values[:2] == ["black-r", "black-s"] and values[-1] == "pink-s" and len(values) == 10
