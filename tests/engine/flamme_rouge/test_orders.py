"""Orders (§9): the text syntax, friendly refusals, D26 (a 2 plays exhaustion), D27 (locks), D9 (absent)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge.cards import EXHAUSTION
from engine.flamme_rouge.orders import complete_energy, parse_text, validate_energy
from engine.messages import Message, OrderError, message_of
from engine.ruleset import set_path
from tests.logged import LoggedRace

from .helpers import placed, record, start

HANDS: dict[str, list[Any]] = {
    "black-r": [3, 4, 4, 7],
    "black-s": [9, 2, "E", 5],
    "blue-r": [5, 5, 6, 3],
    "blue-s": [2, 3, 4, 9],
}


def racing() -> LoggedRace:
    """Two teams on the road, hands known: Anna's Rouleur 3 4 4 7, Sprinteur 9 2 E 5."""
    return start(record(players=2, setup=placed({"black-r": 10, "black-s": 11, "blue-r": 12, "blue-s": 13}, HANDS)))


@pytest.mark.rules("9.4")
def test_the_text_syntax_of_every_order() -> None:
    """r5 s9, draw s, bid r / bid r6, place s 3, rider blue s (case-insensitive, token order irrelevant)."""
    assert parse_text("R5 S9") == {"cards": {"r": 5, "s": 9}}
    assert parse_text("s9 r5") == {"cards": {"s": 9, "r": 5}}
    assert parse_text("draw s") == {"first": "s"}
    assert parse_text("bid r") == {"bid": {"rider": "r"}}
    assert parse_text("bid r6") == {"bid": {"rider": "r", "card": 6}}
    assert parse_text("place s 3") == {"place": {"rider": "s", "square": 3}}
    assert parse_text("place s square 4") == {"place": {"rider": "s", "on": 4}}  # R-FR-12
    assert parse_text("Place S Sq4") == {"place": {"rider": "s", "on": 4}}
    assert parse_text("rider blue s") == {"rider": "blue-s"}
    with pytest.raises(OrderError, match="I can't read 'x5'"):
        parse_text("x5")


@pytest.mark.rules("9.3")
def test_a_card_not_in_the_hand_is_refused_with_the_hand() -> None:
    """The exact refusal of the style guide."""
    race = racing()
    with pytest.raises(OrderError) as err:
        race.validate("anna", "r9 s5")
    assert err.value.message.text == "You can't play 9 for your Rouleur: your hand is 3, 4, 4, 7"
    assert err.value.message.key == "fr.card_not_in_hand"
    # The rider type is a word of its own (a nested message); the hand is the values, in the game's notation.
    rouleur = message_of("fr.rider.rouleur", {}, "Rouleur")
    assert err.value.message.params == {"card": 9, "rider": rouleur, "hand": "3, 4, 4, 7"}


@pytest.mark.rules("9.3", "9.4")
def test_a_complete_order_in_text_or_json_is_normalised_the_same_way() -> None:
    """'r7 s9' and the JSON object normalise to the same order, which re-validates."""
    race = racing()
    a = race.ruleset.validate(race.state, "anna", "r7 s9")
    b = race.ruleset.validate(race.state, "anna", {"text": "s9 r7"})
    c = race.ruleset.validate(race.state, "anna", {"first": "r", "cards": {"r": 7, "s": 9}})
    assert a == b == c and a.complete
    assert a.order == {"first": "r", "cards": {"r": 7, "s": 9}}
    assert race.ruleset.validate(race.state, "anna", a.order).order == a.order


@pytest.mark.rules("D26", "9.3")
def test_a_two_from_a_hand_with_exhaustion_and_energy_two_plays_the_exhaustion_card() -> None:
    """Sprinteur's hand 9 2 E 5, it plays 2: the exhaustion card leaves the game, the energy 2 is recycled."""
    race = racing()
    race.play_step({"anna": "r3 s2", "ben": "r3 s2"})
    sprinteur = race.state.rider("black-s")
    assert EXHAUSTION not in sprinteur.recycled and 2 in sprinteur.recycled
    assert sorted(sprinteur.recycled) == [2, 5, 9]


