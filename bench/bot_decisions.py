"""How long a bot takes to decide, per rule system and strategy, at each system's largest field.

    python bench/bot_decisions.py [--decisions 1000] [--against COMMIT] [--against-decisions N]
    python bench/bot_decisions.py --positions 500 [--against COMMIT]

Timing: seeded all-bot races at the system's maximum players (the strategies rotating over the seats, so
every strategy meets every other), each bot decision -- the rule system's ``auto_order`` as the driver calls
it -- timed in CPU time (``time.process_time_ns`` around the call), until every strategy of every
configuration has made at least ``--decisions`` decisions. Prints p50/p95/p99/max in ms per configuration
and strategy. ``--against COMMIT`` (default ``da5f9a8``) checks that commit out in a temporary git worktree
and measures it in the same run, each side in its own process importing its own tree, on the same seeded
races (the first ``--against-decisions`` of them, the slow baseline taking long), and prints the ratios.

``--positions N``: the proof that the bots kept their strength. N seeded positions per rule system (every
configuration and strategy, drawn evenly from races played on the baseline) are dumped; both trees load each
one and ask the same bot for its order, and the orders must be identical, position by position.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_tree import (
    DEFAULT_BASELINE,
    baseline_worktree,
    child_tree,
    percentile,
    run_child,
)

CONFIGS: list[tuple[str, str, int, dict[str, Any], Any]] = [
    # (rule system, label, players: the system's most, options, stage: None = the default stage)
    ("flamme_rouge", "6 teams", 6, {}, None),
    ("tabella", "plan, 20 riders", 20, {"mode": "plan"}, None),
    ("tabella", "live, 20 riders", 20, {"mode": "live"}, None),
    # the cautious bot models the others' own dodging in fields of 8 or fewer (bots.SMART_LIMIT): its most work
    ("tabella", "plan, 8 riders", 8, {"mode": "plan"}, None),
    ("tabella", "live, 8 riders", 8, {"mode": "live"}, None),
    ("wyscig", "8 players, 6 stages", 8, {"max_players": 8}, None),
    ("mind_cycling", "orders, 6 teams", 6, {"mode": "orders"}, None),
    ("mind_cycling", "live, 6 teams", 6, {"mode": "live"}, None),
]
MAX_RACES = 400
"""A configuration stops after this many races even if a strategy has fewer decisions (it never should)."""


def _start(ruleset_id: str, strategies: tuple[str, ...], players: int, n: int, options: Any, stage: Any) -> Any:
    """Race ``n`` of a configuration (seeded), its seats taking the strategies in turn from seat ``n``.

    Where the rules refuse a mix (Flamme Rouge has one Peloton at most), the seats past the first
    ``len(strategies)`` move on to the next strategy until the race starts."""
    from engine.race import Race
    from engine.record import RecordError
    from engine.ruleset import Entrant

    for shift in range(len(strategies)):
        names = [strategies[(i + n + (shift if i >= len(strategies) else 0)) % len(strategies)] for i in range(players)]
        seats = [Entrant(id=f"p{i + 1}", name=f"P{i + 1}", bot=s) for i, s in enumerate(names)]
        try:
            return Race.start(ruleset_id, seats, n, stage=stage, options=options)
        except RecordError:
            if shift == len(strategies) - 1:
                raise
    raise AssertionError("unreachable")


# --- children ------------------------------------------------------------------------------------
def measure(decisions: int, only: list[str] | None) -> dict[str, Any]:
    """Every configuration's decision times (ns) by strategy, from races seeded 1000, 1001..."""
    from engine.registry import get_ruleset

    out: dict[str, Any] = {}
    for ruleset_id, label, players, options, stage in CONFIGS:
        if only and ruleset_id not in only:
            continue
        ruleset = get_ruleset(ruleset_id)
        times: dict[str, list[int]] = {s: [] for s in ruleset.strategies}
        plain = ruleset.auto_order

        def timed(
            state: Any,
            entrant: str,
            partial: Any = None,
            strategy: str | None = None,
            plain: Any = plain,
            times: Any = times,
        ) -> Any:
            clock = time.process_time_ns
            started = clock()
            order = plain(state, entrant, partial, strategy)
            spent = clock() - started
            if strategy is not None:
                times[strategy].append(spent)
            return order

        ruleset.auto_order = timed  # type: ignore[method-assign]
        races = 0
        try:
            while races < MAX_RACES and min(len(v) for v in times.values()) < decisions:
                race = _start(ruleset_id, ruleset.strategies, players, 1000 + races, options, stage)
                race.play_bots_until_human()
                races += 1
        finally:
            del ruleset.auto_order
        out[f"{ruleset_id}: {label}"] = {"races": races, "times": times}
        print(f"  {ruleset_id}: {label}: {races} races", file=sys.stderr, flush=True)
    return out


