"""Flamme Rouge: a setup's stacked cards are cards that rider's deck can hold (R-FR-8)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.race import replay
from engine.record import RecordError, parse_record


def _record(riders: dict[str, Any], entrants: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "format": "gregario.race/1",
        "ruleset": "flamme_rouge",
        "seed": 5,
        "stage": {"profile": "S5 _16 F5"},
        "entrants": entrants or [{"id": "anna", "name": "Anna"}, {"id": "ben", "name": "Ben"}],
        "setup": {"riders": riders},
    }


@pytest.mark.rules("3", "R-FR-8")
@pytest.mark.parametrize(
    ("rider", "part", "cards", "shown"),
    [
        ("black-r", "deck", [5, 9, 4, 3], "9"),
        ("black-r", "hand", [3, 4, 2, 5], "2"),
        ("black-s", "deck", [2, 3, "A", 4], "'A'"),
        ("blue-s", "recycled", ["M"], "'M'"),
        ("blue-r", "hand", [6, 8, 7, 3], "8"),
    ],
)
def test_a_card_the_deck_cannot_hold_is_refused(rider: str, part: str, cards: list[Any], shown: str) -> None:
    """A Rouleur has 3-7, a Sprinteur 2-5 and 9, and no player's deck has Attack! or Muscle."""
    with pytest.raises(RecordError) as caught:
        replay(parse_record(_record({rider: {part: cards}})))
    assert str(caught.value).startswith(f"setup.riders.{rider}.{part}: {rider}'s deck cannot hold {shown};")


@pytest.mark.rules("3", "R-FR-8")
def test_its_own_cards_and_exhaustion_are_accepted_in_any_number() -> None:
    """Five 9s and an exhaustion card in a Sprinteur's deck, four 7s in a Rouleur's hand: a legal setup."""
    race = replay(parse_record(_record({"black-s": {"deck": [9, 9, 9, 9, 9, "E"]}, "black-r": {"hand": [7, 7, 7, 7]}})))
    assert not race.finished


@pytest.mark.rules("7.2", "R-FR-8")
def test_the_peloton_deck_holds_attack() -> None:
    """The Peloton bot team's deck has its two Attack! cards: a stacked one is accepted."""
    entrants = [{"id": "anna", "name": "Anna"}, {"id": "bot", "name": "Peloton", "bot": "peloton"}]
    race = replay(parse_record(_record({}, entrants)))
    peloton = next(r for r in race.ruleset.public_view(race.state)["riders"] if r["id"].endswith("-p1"))
    stacked = _record({peloton["id"]: {"deck": ["A", 3, 7]}}, entrants)
    replay(parse_record(stacked))