@pytest.mark.rules("5.1", "9.1", "D27")
def test_the_energy_decision_shows_the_first_hand_then_the_second_after_the_first_card() -> None:
    """Draw first -> the Sprinteur's hand (D26 label) -> then the Rouleur's hand; complete at the end."""
    race = racing()
    d = race.awaited()[0]
    assert d.entrant == "anna" and d.fields[0].path == ["first"] and not d.complete
    partial = race.validate("anna", set_path({}, ["first"], "s"))
    d = race.awaited({"anna": partial})[0]
    assert d.fields[0].path == ["cards", "s"]
    assert [c.label.text for c in d.fields[0].choices if isinstance(c.label, Message)] == ["2 (exhaustion)", "5", "9"]
    assert [c.label.key for c in d.fields[0].choices if isinstance(c.label, Message)][:2] == [
        "fr.label.exhaustion_card",
        "fr.label.card",
    ]
    partial = race.validate("anna", set_path(partial, ["cards", "s"], 9), partial)
    d = race.awaited({"anna": partial})[0]
    assert d.fields[0].path == ["cards", "r"] and [c.value for c in d.fields[0].choices] == [3, 4, 7]
    full = race.validate("anna", "r4", partial)
    assert full == {"first": "s", "cards": {"r": 4, "s": 9}}
    assert race.awaited({"anna": full})[0].complete


@pytest.mark.rules("D27")
def test_the_first_card_is_locked_once_the_second_hand_is_drawn_but_the_second_may_change() -> None:
    """Anna chose r7 (the Sprinteur's hand is drawn): changing the Rouleur is refused, the Sprinteur may change."""
    race = racing()
    first = race.validate("anna", "r7")
    assert first == {"first": "r", "cards": {"r": 7}}
    with pytest.raises(OrderError, match="Your Rouleur already plays 7: it is locked"):
        race.validate("anna", "r4 s9", first)
    with pytest.raises(OrderError, match="the order of the draws can't change"):
        race.validate("anna", "draw s", first)
    both = race.validate("anna", "s9", first)
    assert race.validate("anna", "s5", both) == {"first": "r", "cards": {"r": 7, "s": 5}}


@pytest.mark.rules("D27", "9.4", "R-FR-3")
def test_in_a_combined_order_with_a_wrong_second_card_the_first_card_stands() -> None:
    """'r7 s8': the 7 stands, the Sprinteur's hand is shown again with the refusal."""
    race = racing()
    got = race.ruleset.validate(race.state, "anna", "r7 s8")
    assert not got.complete
    assert got.order == {"first": "r", "cards": {"r": 7}, "rejected": {"rider": "s", "card": 8}}
    d = race.awaited({"anna": got.order})[0]
    assert d.fields[0].path == ["cards", "s"]
    assert any("can't play 8" in m.text for m in d.info)
    with pytest.raises(OrderError, match="Your Rouleur already plays 7"):
        race.validate("anna", "r4 s9", got.order)


@pytest.mark.rules("D27")
def test_the_second_riders_card_cannot_come_before_the_first_riders() -> None:
    """After 'draw r', a Sprinteur card alone is refused: the Rouleur's hand is drawn first."""
    race = racing()
    with pytest.raises(OrderError, match="Choose your Rouleur's card first"):
        race.validate("anna", "s9", {"first": "r"})


