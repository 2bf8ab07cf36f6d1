"""Records and events byte-identical to a baseline commit, on seeded all-bot races of every preset and variant.

Speed work must not change a single byte of what a race says or keeps. For every stage preset of each rule
system (with the seats of its first variant in ``bench/smoke.py``) and every variant of ``bench/smoke.py``,
``--races`` seeded all-bot races are played through the common driver in two worker processes, one importing
the engine of a baseline commit (a temporary ``git worktree``) and one this tree's; each race is summed up
as a SHA-256 of its opening events, every step's orders (as the record keeps them) and events (their JSON),
the published news, the record's JSON, the result and the final state's dump. Any difference names the
variant and the first seed that differs; the exit status is 1.

    python bench/identical.py                      # 200 races per preset and variant, every system
    python bench/identical.py --only flamme_rouge  # one system
    python bench/identical.py --races 20 --baseline main
    python bench/identical.py --rollouts --races 50  # quiet rollouts against the full driver, this tree
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "da5f9a8"
SYSTEMS = ("flamme_rouge", "tabella", "wyscig", "mind_cycling")
EXTRA: list[tuple[str, int, list[str], dict[str, Any], Any]] = [
    ("flamme_rouge", 4, ["first"], {"grid": "random"}, "Firenze-Milano"),  # bench/engine_speed.py's games
    ("flamme_rouge", 4, ["heuristic"], {"grid": "random"}, "Firenze-Milano"),
    ("flamme_rouge", 6, ["heuristic", "simple", "first"], {}, None),
    ("flamme_rouge", 5, ["first", "simple"], {"meteo": "random", "grid": "random", "finish_overflow": "clip"}, None),
]
"""Settings beyond smoke's: the games bench/engine_speed.py measures, and the first-card bot in more places."""


def _variants() -> list[tuple[str, int, list[str], dict[str, Any], Any]]:
    """bench/smoke.py's variants (this tree's file, so both sides play the same list)."""
    spec = importlib.util.spec_from_file_location("smoke_variants", Path(__file__).with_name("smoke.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    variants: list[tuple[str, int, list[str], dict[str, Any], Any]] = module.VARIANTS
    return variants


def settings(only: str) -> list[tuple[str, str, int, list[str], dict[str, Any], Any]]:
    """(label, ruleset, seats, strategies, options, stage) of every preset and every variant."""
    from engine.registry import get_ruleset

    variants = _variants()
    out = []
    for system in SYSTEMS:
        if only and system != only:
            continue
        mine = [v for v in variants if v[0] == system] + [v for v in EXTRA if v[0] == system]
        _, seats, strategies, _, _ = mine[0]
        for preset in get_ruleset(system).presets():
            out.append((f"{system} stage {preset.name}", system, seats, strategies, {}, preset.name))
        for n, (_, seats, strategies, options, stage) in enumerate(mine):
            out.append(
                (f"{system} variant {n} {options} {stage or ''}".rstrip(), system, seats, strategies, options, stage)
            )
    return out


def digest(ruleset_id: str, seats: int, strategies: list[str], options: dict[str, Any], stage: Any, seed: int) -> str:
    """The SHA-256 of everything race ``seed`` says and keeps (see the module's docstring)."""
    from engine.race import Race
    from engine.registry import get_ruleset
    from engine.ruleset import Entrant

    ruleset = get_ruleset(ruleset_id)
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + seed) % len(strategies)]) for i in range(seats)]
    race = Race.start(ruleset_id, ruleset.default_entrants(entrants, options), seed, stage=stage, options=options)
    h = hashlib.sha256()
    for e in race.opening:
        h.update(e.model_dump_json().encode())
    steps: list[dict[str, Any]] = []

    def keep(played: Any) -> None:
        steps.append(played.orders)
        h.update(json.dumps(played.orders).encode())
        for e in played.events:
            h.update(e.model_dump_json().encode())

    race.play_bots_until_human(keep)
    for e in race.publish():
        h.update(e.model_dump_json().encode())
    h.update(race.record(steps).to_json().encode())
    h.update(race.result().model_dump_json().encode())
    h.update(json.dumps(ruleset.dump(race.state), sort_keys=True, default=str).encode())
    return h.hexdigest()


