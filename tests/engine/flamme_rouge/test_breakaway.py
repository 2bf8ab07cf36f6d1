"""The Breakaway variant (§7.1, D8): two bids, the best break away beyond the start line."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.flamme_rouge.cards import EXHAUSTION
from engine.messages import OrderError

from .helpers import at, record, start

SIX = ["anna", "ben", "carl", "dana", "eve", "finn"]  # colours black, blue, green, red, pink, white


def six_player_bids() -> object:
    """X4: turn order Ben, Carl, Anna, Dana, Eve, Finn; Anna and Ben bid 7+7, Carl 6+7, the others 3+3."""
    decks = {
        "black-r": [7] * 8,
        "blue-r": [7] * 8,
        "green-r": [6, 6, 6, 6, 7, 7, 7, 7],
        "red-r": [3] * 8,
        "pink-r": [3] * 8,
        "white-r": [3] * 8,
    }
    rec = record(
        players=SIX,
        stage="Avenue Corso Paseo",
        options={"breakaway": "on"},
        setup={
            "turn_order": ["ben", "carl", "anna", "dana", "eve", "finn"],
            "riders": {k: {"deck": v} for k, v in decks.items()},
        },
    )
    race = start(rec)
    assert race.state.phase == "bid"
    race.play_step(
        {"anna": "bid r7", "ben": "bid r7", "carl": "bid r6", "dana": "bid r3", "eve": "bid r3", "finn": "bid r3"}
    )
    race.play_step(
        {"anna": "bid r7", "ben": "bid 7", "carl": "bid r7", "dana": "bid r3", "eve": "bid r3", "finn": "bid r3"}
    )
    return race


@pytest.mark.rules("D8", "7.1", "example:X4", "example:seed-breakaway")
def test_six_players_the_two_best_bids_break_away_and_the_later_player_wins_a_tie() -> None:
    """X4: Anna (14, later in turn order) leads on the 2nd square beyond the line, Ben (14) on the 1st."""
    race = six_player_bids()
    s = race.state  # type: ignore[attr-defined]
    assert at(s, "black-r") == (7, 1) and at(s, "blue-r") == (6, 1)
    assert s.rider("black-r").breakaway and s.rider("blue-r").breakaway
    assert not s.rider("green-r").breakaway and at(s, "green-r") == (0, 0)
    assert s.phase == "place"


@pytest.mark.rules("D8", "7.1", "example:X4")
def test_breakaway_riders_lose_their_bid_cards_and_take_two_exhaustion_cards_the_others_keep_theirs() -> None:
    """Winners: 8 - 2 bid cards + 2 exhaustion; Carl's bid cards are back in his deck."""
    s = six_player_bids().state  # type: ignore[attr-defined]
    anna = s.rider("black-r")
    assert Counter(anna.deck) == Counter({7: 6, EXHAUSTION: 2}) and anna.exhaustion == 2
    carl = s.rider("green-r")
    assert Counter(carl.deck) == Counter({6: 4, 7: 4}) and carl.exhaustion == 0


@pytest.mark.rules("D8")
def test_the_round_one_bid_stays_out_of_the_deck_during_round_two() -> None:
    """The only 9 was bid in round 1: round 2 draws from the 14 other cards, so 9 can't be bid again."""
    rec = record(
        players=2,
        options={"breakaway": "on"},
        setup={"riders": {"black-s": {"deck": [9, 2, 2, 2, 3, 3, 3, 3]}, "blue-r": {"deck": [3] * 8}}},
    )
    race = start(rec)
    assert race.validate("ben", "bid r") == {"bid": {"rider": "r"}}
    race.play_step({"anna": "bid s9", "ben": "bid r3"})
    assert len(race.state.rider("black-s").deck) == 7
    assert 9 not in race.state.rider("black-s").deck
    with pytest.raises(OrderError, match="You can't play 9 for your Sprinteur"):
        race.validate("anna", "bid s9")
    with pytest.raises(OrderError, match="both bids come from the same rider"):
        race.validate("anna", "bid r3")


@pytest.mark.rules("D8")
def test_with_two_to_four_players_only_the_best_bidder_breaks_away_on_the_first_square_beyond_the_line() -> None:
    """Two players: one breakaway rider, on square 6 (the line is after square 5)."""
    rec = record(
        players=2,
        options={"breakaway": "on"},
        setup={"riders": {"black-r": {"deck": [7] * 8}, "blue-r": {"deck": [3] * 8}}},
    )
    race = start(rec)
    race.play_step({"anna": "bid r7", "ben": "bid r3"})
    race.play_step({"anna": "bid r7", "ben": "bid r3"})
    assert at(race.state, "black-r") == (6, 1) and at(race.state, "blue-r") == (0, 0)


@pytest.mark.rules("D8", "D9")
def test_a_solo_player_still_bids_twice_and_an_absent_one_bids_its_rouleurs_lowest_card() -> None:
    """Solo (with bots): the Rouleur bids automatically, breaks away and loses its two bid cards."""
    rec = record(
        players=1,
        bots=["peloton"],
        options={"breakaway": "on"},
        setup={"riders": {"black-r": {"deck": [5, 3, 6, 7, 4, 4, 4, 4]}}},
    )
    race = start(rec)
    auto = race.absent_order("anna")
    assert auto["bid"] == {"rider": "r", "card": 3}
    race.play_step({"anna": auto})
    race.play_step({"anna": race.absent_order("anna")})
    s = race.state
    assert s.rider("black-r").breakaway and at(s, "black-r") == (6, 1)
    assert len(s.rider("black-r").deck) == 8 - 2 + 2
