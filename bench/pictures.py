"""How long each picture takes to draw and how big it is: boards, stage previews, result cards and the
race animation, for every rule system with 12 riders (where the rules allow 12).

Targets (issue 16): under 50 ms and under 300 KB for each board, preview and result card; the animation
of a long race within Discord's default upload limit (10 MiB) and tight ones (1 MiB, 256 KiB).

``--write docs/pictures`` also writes the reference pictures the README shows: a mid-race board and the
result card of each system (``<ruleset>.png``, ``<ruleset>-result.png``), the Flamme Rouge stage preview,
and a small animation.

Each still picture is drawn ``--repeat`` times (PNG encoding included, as the bot sends it); the
median and the slowest are printed in milliseconds of this process's CPU time (other jobs on a shared
machine disturb it less than wall-clock time; drawing runs in one thread). Animations print both.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.render import board_png, preview_png, race_animation, result_card_png
from bot.render.animation import frames_of
from bot.render.registry import rider_names
from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant, Event

# (ruleset, players, options, stage, what makes 12 riders)
RACES: list[tuple[str, int, dict[str, Any], Any, str]] = [
    ("flamme_rouge", 6, {}, "Ronde van Wevelgem", "6 teams x 2 riders"),
    ("tabella", 12, {"mode": "live"}, "classic", "12 riders"),
    ("wyscig", 8, {"max_players": 8}, {"deck": "itemised_108", "stages": 6}, "8 players (the rules' most), 6 stages"),
    ("mind_cycling", 4, {"team_size": 3}, "classic", "4 teams x 3 cyclists"),
]
BUDGETS = (10 * 1024 * 1024, 1024 * 1024, 256 * 1024)
"""Discord's default upload limit, and two tight ones that force the animation to drop frames and shrink."""
REFERENCE_BUDGET = 290 * 1024
"""The animated reference picture in docs/ stays under 300 KB like the others."""


def play(ruleset_id: str, players: int, options: dict[str, Any], stage: Any) -> tuple[Race, list[Any]]:
    ruleset = get_ruleset(ruleset_id)
    seats = [Entrant(id=f"p{i}", name=f"Rider {i}", bot=ruleset.default_strategy) for i in range(players)]
    race = Race.start(ruleset_id, ruleset.default_entrants(seats, options), 2026, stage=stage, options=options)
    steps: list[tuple[dict[str, Any], list[Event]]] = []
    while not race.finished:
        events = race.play_step({}).events
        steps.append((ruleset.public_view(race.state), events))
    race.publish()
    return race, steps


def still_pictures(
    ruleset_id: str, race: Race, steps: list[Any], stage: Any, options: dict[str, Any], names: dict[str, str]
) -> list[tuple[str, Callable[[], bytes]]]:
    """Each kind of still picture of this race, as a function that draws it."""
    frames = frames_of(ruleset_id, steps)  # a round (a lap) with all its events, as round posts show it
    middle_view, middle_events = frames[len(frames) * 3 // 5]
    final_view, final_events = steps[-1]
    result = race.result()
    return [
        ("board, a round at 3/5", lambda: board_png(ruleset_id, middle_view, middle_events, names=names)),
        ("board, finish", lambda: board_png(ruleset_id, final_view, final_events, names=names)),
        ("stage preview", lambda: preview_png(ruleset_id, stage, options)),
        ("result card", lambda: result_card_png(ruleset_id, result, "Result", names=names)),
    ]


def timed(draw: Callable[[], bytes], repeat: int) -> tuple[float, float, int]:
    """Median and slowest milliseconds, and the size in bytes (after one untimed warm-up draw: fonts and
    modules load once per process, not per picture)."""
    draw()
    times = []
    size = 0
    for _ in range(repeat):
        started = time.process_time()
        size = len(draw())
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times), max(times), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--write", metavar="FOLDER", help="also write the reference pictures there")
    args = parser.parse_args()
    folder = Path(args.write) if args.write else None
    print(f"{'picture':<34} {'median ms':>9} {'max ms':>8} {'PNG KB':>8}   (ms of CPU time)")
    worst_ms, worst_kb = 0.0, 0.0
    for ruleset_id, players, options, stage, riders in RACES:
        race, steps = play(ruleset_id, players, options, stage)
        seats = {e.id: e.name for e in race.header.entrants}
        names = rider_names(ruleset_id, race.ruleset.public_view(race.state), seats, "en")  # riders by name
        pictures = still_pictures(ruleset_id, race, steps, stage, options, names)
        print(f"{get_ruleset(ruleset_id).name} ({riders})")
        for label, draw in pictures:
            median, slowest, size = timed(draw, args.repeat)
            worst_ms, worst_kb = max(worst_ms, median), max(worst_kb, size / 1024)
            print(f"  {label:<32} {median:>9.1f} {slowest:>8.1f} {size / 1024:>8.1f}")
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{ruleset_id}.png").write_bytes(pictures[0][1]())
            (folder / f"{ruleset_id}-result.png").write_bytes(pictures[3][1]())
            if ruleset_id == "flamme_rouge":
                (folder / "flamme_rouge-preview.png").write_bytes(pictures[2][1]())
                small = race_animation(ruleset_id, steps, REFERENCE_BUDGET, names=names)
                (folder / "flamme_rouge-race.gif").write_bytes(small.data)
        for budget in BUDGETS:
            started, cpu = time.perf_counter(), time.process_time()
            animation = race_animation(ruleset_id, steps, budget, names=names)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(
                f"  animation, {len(steps)} steps, budget {budget // 1024} KiB: {seconds:.2f} s ({cpu:.2f} s CPU), "
                f"{len(animation.data) / 1024:.0f} KB, {animation.frames}/{animation.rounds} frames, "
                f"scale {animation.scale}, {animation.colours} colours"
            )
    print(f"slowest still picture (median): {worst_ms:.1f} ms (target < 50); largest PNG: {worst_kb:.1f} KB (< 300)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
