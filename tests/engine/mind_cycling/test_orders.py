"""Orders mode (§9.2): intents, their fallbacks (D23), the automatic action (D24), the text syntax (§9.5)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.messages import OrderError
from engine.mind_cycling import RULESET
from engine.ruleset import Entrant, set_path

from .scenario import OPEN_COURSE, of_kind, play, race, spot


@pytest.mark.rules("D3", "9.1")
def test_in_orders_mode_every_player_gives_all_its_intents_at_once() -> None:
    """One decision per player with cyclists on the road, all awaited together."""
    r = race([("a", 1, 5, 1), ("b", 1, 5, 2)])
    decisions = r.awaited()
    assert [d.entrant for d in decisions] == ["a", "b"]
    assert all(d.kind == "intents" for d in decisions)
    first = decisions[0].fields[0]
    assert first.path == ["intents", "1", "action"]
    assert [c.value for c in first.choices] == ["move"]


@pytest.mark.rules("D3", "9.1")
def test_the_mode_option_defaults_to_orders() -> None:
    """Option mode: default orders."""
    state = RULESET.new_race(None, {}, [Entrant(id="a", name="A"), Entrant(id="b", name="B")], seed=1)
    assert state.options["mode"] == "orders"


@pytest.mark.rules("9.2", "D23")
def test_the_decision_walks_action_then_steps_lane_and_bottle_for_each_cyclist() -> None:
    """Fields: each cyclist's action first; then every cyclist's steps (0..maximum), lane and bottle pass, all
    optional."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black"), ("a", 2, 5, 4)])
    state = r.state
    decision = RULESET.awaited(state)[0]
    assert decision.fields[0].path == ["intents", "1", "action"]
    assert [c.value for c in decision.fields[0].choices] == ["move", "wheel", "relay"]
    partial: dict[str, Any] = {}
    for n, action in (("1", "wheel"), ("2", "move"), ("3", "attack")):
        partial = RULESET.validate(state, "a", set_path(partial, ["intents", n, "action"], action)).order
    decision = RULESET.awaited(state, {"a": partial})[0]
    assert decision.complete
    # Every cyclist's optional parts at once, each grouped by its cyclist (a panel pages through them).
    assert [f.path for f in decision.fields[:-1]] == [
        ["intents", "1", "lane"],
        ["intents", "2", "distance"],
        ["intents", "2", "lane"],
        ["intents", "3", "distance"],
        ["intents", "3", "lane"],
        ["intents", "3", "pass_to"],
    ]
    assert [f.group.params["n"] for f in decision.fields[:-1] if f.group] == [1, 2, 2, 3, 3, 3]
    partial = RULESET.validate(state, "a", set_path(partial, ["intents", "1", "lane"], 2)).order
    fields = RULESET.awaited(state, {"a": partial})[0].fields
    assert fields[0].path == ["intents", "2", "distance"] and fields[0].maximum == 4
    partial = RULESET.validate(state, "a", set_path(partial, ["intents", "2", "distance"], 4)).order
    partial = RULESET.validate(state, "a", set_path(partial, ["intents", "2", "lane"], 4)).order
    fields = RULESET.awaited(state, {"a": partial})[0].fields
    assert [f.path for f in fields[:-1]] == [
        ["intents", "3", "distance"],
        ["intents", "3", "lane"],
        ["intents", "3", "pass_to"],
    ]
    assert fields[0].maximum == 9  # 7 - 1 wind + 3 attack
    assert fields[-1].kind == "text" and fields[-1].path == []


@pytest.mark.rules("D23", "R-MC-2")
def test_a_move_above_the_maximum_is_cut_to_the_maximum_and_reported() -> None:
    """Asking 9 steps of a lone climber on the plains gives its 4, with a report."""
    r = race([("a", 2, 5, 1)])
    events = play(r, {"a": "#2 move 9"})
    assert spot(r, "a#2") == (9, 1)
    assert of_kind(events, "mc.reduced")[0].data == {"who": "A #2", "cyclist": "a#2", "wanted": 9, "top": 4}


