"""The engine contract for Flamme Rouge: state round-trips, pure resolve, legal choices, JSON views."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.flamme_rouge import RULESET
from engine.messages import Message
from engine.ruleset import set_path
from tests.logged import LoggedRace

from .helpers import entrants, record, start


def _walk(race: LoggedRace, pick: Any, max_steps: int = 400) -> None:
    """Play a race to its end choosing, field after field, one of the offered choices with ``pick``;
    every choice offered must validate when merged into the partial order."""
    for _ in range(max_steps):
        decisions = race.awaited()
        if not decisions:
            return
        orders: dict[str, Any] = {}
        for d in decisions:
            if race.entrants[d.entrant].is_bot:
                continue
            partial: dict[str, Any] = {}
            for _depth in range(6):
                current = race.awaited({d.entrant: partial})
                mine = next(x for x in current if x.entrant == d.entrant)
                if mine.complete:
                    break
                field = mine.fields[0]
                assert field.choices, mine.prompt.text
                for choice in field.choices:  # contract 4: every offered choice is legal
                    RULESET.validate(race.state, d.entrant, set_path(partial, field.path, choice.value), partial)
                value = pick(field.choices).value
                partial = race.validate(d.entrant, set_path(partial, field.path, value), partial)
            orders[d.entrant] = partial
        before = json.dumps(RULESET.dump(race.state), sort_keys=True)
        state = race.state
        race.play_step(orders)
        assert json.dumps(RULESET.dump(state), sort_keys=True) == before  # resolve never mutates
    raise AssertionError("the race did not end")


@pytest.mark.rules("9.1", "D6", "D8", "D23")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    picks=st.randoms(use_true_random=False),
    one=st.booleans(),
    breakaway=st.booleans(),
)
def test_any_sequence_of_offered_choices_plays_a_legal_race_to_the_end(
    seed: int, picks: Any, one: bool, breakaway: bool
) -> None:
    """Choices drive the whole race (rider choice, bids, grid, energy) and each one validates."""
    rec = record(
        players=3,
        bots=["peloton"],
        seed=seed,
        stage="S5 _30 u3 d3 P5 C1 C2 _10 F5",
        options={
            "riders_per_player": 1 if one else 2,
            "breakaway": "on" if breakaway else "off",
            "finish": "all",
        },
    )
    rec["entrants"][2]["bot"] = "heuristic"
    race = start(rec)
    _walk(race, picks.choice)
    assert race.result().finished
    assert {s.entrant for s in race.result().standings} == {e["id"] for e in rec["entrants"]}


@pytest.mark.rules("D7", "4.1")
def test_the_turn_order_is_drawn_from_the_race_seed() -> None:
    """The same seed gives the same turn order; different seeds give different ones."""
    orders = {tuple(start(record(players=4, seed=s)).state.turn_order) for s in range(8)}
    assert len(orders) > 1
    assert start(record(players=4, seed=5)).state.turn_order == start(record(players=4, seed=5)).state.turn_order


def test_a_dumped_state_loads_and_plays_on_identically() -> None:
    """dump(load(dump(s))) == dump(s) at every step, and a loaded copy reaches the same result."""
    ents = entrants("h:heuristic", "s:simple", "p:peloton", "m:muscle")
    race = LoggedRace.start("flamme_rouge", ents, 11, "Firenze-Milano", {"finish": "first", "meteo": "random"})
    copy = None
    while not race.finished:
        data = RULESET.dump(race.state)
        json.dumps(data)
        assert RULESET.dump(RULESET.load(json.loads(json.dumps(data)))) == data
        if race.state.round == 4 and copy is None:
            copy = LoggedRace(ruleset=RULESET, header=race.header, state=RULESET.load(data))
        race.play_step({})
    assert copy is not None
    while not copy.finished:
        copy.play_step({})
    assert RULESET.dump(copy.state) == RULESET.dump(race.state)
    assert copy.result() == race.result()


def test_views_are_json_and_the_public_one_hides_decks_and_hands() -> None:
    """No deck order in the public view; the private view adds the player's own deck contents."""
    race = start(record(players=2, options={"grid": "random"}))
    public = RULESET.public_view(race.state)
    private = RULESET.private_view(race.state, "anna")
    json.dumps(public)
    json.dumps(private)
    assert all("deck" not in r for r in public["riders"])
    assert private["you"]["riders"] == ["black-r", "black-s"]
    assert sum(private["you"]["decks"]["black-r"]["contents"].values()) == 15


def test_the_catalogue_summary_and_stage_board() -> None:
    """Presets list every stage with its status label; the summary and the stage board are messages."""
    presets = {p.name: p for p in RULESET.presets()}
    assert len(presets) == 20 and next(iter(presets)) == "Avenue Corso Paseo"
    labels = {name: p.label.key if isinstance(p.label, Message) else p.label for name, p in presets.items()}
    assert labels["Avenue Corso Paseo"] == "fr.preset.label.default"  # D12: the default stage
    assert labels["Stage 8"] == "fr.preset.label.unverified"
    assert labels["Sprint de Montagne"] == "fr.preset.label.origin_unverified"
    assert labels["Firenze-Milano"] is None
    # La Haute Montagne, S5 _31 u7 d5 _14 u12 F4: 78 squares, 7 + 12 uphill, 5 downhill.
    summary = presets["La Haute Montagne"].summary
    assert isinstance(summary, Message) and summary.key == "fr.preset.summary.base"
    assert summary.text == "78 squares (19 uphill, 5 downhill); base game"
    assert summary.params == {"count": 78, "ascent": 19, "descent": 5, "supply": 0, "cobbles": 0}
    assert "Rouleur" in RULESET.summary().text and RULESET.summary().key == "fr.summary"
    board = RULESET.stage_board("La Haute Montagne", {})
    assert board.key == "fr.stage_board" and board.params["profile"] == "S5 _31 u7 d5 _14 u12 F4"
    first_line = board.text.splitlines()[0]
    assert first_line == "La Haute Montagne: 78 squares, 5 start squares, finish line after square 74"
    assert board.params["terrain"].split()[3] == "______uuuu"  # squares 31-40: flat to 36, then the climb
    assert "Key: S start area" in board.text and "Key:" not in str(board.params)  # the legend is the template's


@pytest.mark.rules("D11", "7.7")
def test_grand_tour_is_documented_for_later_and_not_an_option() -> None:
    """D11: asking for a Grand Tour is refused, naming the field."""
    with pytest.raises(Exception, match="grand_tour"):
        start(record(players=2, options={"grand_tour": True}))


def test_a_bad_stage_or_option_names_the_field() -> None:
    """A misspelt option or an unknown stage is refused with a clear message."""
    with pytest.raises(Exception, match="finsh"):
        start(record(players=2, options={"finsh": "all"}))
    with pytest.raises(Exception, match="unknown stage"):
        start(record(players=2, stage="Tour de Nowhere"))
    with pytest.raises(Exception, match="unknown bot"):
        LoggedRace.start("flamme_rouge", entrants("anna", "x:genius"), 1)
