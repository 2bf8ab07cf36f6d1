"""A race's options and typed stage, read and checked against the rule system's own models before a
lobby is opened, so a mistake is refused in one line that names it and says what is accepted.

The options are typed ``name=value`` pairs (``grid=random lanes=4``); the stage may be typed as a JSON
object (``{"stages": 1}``). Both are checked with the rule system's pydantic models (``options_model``,
``stage_model``): the first problem is worded from the pydantic error's type and the field's JSON schema
(its choices, its range), never from pydantic's own sentence, so it reads in the player's language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.services import bounds
from bot.services.outcomes import Refusal
from engine.messages import Message, phrases
from engine.registry import get_ruleset

SHOWN = 40
"""How much of a value a refusal repeats."""
KEYS = {
    "option": ("race.option_unknown", "race.option_bad", "race.option_clash"),
    "stage": ("race.stage_unknown", "race.stage_bad", "race.stage_clash"),
}
"""The refusals of each part: an unknown name, a value the field does not take, a rule across fields."""


def shown(value: Any) -> str:
    """A value as the member typed it, cut short: what a refusal repeats back."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def parse_pairs(typed: str | None) -> dict[str, Any]:
    """``name=value`` pairs separated by spaces or commas, values read as JSON where they parse; refused
    in one line: a text or pair too long, a pair without ``=``, a name given twice, JSON nested too deep."""
    text = bounds.check_length(typed or "", bounds.TEXT_LIMIT, bounds.phrase("input.what.options"))
    found: dict[str, Any] = {}
    for pair in split_pairs(text):
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise Refusal.of("race.bad_option", pair=shown(pair))
        bounds.check_length(pair, bounds.VALUE_LIMIT, bounds.phrase("input.what.option", name=shown(key)))
        if key in found:
            raise Refusal.of("race.option_twice", name=key, first=shown(found[key]), second=shown(raw))
        try:
            found[key] = bounds.loads(raw)
        except json.JSONDecodeError:
            found[key] = raw
    return found


def split_pairs(text: str) -> list[str]:
    """``text`` cut at spaces and commas outside brackets and quotes, so a value may be a JSON list
    (``meteo=["wet", "clear"] grid=random``)."""
    pairs: list[str] = []
    current: list[str] = []
    level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
        elif char in "]}":
            level = max(level - 1, 0)
        elif level == 0 and (char == "," or char.isspace()):
            if current:
                pairs.append("".join(current))
            current = []
            continue
        current.append(char)
    if current:
        pairs.append("".join(current))
    return pairs


def parse_stage(typed: str) -> dict[str, Any]:
    """A stage typed as a JSON object (as ``gregario play --stage`` takes it), bounded in length and depth."""
    bounds.check_length(typed, bounds.TEXT_LIMIT, bounds.phrase("input.what.stage"))
    try:
        value = bounds.loads(typed)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise Refusal.of("race.bad_stage", stage=shown(typed))
    return value


