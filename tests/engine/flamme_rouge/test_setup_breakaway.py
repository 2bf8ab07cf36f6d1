"""Flamme Rouge: a setup that starts the Breakaway at its second bidding round, with the round-1 bids set aside
and the hands of round 2 given (R-FR-11)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from engine.flamme_rouge.cards import EXHAUSTION, SPRINTEUR_DECK
from engine.record import RecordError
from tests.conformance import ROOT

from .helpers import at, play, record

ROUND_TWO = {
    "turn_order": ["anna", "ben"],
    "riders": {
        "black-r": {"bid": 6, "hand": [7, 3, 4, 5], "deck": [5, 6, 4, 3]},
        "blue-s": {"bid": 9, "hand": [2, 3, 4, 5], "deck": [9, 2, 3]},
    },
}
"""Anna's Rouleur bid 6 in round 1 and Ben's Sprinteur 9; round 2 draws 7 3 4 5 and 2 3 4 5."""


def _record(setup: dict[str, Any], steps: list[Any], **options: Any) -> dict[str, Any]:
    return record(players=2, options={"breakaway": "on", **options}, setup=setup, steps=steps)


@pytest.mark.rules("R-FR-11", "D8", "7.1")
def test_a_setup_with_round_one_bids_opens_at_round_two_with_the_given_hands() -> None:
    """The race opens at bidding round 2: each bidder's rider is fixed and its 4 cards are the hand given."""
    race = play(_record(ROUND_TWO, []))
    s = race.state
    assert (s.phase, s.bid_round) == ("bid", 2)
    assert s.bids == {"anna": ["black-r", 6], "ben": ["blue-s", 9]}
    cards = {d.entrant: [c.value for c in d.fields[0].choices] for d in race.awaited()}
    assert cards == {"anna": [3, 4, 5, 7], "ben": [2, 3, 4, 5]}
    assert race.validate("ben", "bid 5") == {"bid": {"rider": "s", "card": 5}}


@pytest.mark.rules("R-FR-11", "D8", "7.1")
def test_round_two_settles_the_breakaway_from_the_set_up_round_one_bids() -> None:
    """Anna bids 7 (6 + 7 = 13), Ben 5 (9 + 5 = 14): with two bidders the top one breaks away, Ben's
    Sprinteur, on the first square beyond the line (square 6 of S5), right lane. Its bid cards 9 and 5 leave
    the game: its deck is the 3 cards left (9 2 3), the 3 returned (2 3 4) and 2 exhaustion cards. Anna's 6
    and 7 go back with her 3 returned cards (3 4 5) into her 4 left (5 6 4 3). The grid follows, Anna first."""
    race = play(_record(ROUND_TWO, [{"anna": "bid 7", "ben": "bid s5"}]))
    s = race.state
    assert at(s, "blue-s") == (6, 1) and s.rider("blue-s").breakaway
    blue = s.rider("blue-s")
    assert Counter(blue.deck) == Counter({2: 2, 3: 2, 4: 1, 9: 1, EXHAUSTION: 2}) and blue.exhaustion == 2
    black = s.rider("black-r")
    assert Counter(black.deck) == Counter({3: 2, 4: 2, 5: 2, 6: 2, 7: 1}) and not black.breakaway
    assert at(s, "black-r") == (0, 0)
    breakaway = [e.data for e in race.events[-1] if e.kind == "fr.breakaway"]
    assert breakaway == [{"entrant": "ben", "rider": "blue-s", "total": 14, "square": 6}]
    assert (s.phase, s.turn_order[s.cursor]) == ("place", "anna")


@pytest.mark.rules("R-FR-11", "D8", "4.4")
def test_after_a_set_up_breakaway_the_grid_and_the_race_go_on() -> None:
    """Placements P1, P2, P3 (squares 5, 4, 3) in turn order Anna, Ben, Anna; then round 1's energy phase,
    Ben's breakaway Sprinteur still first on 6."""
    steps = [{"anna": "bid 7", "ben": "bid s5"}, {"anna": "place r 1"}, {"ben": "place r 2"}, {"anna": "place s 3"}]
    s = play(_record(ROUND_TWO, steps)).state
    assert (s.phase, s.round) == ("energy", 1)
    assert [at(s, r) for r in ("blue-s", "black-r", "blue-r", "black-s")] == [(6, 1), (5, 1), (4, 1), (3, 1)]


@pytest.mark.rules("R-FR-11", "D8")
def test_a_bid_from_a_seeded_deck_leaves_that_deck_for_round_two() -> None:
    """Without a written deck, the round-1 bid 9 stays out of the shuffled Sprinteur deck: round 2 draws from
    its 14 other cards (three each of 2-5, two 9s)."""
    setup = {"turn_order": ["anna", "ben"], "riders": {"black-s": {"bid": 9}, "blue-r": {"bid": 7}}}
    s = play(_record(setup, [])).state
    left = Counter(SPRINTEUR_DECK)
    left[9] -= 1
    assert Counter(s.rider("black-s").deck) == left and len(s.rider("black-s").deck) == 14
    assert s.bids == {"anna": ["black-s", 9], "ben": ["blue-r", 7]}


