"""Where a race's CPU goes, in the full driver and in a rollout: what share a rollout could ever skip.

Plays ``--races`` races of one ``bench/engine_speed.py`` configuration through each driver (``full``:
``Race.start`` and ``play_bots_until_human``; ``rollout``: ``engine.race.rollout``) with the rule system's
methods (``awaited_ids``, ``awaited``, ``auto_order``, ``validate``, ``resolve``, ``advance``, ``finished``,
``new_race``) and any ``--also module:function`` or ``module:Class.method`` wrapped in a timer, and prints each
one's *exclusive* CPU time (what it spent less what the other timed calls inside it spent) per race and its
share; the rest is the driver, the record and whatever is not timed. A wrapped call costs about a
microsecond: the shares, not the absolute times, are the point (``bench/engine_speed.py`` times the drivers).
A rollout must still pay its bots and the rules' resolution: the full driver over those two is the ceiling
of the rollout / full ratio.

    python bench/phases.py mind_cycling.4 --races 60 --also engine.mind_cycling.resolution:resolve_step
    python bench/phases.py tabella.live.4 --races 10 --also engine.tabella.steps:resolve \
        --also engine.tabella.state:RaceState.copy
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(1, str(Path(__file__).resolve().parent))

import engine_speed  # this tree's bench, on the path just above

METHODS = ("awaited_ids", "awaited", "auto_order", "validate", "resolve", "advance", "finished", "new_race")


class Timers:
    """Exclusive CPU time per label: a call's time less the time of the timed calls it made."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self._stack: list[list[float]] = []

    def wrap(self, label: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._stack.append([time.process_time(), 0.0])
            try:
                return func(*args, **kwargs)
            finally:
                began, inner = self._stack.pop()
                spent = time.process_time() - began
                self.totals[label] = self.totals.get(label, 0.0) + spent - inner
                if self._stack:
                    self._stack[-1][1] += spent

        return timed


def install(timers: Timers, ruleset_id: str, also: list[str]) -> None:
    """Wrap the rule system's methods and each ``module:function`` / ``module:Class.method`` of ``also``."""
    from engine.registry import get_ruleset

    cls = type(get_ruleset(ruleset_id))
    for name in METHODS:
        if hasattr(cls, name):
            setattr(cls, name, timers.wrap(name, getattr(cls, name)))
    for spec in also:
        module_name, _, attr = spec.partition(":")
        owner: Any = importlib.import_module(module_name)
        if "." in attr:
            klass, attr = attr.split(".", 1)
            owner = getattr(owner, klass)
        setattr(owner, attr, timers.wrap(spec, getattr(owner, attr)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", choices=sorted(engine_speed.BY_NAME))
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--also", action="append", default=[], help="module:function or module:Class.method")
    args = parser.parse_args()
    config = engine_speed.BY_NAME[args.config]
    timers = Timers()
    install(timers, config.ruleset, args.also)
    for mode in ("full", "rollout"):
        engine_speed.play(config, mode, 2, 10**6)  # warm-up: imports, caches
        timers.totals.clear()
        began = time.process_time()
        engine_speed.play(config, mode, args.races, 1)
        whole = time.process_time() - began
        print(f"{config.name} {mode}: {whole / args.races * 1000:.2f} ms a race")
        for label, spent in sorted(timers.totals.items(), key=lambda kv: -kv[1]):
            print(f"   {label:48s} {spent / args.races * 1000:7.2f} ms  {100 * spent / whole:5.1f}%")
        rest = whole - sum(timers.totals.values())
        label = "the driver, the record, the rest"
        print(f"   {label:48s} {rest / args.races * 1000:7.2f} ms  {100 * rest / whole:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
