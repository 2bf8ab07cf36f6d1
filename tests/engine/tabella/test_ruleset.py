"""The common interface: decisions and their fields, views, dump/load, purity of resolve (BRIEF contract)."""

from __future__ import annotations

import copy
import json

import pytest

from engine.registry import get_ruleset
from engine.ruleset import Decision, Entrant, set_path
from engine.tabella import RULESET
from tests.logged import LoggedRace

from .scenario import CLASSIC_1, scenario


def _race(mode: str = "plan") -> LoggedRace:
    entrants = [
        Entrant(id="anna", name="Anna"),
        Entrant(id="luca", name="Luca"),
        Entrant(id="bot", name="B", bot="aggressive"),
    ]
    return LoggedRace.start("tabella", entrants, seed=5, stage=CLASSIC_1, options={"mode": mode})


def _check_choices_are_legal(race: LoggedRace, decision: Decision) -> None:
    for field in decision.fields:
        for choice in field.choices:
            merged = set_path(decision.partial, field.path, choice.value)
            RULESET.validate(race.state, decision.entrant, merged, previous=decision.partial)


def _build_by_fields(race: LoggedRace, entrant: str) -> dict:  # type: ignore[type-arg]
    """Fill every step-by-step field with its first choice (or the minimum), as a generic front end would."""
    partial: dict = {}  # type: ignore[type-arg]
    for _ in range(40):
        decision = next(d for d in race.ruleset.awaited(race.state, {entrant: partial}) if d.entrant == entrant)
        _check_choices_are_legal(race, decision)
        if decision.complete:
            return partial
        steps = [f for f in decision.fields if f.path and f.required]
        assert steps, decision.prompt.text
        for field in steps:
            value = field.choices[0].value if field.kind == "choice" else field.minimum
            partial = RULESET.validate(race.state, entrant, set_path(partial, field.path, value), partial).order
    raise AssertionError("the fields never completed the order")


@pytest.mark.rules("D1", "8.1")
def test_a_plan_can_be_built_field_by_field_and_every_offered_choice_is_legal() -> None:
    """Start, then each move's effort and direction, then the three sprint numbers: a complete plan."""
    race = _race()
    plan = _build_by_fields(race, "anna")
    assert plan["start"] == "A" and plan["m5"] == {"effort": 1, "dir": "S"} and plan["s3"] == 0
    decision = next(d for d in race.awaited({"anna": plan}) if d.entrant == "anna")
    assert decision.complete and "A · 1S 1S 1S 1S 1S · 0 0 0" in decision.prompt.text
    assert decision.fields[0].path == [] and decision.fields[0].kind == "text"
    assert any(f.path == ["specials"] and f.kind == "text" for f in decision.fields)


@pytest.mark.rules("D1")
def test_live_mode_asks_each_round_with_its_own_fields() -> None:
    """The start round offers A/B/C; a route round offers effort and direction; a sprint round a number."""
    race = _race("live")
    first = race.awaited()[0]
    assert [f.path for f in first.fields][:2] == [[], ["start"]]
    race.play_step({"anna": "start: C", "luca": "start: B"})
    fields = race.awaited()[0].fields
    assert [f.path for f in fields] == [[], ["m1", "effort"], ["m1", "dir"]]
    _check_choices_are_legal(race, race.awaited()[0])
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "C"}}, round=6)
    sprint = race.awaited()[0].fields[1]
    assert (sprint.path, sprint.kind, sprint.minimum, sprint.maximum) == (["s1"], "number", 0, None)


def test_resolve_leaves_the_given_state_alone_and_dump_load_round_trips() -> None:
    """The state passed in is unchanged; load(dump(s)) dumps the same, RNG included."""
    race = _race()
    before = copy.deepcopy(RULESET.dump(race.state))
    orders = {d.entrant: race.bot_order(d.entrant) for d in race.awaited()}
    new, events = RULESET.resolve(race.state, {k: race.validate(k, v) for k, v in orders.items()})
    assert RULESET.dump(race.state) == before
    data = RULESET.dump(new)
    assert RULESET.dump(RULESET.load(json.loads(json.dumps(data)))) == data
    json.dumps([e.model_dump() for e in events])
    json.dumps(RULESET.public_view(new))
    json.dumps(RULESET.private_view(new, "anna"))


def test_the_public_view_keeps_secrets_until_they_show() -> None:
    """An undrunk Bibitone and an unpublished Gazzetta stay out of the public view."""
    race = scenario({"anna": {"row": "C", "bibitone": True}, "bob": {"row": "C"}}, round=8, setup_gazzetta=True)
    race.play_step({"anna": "s3: 0", "bob": "s3: 0"})
    view = RULESET.public_view(race.state)
    assert view["gazzetta"]["hit"] is None and view["riders"][0]["drank_bibitone"] is False
    assert "reinforced" not in json.dumps(view) and "True" not in str(view["riders"][0]["bottle"])
    assert RULESET.private_view(race.state, "anna")["you"]["bibitone"] is True