@pytest.mark.rules("R-FR-11", "D8")
@pytest.mark.parametrize(
    ("riders", "options", "message"),
    [
        (ROUND_TWO["riders"], {"breakaway": "off"}, r"^setup\.riders\.black-r\.bid: the Breakaway bidding needs"),
        (
            {"black-r": {"bid": 9}, "blue-s": {"bid": 9}},
            {},
            r"^setup\.riders\.black-r\.bid: black-r's deck cannot hold 9",
        ),
        (
            {"black-r": {"bid": 6}, "black-s": {"bid": 9}, "blue-s": {"bid": 9}},
            {},
            r"^setup\.riders\.black-s\.bid: anna bids with one rider only, and black-r bids already$",
        ),
        (
            {"black-r": {"bid": 6}},
            {},
            r"^setup\.riders: round-1 Breakaway bids are given for every bidding player or none; no bid for ben$",
        ),
        (
            {**ROUND_TWO["riders"], "blue-r": {"square": 3}},
            {},
            r"^setup\.riders\.blue-r\.square: with round-1 bids the Breakaway bidding is still on, before the grid",
        ),
        (
            {"black-r": {"bid": 6}, "blue-s": {"bid": 9}},
            {"riders_per_player": 1},
            r"^setup\.riders\.black-r\.bid: in one-rider mode a bid needs setup\.owners",
        ),
    ],
)
def test_round_one_bids_that_cannot_be_are_refused_by_their_field(
    riders: dict[str, Any], options: dict[str, Any], message: str
) -> None:
    """Breakaway off, a 9 in a Rouleur's bid, two bidding riders for Anna, a bid for Anna only, a rider
    already on the grid, one-rider mode without owners: each refused in one line."""
    with pytest.raises(RecordError, match=message) as refused:
        play(_record({"riders": riders}, [], **options))
    assert "\n" not in str(refused.value)


@pytest.mark.rules("R-FR-11", "D8")
def test_a_bot_team_rider_never_has_a_bid() -> None:
    """The Peloton does not bid (D8): a bid on its rider is refused by name."""
    rec = record(
        players=2,
        bots=["peloton"],
        options={"breakaway": "on"},
        setup={"riders": {"black-r": {"bid": 6}, "blue-s": {"bid": 9}, "green-p1": {"bid": 5}}},
    )
    with pytest.raises(RecordError, match=r"^setup\.riders\.green-p1\.bid: bot teams do not bid \(D8\)$"):
        play(rec)


def test_the_documented_breakaway_round_two_example_ends_as_the_page_says() -> None:
    """The page's round-2 example: Anna's 3 + 9 = 12 and Carla's 5 + 7 = 12 tie, Ben has 4 + 6 = 10; equal
    totals go to the player later in the turn order, Carla, whose Rouleur starts on square 6 of S5."""
    page = (ROOT / "docs" / "race-record" / "flamme_rouge.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```json\n(.*?)```", page, re.S) if '"bid"' in b]
    s = play(json.loads(block)).state
    assert at(s, "green-r") == (6, 1) and s.rider("green-r").breakaway
    assert not s.rider("black-s").breakaway and not s.rider("blue-r").breakaway
    assert s.phase == "place"


@pytest.mark.rules("R-FR-11", "D8", "D20", "D23")
def test_one_rider_mode_with_owners_and_a_peloton_bids_round_two_from_the_setup() -> None:
    """One rider each: Anna rides black-s (bid 9), Ben black-r (bid 3). The Peloton (white) stands on P1 and
    P2, squares 5 and 4. Anna bids 9 again (18), Ben 7 (10): black-s breaks away on square 6."""
    rec = record(
        players=2,
        bots=["peloton"],
        options={"breakaway": "on", "riders_per_player": 1},
        setup={
            "turn_order": ["anna", "ben"],
            "owners": {"black-s": "anna", "black-r": "ben"},
            "riders": {"black-s": {"bid": 9, "hand": [9, 2, 3, 4]}, "black-r": {"bid": 3, "hand": [7, 3, 4, 5]}},
        },
        steps=[{"anna": "bid 9", "ben": "bid 7"}],
    )
    s = play(rec).state
    assert [at(s, r) for r in ("white-p1", "white-p2", "black-s", "black-r")] == [(5, 1), (4, 1), (6, 1), (0, 0)]
    assert s.rider("black-s").breakaway and s.bids == {"anna": ["black-s", 9, 9], "ben": ["black-r", 3, 7]}
