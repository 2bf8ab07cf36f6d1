"""Wyścig engine speed: complete all-bot races through the bot's own engine path, and the state's copy.

Every race goes through ``engine.race.Race`` (``start``, then a step per turn with each bot's order asked
from ``auto_order`` and validated, exactly as the Discord bot and the CLI do): ``--players`` seats
(steady and attacker alternating), the default deck, ``--stages`` stages. Then the states of one race
are copied (``RaceState.copy``, which ``resolve`` runs every turn), asked for their decision (``awaited``),
dumped and loaded again, and timed (µs per state).

``--against REF`` measures the engine of a git commit in the same run (its ``engine/`` taken with ``git
archive`` into a temporary folder and run in a child process, alternating with this tree, ``--rounds``
times each) and prints the ratio of the medians: this tree's time over the other's (below 1 is faster).

Figures are CPU time of the measuring process.

    python bench/wyscig_speed.py -n 20 --against main
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = ("steady", "attacker")


def measure(races: int, players: int, stages: int, seed: int) -> dict[str, float]:
    """CPU seconds for ``races`` races, and per-state microseconds for copy, dump and load."""
    from engine.race import Race
    from engine.registry import get_ruleset
    from engine.ruleset import Entrant

    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=STRATEGIES[i % 2]) for i in range(players)]
    stage = {"stages": stages}
    steps = 0
    start = time.process_time()
    for i in range(races):
        race = Race.start("wyscig", entrants, seed + i, stage=stage)
        steps += race.play_bots_until_human()
        if not race.result().finished:
            raise SystemExit(f"race {i} did not finish")
    race_time = time.process_time() - start
    ruleset = get_ruleset("wyscig")
    states: list[Any] = []
    race = Race.start("wyscig", entrants, seed, stage=stage)
    while not race.finished:
        states.append(race.state)
        race.play_step({})
    start = time.process_time()
    for _ in range(20):
        for s in states:
            s.copy()
    copy_time = time.process_time() - start
    start = time.process_time()
    for s in states:
        ruleset.awaited(s)
    awaited_time = time.process_time() - start
    start = time.process_time()
    dumps = [ruleset.dump(s) for s in states]
    dump_time = time.process_time() - start
    start = time.process_time()
    for d in dumps:
        ruleset.load(d)
    load_time = time.process_time() - start
    n = len(states)
    return {
        "races_per_s": races / race_time,
        "steps_per_race": steps / races,
        "race_s": race_time,
        "copy_us": copy_time / (20 * n) * 1e6,
        "awaited_us": awaited_time / n * 1e6,
        "dump_us": dump_time / n * 1e6,
        "load_us": load_time / n * 1e6,
    }


def _engine_of(ref: str, into: Path) -> None:
    """The ``engine/`` package of commit ``ref``, written under ``into``."""
    blob = subprocess.run(["git", "archive", ref, "engine"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")


def _child(path: Path, args: argparse.Namespace) -> dict[str, float]:
    """One measurement in a child process whose ``engine`` is the one under ``path``."""
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONDONTWRITEBYTECODE": "1"}
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(1, sys.argv[2]);"
        "import wyscig_speed as b;"
        "print(json.dumps(b.measure(*map(int, sys.argv[3:]))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), str(Path(__file__).parent)]
        + [str(v) for v in (args.races, args.players, args.stages, args.seed)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def _row(name: str, r: dict[str, float]) -> str:
    return (
        f"{name:<10} {r['races_per_s']:8.2f} {r['steps_per_race']:10.1f} "
        f"{r['copy_us']:8.2f} {r['awaited_us']:8.1f} {r['dump_us']:8.1f} {r['load_us']:8.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--races", type=int, default=20, help="races per measurement (default 20)")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--stages", type=int, default=6, help="stages a race (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first race (default 1)")
    parser.add_argument("--against", metavar="REF", help="compare with the engine of this git commit")
    parser.add_argument("--rounds", type=int, default=3, help="alternating measurements each (default 3)")
    args = parser.parse_args()
    print(f"Wyścig, {args.players} seats, {args.stages} stages, {args.races} races a measurement")
    print(
        f"{'engine':<10} {'races/s':>8} {'steps/race':>10} {'copy µs':>8} {'awaited':>8} {'dump µs':>8} {'load µs':>8}"
    )
    if not args.against:
        print(_row("this", measure(args.races, args.players, args.stages, args.seed)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        _engine_of(args.against, Path(tmp))
        ours: list[dict[str, float]] = []
        theirs: list[dict[str, float]] = []
        for _ in range(args.rounds):
            theirs.append(_child(Path(tmp), args))
            print(_row(args.against[:10], theirs[-1]))
            ours.append(_child(ROOT, args))
            print(_row("this", ours[-1]))
    for key, label in (
        ("race_s", "race time"),
        ("copy_us", "copy"),
        ("awaited_us", "awaited"),
        ("dump_us", "dump"),
        ("load_us", "load"),
    ):
        mine = statistics.median(r[key] for r in ours)
        base = statistics.median(r[key] for r in theirs)
        print(f"{label:<10} this / {args.against}: {mine / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
