"""§8: what a player submits, the text syntax, refusals, the turn panel, and what is secret (D22)."""

from __future__ import annotations

import json

import pytest

from engine.messages import OrderError
from engine.ruleset import set_path
from engine.wyscig import RULESET
from tests.engine.wyscig.helpers import record, run, state
from tests.logged import LoggedRace

HANDS = {"p1": "47 45 44 42 41 40", "p2": "50 48 45 43 d d", "p3": "46 46 46 46 46 46"}


def _race_at_p2() -> LoggedRace:
    """P1 led 47; P2 is to play holding 39, 43, 45, 48, 50 and two descents."""
    return run(record(HANDS, "39 39 39 39 39 39", [("p1", "play 47")]))


@pytest.mark.rules("8.2")
@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("play 48", {"card": 48, "descents": 0}),
        ("play 50 +2", {"card": 50, "descents": 2}),
        ("PLAY 50+1", {"card": 50, "descents": 1}),
        ("45", {"card": 45, "descents": 0}),
        ({"text": "play 43"}, {"card": 43, "descents": 0}),
    ],
)
def test_the_text_syntax_and_the_json_order_normalise_alike(text: object, order: dict[str, int]) -> None:
    """`play 47` is a card, `+N` counts descent cards."""
    race = _race_at_p2()
    validated = RULESET.validate(state(race), "p2", text)  # type: ignore[arg-type]
    assert validated.order == order and validated.complete
    assert RULESET.validate(state(race), "p2", validated.order).order == order


@pytest.mark.rules("8.1")
def test_a_card_not_in_the_hand_is_refused_naming_the_hand() -> None:
    """ "You hold no 47: your hand is ..." and nothing changes."""
    race = _race_at_p2()
    before = RULESET.dump(state(race))
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", "play 47")
    assert err.value.message.key == "wk.card_not_in_hand"
    assert err.value.message.text == "You hold no 47: your hand is 39, 43, 45, 48, 50 and 2 descents."
    assert RULESET.dump(state(race)) == before


@pytest.mark.rules("8.1")
def test_more_descents_than_held_are_refused() -> None:
    """Two descents held: asking for three says so."""
    race = _race_at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", "play 50 +3")
    assert err.value.message.key == "wk.too_many_descents"
    assert "You hold 2 descent cards: you can't add 3" in err.value.message.text


@pytest.mark.rules("8.2")
@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ("plya 47", "wk.syntax", None),
        ("  ", "wk.empty", None),
        ("play fast", "wk.syntax", None),
        ("play 55", "wk.no_such_card", None),
        ({"card": "x"}, "wk.bad_field", "wk.problem.number"),
        ({"card": 48, "sprint": 1}, "wk.bad_field", "wk.problem.unknown_field"),
        ({"descents": -1}, "wk.negative_descents", None),
    ],
)
def test_unreadable_orders_get_a_clear_message(text: object, key: str, problem: str | None) -> None:
    """Typos, impossible cards and stray fields are refused with what to write instead (a field's problem in
    words of its own key)."""
    race = _race_at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", text)  # type: ignore[arg-type]
    assert err.value.message.key == key
    if problem is not None:
        assert err.value.message.params["problem"].key == problem


@pytest.mark.rules("8.2")
def test_hand_shows_the_hand_without_playing() -> None:
    """`hand` answers privately with the hand, on your turn or not, and changes nothing."""
    race = _race_at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", "hand")
    assert err.value.message.key == "wk.hand"
    assert "39, 43, 45, 48, 50 and 2 descents" in err.value.message.text
    with pytest.raises(OrderError) as other:
        RULESET.validate(state(race), "p3", {"text": "hand"})
    assert other.value.message.text == "Your hand: 46, 46, 46, 46, 46, 46. To play, write play 46."


@pytest.mark.rules("8.1", "4")
def test_only_the_player_whose_turn_it_is_may_play() -> None:
    """P3 writes while P2 is to play."""
    race = _race_at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p3", "play 46")
    assert err.value.message.text == "It's not your turn: P2 is to play."


