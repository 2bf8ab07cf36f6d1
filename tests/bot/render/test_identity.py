"""Who a player is on the picture, said first on their own panel: the colour and tokens the picture draws."""

from __future__ import annotations

import pytest

from bot.render.registry import identity
from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant

IDENTITIES = {
    "flamme_rouge": ("p1", "You ride **blue**: your tokens are R2, S2."),
    "tabella": ("p1", "Your token on the picture is **2**."),
    "mind_cycling": (
        "p1",
        "You are **2** on the picture: your cyclists are S2 (#1 sprinter), C2 (#2 climber), D2 (#3 domestique), "
        "D2 (#4 domestique), D2 (#5 domestique).",
    ),
}


def started(ruleset_id: str) -> Race:
    ruleset = get_ruleset(ruleset_id)
    seats = [Entrant(id=f"p{i}", name=f"Rider {i}") for i in range(3)]
    return Race.start(ruleset_id, ruleset.default_entrants(seats, {}), 5)


@pytest.mark.parametrize("ruleset_id", list(IDENTITIES))
def test_each_player_reads_who_they_are_on_the_picture(ruleset_id: str) -> None:
    """The second player's line, in the picture's own tokens; a stranger to the race has none."""
    race = started(ruleset_id)
    view = get_ruleset(ruleset_id).public_view(race.state)
    entrant, line = IDENTITIES[ruleset_id]
    assert identity(view, entrant, "en") == line
    assert identity(view, "nobody", "en") is None


def test_wyscig_names_its_players_by_name_on_the_picture() -> None:
    """Wyścig's picture lists each player by name: no tokens to tell apart, no identity line."""
    race = started("wyscig")
    assert identity(get_ruleset("wyscig").public_view(race.state), "p1", "en") is None