@pytest.mark.rules("D23")
def test_a_blocked_path_step_hands_the_rest_to_lane_seeking_towards_where_the_path_would_have_ended() -> None:
    """Path F,F,F,FR,F from (5,2) meets b#1 on (7,2): the 3 steps left seek lane 3 -> FR, F, F."""
    r = race([("a", 3, 5, 2), ("b", 1, 7, 2)])
    events = play(r, {"a": "#3 move path=F,F,F,FR,F", "b": "#1 move 0"})
    assert of_kind(events, "mc.path_blocked")[0].data["n"] == 2
    assert spot(r, "a#3") == (10, 3)


@pytest.mark.rules("D23")
@pytest.mark.parametrize(
    ("lane", "blockers", "expected"),
    [
        (3, [], (9, 3)),  # in lane 3: F each time
        (3, [(6, 3)], (9, 3)),  # F blocked -> FL to lane 2, then FR back, then F
        (5, [], (9, 5)),  # left of lane 5: FR, FR, then F
        (1, [], (9, 1)),  # right of lane 1: FL, FL, then F
        (3, [(6, 3), (6, 2), (6, 4)], (5, 3)),  # nothing possible: the move ends at once
    ],
)
def test_lane_seeking_tries_forward_or_towards_the_lane_first_then_the_others(
    lane: int, blockers: list[tuple[int, int]], expected: tuple[int, int]
) -> None:
    """From (5,3), 4 steps seeking a lane, around b's riders."""
    spots: list[Any] = [("a", 3, 5, 3)] + [("b", i + 1, row, la) for i, (row, la) in enumerate(blockers)]
    r = race(spots)
    orders = {"a": f"#3 move 4 lane={lane}"}
    if blockers:
        orders["b"] = "\n".join(f"#{i + 1} move 0" for i in range(len(blockers)))
    play(r, orders)
    assert spot(r, "a#3") == expected


@pytest.mark.rules("D23", "6.3", "R-MC-2")
def test_an_attack_that_is_not_allowed_follows_its_path_cut_to_the_normal_maximum() -> None:
    """A sprinter on the plains asks an attack of 7 steps: it rides 4 (5 - 1 wind) along the path."""
    r = race([("a", 1, 5, 1)])
    play(r, {"a": "#1 attack path=F,FR,FR,F,F,F,F"})
    assert spot(r, "a#1") == (9, 3) and r.state.cyclists["a#1"].bottle


@pytest.mark.rules("D23")
def test_an_attack_above_maximum_plus_three_is_cut() -> None:
    """A domestique asking an attack of 10 while in the wind rides 6 + 3 = 9."""
    r = race([("a", 3, 5, 1)])
    events = play(r, {"a": "#3 attack 10"})
    assert spot(r, "a#3") == (14, 1) and of_kind(events, "mc.reduced")


@pytest.mark.rules("D24", "9.4")
def test_an_absent_players_cyclists_ride_their_maximum_in_their_lane_without_attack_pass_or_wheel() -> None:
    """Automatic intents: a move of the maximum each, no attack, no pass, no wheel, marked automatic."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black"), ("a", 2, 22, 4)])
    order = r.absent_order("a")
    assert order["auto"] is True
    assert order["intents"] == {"1": {"action": "move"}, "2": {"action": "move"}, "3": {"action": "move"}}
    r.play_step({"a": order, "b": r.absent_order("b")})
    assert spot(r, "a#3") == (18, 2)  # 7 - 1 wind
    assert spot(r, "a#1") == (16, 2)  # sheltered sprinter: 5 straight up its lane
    assert spot(r, "a#2") == (24, 4)  # climber in the sprint, in the wind: 3 - 1


@pytest.mark.rules("D24")
def test_the_automatic_order_keeps_what_the_player_already_chose() -> None:
    """A partial order keeps its intents; only the missing ones become automatic moves."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black"), ("a", 2, 22, 4)])
    partial = r.validate("a", {"intents": {"1": {"action": "wheel"}, "3": {"pass_to": 1}}})
    order = r.absent_order("a", partial)
    assert order["intents"]["1"] == {"action": "wheel"}
    assert order["intents"]["3"] == {"pass_to": 1, "action": "move"}


