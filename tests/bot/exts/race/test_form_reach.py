"""Every field of every decision the engine offers is reachable on the panel (issue 23), for the four rule
systems and their modes: walked part by part as a player builds an order, each screen rendered."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.exts.race import _form, _panel
from bot.services.outcomes import PanelView
from bot.services.stepping import asked_fields
from engine.messages import OrderError
from engine.registry import get_ruleset
from engine.ruleset import Entrant, Order, set_path
from tests.bot.exts.race.rendered import rendered
from tests.logged import LoggedRace

SYSTEMS = [
    ("flamme_rouge", {}),
    ("tabella", {}),
    ("tabella", {"mode": "live"}),
    ("wyscig", {}),
    ("mind_cycling", {}),
    ("mind_cycling", {"mode": "live"}),
]


def _race(ruleset_id: str, options: dict[str, Any], seed: int) -> LoggedRace:
    ruleset = get_ruleset(ruleset_id)
    humans = [Entrant(id=f"p{i}", name=f"Player {i}") for i in (1, 2)]
    return LoggedRace.start(ruleset_id, ruleset.default_entrants(humans, options), seed, options=options)


def _screens(panel: PanelView) -> list[dict[str, Any]]:
    """Every component of the panel's screens: the one shown, and each page of a review's optional parts."""
    found: list[dict[str, Any]] = []
    for number in range(8):
        _text, view = rendered(panel, title="Race", locale="en", deadline=None, page=(-1, number))
        assert len(view.to_components()) <= 5, "at most five rows"
        found += [c for row in view.to_components() for c in row["components"]]
    return found


def _digests(components: list[dict[str, Any]]) -> set[str]:
    return {c["custom_id"].split(":")[6] for c in components if c["custom_id"].startswith(("gr:b:", "gr:s:"))}


def _check_reachable(race: LoggedRace, who: str, partial: Order) -> list[dict[str, Any]]:
    """Render the panel for ``partial``; every non-text field is on it, with its whole legal range."""
    decision = next(d for d in race.awaited({who: partial} if partial else None) if d.entrant == who)
    data = {**decision.model_dump(mode="json"), "asked": asked_fields(race, who, partial)}
    panel = PanelView(1, 2, who, data, {}, partial or None)
    shown = _digests(_screens(panel))
    fields = [f for f in data["fields"] if f["kind"] != "text"]
    for field in fields:
        assert _form.field_digest(field) in shown, f"{field['label']['text']} is not on the panel"
        pick = _panel.pick_of(field, "en")
        if field["kind"] == "number" and field.get("maximum") is not None:
            low = field.get("minimum") or 0
            assert [v for v, _ in pick.options] == list(range(low, field["maximum"] + 1)), "the whole range"
        if field["kind"] == "choice":
            assert [v for v, _ in pick.options] == [c["value"] for c in field["choices"]]
    for index, part in enumerate(_form.parts(data)):
        if _panel.part_pick(part, "en").options:
            _text, view = rendered(panel, title="Race", locale="en", deadline=None, mode=f"e{index}")
            edit = [c for row in view.to_components() for c in row["components"]]
            assert _form.part_digest(part) in _digests(edit), "a part asked again shows its choices"
    return fields


@pytest.mark.parametrize(("ruleset_id", "options"), SYSTEMS)
def test_every_field_of_the_first_decisions_is_on_the_panel(ruleset_id: str, options: dict[str, Any]) -> None:
    """Part by part, required parts then some optional ones, every field is a button or a select, every
    number its whole range, and every part of the order so far can be asked again from the review."""
    rnd = random.Random(2)
    race = _race(ruleset_id, options, 2)
    optional = 0
    for _ in range(25):
        awaited = race.awaited()
        if not awaited:
            break
        orders: dict[str, Order] = {}
        for decision in awaited:
            who = decision.entrant
            if race.entrants[who].is_bot:
                continue
            partial: Order = {}
            for _part in range(40):
                fields = _check_reachable(race, who, partial)
                now = next(d for d in race.awaited({who: partial} if partial else None) if d.entrant == who)
                usable = [f for f in fields if _panel.pick_of(f, "en").options]
                if not now.complete:
                    if not usable:
                        break
                    value = rnd.choice(_panel.pick_of(usable[0], "en").options)[0]
                    merged = set_path(partial, usable[0]["path"], value)
                    partial = race.ruleset.validate(race.state, who, merged, partial).order
                    continue
                # The review: add an optional part, or change a part already given (as the review's select).
                named = {**now.model_dump(mode="json"), "asked": asked_fields(race, who, partial)}
                parts = [p for p in _form.parts(named) if _panel.part_pick(p, "en").options]
                if rnd.random() < 0.3 or not (usable or parts):
                    break
                if usable and (not parts or rnd.random() < 0.5):
                    field = rnd.choice(usable)
                    value = rnd.choice(_panel.pick_of(field, "en").options)[0]
                    merged = set_path(partial, field["path"], value)
                else:
                    field = rnd.choice(parts)
                    value = rnd.choice(_panel.part_pick(field, "en").options)[0]
                    merged = _form.with_part(partial, field["path"], value)
                optional += 0 if field.get("required", True) else 1
                try:
                    partial = race.ruleset.validate(race.state, who, merged, None).order
                except OrderError:  # a change the later parts no longer fit: the panel asks them again
                    continue
            orders[who] = partial if now.complete else race.absent_order(who, partial or None)
        race.play_step(orders)
    assert optional or ruleset_id == "flamme_rouge", "some optional part was offered and picked"
