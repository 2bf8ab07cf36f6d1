"""Engine speed of the four rule systems against a baseline commit, measured in the same run.

Every configuration plays complete all-bot races: each system's default stage with its default bot at 4
seats and at its most seats, and for Flamme Rouge also the *first-card game* (Firenze-Milano, four teams of
Rouleur and Sprinteur on a random grid, each rider playing the first card of its drawn hand, until every
rider has crossed) and the *heuristic game* (the same with the heuristic bot), and Tabella in live mode
(its default is plan mode, one step a race). Each side (the baseline, this
tree, and this tree's rollout mode where the tree has one) is a worker process of its own that imports the
engine of its own tree (``python -I``, the tree first on ``sys.path``); the workers are sent chunks of the
same seeded races in turn, alternating which goes first, so the load of a shared machine falls on every
side alike. The figures are each worker's CPU time (``time.process_time``) around the races alone.

``full`` is the common driver as the bot and the CLI run it (``Race.start``, then ``play_bots_until_human``:
every bot order asked from ``auto_order`` and validated, every event built, the record's orders kept);
``rollout`` is :func:`engine.race.rollout`, what ``gregario simulate`` and ``/stage analyse`` play (the same
rules, no record, no events unless asked).

``--instructions`` also counts instructions with ``valgrind --tool=cachegrind --cache-sim=no`` (the
difference between 1 and ``1 + --count-races`` races, per race), which the machine's load does not move.
``--pourpre PATH`` measures the first-card game against flamme-pourpre (antogruz/flamme-pourpre, a checkout
the user provides; it is run, never copied) in one process, as issue 28 describes: 500 races in alternating
50-race chunks, CPU time, its own Firenze-Milano and its standard bot teams (Rouleur and Sprinteur, the
first card of each hand) until every rider has crossed; this tree and the baseline each side by side with it.

    python bench/engine_speed.py                          # every configuration against da5f9a8
    python bench/engine_speed.py --only fr --races 300    # Flamme Rouge only
    python bench/engine_speed.py --only fr.first --pourpre /tmp/flamme-pourpre --no-baseline
    python bench/engine_speed.py --only fr --instructions

Byte-identical records and events: ``bench/identical.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "da5f9a8"


@dataclass(frozen=True)
class Config:
    """One benchmark setting: a system, its stage and options, how many seats and which bots."""

    name: str
    ruleset: str
    seats: int
    bots: tuple[str, ...] = ()
    """Strategies cycled over the seats; empty: the system's default strategy on every seat."""
    stage: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    races: int = 100
    """Races per side by default (a chunk is a tenth of them)."""


CONFIGS: tuple[Config, ...] = (
    Config("fr.4", "flamme_rouge", 4, races=500),
    Config("fr.6", "flamme_rouge", 6, races=300),
    Config("fr.first", "flamme_rouge", 4, ("first",), "Firenze-Milano", {"grid": "random"}, races=500),
    Config("fr.heuristic", "flamme_rouge", 4, ("heuristic",), "Firenze-Milano", {"grid": "random"}, races=500),
    Config("tabella.4", "tabella", 4, races=20),
    Config("tabella.20", "tabella", 20, races=4),
    Config("tabella.live.4", "tabella", 4, options={"mode": "live"}, races=10),
    Config("wyscig.4", "wyscig", 4, races=10),
    Config("wyscig.6", "wyscig", 6, races=6),
    Config("mind_cycling.4", "mind_cycling", 4, races=60),
    Config("mind_cycling.6", "mind_cycling", 6, races=30),
)
BY_NAME = {c.name: c for c in CONFIGS}


# --- the worker: runs in its own process, with its own tree's engine ---------------------------------
def _entrants(config: Config) -> list[Any]:
    from engine.registry import get_ruleset
    from engine.ruleset import Entrant

    ruleset = get_ruleset(config.ruleset)
    bots = config.bots or (ruleset.default_strategy,)
    seats = [Entrant(id=f"p{i}", name=f"P{i}", bot=bots[i % len(bots)]) for i in range(config.seats)]
    return ruleset.default_entrants(seats, config.options)


