"""Smoke run: every stage preset and every variant of every rule system plays all-bot races to the end.

CI runs it (a few races each) so a preset or an option combination that crashes is caught; it prints
one line per combination with its races per second. ``--races N`` runs more.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant

# (ruleset, number of player seats, strategies cycled over the seats, options): the variants of each system.
VARIANTS: list[tuple[str, int, list[str], dict[str, Any]]] = [
    ("flamme_rouge", 2, ["heuristic", "simple"], {}),
    ("flamme_rouge", 1, ["heuristic"], {}),
    ("flamme_rouge", 4, ["heuristic", "simple", "first"], {"grid": "random", "finish": "first"}),
    ("flamme_rouge", 6, ["heuristic", "simple"], {"breakaway": "on", "finish_overflow": "clip"}),
    ("flamme_rouge", 12, ["heuristic", "simple"], {"riders_per_player": 1, "breakaway": "on"}),
    ("flamme_rouge", 3, ["heuristic"], {"meteo": "random", "show_deck_contents": True}),
    ("flamme_rouge", 2, ["simple"], {"bots": ["peloton", "muscle", "muscle"]}),
    ("tabella", 4, ["cautious", "aggressive"], {"mode": "plan"}),
    ("tabella", 4, ["cautious", "aggressive"], {"mode": "live", "gazzetta_delay": "immediate"}),
    ("tabella", 3, ["aggressive"], {"table": "random", "scia_reading": "flat_terrain"}),
    ("wyscig", 3, ["steady", "attacker"], {}),
    ("wyscig", 5, ["steady", "attacker"], {}),
    ("mind_cycling", 2, ["steady", "opportunist"], {"mode": "orders"}),
    ("mind_cycling", 3, ["steady", "opportunist"], {"mode": "live"}),
    ("mind_cycling", 1, ["steady"], {"mode": "orders", "solo": True}),
]


def run(
    ruleset_id: str, players: int, strategies: list[str], options: dict[str, Any], stage: str | None, races: int
) -> float:
    ruleset = get_ruleset(ruleset_id)
    started = time.perf_counter()
    for n in range(races):
        seats = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + n) % len(strategies)]) for i in range(players)]
        race = Race.start(ruleset_id, ruleset.default_entrants(seats, options), 1000 + n, stage=stage, options=options)
        race.play_bots_until_human()
        if not race.result().finished:
            raise SystemExit(f"{ruleset_id} {stage} {options}: race {n} did not finish")
    return races / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=2)
    args = parser.parse_args()
    for ruleset_id in ("flamme_rouge", "tabella", "wyscig", "mind_cycling"):
        ruleset = get_ruleset(ruleset_id)
        variants = [v for v in VARIANTS if v[0] == ruleset_id]
        for preset in ruleset.presets():
            rate = run(ruleset_id, variants[0][1], variants[0][2], {}, preset.name, args.races)
            print(f"{ruleset_id:<13} stage {preset.name:<40} {rate:8.1f} races/s")
        for _, players, strategies, options in variants:
            rate = run(ruleset_id, players, strategies, options, None, args.races)
            print(f"{ruleset_id:<13} {players:>2} players {options!s:<60} {rate:8.1f} races/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