def rollout_differs(
    ruleset_id: str, seats: int, strategies: list[str], options: dict[str, Any], stage: Any, seed: int
) -> str | None:
    """What a quiet rollout of race ``seed`` (no event, no check: ``Ruleset.play_bots``) ends with that the full
    driver's race does not (steps, result, published news, final state), or ``None``."""
    from engine.race import Race, Rollout
    from engine.registry import get_ruleset
    from engine.ruleset import Entrant

    ruleset = get_ruleset(ruleset_id)
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + seed) % len(strategies)]) for i in range(seats)]
    entrants = ruleset.default_entrants(entrants, options)
    race = Race.start(ruleset_id, entrants, seed, stage=stage, options=options)
    race.play_bots_until_human()
    played = Rollout.start(ruleset_id, entrants, seed, stage, options)
    played.play()
    if played.steps != race.played:
        return f"{played.steps} steps, the full driver {race.played}"
    if played.result().model_dump() != race.result().model_dump():
        return "the result"
    if ruleset.dump(played.state) != ruleset.dump(race.state):
        return "the final state"
    if [e.model_dump() for e in played.publish()] != [e.model_dump() for e in race.publish()]:
        return "the published news"
    return None


def rollouts(only: str, races: int) -> int:
    """``--rollouts``: every setting's quiet rollouts against the full driver, in this tree alone."""
    sys.path.insert(0, str(ROOT))
    started = time.perf_counter()
    differ = 0
    every = settings(only)
    for label, system, seats, strategies, options, stage in every:
        for n in range(races):
            why = rollout_differs(system, seats, strategies, options, stage, 1000 + n)
            if why is not None:
                differ += 1
                print(f"DIFFERENT {label}: seed {1000 + n}: {why}")
                break
        else:
            print(f"identical {label}: {races} rollouts")
    print(
        f"{len(every) - differ} of {len(every)} settings: rollouts as the full driver "
        f"({len(every) * races} races, {time.perf_counter() - started:.0f} s)"
    )
    return 1 if differ else 0


def worker(tree: str, only: str, races: int) -> None:
    """Print one JSON line per setting: its label and its races' digests."""
    sys.path.insert(0, tree)
    for label, system, seats, strategies, options, stage in settings(only):
        digests = [digest(system, seats, strategies, options, stage, 1000 + n) for n in range(races)]
        print(json.dumps({"label": label, "digests": digests}), flush=True)


def run(tree: Path, only: str, races: int) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-I", str(Path(__file__).resolve()), "--worker", str(tree), only, str(races)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    if done.returncode:
        raise SystemExit(f"the worker of {tree} failed:\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", nargs=3, metavar=("TREE", "ONLY", "RACES"), help=argparse.SUPPRESS)
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--only", default="", choices=("", *SYSTEMS), help="one rule system")
    parser.add_argument("--races", type=int, default=200, help="seeded races per preset and variant (default 200)")
    parser.add_argument(
        "--rollouts",
        action="store_true",
        help="instead: quiet rollouts against the full driver in this tree (steps, result, news, final state)",
    )
    args = parser.parse_args()
    if args.rollouts:
        return rollouts(args.only, args.races)
    if args.worker:
        tree, only, races = args.worker
        worker(tree, only, int(races))
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="gregario-identical-"))
    base = tmp / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(base), args.baseline],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    try:
        started = time.perf_counter()
        theirs = run(base, args.only, args.races)
        ours = run(ROOT, args.only, args.races)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    differ = 0
    for mine, base_row in zip(ours, theirs, strict=True):
        assert mine["label"] == base_row["label"]
        bad = [n for n, (a, b) in enumerate(zip(mine["digests"], base_row["digests"], strict=True)) if a != b]
        if bad:
            differ += 1
            print(f"DIFFERENT {mine['label']}: {len(bad)} of {args.races} races, first seed {1000 + bad[0]}")
        else:
            print(f"identical {mine['label']}: {args.races} races")
    total = len(ours)
    print(
        f"{total - differ} of {total} settings identical to {args.baseline} "
        f"({total * args.races} races, {time.perf_counter() - started:.0f} s)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