# --- text syntax -----------------------------------------------------------------------------------------
@pytest.mark.rules("9.5")
def test_the_text_syntax_reads_every_form_of_the_rules_example() -> None:
    """Moves with a number and path or lane, wheel, relay with a fallback lane, attack, bottle pass."""
    r = race([], players=("a", "b"), team_size=5, park=True)
    text = """#3 move 5 path=F,F,FL,F,F       (F forward, FL/FR diagonal)
#2 move 4 lane=1
#4 wheel
#5 relay lane=3                 (lane 3 if the relay falls back)
#1 attack path=F,F,F,F,F,F,F,F
#3 pass-bottle-to #1            (start-of-round action, together with #3's move line)"""
    checked = r.ruleset.validate(r.state, "a", text)
    assert checked.complete
    assert checked.order == {
        "intents": {
            "3": {"action": "move", "distance": 5, "path": ["F", "F", "FL", "F", "F"], "pass_to": 1},
            "2": {"action": "move", "distance": 4, "lane": 1},
            "4": {"action": "wheel"},
            "5": {"action": "relay", "lane": 3},
            "1": {"action": "attack", "path": ["F"] * 8, "distance": 8},
        }
    }
    assert r.ruleset.validate(r.state, "a", checked.order).order == checked.order


@pytest.mark.rules("9.5")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#7 move", "Line 1 ('#7 move'): your team has no cyclist #7 (it has #1 to #5)."),
        (
            "#1 move\n#2 jump",
            "Line 2 ('#2 jump'): 'jump' is not an action; use move, attack, wheel, relay or pass-bottle-to.",
        ),
        ("#1 move path=F,X", "Line 1 ('#1 move path=F,X'): step 'X' must be F, FL or FR."),
        ("#1 move\n#1 wheel", "Line 2 ('#1 wheel'): #1 already has an action on line 1."),
        ("#1 move 3 path=F,F", "#1: the distance 3 doesn't match the path of 2 steps."),
        ("#1 move path=F lane=2", "#1: give either a path or a lane, not both."),
        ("#1 pass-bottle-to #2", "#1: only domestiques pass their bottle."),
        ("#2 move path=FL,FL", "#2: step 2 (FL) of the path would leave the road (lanes 1-5)."),
        (
            "#3 move fast",
            "Line 1 ('#3 move fast'): I don't understand 'fast'; write a number of steps, path=F,FL,... or lane=2.",
        ),
        ("#3 wheel 4", "#3: a wheel takes no distance (it is a free ride)."),
        ("", "The order is empty"),
        ("move", "Line 1 ('move'): write a cyclist and an action, like '#3 move 5'."),
    ],
)
def test_a_bad_text_order_says_what_is_wrong_and_where(text: str, message: str) -> None:
    """Each mistake gets a specific message naming the line or the cyclist."""
    r = race([("a", 1, 5, 1), ("a", 2, 5, 2)], team_size=5)
    with pytest.raises(OrderError) as caught:
        r.ruleset.validate(r.state, "a", text)
    assert caught.value.message.text.startswith(message)


def test_text_lines_add_to_what_the_player_already_sent() -> None:
    """A second text order changes only the cyclists it names; ';' separates lines."""
    r = race([("a", 1, 5, 1), ("a", 2, 5, 2), ("a", 3, 5, 3)])
    first = r.validate("a", "#1 move 2; #2 move 3")
    merged = r.ruleset.validate(r.state, "a", "#2 wheel; #3 move", previous=first).order
    assert merged["intents"] == {
        "1": {"action": "move", "distance": 2},
        "2": {"action": "wheel"},
        "3": {"action": "move"},
    }


