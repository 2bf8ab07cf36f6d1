"""Every rule system honours the common interface the bot and the terminal rely on."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.record import parse_record
from engine.registry import RULESET_IDS, available_rulesets, get_ruleset
from engine.ruleset import Entrant, Ruleset
from tests.engine.random_orders import play_randomly
from tests.logged import LoggedRace, logged_replay

RULESETS = [r.id for r in available_rulesets()]


def humans(ruleset: Ruleset[Any], count: int | None = None) -> list[Entrant]:
    low, high = ruleset.player_limits(None, {})
    n = count or max(low, 2 if high >= 2 else 1)
    return [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, n + 1)]


def all_bots(ruleset: Ruleset[Any], count: int | None = None) -> list[Entrant]:
    return [e.model_copy(update={"bot": ruleset.default_strategy}) for e in humans(ruleset, count)]


def test_all_four_rule_systems_are_registered() -> None:
    """The registry offers Flamme Rouge, Tabella del Destino, Wyścig kolarski and Mind Cycling."""
    assert sorted(RULESETS) == sorted(RULESET_IDS)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_catalogue_describes_the_system(ruleset_id: str) -> None:
    """A system has a name, player limits, presets, a summary and strategies that include its default."""
    ruleset = get_ruleset(ruleset_id)
    assert ruleset.id == ruleset_id
    low, high = ruleset.player_limits(None, {})
    assert 1 <= low <= high
    assert ruleset.presets()
    assert len(str(ruleset.summary())) > 40
    assert ruleset.default_strategy in ruleset.strategies
    for preset in ruleset.presets():
        assert str(ruleset.stage_board(preset.name, {})).strip()


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_all_bot_race_finishes_with_every_entrant_ranked(ruleset_id: str, seed: int) -> None:
    """Bots alone play a race to its end; the standings list every entrant once."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(all_bots(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, seed)
    race.play_bots_until_human()
    result = race.result()
    assert not race.awaited()
    assert result.finished and race.finished
    assert sorted(s.entrant for s in result.standings) == sorted(e.id for e in entrants)
    assert min(s.place for s in result.standings) == 1


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_state_round_trips_through_json_at_every_step(ruleset_id: str) -> None:
    """dump -> JSON text -> load -> dump is the identity, and the loaded state plays on identically."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(all_bots(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, 7)
    twin = LoggedRace.start(ruleset_id, entrants, 7)
    for _ in range(400):
        if race.finished:
            break
        data = ruleset.dump(race.state)
        text = json.dumps(data, sort_keys=True)
        reloaded = ruleset.load(json.loads(text))
        assert json.dumps(ruleset.dump(reloaded), sort_keys=True) == text
        twin.state = reloaded
        race.play_step({})
        twin.play_step(race.steps[-1])
        assert json.dumps(ruleset.dump(twin.state), sort_keys=True) == json.dumps(
            ruleset.dump(race.state), sort_keys=True
        )


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_resolve_leaves_the_given_state_untouched(ruleset_id: str) -> None:
    """Resolving a step returns a new state; the old one is unchanged (the database keeps it)."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(all_bots(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, 11)
    for _ in range(30):
        if race.finished:
            break
        before = json.dumps(ruleset.dump(race.state), sort_keys=True)
        old = race.state
        race.play_step({})
        assert json.dumps(ruleset.dump(old), sort_keys=True) == before


