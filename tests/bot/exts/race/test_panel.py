"""The private panel is built from the engine's decision alone and stays within Discord's limits."""

from __future__ import annotations

from typing import Any

from bot.exts.race import _form, _panel, _text
from bot.exts.race._cog import parse_options
from bot.exts.race._delivery import closed_panel
from bot.services.orders import without_last
from bot.services.outcomes import PanelView, RaceView
from bot.services.owed import Closing, Played
from tests.bot.exts.race.rendered import rendered
from tests.fakediscord.world import INTERACTIVE, walk_components
from tests.scan import codes


def _decision(*fields: dict[str, Any], complete: bool = False) -> dict[str, Any]:
    prompt = {"key": "x.prompt", "params": {}, "text": "Pick your move"}
    return {"entrant": "u1", "kind": "move", "prompt": prompt, "fields": list(fields), "complete": complete}


def _choice(path: list[str], count: int) -> dict[str, Any]:
    label = {"key": "x.f", "params": {}, "text": "Card"}
    choices = [{"value": n, "label": str(n)} for n in range(count)]
    return {"path": path, "label": label, "kind": "choice", "choices": choices}


def _components(view: Any) -> list[dict[str, Any]]:
    return [c for row in view.to_components() for c in row["components"]]


def test_a_few_choices_are_buttons_and_many_are_a_select_paged_by_25() -> None:
    """Three cards are three buttons; sixty squares are a 25-option select with a Next page button."""
    panel = PanelView(1, 3, "u1", _decision(_choice(["card"], 3), _choice(["square"], 60)), {}, None)
    _content, view = rendered(panel, title="Race", locale="en", deadline=None)
    parts = _components(view)
    assert [c["label"] for c in parts if c["custom_id"].startswith("gr:b:1:3:p:0:")] == ["0", "1", "2"]
    select = next(c for c in parts if c["type"] == 3)
    sign = _form.field_digest(_choice(["square"], 60))
    assert len(select["options"]) == 25 and select["custom_id"] == f"gr:s:1:3:p:1:{sign}:0"
    assert any(c.get("label") == "Next" for c in parts)
    assert len(view.to_components()) <= 5


def test_the_second_page_offers_the_next_25_values() -> None:
    """Page 2 of sixty squares lists choices 25 to 49, with Previous and Next."""
    panel = PanelView(1, 3, "u1", _decision(_choice(["square"], 60)), {}, None)
    _content, view = rendered(panel, title="Race", locale="en", deadline=None, page=(0, 1))
    parts = _components(view)
    select = next(c for c in parts if c["type"] == 3)
    assert [o["value"] for o in select["options"]][:2] == ["25", "26"]
    assert {"Previous", "Next"} <= {c.get("label") for c in parts}


def test_a_sent_order_is_confirmed_with_change() -> None:
    """Once the order is sent the panel says what was recorded; Change and Type my order stay, Send goes."""
    asked = {**_choice(["card"], 8), "value": 7}
    panel = PanelView(1, 3, "u1", {**_decision(complete=True), "asked": [asked]}, {}, {"card": 7}, sent=True)
    content, view = rendered(panel, title="Race", locale="en", deadline=None)
    assert "Your order: Card: 7." in content, "told in the decision's own labels"
    labels = [c.get("label") for c in _components(view) if c["type"] == 2]
    assert labels == ["Back", "Change", "Type my order"]
    assert "Send my order" not in labels


def test_a_complete_draft_is_reviewed_before_it_is_sent() -> None:
    """A complete order not yet sent: each part in words, a select to change any part, Send, Back, Change."""
    card = {**_choice(["card"], 8), "value": 7}
    lane = {**_choice(["lane"], 3), "label": {"key": "x.l", "params": {}, "text": "Lane"}, "value": 2}
    bottle = {**_choice(["bottle"], 2), "label": {"key": "x.b", "params": {}, "text": "Pass the bottle"}}
    decision = {**_decision(bottle, complete=True), "asked": [card, lane]}
    panel = PanelView(1, 3, "u1", decision, {}, {"card": 7, "lane": 2})
    content, view = rendered(panel, title="Race", locale="en", deadline=None)
    assert "• Card: 7\n• Lane: 2" in content and "not sent yet" in content
    assert "You may also choose: Pass the bottle." in content, "the optional part left is named"
    parts = _components(view)
    change = next(c for c in parts if c["custom_id"].startswith("gr:a:"))
    assert [o["label"] for o in change["options"]] == ["Card: 7", "Lane: 2"]
    assert [c.get("label") for c in parts if c["custom_id"].startswith("gr:b:")] == ["0", "1"], "the optional field"
    assert [c.get("label") for c in parts if c["type"] == 2 and not c["custom_id"].startswith("gr:b:")] == [
        "Send my order",
        "Back",
        "Change",
        "Type my order",
    ]
    assert len(view.to_components()) <= 5


