"""Wyścig: a stacked stage is a deal the table could have had, its hands and pile checked against the deck
(R-WK-6)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.record import RecordError
from tests.engine.wyscig.helpers import record, run, state


def _second_stage(deal: dict[str, Any]) -> dict[str, Any]:
    """Stage 1: P1 leads 47 and P2 follows with 45, nobody holds another card: stage 2 is dealt at once."""
    stage_one = [("p1", "play 47"), ("p2", "play 45")]
    return record({"p1": "47", "p2": "45"}, "", stage_one, stages=2, stage_deals={2: deal})


@pytest.mark.rules("R-WK-6", "D1")
def test_a_pile_of_every_copy_of_a_card_is_dealt_as_written() -> None:
    """The 108-card deck holds eight 39s: a pile of all eight, with hands of other cards, is a deal it can
    make. P1 leads, so his turn begins with the pile's top 39 (hand 45, 39); seven 39s stay in the pile."""
    race = run(record({"p1": "45", "p2": "44"}, "39 " * 8))
    assert state(race).turn == "p1"
    assert sorted(state(race).player("p1").speeds) == [39, 45]
    assert state(race).pile == [39] * 7


@pytest.mark.rules("R-WK-6", "D1")
@pytest.mark.parametrize(
    ("hands", "pile", "deck", "message"),
    [
        ({"p1": "45", "p2": "44"}, "39 " * 9, "itemised_108", r"^setup\.pile: .*: 39 \(9, the deck holds 8\)$"),
        (
            {"p1": "47 47 47 47 47", "p2": "47 44"},
            "47 47 47",
            "itemised_108",
            r"^setup\.pile: .*: 47 \(9, the deck holds 8\)$",
        ),
        ({"p1": "45", "p2": "44"}, "50 " * 8, "classic_96", r"^setup\.pile: .*: 50 \(8, the deck holds 7\)$"),
        ({"p1": "45", "p2": "44"}, "c c c 41", "total_102", r"^setup\.pile: .*: climb \(3, the deck holds 2\)$"),
        (
            {"p1": "45 d d d", "p2": "44 d d"},
            "41",
            "total_102",
            r"^setup\.hands hold more cards than the deck has: descent \(5, the deck holds 4\)$",
        ),
    ],
)
def test_a_first_stage_stacked_beyond_the_deck_is_refused_by_its_field(
    hands: dict[str, str], pile: str, deck: str, message: str
) -> None:
    """Nine 39s; five 47s in hand and four more in the pile; eight 50s of the 96-card deck (7 each); three
    climbs or five descents of the 102-card deck (2 and 4): each refused in one line naming the field."""
    with pytest.raises(RecordError, match=message) as refused:
        run(record(hands, pile, deck=deck))
    assert "\n" not in str(refused.value)


@pytest.mark.rules("R-WK-6")
def test_a_later_stage_stacked_beyond_the_deck_is_refused_by_its_field() -> None:
    """Stage 2's hands hold two 41s and its pile seven more: nine 41s, one more than the deck's eight."""
    deal = {"hands": {"p1": [41, 44], "p2": [41, 46]}, "pile": [41] * 7}
    with pytest.raises(RecordError, match=r"^setup\.stage_deals\.2\.pile: .*: 41 \(9, the deck holds 8\)$"):
        run(_second_stage(deal))


@pytest.mark.rules("R-WK-6")
def test_a_later_stage_holding_the_whole_count_of_a_card_is_dealt() -> None:
    """Hands with two 41s and a pile of six: exactly the deck's eight; stage 2 starts with P1 (who won
    stage 1, 57 to 60) leading and drawing the pile's top 41."""
    deal = {"hands": {"p1": [41, 44], "p2": [41, 46]}, "pile": [41] * 6}
    race = run(_second_stage(deal))
    s = state(race)
    assert (s.stage_number, s.turn) == (2, "p1")
    assert sorted(s.player("p1").speeds) == [41, 41, 44]
    assert s.pile == [41] * 5
