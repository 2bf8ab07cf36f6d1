"""Heuristic vs simple: how often the heuristic team beats the simple team, with a 95% confidence interval.

Each race has one heuristic and one simple team (plus, with ``--bots``, the official Peloton and Muscle
teams); the seats alternate between races so neither strategy always sits first. A race counts as a win
for the heuristic when its team is placed ahead of the simple team (D25: a team's best rider).

    python bench/flamme_rouge_strategies.py -n 1000
    python bench/flamme_rouge_strategies.py -n 1000 --stage "La Classicissima" --bots
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.race import Race
from engine.ruleset import Entrant


def race_once(seed: int, stage: str, bots: bool, heuristic_first: bool, finish: str) -> bool:
    """One race; True if the heuristic team finishes ahead of the simple team."""
    teams = [
        Entrant(id="heuristic", name="Heuristic", bot="heuristic"),
        Entrant(id="simple", name="Simple", bot="simple"),
    ]
    if not heuristic_first:
        teams.reverse()
    if bots:
        teams += [
            Entrant(id="peloton", name="Peloton", bot="peloton"),
            Entrant(id="muscle", name="Muscle", bot="muscle"),
        ]
    race = Race.start("flamme_rouge", teams, seed, stage, {"finish": finish})
    race.play_bots_until_human()
    places = {s.entrant: s.place for s in race.result().standings}
    return places["heuristic"] < places["simple"]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-n", "--races", type=int, default=1000)
    parser.add_argument("--stage", default="Avenue Corso Paseo")
    parser.add_argument("--bots", action="store_true", help="add the Peloton and a Muscle team")
    parser.add_argument("--finish", default="all", choices=["all", "first"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    wins = sum(race_once(args.seed + i, args.stage, args.bots, i % 2 == 0, args.finish) for i in range(args.races))
    low, high = wilson(wins, args.races)
    print(
        f"heuristic beats simple in {wins}/{args.races} races on {args.stage!r}"
        f"{' with Peloton + Muscle' if args.bots else ''}: {wins / args.races:.1%} "
        f"(95% CI {low:.1%} - {high:.1%}) [{time.perf_counter() - start:.1f} s]"
    )


if __name__ == "__main__":
    main()
