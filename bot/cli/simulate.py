"""``gregario simulate``: many all-bot races, to compare strategies and to smoke-test a rule system.

Wins are counted by seat and by strategy (a seat's strategy rotates from race to race unless
``--no-rotate``), so a strategy's edge is not confused with a seat's. Official bot teams added by the
rule system's default seats (Flamme Rouge's Peloton) are counted under their own names.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.cli.inputs import UsageError, brief, check_record_path, parse_options, parse_stage
from bot.cli.replay import render_standings
from bot.cli.seats import bot_seats, new_seed, parse_strategies
from engine.race import Race, Rollout, StepPlayed
from engine.record import RecordError
from engine.registry import get_ruleset
from engine.ruleset import Entrant
from engine.validation import describe_validation_error


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (sound also near 0 % and 100 %)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _recorder(steps: list[dict[str, Any]]) -> Callable[[StepPlayed], None]:
    """A step callback that keeps each step's orders (the race record's steps) in ``steps``."""

    def keep(played: StepPlayed) -> None:
        steps.append(played.orders)

    return keep


def simulate(args: argparse.Namespace) -> int:
    """Run the races and print the tables; Ctrl-C stops early (exit status 130) with the last race's record
    saved; a bad argument raises :class:`UsageError` before the first race."""
    ruleset = get_ruleset(args.ruleset)
    check_record_path(args.record)
    options = parse_options(args.option)
    stage = parse_stage(args.stage)
    strategies = parse_strategies(ruleset, args.bots)
    try:
        fewest = ruleset.player_limits(stage, options).minimum
    except ValueError:  # a bad stage or option: the race's start below names the part in one line
        fewest = 1
    players = args.players or max(fewest, len(strategies))
    base_seed = new_seed(args.seed)
    wins_by_seat: Counter[str] = Counter()
    wins_by_strategy: Counter[str] = Counter()
    seats_by_strategy: Counter[str] = Counter()
    steps = 0
    unfinished = 0
    last: tuple[list[Entrant], int] | None = None
    """The last race played: its entrants and seed."""
    print(f"{ruleset.name}: {args.races} races, stage {args.stage or 'default'}, seed {base_seed}", flush=True)
    started = time.perf_counter()
    races = 0
    try:
        for n in range(args.races):
            seats = bot_seats(ruleset, players, strategies, start=0 if args.no_rotate else n)
            try:
                entrants = ruleset.default_entrants(seats, options)
                # A rollout: the same race as the full driver, without its record or events (the last race's
                # record, when asked for, is played again through the full driver: the same seed, the same race).
                played = Rollout.start(ruleset.id, entrants, base_seed + n, stage=stage, options=options)
            except ValidationError as exc:  # default_entrants reads the options before the race checks them
                raise UsageError(brief(describe_validation_error(exc, "options"))) from None
            except RecordError as exc:
                raise UsageError(brief(str(exc))) from None
            steps += played.play()
            last = (entrants, base_seed + n)
            played.publish()  # news held back for later (Tabella's Gazzetta) counts in the final result
            races += 1
            result = played.result()
            if not result.finished:
                unfinished += 1
                continue
            strategy_of = {e.id: e.bot or "human" for e in entrants}
            for e in entrants:
                seats_by_strategy[strategy_of[e.id]] += 1
            position = {e.id: str(i + 1) for i, e in enumerate(entrants)}  # seats by number, never by id
            for standing in result.standings:
                if standing.place == 1:
                    wins_by_seat[position.get(standing.entrant, "?")] += 1
                    wins_by_strategy[strategy_of[standing.entrant]] += 1
    except KeyboardInterrupt:
        print(f"gregario simulate: interrupted after {races} of {args.races} races", file=sys.stderr)
        if args.record and last is not None:
            race, kept = _full_race(ruleset.id, *last, stage, options)
            return _save(args.record, race.record(kept).to_json(), 130)
        return 130
    elapsed = time.perf_counter() - started
    print(f"races per second: {races / elapsed:.1f}   steps per race: {steps / max(races, 1):.1f}")
    if unfinished:
        print(f"unfinished races: {unfinished}")
    print("wins by seat:")
    for seat, count in sorted(wins_by_seat.items(), key=lambda item: int(item[0]) if item[0].isdigit() else 0):
        print(f"  {seat:<10} {count:>6}  {count / races:6.1%}")
    print("wins by strategy (share of races; 95 % interval of a seat's win rate):")
    for strategy, count in wins_by_strategy.most_common():
        seat_races = seats_by_strategy[strategy]
        low, high = wilson_interval(count, seat_races)
        print(f"  {strategy:<10} {count:>6}  per seat {count / seat_races:6.1%}  [{low:.1%}, {high:.1%}]")
    if last is not None:
        print("standings of the last race (the system's own classification):")
        race, kept = _full_race(ruleset.id, *last, stage, options)
        print(render_standings(race))
        if args.record:
            return _save(args.record, race.record(kept).to_json(), 0)
    return 0


def _full_race(
    ruleset_id: str, entrants: list[Entrant], seed: int, stage: Any, options: dict[str, Any]
) -> tuple[Race, list[dict[str, Any]]]:
    """A race the rollout played, played again through the full driver (the same seed: the same race), with
    its steps' orders for its record."""
    race = Race.start(ruleset_id, entrants, seed, stage=stage, options=options)
    kept: list[dict[str, Any]] = []
    race.play_bots_until_human(_recorder(kept))
    race.publish()
    return race, kept


def _save(path: str, record_json: str, status: int) -> int:
    """Write the last race's record; a failure to write is reported in one line, exit status 2."""
    try:
        Path(path).write_text(record_json, encoding="utf-8")
    except OSError as exc:
        print(f"gregario simulate: could not save the record to {path}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"last race's record saved to {path}", file=sys.stderr if status else sys.stdout)
    return status
