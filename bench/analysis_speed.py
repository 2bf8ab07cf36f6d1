"""``/stage analyse`` in seconds: the analysis of N races per rule system, this tree against a baseline.

    python bench/analysis_speed.py [-n 200] [--seed 1] [--against COMMIT] [--only wyscig,tabella]

For each rule system's default stage (Wyścig: 6 stages), in a fresh process per tree and system (this
tree, then ``COMMIT``, default ``da5f9a8``, checked out in a temporary git worktree, alternating system by
system): the wall-clock seconds of ``Analyser.run`` -- the bot's own path, the races in its separate
low-priority processes, started beforehand by a four-race analysis outside the figures -- and the CPU
seconds of the same analysis run inline (``analyse``). The figures of the two runs of a tree must agree,
and so must the two trees' (the same seeds give the same analysis). Prints seconds and ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_tree import DEFAULT_BASELINE, baseline_worktree, child_tree, run_child

SYSTEMS = ("flamme_rouge", "tabella", "wyscig", "mind_cycling")


async def _through_the_analyser(system: str, races: int, seed: int) -> tuple[float, Any]:
    from bot.services.analysis import Analyser

    analyser = Analyser()
    try:
        # the processes start (spawn, imports) outside the figures: one race for each (the baseline has one)
        await analyser.run(0, system, None, 4, seed)
        started = time.perf_counter()
        found = await analyser.run(1, system, None, races, seed)
        return time.perf_counter() - started, found
    finally:
        analyser.close()


def measure(system: str, races: int, seed: int) -> dict[str, Any]:
    from bot.services.analysis import analyse

    wall, found = asyncio.run(_through_the_analyser(system, races, seed))
    started = time.process_time()
    inline = analyse(system, None, races, seed)
    cpu = time.process_time() - started
    if inline != found:
        raise SystemExit(f"{system}: the analysis process and the inline analysis disagree")
    return {"wall": wall, "cpu": cpu, "figures": asdict(found)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--races", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", default=DEFAULT_BASELINE)
    parser.add_argument("--only", type=lambda s: s.split(","), default=None, help="rule systems, comma-separated")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--system", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.system, args.races, args.seed)))
        return 0
    script = Path(__file__).resolve()
    here = script.parent.parent
    systems = [s for s in SYSTEMS if not args.only or s in args.only]
    print(f"/stage analyse of {args.races} races (seed {args.seed}), this tree against {args.against}")
    print(
        f"{'rule system':<14} {'process s':>10} {'baseline s':>11} {'ratio':>7}   "
        f"{'inline CPU s':>12} {'baseline':>9} {'ratio':>7}   figures"
    )
    different = 0
    with baseline_worktree(args.against) as tree:
        for system in systems:
            wanted = ["--system", system, "--races", str(args.races), "--seed", str(args.seed)]
            mine = run_child(script, here, wanted)
            theirs = run_child(script, tree, wanted)
            same = mine["figures"] == theirs["figures"]
            different += not same
            print(
                f"{system:<14} {mine['wall']:>10.2f} {theirs['wall']:>11.2f} {theirs['wall'] / mine['wall']:>6.2f}x   "
                f"{mine['cpu']:>12.2f} {theirs['cpu']:>9.2f} {theirs['cpu'] / mine['cpu']:>6.2f}x   "
                f"{'identical' if same else 'DIFFERENT'}",
                flush=True,
            )
            if not same:
                for key, value in mine["figures"].items():
                    if theirs["figures"].get(key) != value:
                        print(f"   {key}: {value} != {theirs['figures'].get(key)}")
    return 1 if different else 0


if __name__ == "__main__":
    child_tree(sys.argv)
    sys.exit(main(sys.argv[1:]))
