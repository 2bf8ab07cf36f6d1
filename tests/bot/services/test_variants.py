"""Reading what a member types: options split and checked against the rule system, JSON bounded before parsing."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.services import bounds, variants
from bot.services.outcomes import Refusal
from engine.registry import RULESET_IDS, get_ruleset


def test_brackets_inside_strings_do_not_count_towards_the_depth() -> None:
    """Quotes, escaped quotes and brackets inside strings are text, not nesting."""
    assert bounds.depth('{"a": [1, [2]]}') == 3
    assert bounds.depth('{"a": "[[[[[[", "b": "\\"[[[["}') == 1
    assert bounds.depth("plain") == 0


def test_json_nested_past_the_limit_is_refused_before_it_is_parsed() -> None:
    """5,000 brackets inside each other would make json.loads recurse; the depth is refused first, in one line."""
    with pytest.raises(Refusal) as refused:
        bounds.loads("[" * 5000 + "]" * 5000)
    assert refused.value.key == "input.too_deep" and "\n" not in refused.value.message.text
    assert bounds.loads(b'{"stages": [1, [2]]}') == {"stages": [1, [2]]}


def test_options_are_split_outside_brackets_and_quotes() -> None:
    """A JSON list keeps its commas; spaces and commas separate the pairs."""
    typed = 'meteo=["wet", "clear"], grid=random  bots=["peloton","muscle"] name="a, b"'
    assert variants.parse_pairs(typed) == {
        "meteo": ["wet", "clear"],
        "grid": "random",
        "bots": ["peloton", "muscle"],
        "name": "a, b",
    }


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_option_and_stage_field_says_what_it_takes(ruleset_id: str) -> None:
    """No field of any rule system's options or stage falls back to "a value": each names its choices,
    range, kind or list."""
    rules = get_ruleset(ruleset_id)
    for model in (rules.options_model, rules.stage_model):
        schema = model.model_json_schema()
        for name, prop in schema.get("properties", {}).items():
            said = t(variants.accepted(prop, schema.get("$defs", {})), "en")
            assert said and said != t("accepts.value", "en"), f"{ruleset_id} {name}: {said}"


def test_a_rule_across_options_is_refused_with_the_rule_systems_reason() -> None:
    """Two Peloton bot teams: the options model's own rule, in one line."""
    with pytest.raises(Refusal) as refused:
        variants.check_options("flamme_rouge", {"bots": ["peloton", "peloton"]})
    assert refused.value.key == "race.option_clash" and "at most one Peloton" in refused.value.message.text