UNTOUCHED_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "flamme_rouge": [{}, {"breakaway": "on", "meteo": "random", "finish": "first", "grid": "random"}],
    "tabella": [{}, {"mode": "live", "gazzetta_delay": "immediate"}],
    "wyscig": [{}, {"max_players": 4}],
    "mind_cycling": [{}, {"mode": "live", "medal_section": "first"}],
}


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("seed", [3, 19, 40])
def test_resolve_leaves_its_input_untouched_whatever_the_seed_and_options(ruleset_id: str, seed: int) -> None:
    """People and bots, every option set, whole races: neither the state nor the orders given are changed."""
    from tests.engine.random_orders import random_order

    ruleset = get_ruleset(ruleset_id)
    rnd = random.Random(seed)
    for options in UNTOUCHED_OPTIONS[ruleset_id]:
        low, high = ruleset.player_limits(None, options)
        people = humans(ruleset, max(low, min(2, high)))
        race = LoggedRace.start(ruleset_id, ruleset.default_entrants(people, options), seed, options=options)
        for _ in range(400):
            awaited = race.awaited()
            if not awaited and race.finished:
                break
            orders = {d.entrant: random_order(race, d, rnd) for d in awaited if not race.entrants[d.entrant].is_bot}
            sent = json.dumps(orders, sort_keys=True)
            before = json.dumps(ruleset.dump(race.state), sort_keys=True)
            old = race.state
            race.play_step(orders)
            assert race.state is not old
            assert json.dumps(ruleset.dump(old), sort_keys=True) == before, options
            assert json.dumps(orders, sort_keys=True) == sent, options


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_views_events_and_decisions_are_json(ruleset_id: str) -> None:
    """Public and private views, events and decisions serialise to JSON for the bot and the record."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(humans(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, 5)
    rnd = random.Random(5)
    for _ in range(15):
        awaited = race.awaited()
        if not awaited:
            break
        json.dumps(ruleset.public_view(race.state))
        for e in entrants:
            json.dumps(ruleset.private_view(race.state, e.id))
        for d in awaited:
            d.model_dump_json()
            assert d.prompt.text
        play_randomly_one_step(race, rnd)
        for event in race.events[-1]:
            json.dumps(event.model_dump(mode="json"))
            assert event.message.text


def play_randomly_one_step(race: LoggedRace, rnd: random.Random) -> None:
    from tests.engine.random_orders import random_order

    awaited = race.awaited()
    race.play_step({d.entrant: random_order(race, d, rnd) for d in awaited if not race.entrants[d.entrant].is_bot})


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_stranger_cannot_order_and_gibberish_is_refused_kindly(ruleset_id: str) -> None:
    """An order from someone not in the race, or in no known syntax, is refused with a message."""
    from engine.messages import OrderError

    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(humans(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, 3)
    who = race.awaited()[0].entrant
    before = json.dumps(ruleset.dump(race.state), sort_keys=True)
    for bad in ("ciao bella 999", {"nonsense": [1, 2]}):
        with pytest.raises(OrderError) as info:
            ruleset.validate(race.state, who, bad, None)
        assert info.value.message.text
    with pytest.raises(OrderError):
        ruleset.validate(race.state, "stranger", "ciao", None)
    assert json.dumps(ruleset.dump(race.state), sort_keys=True) == before


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("seed", [21, 22])
def test_random_legal_orders_replay_identically_from_the_record(ruleset_id: str, seed: int) -> None:
    """Orders built from decisions (whole, partial, automatic, bot) replay to the same events."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(humans(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, seed)
    play_randomly(race, random.Random(seed))
    again = logged_replay(parse_record(race.full_record.to_json()))
    assert [[e.model_dump() for e in step] for step in again.events] == [
        [e.model_dump() for e in step] for step in race.events
    ]
    assert again.result() == race.result()


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize(
    ("part", "value", "named"),
    [
        ("options", {"no_such_option": 1}, "options.no_such_option:"),
        ("stage", {"no_such_field": 1}, "stage.no_such_field:"),
        ("setup", {"no_such_field": 1}, "setup.no_such_field:"),
    ],
)
def test_a_malformed_stage_options_or_setup_is_named_from_the_top_of_the_record(
    ruleset_id: str, part: str, value: dict[str, Any], named: str
) -> None:
    """A misspelt option, stage or setup field is refused with its path in the record."""
    from engine.record import RecordError

    ruleset = get_ruleset(ruleset_id)
    record = {
        "format": "gregario.race/1",
        "ruleset": ruleset_id,
        "seed": 1,
        "entrants": [e.model_dump(exclude_none=True) for e in ruleset.default_entrants(humans(ruleset), {})],
        part: value,
    }
    with pytest.raises(RecordError) as info:
        logged_replay(parse_record(record))
    assert named in str(info.value)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_held_back_announcement_is_what_keeps_a_result_provisional(ruleset_id: str) -> None:
    """A finished race is provisional exactly while an announcement is pending; publishing settles it."""
    ruleset = get_ruleset(ruleset_id)
    entrants = ruleset.default_entrants(all_bots(ruleset), {})
    race = LoggedRace.start(ruleset_id, entrants, 13)
    race.play_bots_until_human()
    pending = ruleset.pending_announcement(race.state)
    assert race.result().provisional == (pending is not None)
    events = race.publish()
    assert (len(events) > 0) == (pending is not None)
    assert not race.result().provisional
    assert ruleset.pending_announcement(race.state) is None
    assert race.publish() == []