def collect(positions: int, only: list[str] | None) -> dict[str, Any]:
    """``positions`` positions per rule system: dumped states and the bots deciding on them (one entry per
    step, every bot of that step, as the driver asks them), drawn evenly from races seeded 5000, 5001..."""
    from engine.registry import get_ruleset

    out: list[dict[str, Any]] = []
    for ruleset_id in dict.fromkeys(c[0] for c in CONFIGS):
        if only and ruleset_id not in only:
            continue
        configs = [c for c in CONFIGS if c[0] == ruleset_id]
        ruleset = get_ruleset(ruleset_id)
        quota = -(-positions // len(configs))
        for _, label, players, options, stage in configs:
            steps: list[dict[str, Any]] = []
            plain = ruleset.auto_order

            def seen(
                state: Any,
                entrant: str,
                partial: Any = None,
                strategy: str | None = None,
                plain: Any = plain,
                steps: Any = steps,
            ) -> Any:
                if strategy is not None and partial is None:
                    if not steps or steps[-1].get("_state") is not state:
                        steps.append({"_state": state, "bots": []})
                    steps[-1]["bots"].append([entrant, strategy])
                return plain(state, entrant, partial, strategy)

            ruleset.auto_order = seen  # type: ignore[method-assign]
            try:
                n = 0
                while n < 2 or sum(len(e["bots"]) for e in steps) < 3 * quota:
                    race = _start(ruleset_id, ruleset.strategies, players, 5000 + n, options, stage)
                    race.play_bots_until_human()
                    n += 1
                    # dump each step's state now (a later step never changes an earlier state)
                    for entry in steps:
                        if "_state" in entry:
                            entry["state"] = ruleset.dump(entry.pop("_state"))
            finally:
                del ruleset.auto_order
            # steps evenly spaced over the races, until the quota of decisions is met
            total = sum(len(e["bots"]) for e in steps)
            wanted = min(len(steps), -(-quota * len(steps) // total))
            picked = [steps[i * len(steps) // wanted] for i in range(wanted)]
            count = sum(len(e["bots"]) for e in picked)
            for entry in picked:
                out.append({"ruleset": ruleset_id, "config": label, "state": entry["state"], "bots": entry["bots"]})
            print(f"  {ruleset_id}: {label}: {count} positions of {total} ({n} races)", file=sys.stderr, flush=True)
    return {"positions": out}


def decide(positions: list[dict[str, Any]]) -> list[list[Any]]:
    """Each position's bot orders, from its loaded state (every bot of a step asked on one loaded state)."""
    from engine.registry import get_ruleset

    answers = []
    for entry in positions:
        ruleset = get_ruleset(entry["ruleset"])
        state = ruleset.load(entry["state"])
        answers.append([ruleset.auto_order(state, who, None, strategy) for who, strategy in entry["bots"]])
    return answers


# --- the parent ----------------------------------------------------------------------------------
def _stats(values: list[int]) -> tuple[float, float, float, float]:
    ordered = sorted(values)
    return tuple(percentile(ordered, q) / 1e6 for q in (0.5, 0.95, 0.99, 1.0))  # type: ignore[return-value]


def _timing(args: argparse.Namespace) -> int:
    script = Path(__file__).resolve()
    here = script.parent.parent
    only = ["--only", ",".join(args.only)] if args.only else []
    mine = run_child(script, here, ["--measure", "--decisions", str(args.decisions), *only])
    theirs: dict[str, Any] | None = None
    if args.against:
        with baseline_worktree(args.against) as tree:
            theirs = run_child(script, tree, ["--measure", "--decisions", str(args.against_decisions), *only])
    print(f"bot decisions, CPU ms (this tree{'' if not theirs else f' / baseline {args.against}'})")
    worst = 0.0
    for config, found in mine.items():
        print(f"{config} ({found['races']} races)")
        for strategy, values in found["times"].items():
            if not values:
                print(f"  {strategy:<12} makes no decisions (an official bot team: the rules play it in resolve)")
                continue
            p50, p95, p99, top = _stats(values)
            worst = max(worst, p95)
            line = f"  {strategy:<12} n={len(values):<6} p50 {p50:7.2f}  p95 {p95:7.2f}  p99 {p99:7.2f}  max {top:7.2f}"
            if theirs and config in theirs:
                old = theirs[config]["times"][strategy]
                b50, b95, _, btop = _stats(old)
                line += (
                    f"   | baseline n={len(old):<6} p50 {b50:7.2f}  p95 {b95:7.2f}  max {btop:7.2f}"
                    f"   | p50 {b50 / p50:6.1f}x  p95 {b95 / p95:6.1f}x faster"
                )
            print(line)
    print(f"worst p95: {worst:.2f} ms (target < 5 ms)")
    return 0


def _positions(args: argparse.Namespace) -> int:
    script = Path(__file__).resolve()
    here = script.parent.parent
    with baseline_worktree(args.against) as tree, tempfile.TemporaryDirectory() as scratch:
        only = ["--only", ",".join(args.only)] if args.only else []
        found = run_child(script, tree, ["--collect", str(args.positions), *only])
        file = Path(scratch) / "positions.json"
        file.write_text(json.dumps(found["positions"]))
        theirs = run_child(script, tree, ["--decide", str(file)])
        mine = run_child(script, here, ["--decide", str(file)])
    positions = found["positions"]
    by_system: dict[str, list[int]] = {}
    failures = 0
    for entry, old, new in zip(positions, theirs, mine, strict=True):
        tally = by_system.setdefault(entry["ruleset"], [0, 0])
        for (who, strategy), a, b in zip(entry["bots"], old, new, strict=True):
            tally[0] += 1
            if a == b:
                tally[1] += 1
            else:
                failures += 1
                if failures <= 5:
                    print(f"DIFFERENT {entry['ruleset']} {entry['config']} {who} ({strategy}): {a} != {b}")
    for system, (count, same) in by_system.items():
        print(f"{system:<13} {count} positions, {same} identical decisions to {args.against}")
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--against", nargs="?", const=DEFAULT_BASELINE, default=None)
    parser.add_argument("--against-decisions", type=int, default=300)
    parser.add_argument("--positions", type=int, default=0)
    parser.add_argument("--only", type=lambda s: s.split(","), default=None, help="rule systems, comma-separated")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--collect", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--decide", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        if args.measure:
            print(json.dumps(measure(args.decisions, args.only)))
        elif args.collect:
            print(json.dumps(collect(args.collect, args.only)))
        elif args.decide:
            print(json.dumps(decide(json.loads(Path(args.decide).read_text()))))
        return 0
    if args.positions:
        if not args.against:
            args.against = DEFAULT_BASELINE
        return _positions(args)
    return _timing(args)


if __name__ == "__main__":
    child_tree(sys.argv)
    sys.exit(main(sys.argv[1:]))
