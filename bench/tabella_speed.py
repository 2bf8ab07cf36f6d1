"""Tabella del Destino engine speed: complete all-bot races through the bot's own engine path.

Every race goes through ``engine.race.Race`` (``start``, then ``play_step`` for every step with each bot's
order asked from ``auto_order`` and validated, as the Discord bot and the CLI do): eight riders, cautious
and aggressive bots alternating, in live mode (nine steps, a state copy each) and in plan mode (one step).
Prints races/s (CPU time of this process, so that other jobs on a shared machine disturb it less), and
the cost of copying, dumping and loading the state of every step of those races.

To compare two versions of the engine, run this file from each tree in the same shell command, in
alternation (``python A/bench/tabella_speed.py; python B/bench/tabella_speed.py; ...``): each inserts its
own tree first on the import path.

    python bench/tabella_speed.py -n 300
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant

SEATS = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=("cautious", "aggressive")[i % 2]) for i in range(8)]


def races(n: int, mode: str, seed: int, states: list[Any] | None = None) -> float:
    """CPU seconds for ``n`` all-bot races; each step's state is kept in ``states`` when given."""
    start = time.process_time()
    for i in range(n):
        race = Race.start("tabella", SEATS, seed + i, None, {"mode": mode})
        if states is None:
            race.play_bots_until_human()
        else:
            race.play_bots_until_human(lambda _step, race=race: states.append(race.state))
    return time.process_time() - start


def per_state(states: list[Any], how: Any) -> float:
    """Microseconds per state for ``how(state)``."""
    start = time.process_time()
    for state in states:
        how(state)
    return (time.process_time() - start) / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-n", "--races", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    races(10, "live", 10**6)  # warm-up: imports and caches
    for mode in ("live", "plan"):
        secs = races(args.races, mode, args.seed)
        print(f"tabella {mode:4} {args.races} races of 8 riders: {args.races / secs:8.1f} races/s ({secs:.2f} s)")
    states: list[Any] = []
    races(50, "live", args.seed, states)
    ruleset = get_ruleset("tabella")
    own_copy = getattr(type(states[0]), "copy", None)
    dumps = [ruleset.dump(s) for s in states]
    figures = {
        "copy.deepcopy": per_state(states, copy.deepcopy),
        "RaceState.copy": per_state(states, own_copy) if own_copy else None,
        "dump": per_state(states, ruleset.dump),
        "load": per_state(dumps, ruleset.load),
    }
    shown = ", ".join(f"{k} {v:.1f} µs" for k, v in figures.items() if v is not None)
    print(f"per state ({len(states)} states of 8 riders): {shown}")


if __name__ == "__main__":
    main()