@pytest.mark.rules("8.1")
def test_the_turn_panel_offers_each_card_with_what_it_would_mean() -> None:
    """Against 47: 48 and 50 take the lead, 45 rides in the peloton, 43 costs 4, 39 costs 8."""
    race = _race_at_p2()
    [decision] = RULESET.awaited(state(race))
    assert (decision.entrant, decision.kind, decision.complete) == ("p2", "turn", False)
    card, descents = decision.fields
    assert card.path == ["card"] and card.kind == "choice"
    hints = [c.hint.text for c in card.choices if c.hint]
    assert hints == ["39: +8 min", "43: +4 min", "45: peloton", "48: take the lead", "50: take the lead"]
    assert (descents.path, descents.kind, descents.minimum, descents.maximum) == (["descents"], "choice", 0, 2)
    labels = [(c.value, c.label.text) for c in descents.choices]
    assert labels == [(0, "No descent"), (1, "1 descent: +2 km/h"), (2, "2 descents: +4 km/h")], (
        "each says what it does"
    )


@pytest.mark.rules("8.1")
def test_every_choice_offered_is_legal_and_completes_the_order() -> None:
    """Merging any offered card into the partial order validates; then only the descents remain."""
    race = _race_at_p2()
    [decision] = RULESET.awaited(state(race))
    for choice in decision.fields[0].choices:
        merged = set_path({}, ["card"], choice.value)
        assert RULESET.validate(state(race), "p2", merged, previous={}).complete
    [after] = RULESET.awaited(state(race), {"p2": {"card": 45}})
    assert after.complete
    assert [f.path for f in after.fields] == [["descents"]]
    [done] = RULESET.awaited(state(race), {"p2": {"card": 45, "descents": 1}})
    assert done.fields == [] and done.partial == {"card": 45, "descents": 1}
    [typed] = RULESET.awaited(state(race), {"p2": "play 48 +2"})  # type: ignore[dict-item]
    assert typed.complete and typed.fields == [] and typed.partial == {"card": 48, "descents": 2}


@pytest.mark.rules("8.1", "D10")
def test_hints_count_the_descents_already_chosen() -> None:
    """With one descent chosen first, 45 + 1 = 47 rides in the peloton and 43 + 1 = 45 too."""
    race = _race_at_p2()
    [decision] = RULESET.awaited(state(race), {"p2": {"descents": 1}})
    hints = {c.value: c.hint.text for c in decision.fields[0].choices if c.hint}
    assert hints[45] == "45 +1 = 47: peloton"
    assert hints[39] == "39 +1 = 41: +6 min"


@pytest.mark.rules("D22", "4.3")
def test_hands_and_the_pile_are_secret_and_everything_played_is_public() -> None:
    """The public view has card counts, minutes, L and the cards played; the hand only in P2's own view."""
    race = _race_at_p2()
    public = RULESET.public_view(state(race))
    text = json.dumps(public)
    assert "speeds" not in text and "hand" not in public
    assert public["pile"] == 4 and isinstance(public["pile"], int)
    assert public["played"][0]["card"] == 47
    assert public["reference"] == 47 and public["leader"] == "p1"
    assert {p["id"]: p["minutes"] for p in public["players"]} == {"p1": 0, "p2": 0, "p3": 0}
    private = RULESET.private_view(state(race), "p2")
    assert private["hand"] == {"speeds": [39, 43, 45, 48, 50], "descents": 2}
    other = RULESET.private_view(state(race), "p3")
    assert other["hand"] == {"speeds": [46] * 6, "descents": 0}
    assert "50" not in json.dumps(other["players"])


@pytest.mark.rules("R-WK-2", "4.3")
def test_the_number_of_cards_each_player_holds_is_public() -> None:
    """As at a table, everybody sees how many cards the others hold (never which)."""
    race = _race_at_p2()
    public = RULESET.public_view(state(race))
    assert {p["id"]: p["cards"] for p in public["players"]} == {"p1": 6, "p2": 7, "p3": 6}


@pytest.mark.rules("D22", "4.3")
def test_the_panel_and_the_public_view_show_the_lap_so_far() -> None:
    """After Anna's 47, Bob's 48 and Carla's 42, Dan reads the lap with what each card did."""
    hands = {"p1": "47 41", "p2": "48 41", "p3": "42 41", "p4": "44 d 41"}
    race = run(record(hands, "39 " * 8, [("p1", "play 47"), ("p2", "play 48"), ("p3", "play 42")]))
    lap = "P1 47 (leader) · P2 48 (takes the lead) · P3 42 +6 min"
    public = RULESET.public_view(state(race))["lap"]
    assert public["text"] == lap
    assert public["key"] == "wk.lap.then"  # "{before} · {card}": a translator chooses the separator
    assert public["params"]["card"] == {
        "key": "wk.lap.penalty",
        "params": {"name": "P3", "speed": 42, "minutes": 6},
        "text": "P3 42 +6 min",
    }
    [decision] = RULESET.awaited(state(race))
    assert f"This lap: {lap}." in [m.text for m in decision.info]