def test_a_part_asked_again_shows_that_field_alone() -> None:
    """From the review, changing part 2 shows the lane's three choices and Back, nothing else to pick."""
    card = {**_choice(["card"], 8), "value": 7}
    lane = {**_choice(["lane"], 3), "value": 2}
    panel = PanelView(1, 3, "u1", {**_decision(complete=True), "asked": [card, lane]}, {}, {"card": 7, "lane": 2})
    content, view = rendered(panel, title="Race", locale="en", deadline=None, mode="e1")
    parts = _components(view)
    sign = _form.part_digest(lane)
    assert sign != _form.part_digest({**lane, "value": 1}), "the id tells which value the part held"
    assert [c["custom_id"] for c in parts if c["custom_id"].startswith("gr:b:")] == [
        f"gr:b:1:3:e1:0:{sign}:{n}" for n in range(3)
    ]
    assert "Change Card: 2: pick the new value below" in content
    assert [c.get("label") for c in parts if not c["custom_id"].startswith("gr:b:")] == ["Back", "Type my order"]


def test_a_number_without_maximum_is_offered_past_24_in_pages() -> None:
    """An open-ended intensity is a select labelled with its field: page 2 starts at 25, and 60 is on page 3."""
    field = {"path": ["s1"], "label": {"key": "x.s", "params": {}, "text": "Sprint 1"}, "kind": "number", "minimum": 0}
    pick = _panel.pick_of(field, "en")
    assert pick.options[25] == (25, "25") and (60, "60") in pick.options
    panel = PanelView(1, 3, "u1", _decision(field), {}, None)
    _content, view = rendered(panel, title="Race", locale="en", deadline=None, page=(0, 2))
    select = next(c for c in _components(view) if c["type"] == 3)
    assert select["placeholder"] == "Sprint 1" and "60" in [o["label"] for o in select["options"]]


def test_back_takes_off_the_last_part_asked() -> None:
    """Back drops the part asked last (a cyclist's distance after two actions), or a list's last entry."""
    asked = [
        {"path": ["intents", "1", "action"], "value": "move"},
        {"path": ["intents", "2", "action"], "value": "move"},
        {"path": ["intents", "1", "distance"], "value": 3},
    ]
    order = {"intents": {"1": {"action": "move", "distance": 3}, "2": {"action": "move"}}}
    assert _form.back({"asked": asked}, order) == {"intents": {"1": {"action": "move"}, "2": {"action": "move"}}}
    plan = {"start": "A", "specials": [{"code": "V", "round": "m3"}, {"code": "G", "round": "m4"}]}
    assert _form.back({"asked": [{"path": ["start"], "value": "A"}]}, plan) == {
        "start": "A",
        "specials": [{"code": "V", "round": "m3"}],
    }
    assert _form.back({"asked": [{"path": ["start"], "value": "A"}]}, {"start": "A"}) == {}


def test_two_fields_at_the_same_place_have_different_ids() -> None:
    """A rider field and a square field both at position 0 get different custom ids (a stale click is refused)."""
    rider = {"path": ["place", "rider"], "kind": "choice", "choices": [{"value": "r"}, {"value": "s"}]}
    square = {"path": ["place", "square"], "kind": "choice", "choices": [{"value": 1}, {"value": 2}]}
    assert _form.field_digest(rider) != _form.field_digest(square)
    assert _form.order_digest({"a": 1, "by": "bot"}) == _form.order_digest({"a": 1})


def test_a_pick_sends_the_whole_order_so_far() -> None:
    """Choosing cyclist 2's action keeps cyclist 1's intent in the order sent."""
    pick = _panel.Pick(["intents", "2", "action"], "Action", [("move", "move")])
    sent = {"intents": {"1": {"action": "move"}}}
    assert _panel.order_for(pick, ["move"], sent) == {"intents": {"1": {"action": "move"}, "2": {"action": "move"}}}
    assert sent == {"intents": {"1": {"action": "move"}}}, "the order sent before is not changed in place"


def test_change_asks_the_last_decided_value_again() -> None:
    """Change drops only the deepest last value: Sprinteur's card, not which rider drew first."""
    assert without_last({"first": "r", "cards": {"r": 6, "s": 2}}) == {"first": "r", "cards": {"r": 6}}
    assert without_last({"card": 7}) == {}