def play(config: Config, mode: str, races: int, seed: int) -> dict[str, float]:
    """CPU seconds for ``races`` races of ``config`` (seeds ``seed``...), with their steps and rounds."""
    from engine import race as driver

    entrants = _entrants(config)
    steps = rounds = 0
    start = time.process_time()
    for i in range(races):
        if mode == "rollout":
            played = driver.rollout(config.ruleset, entrants, seed + i, config.stage, config.options)  # type: ignore[attr-defined]
            steps += played.steps
            state = played.state
        else:
            race = driver.Race.start(config.ruleset, entrants, seed + i, config.stage, config.options)
            steps += race.play_bots_until_human()
            state = race.state
        rounds += getattr(state, "round", 1) - 1
    return {"cpu": time.process_time() - start, "races": races, "steps": steps, "rounds": rounds}


def pourpre(path: str, races: int, seed: int) -> dict[str, float]:
    """CPU seconds for ``races`` races of flamme-pourpre's own game (its code, at ``path``, run as it is):
    its Firenze-Milano, four of its standard bot teams (a Rouleur and a Sprinteur each, playing the first
    card of every hand), its own random start, until every rider has crossed. It draws from the global
    ``random`` generator, seeded here."""
    import random

    for sub in ("", "jeu", "beau", "main", "animate"):
        entry = str(Path(path) / sub) if sub else path
        if entry not in sys.path:
            sys.path.insert(0, entry)
    import runner  # type: ignore[import-not-found]  # flamme-pourpre's main/runner.py (its start grid)
    from race import Race, TeamInRace  # type: ignore[import-not-found]
    from teamsDirector import TeamsDirector  # type: ignore[import-not-found]
    from tracks import firenzeMilano  # type: ignore[import-not-found]

    random.seed(seed)
    director = TeamsDirector()
    rounds = 0
    start = time.process_time()
    for _ in range(races):
        teams = [TeamInRace(director.makeStandardBots(c)) for c in ("blue", "red", "black", "green")]
        runner.setRidersOnStart(teams)
        for team in teams:
            for rider in team.ridersInRace:
                rider.persistent.propulsor.newRace()
        game = Race(firenzeMilano(len(teams)), teams)
        while not game.isOver():
            game.newTurn()
            rounds += 1
    return {"cpu": time.process_time() - start, "races": races, "steps": rounds, "rounds": rounds}


def worker(tree: str) -> None:
    """Answer one JSON line per command line read: ``play NAME MODE RACES SEED`` or ``pourpre PATH RACES SEED``."""
    sys.path.insert(0, tree)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "play":
            answer = play(BY_NAME[words[1]], words[2], int(words[3]), int(words[4]))
        elif words[0] == "pourpre":
            answer = pourpre(words[1], int(words[2]), int(words[3]))
        elif words[0] == "has_rollout":
            from engine import race as driver

            answer = {"has": float(hasattr(driver, "rollout"))}
        else:
            raise SystemExit(f"unknown command {line!r}")
        print(json.dumps(answer), flush=True)


class Worker:
    """A worker process for one tree, sent commands one at a time."""

    def __init__(self, tree: Path, label: str) -> None:
        self.label = label
        self.tree = tree
        self.proc = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).resolve()), "--worker", str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
        )

    def ask(self, command: str) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker stopped (command {command!r})")
        answer: dict[str, float] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


# --- instruction counts ----------------------------------------------------------------------------
def count(tree: str, name: str, mode: str, races: int) -> None:
    """Play ``races`` races and exit (what valgrind counts), after a warm-up (imports, caches) and with the
    objects alive before them frozen out of the garbage collector: otherwise whether a full collection of
    the imported world happens to fall among the counted races moves the figure by millions."""
    import gc

    if name == "pourpre":  # flamme-pourpre's own game, from the checkout at ``tree``
        pourpre(tree, 3, 10**6)
        gc.collect()
        gc.freeze()
        pourpre(tree, races, 1)
        return
    sys.path.insert(0, tree)
    config = BY_NAME[name]
    play(config, mode, 3, 10**6)
    gc.collect()
    gc.freeze()
    play(config, mode, races, 1)


def instructions(tree: Path, name: str, mode: str, extra: int) -> float:
    """Instructions per race: (1 + ``extra`` races) minus 1 race, over ``extra``, under cachegrind."""
    counts = []
    for races in (1, 1 + extra):
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                "--cachegrind-out-file=/dev/null",
                sys.executable,
                "-I",
                str(Path(__file__).resolve()),
                "--count",
                str(tree),
                name,
                mode,
                str(races),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
            check=True,
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if found is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-500:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) / extra


