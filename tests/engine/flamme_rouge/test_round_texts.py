"""The round's commonest events are written out as f-strings: each reads exactly as its template says."""

from __future__ import annotations

from engine.flamme_rouge.round import TEMPLATES
from engine.race import Race, StepPlayed
from engine.ruleset import Entrant


def test_every_written_out_event_reads_as_its_template() -> None:
    """Moves, blocks, crossings and slipstreams of seeded races: text = template formatted with the data."""
    seen: set[str] = set()

    def check(step: StepPlayed) -> None:
        for e in step.events:
            if e.kind in TEMPLATES:
                seen.add(e.kind)
                assert e.message.key == e.kind
                assert e.message.params is e.data
                assert e.message.text == TEMPLATES[e.kind].format(**e.data)

    for seed in range(1, 9):
        seats = [
            Entrant(id=f"p{i}", name=f"P{i}", bot=("first", "heuristic", "simple")[(i + seed) % 3]) for i in range(5)
        ]
        race = Race.start("flamme_rouge", seats, seed, "Firenze-Milano", {"grid": "random", "meteo": "random"})
        race.play_bots_until_human(check)
    assert seen == set(TEMPLATES)
