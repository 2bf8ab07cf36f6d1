"""Decisions and views a panel renders without knowing the system: group labels, whole hands, progress."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from engine.flamme_rouge import cards as C
from engine.flamme_rouge.decisions import hand_info
from engine.messages import OrderError
from engine.registry import available_rulesets, get_ruleset
from engine.ruleset import PROGRESS_KEY, Entrant, Order, set_path
from tests.engine.random_orders import play_randomly, random_order
from tests.logged import LoggedRace

RULESETS = [r.id for r in available_rulesets()]


def race_of(ruleset_id: str, seed: int, options: dict[str, Any] | None = None) -> LoggedRace:
    ruleset = get_ruleset(ruleset_id)
    low, high = ruleset.player_limits(None, options or {})
    humans = [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, max(low, min(2, high)) + 1)]
    return LoggedRace.start(ruleset_id, ruleset.default_entrants(humans, options or {}), seed, options=options)


def test_a_hand_is_shown_with_every_card() -> None:
    """A hand 6, 7, 7, 7 reads all four cards; 2, X, 5, 9 reads the exhaustion card beside the energy 2."""
    assert hand_info("r", [7, 6, 7, 7]).text == "Rouleur's hand: 6, 7, 7, 7"
    cards = hand_info("s", [5, C.EXHAUSTION, 9, 2]).params["cards"]
    assert [str(c) for c in cards] == ["2 (exhaustion)", "2", "5", "9"]
    assert getattr(cards[0], "key", None) == "fr.label.exhaustion_card"  # the words are a message of their own


def test_every_flamme_rouge_card_decision_shows_the_whole_hand() -> None:
    """Each card choice comes with the rider's four cards; the buttons offer each distinct value once (D26)."""
    race = race_of("flamme_rouge", 8)
    rnd = random.Random(8)
    seen = 0
    for _ in range(400):
        awaited = race.awaited()
        if not awaited:
            break
        first = {d.entrant: {"first": "r"} for d in awaited if d.kind == "energy"}
        for d in awaited + race.awaited(first):
            for f in d.fields:
                if f.path[:1] == ["cards"]:
                    hands = [m for m in d.info if m.key == "fr.info.hand"]
                    assert len(hands) == 1
                    cards = hands[0].params["cards"]
                    assert len(cards) == 4
                    shown = {int(str(c).split()[0]) for c in cards if str(c).split()[0].isdigit()}
                    assert {ch.value for ch in f.choices} <= shown
                    assert f.group is not None and f.group.text == f.label.text
                    seen += 1
        race.play_step({d.entrant: random_order(race, d, rnd) for d in awaited if not race.entrants[d.entrant].is_bot})
    assert seen > 0


def test_mind_cycling_fields_name_the_cyclist_they_concern() -> None:
    """Orders mode: every field about one cyclist carries that cyclist as its group, by number."""
    race = race_of("mind_cycling", 3)
    rnd = random.Random(3)
    grouped = 0
    for _ in range(200):
        awaited = race.awaited()
        if not awaited:
            break
        for d in awaited:
            for f in d.fields:
                if f.path[:1] in (["intents"], ["passes"]):
                    assert f.group is not None and f.group.params["n"] == int(f.path[1])
                    grouped += 1
        race.play_step({d.entrant: random_order(race, d, rnd) for d in awaited if not race.entrants[d.entrant].is_bot})
    assert grouped > 0


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_public_view_carries_the_common_progress_marker(ruleset_id: str) -> None:
    """At every step the view says where the race is, never going back, and whose turn it is when one is awaited."""
    race = race_of(ruleset_id, 5)
    rnd = random.Random(5)
    last = (0, 0)
    for _ in range(600):
        marker = race.ruleset.public_view(race.state)[PROGRESS_KEY]
        assert set(marker) == {"unit", "number", "of", "turn", "label", "lap"}
        assert marker["unit"] in ("round", "stage") and marker["number"] >= 1
        assert marker["of"] is None or marker["number"] <= marker["of"]
        here = (marker["number"], 0)
        assert here >= last
        last = here
        awaited = race.ruleset.awaited_ids(race.state)
        if marker["turn"] is not None:
            assert awaited == [marker["turn"]]
        if not awaited and race.ruleset.finished(race.state):
            break
        play_randomly(race, rnd, max_steps=1)


