"""Flamme Rouge engine speed: complete all-bot races through the bot's own engine path.

Every race goes through ``engine.race.Race`` (``start``, then ``play_step`` for every step with each bot's
order asked from ``auto_order`` and validated, exactly as the Discord bot and the CLI do), with a
heuristic team, a simple team, the Peloton and a Muscle team, ``finish="first"``.

``--compare`` runs the same number of races with the ``flamme-rouge`` package from PyPI (extra ``bench``):
its ``Game`` on the same base stage (Avenue Corso Paseo) with its Heuristic, Simple, Peloton and Muscle
teams, which also stops at the first rider across the line. Its logging is switched off, as ours does none.
The two run in alternating chunks and the figures are CPU time of this process, so that other jobs on a
shared machine disturb the ratio as little as possible.

    python bench/flamme_rouge_speed.py -n 1000
    python bench/flamme_rouge_speed.py -n 1000 --compare
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.race import Race
from engine.ruleset import Entrant

TEAMS = [
    Entrant(id="heuristic", name="Heuristic", bot="heuristic"),
    Entrant(id="simple", name="Simple", bot="simple"),
    Entrant(id="peloton", name="Peloton", bot="peloton"),
    Entrant(id="muscle", name="Muscle", bot="muscle"),
]


def ours(n: int, stage: str, seed: int) -> tuple[float, int]:
    """Seconds for ``n`` races, and the rounds they took."""
    rounds = 0
    start = time.process_time()
    for i in range(n):
        race = Race.start("flamme_rouge", TEAMS, seed + i, stage, {"finish": "first"})
        race.play_bots_until_human()
        rounds += race.state.round - 1
    return time.process_time() - start, rounds


def theirs(n: int, seed: int) -> tuple[float, int]:
    """The same with the ``flamme-rouge`` package (Avenue Corso Paseo)."""
    import logging
    import random

    from flamme_rouge.core import Game
    from flamme_rouge.strategies import Heuristic, Muscle, Peloton, Simple
    from flamme_rouge.tracks import AVENUE_CORSO_PASEO

    logging.disable(logging.CRITICAL)
    random.seed(seed)  # the package draws from the global generator
    rounds = 0
    start = time.process_time()
    for _ in range(n):
        teams = [Heuristic(name="heuristic"), Simple(name="simple"), Peloton(name="peloton"), Muscle(name="muscle")]
        game = Game(AVENUE_CORSO_PASEO, teams)
        game.play()
        rounds += game.rounds_played
    return time.process_time() - start, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-n", "--races", type=int, default=1000)
    parser.add_argument("--stage", default="Avenue Corso Paseo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="also run the flamme-rouge package from PyPI")
    args = parser.parse_args()
    if args.compare and importlib.util.find_spec("flamme_rouge") is None:
        parser.exit(2, "--compare needs the flamme-rouge package: install the bench extra, pip install -e '.[bench]'\n")
    ours(20, args.stage, 10**6)  # warm-up: imports and caches
    if args.compare:
        theirs(5, 10**6)
    # Both run in alternating chunks of 50 races, so that a busy shared machine slows both alike.
    secs = their_secs = 0.0
    rounds = their_rounds = 0
    done = 0
    while done < args.races:
        chunk = min(50, args.races - done)
        s, r = ours(chunk, args.stage, args.seed + done)
        secs, rounds = secs + s, rounds + r
        if args.compare:
            s, r = theirs(chunk, args.seed + done)
            their_secs, their_rounds = their_secs + s, their_rounds + r
        done += chunk
    print(
        f"gregario     {args.races} races on {args.stage!r}: {args.races / secs:8.1f} races/s "
        f"{rounds / secs:9.1f} rounds/s  ({rounds / args.races:.1f} rounds per race, {secs:.2f} s)"
    )
    if args.compare:
        if args.stage != "Avenue Corso Paseo":
            print("(the comparison uses the package's Avenue Corso Paseo)")
        print(
            f"flamme-rouge {args.races} races on 'Avenue Corso Paseo': {args.races / their_secs:8.1f} races/s "
            f"{their_rounds / their_secs:9.1f} rounds/s  ({their_rounds / args.races:.1f} rounds per race, "
            f"{their_secs:.2f} s)"
        )
        print(f"ratio (gregario / flamme-rouge): {their_secs / secs:.1f}x races/s")


if __name__ == "__main__":
    main()