@pytest.mark.rules("D9", "9.2")
def test_an_absent_player_plays_the_lowest_card_of_each_hand_keeping_a_chosen_card() -> None:
    """Nothing sent: r3 and s2 (the exhaustion card, D26); r7 already chosen: it stands."""
    race = racing()
    auto = race.absent_order("anna")
    assert auto["cards"] == {"r": 3, "s": 2} and auto["auto"] is True
    kept = race.absent_order("anna", {"first": "r", "cards": {"r": 7}})
    assert kept["cards"] == {"r": 7, "s": 2}
    race.play_step({"anna": auto, "ben": "r5 s9"})
    assert sorted(race.state.rider("black-s").recycled[:3]) == [2, 5, 9]  # the hand's rest, energy 2 kept


@pytest.mark.rules("9.3")
def test_orders_for_crossed_or_missing_riders_and_for_the_wrong_phase_are_refused() -> None:
    """A crossed rider, a bid during the energy phase and a non-entrant each get their own message."""
    race = start(
        record(
            players=2,
            stage="S5 _10 F5",
            options={"finish": "all"},
            setup=placed(
                {"black-r": 14, "black-s": 6, "blue-r": 7, "blue-s": 8},
                {"black-r": [7, 7, 7, 7], "black-s": [2, 3, 4, 5]},
            ),
        )
    )
    with pytest.raises(OrderError, match="energy phase"):
        race.validate("anna", "bid r6")
    with pytest.raises(OrderError, match="not in this race"):
        race.validate("zoe", "r5")
    race.play_step({"anna": race.absent_order("anna") | {"cards": {"r": 7, "s": 2}}, "ben": race.absent_order("ben")})
    assert race.state.rider("black-r").crossed == 1
    with pytest.raises(OrderError, match="Your Rouleur has already crossed the line"):
        race.validate("anna", "r5")
    d = race.awaited()[0]
    assert d.entrant == "anna" and d.fields[0].path == ["cards", "s"]


@pytest.mark.rules("9.3", "D26")
def test_a_zero_or_a_word_is_not_a_card_even_with_an_exhaustion_card_in_hand() -> None:
    """The Sprinteur holds an exhaustion card: 0 is still refused, and so is a non-number."""
    race = racing()
    with pytest.raises(OrderError, match="You can't play 0 for your Sprinteur"):
        race.validate("anna", {"first": "r", "cards": {"r": 3, "s": 0}}, {"first": "r", "cards": {"r": 3}})
    with pytest.raises(OrderError, match="A card is a number"):
        race.validate("anna", {"first": "r", "cards": {"r": "x"}})


@pytest.mark.rules("9.3", "D26", "D27")
def test_the_quick_check_of_a_complete_order_agrees_with_the_full_check() -> None:
    """Every JSON order the bots or the buttons could send gets the same answer from the quick path as
    from the full one: the same normalised order when legal, the full path's refusal when not."""
    race = racing()
    state = race.state
    values: list[Any] = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, True, "5", None]
    orders: list[dict[str, Any]] = []
    for r in values:
        for s in values:
            cards = {"r": r, "s": s}
            orders += [{"cards": cards}, {"first": "r", "cards": cards}, {"first": "s", "cards": cards}]
            orders.append({"first": "x", "cards": cards})
            orders.append({"cards": {"s": s, "r": r}})
    orders += [{"cards": {"r": 3}}, {"first": "r", "cards": {"r": 3, "s": 9, "x": 1}}, {"cards": [3, 9]}]
    orders += [{"first": "r", "cards": {"r": 3, "s": 9}, "by": "bot"}, {"cards": {"r": 3, "s": 9}, "rejected": {}}]
    quick = 0
    for order in orders:
        state.cache.clear()
        fast = complete_energy(state, "anna", order)
        try:
            full = validate_energy(state, "anna", {k: v for k, v in order.items() if k != "by"}, {})
        except OrderError:
            assert fast is None, order
            continue
        if fast is not None:
            quick += 1
            assert fast == full, order
    # Rouleur 3/4/7 x Sprinteur 2/5/9 (a 2 with an exhaustion card in hand), each as cards only, with first r,
    # with first s, and with the Sprinteur's card written first
    assert quick == 3 * 3 * 4