def test_wyscig_laps_give_every_seat_one_turn_each() -> None:
    """Turn by turn, a lap is each seat at most once in seat order; its number steps on, or restarts with a stage."""
    race = race_of("wyscig", 4)
    rnd = random.Random(4)
    seats = race.ruleset.public_view(race.state)["seats"]
    laps: dict[tuple[int, int], list[str]] = {}
    for _ in range(600):
        marker = race.ruleset.public_view(race.state)[PROGRESS_KEY]
        if marker["turn"] is None:
            break
        laps.setdefault((marker["number"], marker["lap"]), []).append(marker["turn"])
        play_randomly(race, rnd, max_steps=1)
    assert len(laps) >= 3
    keys = sorted(laps)
    assert keys[0] == (1, 1)
    for (number, lap), (after_number, after_lap) in itertools.pairwise(keys):
        assert (after_number, after_lap) in ((number, lap + 1), (number + 1, 1))
    for turns in laps.values():
        start = seats.index(turns[0])
        rotation = seats[start:] + seats[:start]
        assert len(set(turns)) == len(turns), "nobody plays twice in a lap"
        assert turns == [s for s in rotation if s in turns], "a lap goes round in seat order"
    complete = [turns for turns in laps.values() if sorted(turns) == sorted(seats)]
    assert len(complete) >= len(laps) // 2, "most laps are every seat once (a skip or a stage's end cuts one short)"


@pytest.mark.parametrize("ruleset_id", [r for r in RULESETS if r != "wyscig"])
def test_simultaneous_systems_have_no_laps(ruleset_id: str) -> None:
    """Systems where everyone orders at once say lap null, so a front end keeps one post per step."""
    race = race_of(ruleset_id, 2)
    assert race.ruleset.public_view(race.state)[PROGRESS_KEY]["lap"] is None


def incomplete_message(race: LoggedRace, who: str, order: Order) -> str:
    """The message a step refuses ``order`` with (it must be refused as incomplete)."""
    others = {d.entrant: race.absent_order(d.entrant) for d in race.awaited() if d.entrant != who}
    with pytest.raises(OrderError) as refused:
        race.play_step({**others, who: order})
    assert refused.value.message.key == "order.incomplete"
    return refused.value.message.text


def test_a_tabella_plan_missing_only_m5_is_told_m5() -> None:
    """A whole plan but its fifth move: the refusal names move 5 alone."""
    race = race_of("tabella", 2)
    plan = race.ruleset.auto_order(race.state, "p1")
    del plan["m5"]
    text = incomplete_message(race, "p1", plan)
    assert "move 5" in text and not any(f"move {n}" in text for n in range(1, 5)) and "sprint 1" not in text


def test_a_mind_cycling_order_names_the_cyclist_without_an_intent() -> None:
    """Every cyclist but one has an intent: the refusal names that one cyclist and no other."""
    race = race_of("mind_cycling", 2)
    while not any(d.kind == "intents" for d in race.awaited()):
        race.play_step({d.entrant: race.absent_order(d.entrant) for d in race.awaited()})
    order = race.ruleset.auto_order(race.state, "p1")
    dropped = sorted(order["intents"])[1]
    del order["intents"][dropped]
    text = incomplete_message(race, "p1", order)
    cyclists = {
        c["number"]: c["role"] for c in race.ruleset.public_view(race.state)["cyclists"] if c["entrant"] == "p1"
    }
    assert f"#{dropped}" in text
    assert not any(f"#{n}" in text for n in cyclists if str(n) != dropped)


def test_tabella_specials_are_offered_as_fields() -> None:
    """A plan given by fields alone adds a Gomitata (move, target, push) and a Vigorilla, as the rules check."""
    race = race_of("tabella", 4, None)
    partial: Order = {}
    wanted = ["G", "V"]
    asked: list[list[str]] = []
    for _ in range(60):
        d = next(d for d in race.awaited({"p1": partial}) if d.entrant == "p1")
        fields = [f for f in d.fields if f.kind != "text" and f.path != ["bibitone"]]
        if not fields or (d.complete and fields[0].path == ["special", "code"] and not wanted):
            break
        f = fields[0]
        if f.path == ["special", "code"]:
            assert wanted[0] in [c.value for c in f.choices]
            value: Any = wanted.pop(0)
        elif f.kind == "choice":
            value = f.choices[0].value
        else:
            value = (f.minimum or 0) + 1
        if f.path[0] == "special":
            asked.append(f.path)
            assert f.path == ["special", "code"] or f.group is not None
        partial = race.ruleset.validate(race.state, "p1", set_path(partial, f.path, value), partial).order
    assert asked == [
        ["special", "code"],
        ["special", "round"],
        ["special", "target"],
        ["special", "dir"],
        ["special", "code"],
        ["special", "round"],
    ]
    codes = {e["code"]: e for e in partial["specials"]}
    assert set(codes) == {"G", "V"} and "special" not in partial
    assert codes["G"]["round"] == "start" and codes["G"]["target"] in ("p2", "p3") and codes["G"]["dir"] == "up"
    # Neither is offered again once in the plan.
    d = next(d for d in race.awaited({"p1": partial}) if d.entrant == "p1")
    offered = next(f for f in d.fields if f.path == ["special", "code"])
    assert not {"G", "V"} & {c.value for c in offered.choices}