def test_the_registry_finds_the_ruleset_with_its_catalogue() -> None:
    """Id, strategies, presets, summary, guide and boards are all there."""
    ruleset = get_ruleset("tabella")
    assert ruleset is RULESET and ruleset.default_strategy == "cautious"
    assert set(ruleset.strategies) >= {"cautious", "aggressive"}
    assert {p.name for p in ruleset.presets()} >= {"classic", "random", "classic-1", "classic-8"}
    summary = ruleset.summary()
    assert summary.key == "td.summary" and "Resistenza" in summary.text and "Vigorilla" in (ruleset.guide() or "")


def test_a_stage_board_draws_the_three_rows_with_their_legend() -> None:
    """Rows 1-3 of the classic table: 15 climbs, 73 descends, 61 descends; the legend says how to read it."""
    board = RULESET.stage_board("classic-1", {})
    assert board.key == "td.board.course"
    assert board.params["board"].splitlines()[1:] == [
        "A   15^  73v  69^  01^  79^",
        "B   39^  28^  17^  49^  78^",
        "C   61v  07^  30v  54v  67^",
    ]
    assert board.text.splitlines()[-1] == "^ climb, v descent, = flat; a 0 makes a curvone, a 1 a strettoia"
    assert RULESET.stage_board("random", {}).key == "td.board.random_table"
    rows = RULESET.stage_board("classic", {})
    assert rows.key == "td.board.table" and rows.params["rows"].splitlines()[0] == " 1: 1 5 7 3 6 9 0 1 7 9"


def test_a_preset_is_found_by_its_name_as_listed_with_its_label() -> None:
    """The listing shows ``classic [default]``; that name finds the classic stage, a wrong label finds nothing."""
    listed = {p.name: p for p in RULESET.presets()}
    label = listed["classic"].label
    assert (
        label is not None and not isinstance(label, str) and (label.key, label.text) == ("td.preset.default", "default")
    )
    assert [name for name, p in listed.items() if p.label] == ["classic"]
    summary = listed["classic-3"].summary
    assert not isinstance(summary, str) and summary.key == "td.preset.classic_rows"
    assert summary.params == {"first": 3, "last": 5} and summary.text == "The rules' own table, rows 3-5"
    assert RULESET.stage_data("classic [default]") == RULESET.stage_data("classic")
    with pytest.raises(ValueError, match="unknown Tabella stage"):
        RULESET.stage_data("classic [origin unverified]")


def test_an_order_from_a_rider_who_is_not_awaited_is_refused_kindly() -> None:
    """After the race nobody is asked; a stray order says so."""
    race = scenario({"anna": {"row": "C"}, "bob": {"row": "C"}}, round=8)
    race.play_step({"anna": "s3: 0", "bob": "s3: 0"})
    with pytest.raises(Exception, match="No order is needed from you now"):
        RULESET.validate(race.state, "anna", "s3: 1")


def test_a_bad_record_names_the_offending_field() -> None:
    """Unknown option, bad setup value, unknown bot strategy."""
    with pytest.raises(ValueError, match="speed"):
        RULESET.new_race(None, {"speed": 3}, [Entrant(id="a", name="A"), Entrant(id="b", name="B")], 1)
    with pytest.raises(ValueError, match="row"):
        RULESET.new_race(
            None,
            {},
            [Entrant(id="a", name="A"), Entrant(id="b", name="B")],
            1,
            {"round": 2, "riders": {"a": {}, "b": {}}},
        )
    with pytest.raises(ValueError, match=r"entrants\.1\.bot: unknown bot"):
        RULESET.new_race(None, {}, [Entrant(id="a", name="A"), Entrant(id="b", name="B", bot="genius")], 1)


def test_a_plan_sent_as_text_shows_as_complete_in_the_decision() -> None:
    """The panel echoes a text plan back in the forum syntax and marks it complete."""
    race = _race()
    text = "A · 3R 2S 1D 5R 4R · 4 1 2 · V@m3 bibitone, G@m2 @Luca down"
    decision = next(d for d in race.awaited({"anna": {"text": text}}) if d.entrant == "anna")
    assert decision.complete and decision.partial["m4"] == {"effort": 5, "dir": "R"}
    assert "A · 3R 2S 1D 5R 4R · 4 1 2 · G@m2 @Luca down, V@m3 bibitone" in decision.prompt.text


def test_a_complete_live_order_is_echoed_in_the_forum_syntax() -> None:
    """``m2: 3R ; G @Luca down ; X`` comes back as written, ready to be changed."""
    race = scenario({"anna": {"row": "B"}, "luca": {"row": "B"}}, round=2)
    decision = race.awaited({"anna": {"text": "m2: 3r ; X ; G @luca giù"}})[0]
    assert decision.complete
    assert decision.prompt.text.startswith("Your order: m2: 3R ; G @Luca down ; X.")
