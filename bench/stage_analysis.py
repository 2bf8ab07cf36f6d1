"""``/stage analyse`` figures: how long an analysis of N all-bot races takes per rule system, and the
longest event-loop stall while it runs in its separate low-priority process.

    python bench/stage_analysis.py [-n 200] [--seed 1]

For each rule system (its default stage): seconds for the analysis in the niced process (wall clock, what
an admin waits after "thinking..."), the same analysis run inline for comparison (the ratio shows the cost
of the process hop), and the longest stall of this process's event loop meanwhile (what live races feel).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from bot.services.analysis import Analyser, analyse
from bot.services.lag import LagProbe
from engine.registry import RULESET_IDS


async def main(races: int, seed: int) -> None:
    analyser = Analyser()
    try:
        await analyser.run(0, RULESET_IDS[0], None, 1, seed)  # start the process (spawn) outside the figures
        print(f"{'rule system':<14} {'process s':>10} {'inline s':>10} {'races/s':>8} {'longest stall ms':>17}")
        for ruleset_id in RULESET_IDS:
            started = time.perf_counter()
            async with LagProbe() as probe:
                found = await analyser.run(1, ruleset_id, None, races, seed)
            in_process = time.perf_counter() - started
            started = time.perf_counter()
            inline = analyse(ruleset_id, None, races, seed)
            alone = time.perf_counter() - started
            assert inline == found, "the same seed must give the same figures"
            print(
                f"{ruleset_id:<14} {in_process:>10.2f} {alone:>10.2f} {races / in_process:>8.1f}"
                f" {probe.longest * 1000:>17.1f}"
            )
    finally:
        analyser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--races", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.races, args.seed))
