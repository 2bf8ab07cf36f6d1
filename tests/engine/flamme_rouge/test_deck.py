"""Decks and the energy phase (§3.1, §5.1): draw 4, recycle the rest, reshuffle only when needed."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.deck import draw, hand_of, hand_rng
from engine.record import RecordError
from engine.rng import Rng

from .helpers import play, record, start


@pytest.mark.rules("3.1")
def test_the_decks_hold_the_documented_cards() -> None:
    """Rouleur 3-7 x3 (75), Sprinteur 2-5 and 9 x3 (69), Peloton + 2 Attack!, Muscle Sprinteur + a 5."""
    assert len(C.ROULEUR_DECK) == 15 and sum(C.ROULEUR_DECK) == 75
    assert len(C.SPRINTEUR_DECK) == 15 and sum(C.SPRINTEUR_DECK) == 69
    assert Counter(C.PELOTON_DECK)[C.ATTACK] == 2 and len(C.PELOTON_DECK) == 17
    assert sum(C.value(c) for c in C.MUSCLE_SPRINTEUR_DECK) == 74
    race = start(record(players=1, bots=["peloton", "muscle"]))
    decks = {r.id: sorted(r.deck) for r in race.state.riders}
    assert decks["black-r"] == sorted(C.ROULEUR_DECK) and decks["black-s"] == sorted(C.SPRINTEUR_DECK)
    assert decks["blue-p1"] == sorted(C.PELOTON_DECK) and decks["blue-p2"] == []
    assert decks["green-s"] == sorted(C.MUSCLE_SPRINTEUR_DECK)


@pytest.mark.rules("5.1")
def test_a_deck_holding_the_whole_hand_is_drawn_as_it_is_even_if_that_empties_it() -> None:
    """Deck of exactly 4: those 4, no reshuffle; the recycled pile stays."""
    hand, deck, recycled = draw((3, 4, 5, 6), (7, 7), 4, Rng(1))
    assert (hand, deck, recycled) == ([3, 4, 5, 6], (), (7, 7))


@pytest.mark.rules("5.1")
def test_running_out_mid_draw_reshuffles_the_recycled_pile_and_draws_on() -> None:
    """Deck 2 + recycled 5: the 2, then 2 from the shuffled pile; 3 left as the new deck."""
    hand, deck, recycled = draw((3, 4), (5, 6, 7, 7, 0), 4, Rng(1))
    assert hand[:2] == [3, 4] and len(hand) == 4
    assert Counter([*hand[2:], *deck]) == Counter([5, 6, 7, 7, 0]) and recycled == ()


@pytest.mark.rules("5.1")
def test_fewer_cards_than_a_hand_are_all_drawn_and_none_at_all_means_an_exhaustion_card() -> None:
    """3 cards left in all: a hand of 3. Nothing left: the rider plays an exhaustion card from the supply."""
    assert sorted(draw((3,), (4, 5), 4, Rng(1))[0]) == [3, 4, 5]
    assert draw((), (), 4, Rng(1))[0] == [C.EXHAUSTION]


@pytest.mark.rules("5.1", "5.3")
def test_the_unchosen_cards_are_recycled_after_the_draw_and_played_cards_leave_the_game() -> None:
    """Round 1 from a 5-card deck: 4 drawn, 7 played (gone), 3 recycled; round 2 draws the last card then
    reshuffles those 3 (and the exhaustion card taken in the end phase) into a new deck."""
    rec = record(
        players=1,
        setup={
            "riders": {
                "black-r": {"square": 10, "deck": [7, 3, 4, 5, 6]},
                "black-s": {"square": 3, "hand": [2, 3, 4, 5]},
            }
        },
        steps=[{"anna": "r7 s2"}],
    )
    race = play(rec)
    r = race.state.rider("black-r")
    assert r.deck == (6,) and sorted(r.recycled) == [C.EXHAUSTION, 3, 4, 5]
    d = race.awaited({"anna": {"first": "r"}})[0]
    values = sorted(c.value for c in d.fields[0].choices)
    assert 6 in values and set(values) <= {2, 3, 4, 5, 6}


@pytest.mark.rules("5.1", "9.1", "D19")
def test_a_rider_with_no_card_left_plays_an_exhaustion_card_by_itself() -> None:
    """Empty deck and recycled pile: nobody is asked for the Rouleur; it plays a 2 (exhaustion), marked automatic."""
    rec = record(players=1, setup={"riders": {"black-r": {"square": 10, "deck": []}, "black-s": {"square": 3}}})
    race = start(rec)
    (d,) = race.awaited()
    assert [f.path for f in d.fields] == [["cards", "s"]]
    card = d.fields[0].choices[0].value
    race.play_step({"anna": {"cards": {"s": card}}})
    assert race.state.rider("black-r").square == 12
    auto = [e.data for e in race.events[0] if e.kind == "fr.auto_exhaustion"]
    assert auto == [{"rider": "black-r", "card": 2, "auto": True}]


@pytest.mark.rules("9.1")
def test_a_team_without_cards_is_awaited_by_nobody_and_the_step_still_resolves() -> None:
    """Both riders without cards: no decision at all; the step resolves with no orders and each moves 2."""
    empty = {"deck": [], "recycled": []}
    rec = record(players=1, setup={"riders": {"black-r": {"square": 10, **empty}, "black-s": {"square": 5, **empty}}})
    race = start(rec)
    assert race.awaited() == [] and not race.finished
    race.play_step({}, [])
    assert (race.state.rider("black-r").square, race.state.rider("black-s").square) == (12, 7)
    assert [e.data["rider"] for e in race.events[0] if e.kind == "fr.auto_exhaustion"] == ["black-r", "black-s"]


@pytest.mark.rules("9.1")
def test_a_record_made_before_still_replays_with_its_explicit_exhaustion_orders() -> None:
    """Older records name the 2 (exhaustion) themselves: they replay to the same squares."""
    empty = {"deck": [], "recycled": []}
    setup = {"riders": {"black-r": {"square": 10, **empty}, "black-s": {"square": 5, **empty}}}
    race = play(record(players=1, setup=setup, steps=[{"anna": {"first": "r", "cards": {"r": 2, "s": 2}}}]))
    assert (race.state.rider("black-r").square, race.state.rider("black-s").square) == (12, 7)
    half = {"riders": {"black-r": {"square": 10, "deck": []}, "black-s": {"square": 3}}}
    card = start(record(players=1, setup=half)).awaited()[0].fields[0].choices[0].value
    race = play(record(players=1, setup=half, steps=[{"anna": {"first": "r", "cards": {"r": 2, "s": card}}}]))
    assert race.state.rider("black-r").square == 12
    with pytest.raises(RecordError, match="step 1, anna"):
        play(record(players=1, setup=setup, steps=[{"anna": {"cards": {"r": 5}}}]))


@pytest.mark.rules("R-FR-4", "5.1")
def test_the_hand_shown_is_the_hand_resolved_even_across_a_reshuffle() -> None:
    """Deck 2 cards + recycled 6: the shown hand needs a reshuffle; playing from it recycles exactly the rest."""
    rec = record(
        players=1,
        setup={
            "riders": {
                "black-r": {"square": 10, "deck": [7, 3], "recycled": [4, 5, 6, 6, 5, 4]},
                "black-s": {"square": 3},
            }
        },
    )
    race = start(rec)
    shown = hand_of(race.state, 0)[0]
    again = hand_of(race.ruleset.load(race.ruleset.dump(race.state)), 0)[0]
    assert shown == again and shown[:2] == [7, 3] and len(shown) == 4
    race.play_step({"anna": race.absent_order("anna", {"first": "r", "cards": {"r": 7}})})
    rest = shown[:]
    rest.remove(7)
    r = race.state.rider("black-r")
    assert sorted(r.recycled[:3]) == sorted(rest)
    assert len(r.deck) == 4


def test_deck_shuffles_are_permutations_spread_evenly_and_seeded() -> None:
    """Every card keeps its count; the same generator state gives the same order; positions are spread."""
    first_card: Counter[int] = Counter()
    for seed in range(600):
        deck = list(range(15))
        C.shuffle(deck, Rng(seed))
        assert sorted(deck) == list(range(15))
        first_card[deck[0]] += 1
    assert set(first_card) == set(range(15)) and max(first_card.values()) < 2.2 * 600 / 15
    a, b = list(range(15)), list(range(15))
    C.shuffle(a, Rng(9))
    C.shuffle(b, Rng(9))
    assert a == b


@pytest.mark.rules("5.1")
def test_each_riders_reshuffle_draws_from_the_step_generator_split_by_the_rider() -> None:
    """The generator of a reshuffle is the state's generator split by the rider's number (Rng.from_seed), so
    every rider's reshuffle is its own and the same whoever asks for the hand."""
    state = start(record(players=2)).state
    for seed in (0, 1, 2**63 + 12345, 2**64 - 1):
        state.rng = seed
        for index in range(len(state.riders)):
            assert hand_rng(state, index).state == Rng.from_seed(seed, index + 1).state
    assert len({hand_rng(state, i).state for i in range(len(state.riders))}) == len(state.riders)
