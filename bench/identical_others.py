"""Speed with no shortcuts: Tabella, Wyścig and Mind Cycling play exactly as a baseline commit does.

    python bench/identical_others.py [--races 200] [--against COMMIT] [--only tabella,wyscig] [--awaited 20]

Every stage preset and every variant of ``bench/smoke.py`` of the three systems plays ``--races`` seeded
all-bot races (seeds 1, 2, ...) through :class:`engine.race.Race`, in this tree and in ``COMMIT`` (default
``da5f9a8``, checked out in a temporary git worktree), each in its own process. Per race, a digest of its
record (JSON), every event of its opening, steps and publication (JSON), its result and its final state
(dumped), and for the first ``--awaited`` races of each combination every step's awaited decisions: the
two trees must give the same digest for every race. Prints one line per combination and exits 1 on any
difference (naming the first race that differs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_tree import DEFAULT_BASELINE, baseline_worktree, child_tree, run_child

SYSTEMS = ("tabella", "wyscig", "mind_cycling")


def combinations(only: list[str] | None) -> list[tuple[str, int, list[str], dict[str, Any], Any]]:
    """(rule system, players, strategies, options, stage): every preset with the system's first variant of
    ``bench/smoke.py``, then every variant."""
    from smoke import VARIANTS

    from engine.registry import get_ruleset

    out = []
    for ruleset_id in SYSTEMS:
        if only and ruleset_id not in only:
            continue
        variants = [v for v in VARIANTS if v[0] == ruleset_id]
        first = variants[0]
        for preset in get_ruleset(ruleset_id).presets():
            out.append((ruleset_id, first[1], first[2], {}, preset.name))
        out += variants
    return out


def digests(races: int, awaited: int, only: list[str] | None) -> dict[str, Any]:
    """Each combination's per-race digests and the CPU seconds it took."""
    from engine.race import Race, StepPlayed
    from engine.registry import get_ruleset
    from engine.ruleset import Entrant

    out: dict[str, Any] = {}
    for ruleset_id, players, strategies, options, stage in combinations(only):
        ruleset = get_ruleset(ruleset_id)
        name = f"{ruleset_id} {players} players {json.dumps(options)} {stage}"
        found = []
        started = time.process_time()
        for n in range(races):
            seats = [
                Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + n) % len(strategies)]) for i in range(players)
            ]
            race = Race.start(ruleset_id, ruleset.default_entrants(seats, options), 1 + n, stage=stage, options=options)
            digest = hashlib.sha256()
            digest.update(json.dumps([e.model_dump() for e in race.opening], sort_keys=True).encode())
            steps: list[dict[str, Any]] = []

            def keep(step: StepPlayed, race: Any = race, digest: Any = digest, steps: Any = steps, n: int = n) -> None:
                steps.append(step.orders)
                digest.update(json.dumps([e.model_dump() for e in step.events], sort_keys=True).encode())
                if n < awaited:
                    decisions = [d.model_dump() for d in race.awaited()]
                    digest.update(json.dumps(decisions, sort_keys=True, default=str).encode())

            if n < awaited:
                digest.update(
                    json.dumps([d.model_dump() for d in race.awaited()], sort_keys=True, default=str).encode()
                )
            race.play_bots_until_human(keep)
            digest.update(json.dumps([e.model_dump() for e in race.publish()], sort_keys=True).encode())
            digest.update(race.record(steps).model_dump_json().encode())
            digest.update(race.result().model_dump_json().encode())
            digest.update(json.dumps(ruleset.dump(race.state), sort_keys=True).encode())
            found.append(digest.hexdigest())
        out[name] = {"digests": found, "cpu": time.process_time() - started}
        print(f"  {name}: {races} races", file=sys.stderr, flush=True)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--awaited", type=int, default=20, help="races per combination whose decisions are compared")
    parser.add_argument("--against", default=DEFAULT_BASELINE)
    parser.add_argument("--only", type=lambda s: s.split(","), default=None, help="rule systems, comma-separated")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(digests(args.races, args.awaited, args.only)))
        return 0
    script = Path(__file__).resolve()
    wanted = ["--races", str(args.races), "--awaited", str(args.awaited)]
    if args.only:
        wanted += ["--only", ",".join(args.only)]
    mine = run_child(script, script.parent.parent, wanted)
    with baseline_worktree(args.against) as tree:
        theirs = run_child(script, tree, wanted)
    different = 0
    for name, found in mine.items():
        old = theirs[name]
        same = sum(a == b for a, b in zip(found["digests"], old["digests"], strict=True))
        first = next((i for i, (a, b) in enumerate(zip(found["digests"], old["digests"], strict=True)) if a != b), None)
        verdict = "identical" if first is None else f"DIFFERENT from race {first} (seed {first + 1})"
        different += first is not None
        print(
            f"{name:<90} {same:>4}/{len(found['digests'])} {verdict}"
            f"   CPU with the digests {found['cpu']:.1f} s vs {old['cpu']:.1f} s"
        )
    print("every race identical to", args.against if not different else f"{different} combinations DIFFER")
    return 1 if different else 0


if __name__ == "__main__":
    child_tree(sys.argv)
    sys.exit(main(sys.argv[1:]))
