"""Meteo (§7.6, D10): tokens on the straight tiles; crosswind, tailwind, headwind; wet counts as clear."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.flamme_rouge.deck import hand_of
from engine.flamme_rouge.meteo import TOKENS
from engine.flamme_rouge.movement import occupancy
from engine.flamme_rouge.slipstream import slipstream

from .helpers import placed, record, start

ACP = "Avenue Corso Paseo"  # straight tiles b c d f l m n: squares 7-12, 13-18, 19-24, 27-32, 43-48, 49-54, 55-60


@pytest.mark.rules("D10", "7.6")
def test_random_weather_draws_one_token_per_straight_tile_from_the_thirteen() -> None:
    """Avenue Corso Paseo has 7 straight tiles (start and finish excluded): 7 tokens from 9 clear + 4 events."""
    race = start(record(players=2, stage=ACP, options={"meteo": "random"}, seed=3))
    tokens = race.state.weather
    assert len(tokens) == 7 and not Counter(tokens) - Counter(TOKENS)
    again = start(record(players=2, stage=ACP, options={"meteo": "random"}, seed=3))
    assert again.state.weather == tokens


@pytest.mark.rules("D10", "7.6")
def test_a_crosswind_tile_gives_no_slipstream_for_or_from_its_squares() -> None:
    """Crosswind on tile b (squares 7-12): 8 -> 10 gap stays; outside it, 20 -> 22 closes."""
    race = start(
        record(
            players=2,
            stage=ACP,
            options={"meteo": ["crosswind"]},
            setup=placed({"black-r": 8, "black-s": 10, "blue-r": 40, "blue-s": 42}),
        )
    )
    s = race.state
    assert s.track.wind[7] == s.track.wind[12] == "crosswind" and s.track.wind[13] == ""
    shifts = [(s.riders[i].id, a, b) for i, a, b in slipstream(occupancy(s), s.track, s.riders)]
    assert shifts == [("blue-r", 40, 41)]


@pytest.mark.rules("D10", "7.6")
def test_tailwind_draws_five_headwind_three_and_wet_counts_as_clear() -> None:
    """Tokens for b, c, d: wet, tailwind, headwind. Riders on c draw 5, on d draw 3, on b draw 4."""
    race = start(
        record(
            players=2,
            stage=ACP,
            options={"meteo": ["wet", "tailwind", "headwind"]},
            setup=placed({"black-r": 14, "black-s": 20, "blue-r": 8, "blue-s": 40}),
        )
    )
    s = race.state
    size = {r.id: len(hand_of(s, i)[0]) for i, r in enumerate(s.riders)}
    assert size == {"black-r": 5, "black-s": 3, "blue-r": 4, "blue-s": 4}
    assert s.track.wind[8] == ""  # wet is not implemented: clear
    d = race.awaited({"anna": {"first": "r"}})[0]
    assert len(d.fields[0].choices) <= 5


@pytest.mark.rules("D10", "R-FR-1")
def test_on_a_profile_stage_the_weather_goes_on_its_flat_runs_of_six_or_more() -> None:
    """'S5 _4 u3 _8 d2 _6 F5': the flat runs of 8 and 6 squares take the listed tokens in order."""
    race = start(record(players=1, stage="S5 _4 u3 _8 d2 _6 F5", options={"meteo": ["headwind", "crosswind"]}))
    t = race.state.track
    assert [t.wind[n] for n in (9, 13, 20, 21, 27)] == ["", "headwind", "headwind", "", "crosswind"]