def accepted(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> Message:
    """What a field takes, from its JSON schema: its choices, its range, a list of something, yes/no."""
    if "$ref" in prop:
        return accepted(defs.get(str(prop["$ref"]).split("/")[-1], {}), defs)
    if "enum" in prop or "const" in prop:
        values = prop.get("enum", [prop.get("const")])
        if len(values) == 1:
            return bounds.phrase("accepts.exactly", value=shown(values[0]))
        return bounds.phrase("accepts.one_of", values=", ".join(shown(v) for v in values))
    options = [o for o in prop.get("anyOf") or prop.get("oneOf") or [] if o.get("type") != "null"]
    if len(options) == 1:
        return accepted(options[0], defs)
    if options:
        return _either([accepted(o, defs) for o in options])
    kind = prop.get("type")
    low = prop.get("minimum", prop.get("exclusiveMinimum"))
    high = prop.get("maximum", prop.get("exclusiveMaximum"))
    if kind in ("integer", "number"):
        whole = kind == "integer"
        if low is not None and high is not None:
            return bounds.phrase("accepts.range" if whole else "accepts.number_range", low=low, high=high)
        if low is not None:
            return bounds.phrase("accepts.at_least" if whole else "accepts.number_at_least", low=low)
        return bounds.phrase("accepts.whole" if whole else "accepts.number")
    if kind == "boolean":
        return bounds.phrase("accepts.yes_no")
    if kind == "array" and "prefixItems" in prop:  # a fixed group, such as a space's (row, lane)
        parts = phrases([accepted(item, defs) for item in prop["prefixItems"]])
        return bounds.phrase("accepts.group", parts=parts)
    if kind == "array":
        items = prop.get("items", {})
        items = defs.get(str(items["$ref"]).split("/")[-1], {}) if "$ref" in items else items
        if "enum" in items:
            return bounds.phrase("accepts.list_of", values=", ".join(shown(v) for v in items["enum"]))
        return bounds.phrase("accepts.list", item=accepted(items, defs))
    if kind == "string":
        return bounds.phrase("accepts.text")
    return bounds.phrase("accepts.value")


def _either(choices: list[Message]) -> Message:
    """Alternatives read as one phrase: ``a, or b`` (``a, or b, or c``)."""
    found = choices[-1]
    for choice in reversed(choices[:-1]):
        found = bounds.phrase("accepts.either", first=choice, second=found)
    return found


def problem(exc: ValidationError, model: type[BaseModel], ruleset: str, part: str) -> Refusal:
    """The first problem of ``exc`` in one line: an unknown name (with the known ones), a value the field
    does not take (with what it takes), or options that do not go together (the rule system's reason).
    ``part`` is ``option`` or ``stage``."""
    schema = model.model_json_schema()
    props, defs = schema.get("properties", {}), schema.get("$defs", {})
    unknown, bad, clash = KEYS[part]
    error = exc.errors()[0]
    loc = [str(p) for p in error["loc"]]
    name = loc[0] if loc else ""
    if error["type"] == "extra_forbidden":
        return Refusal.of(unknown, ruleset=ruleset, name=shown(name), names=", ".join(props))
    if name not in props:  # a rule across fields (at most one Peloton): the model's own reason
        return Refusal.of(clash, reason=str(error["msg"]).removeprefix("Value error, "))
    return Refusal.of(bad, name=name, value=shown(error.get("input")), accepted=accepted(props[name], defs))


def check_options(ruleset_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` if the rule system's options model takes them; the first problem in one line otherwise."""
    rules = get_ruleset(ruleset_id)
    try:
        rules.options_model.model_validate(dict(options))
    except ValidationError as exc:
        raise problem(exc, rules.options_model, rules.name, "option") from None
    return dict(options)


def check_stage(ruleset_id: str, stage: Any) -> None:
    """A typed stage (a JSON object) checked by the rule system's stage model, then by the rule system
    itself (what only a built course reveals); the first problem in one line."""
    rules = get_ruleset(ruleset_id)
    if isinstance(stage, dict):
        try:
            rules.stage_model.model_validate(stage)
        except ValidationError as exc:
            raise problem(exc, rules.stage_model, rules.name, "stage") from None
    try:
        rules.stage_data(stage)
    except ValidationError as exc:
        raise problem(exc, rules.stage_model, rules.name, "stage") from None
    except ValueError as exc:
        raise Refusal.of("race.stage_refused", reason=_first_line(exc)) from None


def most_seats(ruleset_id: str, stage: Any, options: Mapping[str, Any]) -> int:
    """How many seats a race with this stage and these options may have; a refusal if the rules say the
    two do not go together (checked, like the rest, before a lobby exists)."""
    rules = get_ruleset(ruleset_id)
    try:
        return rules.player_limits(stage, options).maximum
    except ValidationError as exc:
        raise problem(exc, rules.options_model, rules.name, "option") from None
    except ValueError as exc:
        raise Refusal.of("race.stage_refused", reason=_first_line(exc)) from None


def _first_line(exc: Exception) -> str:
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return line if len(line) <= 200 else line[:199] + "…"