def test_an_order_for_a_cyclist_across_the_line_or_out_of_turn_is_refused() -> None:
    """Intents only for cyclists on the road, and only when the player is awaited."""
    r = race([("a", 3, 70, 2), ("a", 1, 5, 1)])
    play(r, {"a": "#3 move"})
    with pytest.raises(OrderError, match="#3 is not on the road any more"):
        r.validate("a", "#3 move")
    live = race([("a", 1, 9, 1), ("b", 1, 5, 1)], options={"mode": "live"})
    with pytest.raises(OrderError, match="It's not your turn: waiting for A"):
        live.validate("b", "move")


def test_every_offered_choice_is_legal_when_merged_into_the_partial() -> None:
    """Walk the first decision of a few set-ups: each choice validates, and filling fields ends."""
    for spots in ([("a", 3, 12, 2), ("a", 1, 11, 2, "black"), ("a", 2, 45, 4)], [("a", 1, 22, 1), ("a", 2, 21, 1)]):
        r = race(spots)
        partial: dict[str, Any] = {}
        for _ in range(30):
            decision = r.ruleset.awaited(r.state, {"a": partial})[0]
            picks = [f for f in decision.fields if f.kind != "text"]
            if not picks:
                break
            field = picks[0]
            values = [c.value for c in field.choices] if field.kind == "choice" else [field.minimum, field.maximum]
            for value in values:
                r.ruleset.validate(r.state, "a", set_path(partial, field.path, value), previous=partial)
            partial = r.ruleset.validate(r.state, "a", set_path(partial, field.path, values[-1])).order
        assert r.ruleset.awaited(r.state, {"a": partial})[0].complete


def test_an_open_course_stage_is_used_by_these_scenarios() -> None:
    """Sanity: scenario races run on the open course."""
    assert OPEN_COURSE["rocks"] == []


@pytest.mark.parametrize("junk", [99, 2.5, True, None, [], [["F"]], [{"intents": {}}]])
def test_an_order_that_is_neither_an_object_nor_text_is_refused_with_a_message(junk: Any) -> None:
    """A number, a list or null as the whole order: a friendly refusal in every phase, not a crash."""
    placing = RULESET.new_race(None, {}, [Entrant(id="a", name="A"), Entrant(id="b", name="B")], seed=1)
    first = placing.placement_order[0]
    for state, who in ((placing, first), (race([("a", 1, 5, 1)]).state, "a")):
        with pytest.raises(OrderError, match="An order is an object or a line of text"):
            RULESET.validate(state, who, junk)
    live = race([("a", 1, 5, 1)], options={"mode": "live"})
    with pytest.raises(OrderError, match="An order is an object or a line of text"):
        live.ruleset.validate(live.state, "a", junk)


@pytest.mark.rules("D12", "6.3", "9.2")
def test_a_climber_fed_by_this_orders_bottle_pass_is_offered_the_attack() -> None:
    """#2 climbs with a black base behind #3: once #3's order passes it the bottle, #2 may attack; a #2 one
    lane aside can't be passed to, so it is offered no attack (nor a wheel: nobody is directly in front)."""
    r = race([("a", 3, 45, 2), ("a", 2, 44, 2, "black"), ("a", 1, 30, 1)])
    aside = race([("a", 3, 45, 2), ("a", 2, 44, 3, "black"), ("a", 1, 30, 1)])

    def actions_of_2(intent_3: dict[str, Any], r: Any = r) -> list[str]:
        partial = r.validate("a", {"intents": {"1": {"action": "move"}, "3": intent_3}})
        (field,) = [f for f in r.ruleset.awaited(r.state, {"a": partial})[0].fields if f.path[-1:] == ["action"]]
        assert field.path == ["intents", "2", "action"]
        return [c.value for c in field.choices]

    assert actions_of_2({"action": "move"}) == ["move", "wheel", "relay"]
    assert actions_of_2({"action": "move", "pass_to": 2}) == ["move", "attack", "wheel", "relay"]
    assert actions_of_2({"action": "move", "pass_to": 2}, aside) == ["move"]
