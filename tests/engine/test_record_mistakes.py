"""A hand-written record that is wrong says what is wrong: whose turn it was, where a field belongs, which
stage field is refused, and an unknown table in one line."""

from __future__ import annotations

from typing import Any

import pytest

from engine.race import replay
from engine.record import RecordError, parse_record


def _refusal(**parts: Any) -> str:
    record = {
        "format": "gregario.race/1",
        "seed": 1,
        "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bob", "name": "Bob"}],
        **parts,
    }
    with pytest.raises(RecordError) as caught:
        replay(parse_record(record))
    return str(caught.value)


def test_an_order_out_of_turn_names_whose_turn_it_was() -> None:
    """Anna leads the first turn of Wyścig; Bob's card in step 1 is out of turn."""
    text = _refusal(ruleset="wyscig", setup={"seats": ["anna", "bob"], "leader": "anna"}, steps=[{"bob": "play 40"}])
    assert text == "step 1: bob played out of turn; anna is to play"


def test_a_missing_order_without_an_extra_one_is_still_no_order() -> None:
    """Both Flamme Rouge players are awaited in step 1 and Bob sent nothing: that stays "no order from"."""
    riders = {
        "black-r": {"square": 10, "deck": [5, 3, 4, 6, 7]},
        "black-s": {"square": 8, "deck": [3, 2, 2, 4, 5]},
        "blue-r": {"square": 7},
        "blue-s": {"square": 9},
    }
    text = _refusal(
        ruleset="flamme_rouge", stage={"profile": "S5 _16 F5"}, setup={"riders": riders}, steps=[{"anna": "r5 s3"}]
    )
    assert text.startswith("step 1, bob: no order from bob")


@pytest.mark.parametrize(
    ("ruleset", "options", "expected"),
    [
        ("wyscig", {"stages": 2}, "options.stages: stages belongs in stage, not in options"),
        ("wyscig", {"deck": "classic_96"}, "options.deck: deck belongs in stage, not in options"),
        ("tabella", {"table": "classic"}, "options.table: table belongs in stage, not in options"),
    ],
)
def test_a_field_in_the_wrong_object_says_where_it_belongs(
    ruleset: str, options: dict[str, Any], expected: str
) -> None:
    """The rules call these options; the record wants them in ``stage``, and says so."""
    assert _refusal(ruleset=ruleset, options=options) == expected


def test_a_stage_field_in_options_is_sent_back_to_stage_the_other_way_too() -> None:
    """Tabella's ``mode`` given in the stage belongs in options."""
    assert _refusal(ruleset="tabella", stage={"mode": "live"}) == "stage.mode: mode belongs in options, not in stage"


def test_an_unknown_tabella_table_is_one_line() -> None:
    """``table: nosuch`` is refused in one line naming the choices."""
    text = _refusal(ruleset="tabella", stage={"table": "nosuch"})
    assert "\n" not in text
    assert text.startswith("stage.table: unknown table 'nosuch'; choose 'classic' or 'random'")


def test_tabella_rows_that_are_not_a_number_are_one_line() -> None:
    """``rows: "x"`` is neither a row number nor ``random``: one line."""
    assert (
        _refusal(ruleset="tabella", stage={"rows": "x"}) == "stage.rows: rows must be a row number or 'random', not 'x'"
    )


@pytest.mark.parametrize(
    ("ruleset", "stage", "head"),
    [
        ("mind_cycling", {"course": ["plains"], "rocks": [[99, 9]]}, "stage.rocks: "),
        ("tabella", {"rows": 3, "table": [[1, 2]]}, "stage.table: the table must have 10 rows"),
        ("flamme_rouge", {"profile": "S5 Q3 F5"}, "stage.profile: "),
    ],
)
def test_stage_refusals_name_their_field(ruleset: str, stage: dict[str, Any], head: str) -> None:
    """A rock off the course, a one-row table, a bad terrain run: each refusal starts with its field."""
    assert _refusal(ruleset=ruleset, stage=stage).startswith(head)
