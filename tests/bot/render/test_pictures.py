"""Boards, previews, result cards and alt text for every rule system, from public information only."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.render import alt_text, board_png, preview_png, result_card_png, result_text
from bot.render.registry import RENDERER_MODULES, renderer
from engine.race import Race
from engine.registry import RULESET_IDS, get_ruleset
from engine.ruleset import Entrant, Result, Standing, column

OPTIONS = {"flamme_rouge": {}, "tabella": {"mode": "plan"}, "wyscig": {}, "mind_cycling": {}}


def bot_race(ruleset_id: str, players: int, seed: int = 11, steps: int | None = None) -> Race:
    ruleset = get_ruleset(ruleset_id)
    seats = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=ruleset.default_strategy) for i in range(players)]
    options = OPTIONS[ruleset_id]
    race = Race.start(ruleset_id, ruleset.default_entrants(seats, options), seed, options=options)
    n = 0
    while not race.finished and (steps is None or n < steps):
        race.play_step({})
        n += 1
    return race


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_every_rule_system_has_its_renderer() -> None:
    """The registry maps each ruleset id to a renderer that says it draws that system."""
    assert set(RENDERER_MODULES) == set(RULESET_IDS)
    for rid in RULESET_IDS:
        assert renderer(rid).ruleset_id == rid


def test_an_unknown_rule_system_is_refused() -> None:
    """Asking for a renderer of a system that does not exist names the real ones."""
    with pytest.raises(KeyError, match="flamme_rouge"):
        renderer("croquet")


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_step_of_a_race_draws_a_phone_sized_board(ruleset_id: str) -> None:
    """Sampled steps of an all-bot race each draw a PNG about 800 pixels wide and under 300 KB."""
    ruleset = get_ruleset(ruleset_id)
    seats = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=ruleset.default_strategy) for i in range(3)]
    race = Race.start(ruleset_id, ruleset.default_entrants(seats, OPTIONS[ruleset_id]), 5, options=OPTIONS[ruleset_id])
    pick = random.Random(1)
    drawn = 0
    while not race.finished:
        events = race.play_step({}).events
        if drawn == 0 or pick.random() < 0.2 or race.finished:
            image = decode(board_png(ruleset_id, ruleset.public_view(race.state), events))
            assert 780 <= image.width <= 860 and 200 <= image.height <= 1400, image.size
            drawn += 1
    assert drawn >= 1


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_preset_has_a_preview(ruleset_id: str) -> None:
    """Each stage preset of each system draws a preview under 300 KB."""
    for preset in get_ruleset(ruleset_id).presets():
        data = preview_png(ruleset_id, preset.name)
        assert decode(data).width >= 780, preset.name
        assert len(data) < 300_000, preset.name


def hide_differently(ruleset_id: str, dump: dict[str, Any]) -> dict[str, Any]:
    """The same race with other hidden information: deck orders, hands, secret bottles, the seed."""
    changed = __import__("copy").deepcopy(dump)
    changed["rng"] = (int(dump["rng"]) * 7 + 3) % (1 << 63)
    if ruleset_id == "flamme_rouge":
        for rider in changed["riders"]:
            rider["deck"] = list(reversed(rider["deck"]))
    elif ruleset_id == "tabella":
        for rider in changed["riders"]:
            rider["reinforced"] = not rider["reinforced"] if not rider["doped"] else rider["reinforced"]
        changed["gazzetta_hit"] = not dump["gazzetta_hit"]
    elif ruleset_id == "wyscig":
        pile = changed["pile"]
        for player in changed["players"]:
            swap = next((i for i, c in enumerate(pile) if isinstance(c, int) and c not in player["speeds"]), None)
            if player["speeds"] and swap is not None:
                player["speeds"][0], pile[swap] = pile[swap], player["speeds"][0]
    return changed


@pytest.mark.parametrize("ruleset_id", ["flamme_rouge", "tabella", "wyscig"])
def test_states_differing_only_in_hidden_information_draw_identical_pictures(ruleset_id: str) -> None:
    """Another deck order, another hand, a secret Bibitone: the board and its alt text do not change."""
    ruleset = get_ruleset(ruleset_id)
    race = bot_race(ruleset_id, 3, steps=4 if ruleset_id != "wyscig" else 7)
    dump = ruleset.dump(race.state)
    other = ruleset.load(hide_differently(ruleset_id, dump))
    assert ruleset.dump(other) != dump  # the hidden information really differs
    view, other_view = ruleset.public_view(race.state), ruleset.public_view(other)
    assert board_png(ruleset_id, view) == board_png(ruleset_id, other_view)
    assert alt_text(ruleset_id, view) == alt_text(ruleset_id, other_view)


def test_the_alt_text_names_every_rider_and_where_it_is() -> None:
    """Flamme Rouge's alt text gives each rider's label, owner, square, lane and terrain."""
    view = {
        "round": 3,
        "track": {
            "name": "Tiny",
            "squares": 10,
            "start_squares": 2,
            "finish": 9,
            "profile": "S2 _4 u2 F2",
            "weather": {},
        },
        "riders": [
            {"id": "black-r", "team": "black", "type": "Rouleur", "owner": "anna", "square": 7, "lane": 1},
            {"id": "blue-s", "team": "blue", "type": "Sprinteur", "owner": "bob", "square": 4, "lane": 2},
        ],
    }
    events = [{"kind": "fr.move", "data": {"rider": "black-r", "from": 3, "to": 7, "lane": 1}}]
    text = alt_text("flamme_rouge", view, events, names={"anna": "Anna"})
    lines = text.splitlines()
    assert lines[0] == "Tiny · round 3"
    assert lines[1] == "R1 black Rouleur (Anna): square 7, lane 1 (ascent)"
    assert lines[2] == "S2 blue Sprinteur (bob): square 4, lane 2 (flat)"
    assert "R1 moved from square 3 to 7." in lines


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_alt_text_of_a_real_race_carries_each_engine_event(ruleset_id: str) -> None:
    """The text alternative repeats each of the step's events in the game's words, riders by the tokens the
    picture shows (never their ids)."""
    ruleset = get_ruleset(ruleset_id)
    race = bot_race(ruleset_id, 2, steps=2)
    events = race.play_step({}).events if not race.finished else []
    view = ruleset.public_view(race.state)
    text = alt_text(ruleset_id, view, events)
    riders = {str(r["id"]) for r in view.get("riders") or [] if isinstance(r, dict) and "-" in str(r.get("id"))}
    for event in events:
        said = event.message.text
        for rider in riders:
            said = said.replace(rider, "")
        assert all(part in text for part in said.split() if part), (said, text)
        assert not any(rider in text for rider in riders)


def test_the_result_card_has_the_podium_names_and_figures() -> None:
    """A finished race's card is a PNG; a different winner draws a different card."""
    standings = [
        Standing(entrant="a", place=1, figures={"total_time": 100, "stage_wins": 2, "stage_times": [50, 50]}),
        Standing(entrant="b", place=2, figures={"total_time": 104, "stage_wins": 0, "stage_times": [52, 52]}),
    ]
    columns = [
        column("total_time", "wk.column.total_time", "GC", "time"),
        column("stage_wins", "wk.column.stage_wins", "stage wins", "count"),
        column("stage_times", "wk.column.stage_times", "stages", "time", "list"),
    ]
    result = Result(finished=True, standings=standings, columns=columns)
    card = result_card_png("wyscig", result, "Tour", names={"a": "Anna", "b": "Bob"})
    image = decode(card)
    assert image.width >= 780 and len(card) < 300_000
    swapped = result_card_png("wyscig", result, "Tour", names={"a": "Bob", "b": "Anna"})
    assert swapped != card
    assert result_text("wyscig", result, names={"a": "Anna", "b": "Bob"}).splitlines() == [
        "1. Anna: GC 1:40 · stage wins 2 · stages 0:50 0:50",
        "2. Bob: GC 1:44 · stage wins 0 · stages 0:52 0:52",
    ]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_system_draws_its_final_result(ruleset_id: str) -> None:
    """Each system's finished race gives a result card with one line per standing."""
    race = bot_race(ruleset_id, 3)
    race.publish()
    result = race.result()
    assert result.finished
    card = decode(result_card_png(ruleset_id, result, "Final"))
    assert card.height >= 200 + 30 * len(result.standings)
    first = result_text(ruleset_id, result).splitlines()[0]
    for c in result.columns:  # the card's line reads the result's own columns, headed by their labels
        assert c.label.text in first
