"""Memory per race in progress, for each rule system at its largest allowed options.

The bot will keep thousands of races in one process, so what a race holds between steps matters: the
driver keeps its state and nothing that grows with the race (each step's events and orders go to the
caller, who stores or drops them). This measures it the way issue 11 asks: 100 all-bot races of one
setting start together and are stepped in lockstep, each step's events dropped as a front end that has
stored them would; after every round of steps ``gc.collect()`` runs and tracemalloc reads the memory
traced since before the races started. The peak over the race, divided by the number of races, is the
figure per race in progress.

    python bench/memory.py [--races 100] [--only wyscig]

``--keep`` keeps every step's events and orders in memory (as ``Race`` did before issue 11: the
record's steps and the events of every step), for comparison in the same run.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from typing import Any

from engine.race import Race, StepPlayed
from engine.registry import get_ruleset
from engine.ruleset import Entrant

# (rule system, seats, strategies, stage, options): the largest setting each system allows.
LARGEST: list[tuple[str, int, list[str], Any, dict[str, Any]]] = [
    ("flamme_rouge", 6, ["heuristic", "simple"], "Avenue Corso Paseo", {"breakaway": "on", "meteo": "random"}),
    ("tabella", 20, ["cautious", "aggressive"], None, {"mode": "live"}),
    ("wyscig", 8, ["steady", "attacker"], {"deck": "itemised_108", "stages": 6}, {"max_players": 8}),
    ("wyscig", 8, ["steady", "attacker"], {"deck": "itemised_108", "stages": 21}, {"max_players": 8}),
    ("mind_cycling", 6, ["steady", "opportunist"], None, {"mode": "live", "lanes": 6, "team_size": 5}),
]


def measure(
    ruleset_id: str, seats: int, strategies: list[str], stage: Any, options: dict[str, Any], races: int, keep: bool
) -> tuple[float, int, int]:
    """(peak bytes per race, the step at the peak, steps of the longest race)."""
    ruleset = get_ruleset(ruleset_id)
    kept: list[list[StepPlayed]] = [[] for _ in range(races)]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    running: list[Race] = []
    for n in range(races):
        entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + n) % len(strategies)]) for i in range(seats)]
        running.append(Race.start(ruleset_id, ruleset.default_entrants(entrants, options), 1000 + n, stage, options))
    peak, peak_step, step = 0, 0, 0
    while True:
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
        if used > peak:
            peak, peak_step = used, step
        live = [(n, race) for n, race in enumerate(running) if not race.finished]
        if not live:
            break
        step += 1
        for n, race in live:
            played = race.play_step({})
            if keep:
                kept[n].append(played)
    tracemalloc.stop()
    return peak / races, peak_step, step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--only", help="one rule system")
    parser.add_argument("--keep", action="store_true", help="also keep every step's events and orders")
    args = parser.parse_args()
    for ruleset_id, seats, strategies, stage, options in LARGEST:
        if args.only and ruleset_id != args.only:
            continue
        per_race, at, steps = measure(ruleset_id, seats, strategies, stage, options, args.races, False)
        line = f"{ruleset_id:<13} {seats:>2} seats {stage!s:<45} {options!s:<60} {per_race / 1024:8.1f} KiB/race"
        line += f" (peak at step {at} of {steps})"
        if args.keep:
            kept, _, _ = measure(ruleset_id, seats, strategies, stage, options, args.races, True)
            line += f"; keeping every step's events and orders: {kept / 1024:8.1f} KiB/race"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
