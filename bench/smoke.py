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

# (ruleset, player seats, strategies cycled over the seats, options, stage): the variants of each system.
VARIANTS: list[tuple[str, int, list[str], dict[str, Any], Any]] = [
    ("flamme_rouge", 2, ["heuristic", "simple"], {}, None),
    ("flamme_rouge", 1, ["heuristic"], {}, None),
    ("flamme_rouge", 4, ["heuristic", "simple", "first"], {"grid": "random", "finish": "first"}, None),
    ("flamme_rouge", 6, ["heuristic", "simple"], {"breakaway": "on", "finish_overflow": "clip"}, None),
    ("flamme_rouge", 12, ["heuristic", "simple"], {"riders_per_player": 1, "breakaway": "on"}, None),
    ("flamme_rouge", 3, ["heuristic"], {"meteo": "random", "show_deck_contents": True}, None),
    ("flamme_rouge", 2, ["simple"], {"meteo": ["crosswind", "tailwind", "headwind", "wet"]}, None),
    ("flamme_rouge", 2, ["simple"], {"bots": ["peloton", "muscle", "muscle"]}, "Stage 9"),
    ("tabella", 4, ["cautious", "aggressive"], {"mode": "plan"}, None),
    ("tabella", 4, ["cautious", "aggressive"], {"mode": "live", "gazzetta_delay": "immediate"}, None),
    ("tabella", 20, ["aggressive"], {"scia_reading": "flat_terrain"}, {"table": "random", "rows": "random"}),
    ("wyscig", 3, ["steady", "attacker"], {}, {"stages": 2}),
    ("wyscig", 8, ["steady", "attacker"], {"max_players": 8}, {"deck": "itemised_108", "stages": 1}),
    ("wyscig", 4, ["attacker"], {}, {"deck": "classic_96", "stages": 1}),
    ("wyscig", 4, ["attacker"], {}, {"deck": "total_102", "stages": 1}),
    ("mind_cycling", 2, ["steady", "opportunist"], {"mode": "orders"}, None),
    ("mind_cycling", 3, ["steady", "opportunist"], {"mode": "live"}, None),
    ("mind_cycling", 1, ["steady"], {"mode": "orders"}, None),
    ("mind_cycling", 1, ["opportunist"], {"mode": "live"}, None),
    ("mind_cycling", 4, ["opportunist"], {"team_size": 3, "lanes": 3, "medal_section": "first"}, None),
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
        for _, players, strategies, options, stage in variants:
            rate = run(ruleset_id, players, strategies, options, stage, args.races)
            print(f"{ruleset_id:<13} {players:>2} players {options!s:<60} {stage!s:<30} {rate:8.1f} races/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