def test_options_are_key_value_pairs_read_as_json() -> None:
    """`grid=random riders_per_player=1` gives text and a number."""
    assert parse_options("grid=random riders_per_player=1, show_deck_contents=true") == {
        "grid": "random",
        "riders_per_player": 1,
        "show_deck_contents": True,
    }


def _receipt(played: Played | None, asked: dict[str, Any] | None = None) -> tuple[str, list[dict[str, Any]]]:
    race = RaceView(7, 1, 2, 3, "flamme_rouge", "running", "fast", 900, 4, [])
    layout = closed_panel(race, 4, Closing(1, "u1", played, asked, {"number": 3}), "en").to_components()
    text = "\n".join(c["content"] for c in walk_components(layout) if c.get("type") == 10)
    return text, [c for c in walk_components(layout) if c.get("type") in INTERACTIVE]


def test_a_closed_panel_is_a_one_line_receipt_without_components() -> None:
    """A panel that confirmed a complete order closes to one line: its round and that it was played."""
    text, items = _receipt(Played("u1", {"card": 7}, "player"))
    assert items == [], "a resolved panel keeps no component: the live panel is the next one"
    assert "\n" not in text and "Round 3" in text and "Your order was played as you sent it." in text
    assert "card" not in text


def test_an_automatic_order_is_told_in_the_receipt_in_the_labels_asked() -> None:
    """An absent player's receipt says the rules played for them, in the decision's labels."""
    asked = {**_decision(_choice(["card"], 3)), "asked": [{**_choice(["card"], 3), "value": 2}]}
    text, items = _receipt(Played("u1", {"card": 2}, "auto"), asked)
    assert items == [] and "the rules played for you: Card: 2" in text


def test_an_order_is_told_in_the_labels_of_the_fields_that_asked_it() -> None:
    """A Flamme Rouge energy order reads "Draw first: Rouleur · Rouleur: 4 · Sprinteur: 3", never a path."""
    from bot.services.stepping import asked_fields
    from engine.race import Race
    from engine.ruleset import Entrant

    race = Race.start(
        "flamme_rouge", [Entrant(id="u1", name="Anna"), Entrant(id="u2", name="Ben")], 5, options={"grid": "random"}
    )
    decision = next(d for d in race.awaited() if d.entrant == "u1")
    first = decision.fields[0].choices[0].value
    race_cards = next(d for d in race.awaited({"u1": {"first": first}}) if d.entrant == "u1").fields[0]
    card = race_cards.choices[0].value
    order = {"first": first, "cards": {first: card}}
    told = _text.told({"asked": asked_fields(race, "u1", order)}, "en")
    first_label = decision.fields[0].choices[0].label.text
    assert told == f"Draw first: {first_label} · {race_cards.label.text}: {race_cards.choices[0].label.text}", told
    assert not codes(told)


def test_the_parts_of_a_plan_are_told_once_each() -> None:
    """A Tabella plan's move reads "Move 1: effort 1, direction S ↑", not the move named twice."""

    def asked(label: str, value: Any, choices: tuple[tuple[Any, str], ...] = ()) -> dict[str, Any]:
        said = [{"value": v, "label": {"key": "x", "params": {}, "text": text}} for v, text in choices]
        return {"label": {"key": "x", "params": {}, "text": label}, "value": value, "choices": said}

    decision = {
        "asked": [
            asked("Start", "A", [("A", "A Aggressiva")]),
            asked("Move 1: effort", 1),
            asked("Move 1: direction", "S", [("S", "S ↑")]),
            asked("Move 2: effort", 2),
        ]
    }
    told = _text.told(decision, "en")
    assert told == "Start: A Aggressiva · Move 1: effort 1, direction S ↑ · Move 2: effort 2"


def test_a_flamme_rouge_panel_says_first_which_riders_are_yours() -> None:
    """The awaited player's panel opens with their colour and their tokens, as the picture draws them."""
    from engine.race import Race
    from engine.ruleset import Entrant

    started = Race.start("flamme_rouge", [Entrant(id="u1", name="Anna"), Entrant(id="u2", name="Ben")], 5)
    asked = started.awaited()[0]
    view = started.ruleset.private_view(started.state, asked.entrant)
    shown = PanelView(1, 1, asked.entrant, asked.model_dump(mode="json"), view, None)
    content, _view = rendered(shown, title="Race", locale="en", deadline=None)
    colour = next(r["team"] for r in view["riders"] if r["owner"] == asked.entrant)
    assert content.splitlines()[1].startswith(f"You ride **{colour}**: your tokens are "), content
