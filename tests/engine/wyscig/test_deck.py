"""§2.2 and D1: the three deck presets, pinned to the rules document's table."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.wyscig.deck import deck_presets, shuffled_deck, stacked_deal
from engine.wyscig.texts import hand

SPEEDS = list(range(39, 51))


@pytest.mark.rules("D1", "2.2")
def test_the_deck_presets_are_exactly_the_three_of_d1() -> None:
    """itemised_108: 8 x 12 + 4 + 8; total_102: 8 x 12 + 2 + 4; classic_96: 7 x 12 + 4 + 8."""
    presets = deck_presets()
    assert list(presets) == ["itemised_108", "total_102", "classic_96"]
    pinned = {name: (p.speed_values, p.per_speed, p.climbs, p.descents, p.size) for name, p in presets.items()}
    assert pinned == {
        "itemised_108": (SPEEDS, 8, 4, 8, 108),
        "total_102": (SPEEDS, 8, 2, 4, 102),
        "classic_96": (SPEEDS, 7, 4, 8, 96),
    }


@pytest.mark.rules("D3")
def test_only_the_108_card_deck_seats_seven_or_eight() -> None:
    """The preset data carry D3's player limit."""
    assert {n: p.max_players for n, p in deck_presets().items()} == {
        "itemised_108": 8,
        "total_102": 6,
        "classic_96": 6,
    }


@pytest.mark.rules("D1")
def test_a_shuffle_keeps_every_card_and_follows_the_seed() -> None:
    """The same seed gives the same order; the cards are the preset's, counted one by one."""
    a = shuffled_deck("total_102", Rng.from_seed(5))
    b = shuffled_deck("total_102", Rng.from_seed(5))
    assert a == b
    assert a != shuffled_deck("total_102", Rng.from_seed(6))
    assert sorted(c for c in a if isinstance(c, int)) == sorted(SPEEDS * 8)
    assert (a.count("climb"), a.count("descent")) == (2, 4)


def test_a_hand_reads_like_the_game() -> None:
    """Sorted speeds and the descents counted, each case a key of its own so a translator words it."""
    cases = [
        (([47, 39, 44], 2), "wk.cards.speeds_descents", "39, 44, 47 and 2 descents"),
        (([47], 1), "wk.cards.speeds_descents", "47 and 1 descent"),
        (([44, 39], 0), "wk.cards.speeds", "39, 44"),
        (([], 1), "wk.cards.descents_only", "no speed card and 1 descent"),
        (([], 0), "wk.cards.none", "no speed card"),
    ]
    for (speeds, descents), key, text in cases:
        message = hand(speeds, descents)
        assert (message.key, message.text) == (key, text)
    assert hand([47, 39, 44], 2).params == {"count": 2, "speeds": "39, 44, 47"}


@pytest.mark.rules("D5")
def test_a_stacked_deal_without_a_pile_leaves_the_rest_of_the_deck_shuffled() -> None:
    """Deck 39 39 47 climb descent, P1 holding 39 and 47: the pile is the other 39, the climb and the descent."""
    deck: list[int | str] = [39, 39, 47, "climb", "descent"]
    pile = stacked_deal(deck, {"p1": [39, 47]}, None, Rng.from_seed(5))
    assert sorted(map(str, pile)) == ["39", "climb", "descent"]
    assert deck == [39, 39, 47, "climb", "descent"]


@pytest.mark.rules("D5")
def test_a_stacked_deal_refuses_hands_holding_more_of_a_card_than_the_deck() -> None:
    """Two 47s and a 50 from a deck of one 47 and one 39: the setup is refused, naming the 47 and the 50."""
    with pytest.raises(ValueError, match=r"^setup\.hands hold more cards than the deck has: 47\b.*, 50\b"):
        stacked_deal([47, 39], {"p1": [47, 47], "p2": [50]}, None, Rng.from_seed(5))
