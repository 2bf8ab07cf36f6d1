"""Mind Cycling engine speed: complete all-bot races through the bot's own engine path.

Every race goes through ``engine.race.Race`` (``start``, then ``play_step`` for every step with each bot's
order asked from ``auto_order`` and validated, exactly as the Discord bot and the CLI do), on the default
course (70 rows, 6 rocks and 2 supply spaces in the climb), in three settings:

- ``orders``: orders mode, ``--players`` teams of five (steady and opportunist seats alternating);
  one step per placement turn and one per round;
- ``live``: the same teams in live mode: one step per bottle-pass round, cyclist turn and wheel/relay prompt;
- ``solo``: one steady team of five until four are across.

Figures are CPU time of this process (other jobs on a shared machine disturb them little).

    python bench/mind_cycling_speed.py -n 200

Measured on the shared 2-core development machine (2026-11-29, ``-n 200``, 4 teams, two runs): orders
34-40 races/s (1250-1470 steps/s; 36.5 steps and 16.5 rounds a race), live 21-25 races/s (5900-7000
steps/s; 278 steps a race), solo 140-170 races/s (3000-3700 steps/s; 16.7 rounds a race).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.race import Race
from engine.ruleset import Entrant

STRATEGIES = ("steady", "opportunist")


def setting(name: str, players: int) -> tuple[list[Entrant], dict[str, str]]:
    """The entrants and options of one benchmark setting."""
    if name == "solo":
        return [Entrant(id="solo", name="Solo", bot="steady")], {}
    seats = [Entrant(id=f"p{i}", name=f"P{i}", bot=STRATEGIES[i % 2]) for i in range(players)]
    return seats, {"mode": name}


def run(name: str, races: int, players: int, seed: int) -> tuple[float, int, int]:
    """CPU seconds for ``races`` races of one setting, the steps they took and the rounds they took."""
    entrants, options = setting(name, players)
    steps = rounds = 0
    start = time.process_time()
    for i in range(races):
        race = Race.start("mind_cycling", entrants, seed + i, options=options)
        steps += race.play_bots_until_human()
        if not race.result().finished:
            raise SystemExit(f"{name}: race {i} did not finish")
        rounds += race.state.round
    return time.process_time() - start, steps, rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--races", type=int, default=100, help="races per setting (default 100)")
    parser.add_argument("--players", type=int, default=4, help="teams in the orders and live settings (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first race (default 1)")
    parser.add_argument("--only", choices=("orders", "live", "solo"), help="run one setting only")
    args = parser.parse_args()
    names = [args.only] if args.only else ["orders", "live", "solo"]
    print(f"Mind Cycling, default course, {args.races} races per setting, {args.players} teams (solo: 1)")
    print(f"{'setting':<8} {'races/s':>9} {'steps/s':>10} {'steps/race':>11} {'rounds/race':>12}")
    for name in names:
        seconds, steps, rounds = run(name, args.races, args.players, args.seed)
        print(
            f"{name:<8} {args.races / seconds:9.1f} {steps / seconds:10.0f} "
            f"{steps / args.races:11.1f} {rounds / args.races:12.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