# --- the comparison --------------------------------------------------------------------------------
def baseline_tree(ref: str, into: Path) -> Path:
    """A temporary ``git worktree`` of ``ref`` (detached), removed by :func:`drop_tree`."""
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(into), ref], cwd=ROOT, check=True, capture_output=True
    )
    return into


def drop_tree(path: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, capture_output=True)
    shutil.rmtree(path, ignore_errors=True)


def _sum(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: sum(r[k] for r in runs) for k in ("cpu", "races", "steps", "rounds")}


def measure(sides: list[tuple[Worker, str]], config: Config, races: int, chunks: int) -> list[dict[str, float]]:
    """Every side plays the same ``races`` races in ``chunks`` alternating chunks; the totals per side."""
    results: list[list[dict[str, float]]] = [[] for _ in sides]
    per = max(1, races // chunks)
    seed = 1
    for n in range(chunks):
        order = list(range(len(sides)))
        if n % 2:
            order.reverse()
        for k in order:
            worker_, mode = sides[k]
            results[k].append(worker_.ask(f"play {config.name} {mode} {per} {seed}"))
        seed += per
    return [_sum(r) for r in results]


def _line(label: str, r: dict[str, float]) -> str:
    return (
        f"  {label:<16} {r['races'] / r['cpu']:9.1f} races/s {r['steps'] / r['cpu']:10.0f} steps/s "
        f"{r['cpu'] / r['races'] * 1000:9.2f} ms CPU/race  ({r['steps'] / r['races']:.1f} steps a race)"
    )


def side_by_side(
    ours: Worker, path: str, races: int, chunk: int, modes: tuple[str, ...]
) -> tuple[list[dict[str, float]], dict[str, float]]:
    """Issue 28's measurement: the first-card game (in each of ``modes``) and flamme-pourpre's in one process
    (the worker's), alternating ``chunk``-race chunks; the totals of each mode and of flamme-pourpre."""
    mine: list[list[dict[str, float]]] = [[] for _ in modes]
    theirs: list[dict[str, float]] = []
    for mode in modes:  # warm-up: imports and caches
        ours.ask(f"play fr.first {mode} 20 {10**6}")
    ours.ask(f"pourpre {path} 5 {10**6}")
    done = 0
    while done < races:
        n = min(chunk, races - done)
        for k, mode in enumerate(modes):
            mine[k].append(ours.ask(f"play fr.first {mode} {n} {1 + done}"))
        theirs.append(ours.ask(f"pourpre {path} {n} {1 + done}"))
        done += n
    return [_sum(m) for m in mine], _sum(theirs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--count", nargs=4, metavar=("TREE", "NAME", "MODE", "RACES"), help=argparse.SUPPRESS)
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="measure this tree alone")
    parser.add_argument("--only", default="", help="configurations whose name starts with this (fr, fr.first, ...)")
    parser.add_argument("--races", type=int, help="races per side and configuration (default: the configuration's)")
    parser.add_argument("--chunks", type=int, default=10, help="alternating chunks per configuration (default 10)")
    parser.add_argument("--no-rollout", action="store_true", help="leave this tree's rollout mode out")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (cachegrind; slow)")
    parser.add_argument("--count-races", type=int, default=10, help="races counted by --instructions (default 10)")
    parser.add_argument("--pourpre", metavar="PATH", help="a flamme-pourpre checkout: the side-by-side of issue 28")
    parser.add_argument("--pourpre-races", type=int, default=500)
    parser.add_argument("--pourpre-chunk", type=int, default=50)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    if args.count:
        tree, name, mode, races = args.count
        count(tree, name, mode, int(races))
        return 0
    configs = [c for c in CONFIGS if c.name.startswith(args.only)]
    if not configs:
        parser.error(f"no configuration starts with {args.only!r}: {', '.join(BY_NAME)}")
    if args.pourpre and not (Path(args.pourpre) / "jeu" / "race.py").is_file():
        parser.error(f"{args.pourpre} is not a flamme-pourpre checkout (no jeu/race.py)")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind")
    tmp = Path(tempfile.mkdtemp(prefix="gregario-baseline-"))
    base_path = None if args.no_baseline else baseline_tree(args.baseline, tmp / "tree")
    workers: list[Worker] = []
    try:
        this = Worker(ROOT, "this tree")
        workers.append(this)
        sides: list[tuple[Worker, str, str]] = []
        base_rollout = False
        if base_path is not None:
            base = Worker(base_path, "baseline")
            workers.append(base)
            sides.append((base, "full", f"{args.baseline} full"))
            # a baseline with rollouts of its own (a commit after da5f9a8): its rollout is measured too
            base_rollout = not args.no_rollout and bool(base.ask("has_rollout")["has"])
            if base_rollout:
                sides.append((base, "rollout", f"{args.baseline} rollout"))
        sides.append((this, "full", "this full"))
        if not args.no_rollout and this.ask("has_rollout")["has"]:
            sides.append((this, "rollout", "this rollout"))
        print(f"CPU time per worker; {args.chunks} alternating chunks per configuration; baseline {args.baseline}")
        for config in configs:
            races = args.races or config.races
            for w, mode, _ in sides:  # warm-up: imports and caches, outside the figures
                w.ask(f"play {config.name} {mode} 2 {10**6}")
            totals = measure([(w, m) for w, m, _ in sides], config, races, args.chunks)
            print(f"{config.name}: {config.ruleset}, {config.seats} seats, stage {config.stage or 'default'}")
            for (_, _, label), r in zip(sides, totals, strict=True):
                print(_line(label, r))
            speeds = {label: r["races"] / r["cpu"] for (_, _, label), r in zip(sides, totals, strict=True)}
            ratios = []
            if base_path is not None:
                ratios.append(f"full {speeds['this full'] / speeds[f'{args.baseline} full']:.2f}x the baseline")
            if "this rollout" in speeds:
                ratios.append(f"rollout {speeds['this rollout'] / speeds['this full']:.2f}x the full driver")
                if base_path is not None:
                    ratios.append(f"{speeds['this rollout'] / speeds[f'{args.baseline} full']:.2f}x the baseline")
                if base_rollout:
                    rollout_ratio = speeds["this rollout"] / speeds[f"{args.baseline} rollout"]
                    ratios.append(f"rollout {rollout_ratio:.2f}x the baseline's rollout")
            if ratios:
                print("  ratio: " + ", ".join(ratios))
            if args.instructions:
                counted = {label: instructions(w.tree, config.name, mode, args.count_races) for w, mode, label in sides}
                print("  instructions per race: " + ", ".join(f"{k} {v / 1e6:.2f} M" for k, v in counted.items()))
                if base_path is not None:
                    share = counted["this full"] / counted[f"{args.baseline} full"]
                    print(f"  instructions, this full / baseline: {share:.3f}")
        if args.pourpre:
            print(
                f"\nflamme-pourpre side by side (one process, {args.pourpre_races} races, "
                f"{args.pourpre_chunk}-race chunks alternating, CPU time): the first-card game"
            )
            has_rollout = not args.no_rollout and this.ask("has_rollout")["has"]
            pairs = [(this, "this tree", ("full", "rollout") if has_rollout else ("full",))]
            if base_path is not None:
                pairs.append((workers[1], args.baseline, ("full", "rollout") if base_rollout else ("full",)))
            if args.instructions:
                counted = instructions(Path(args.pourpre), "pourpre", "full", args.count_races)
                print(f"  instructions per race of flamme-pourpre's game: {counted / 1e6:.2f} M")
            for w, label, modes in pairs:
                totals, theirs = side_by_side(w, args.pourpre, args.pourpre_races, args.pourpre_chunk, modes)
                print(
                    f"  flamme-pourpre beside {label}: {theirs['races'] / theirs['cpu']:7.1f} races/s"
                    f" {theirs['rounds'] / theirs['cpu']:8.0f} rounds/s"
                    f" ({theirs['rounds'] / theirs['races']:.2f} rounds a race)"
                )
                for mode, mine in zip(modes, totals, strict=True):
                    ratio = (mine["rounds"] / mine["cpu"]) / (theirs["rounds"] / theirs["cpu"])
                    print(
                        f"    {label} {mode:<8} {mine['races'] / mine['cpu']:7.1f} races/s"
                        f" {mine['rounds'] / mine['cpu']:8.0f} rounds/s ({mine['rounds'] / mine['races']:.2f} rounds a"
                        f" race): {ratio:.2f}x flamme-pourpre's rounds/s"
                    )
    finally:
        for w in workers:
            w.close()
        if base_path is not None:
            drop_tree(base_path)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
