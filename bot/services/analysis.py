"""``/stage analyse``: how a stage plays, from a few hundred all-bot races.

The races run in a separate process of their own at low priority (``os.nice``), so live races (the
engine workers, the event loop) stay responsive; one analysis runs at a time per server and the next
waits its turn. The figures come only from the engine's generic interface: the steps played, each
step's leader in ``result()`` (a race is *decided* at the step after which its winner led to the end),
the winner's seat and strategy, the standings' numeric figures and the counts of event kinds. The
same seed gives the same figures.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
from collections import Counter, defaultdict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.race import Race
from engine.registry import get_ruleset
from engine.ruleset import Entrant

NICENESS = 10
"""How much lower than the bot the analysis process runs (``os.nice``)."""
DEFAULT_RACES = 200
STEP_LIMIT = 5000
SEATS = 4
"""Bot seats per race (within the rule system's limits), strategies rotating from race to race."""


@dataclass
class Analysis:
    """The figures of one analysis (plain data: it crosses the process boundary)."""

    ruleset: str
    races: int
    seed: int
    finished: int = 0
    average_steps: float = 0.0
    decided_at: dict[int, int] = field(default_factory=dict)
    """Races by the tenth of the race (0-9) at whose end the winner took the lead for good."""
    wins_by_strategy: dict[str, float] = field(default_factory=dict)
    """Win rate per seat of each strategy."""
    wins_by_seat: dict[int, float] = field(default_factory=dict)
    """Win rate by starting position (1 = the first seat)."""
    figures: dict[str, float] = field(default_factory=dict)
    """The standings' numeric figures, averaged per rider line (the system's own terms)."""
    events: dict[str, float] = field(default_factory=dict)
    """The most frequent event kinds, per race."""
    columns: list[dict[str, Any]] = field(default_factory=list)
    """The result's columns (JSON), so the figures are shown under their headings, never their keys."""
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    """One message (JSON) of each frequent event kind, so the kind is shown by what it says."""


def _seats(strategies: tuple[str, ...], count: int, start: int) -> list[Entrant]:
    names = [strategies[(start + i) % len(strategies)] for i in range(count)]
    return [Entrant(id=f"bot{i + 1}", name=f"Bot {i + 1} ({s})", bot=s) for i, s in enumerate(names)]


def analyse(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    races: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Analysis:
    """``races`` all-bot races on ``stage`` with ``options`` (seeds ``seed``, ``seed + 1``...), summed up."""
    rules = get_ruleset(ruleset_id)
    ground = dict(stage) if isinstance(stage, Mapping) else stage
    limits = rules.player_limits(ground, dict(options or {}))
    count = max(limits.minimum, min(SEATS, limits.maximum))
    found = Analysis(ruleset_id, races, seed)
    steps_total = 0
    wins_strategy: Counter[str] = Counter()
    seats_strategy: Counter[str] = Counter()
    wins_seat: Counter[int] = Counter()
    decided: Counter[int] = Counter()
    figure_sums: dict[str, float] = defaultdict(float)
    figure_counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    examples: dict[str, dict[str, Any]] = {}
    for n in range(races):
        seats = _seats(rules.strategies, count, n)
        race = Race.start(ruleset_id, seats, seed + n, stage=ground, options=dict(options or {}))
        leaders: list[str | None] = []
        for _ in range(STEP_LIMIT):
            if race.finished:
                break
            for event in race.play_step({}).events:
                kinds[event.kind] += 1
                if event.kind not in examples:
                    examples[event.kind] = event.message.model_dump(mode="json")
            standings = race.result().standings
            leaders.append(min(standings, key=lambda s: s.place).entrant if standings else None)
        for event in race.publish():
            kinds[event.kind] += 1
        result = race.result()
        if not result.finished or not result.standings:
            continue
        found.finished += 1
        found.columns = found.columns or [c.model_dump(mode="json") for c in result.columns]
        steps_total += len(leaders)
        strategy_of = {e.id: e.bot or "" for e in race.header.entrants}
        position_of = {e.id: i + 1 for i, e in enumerate(race.header.entrants)}
        for e in race.header.entrants:
            seats_strategy[strategy_of[e.id]] += 1
        winners = [s.entrant for s in result.standings if s.place == 1]
        for winner in winners:
            wins_strategy[strategy_of.get(winner, winner)] += 1
            wins_seat[position_of.get(winner, 0)] += 1
        first: str | None = winners[0] if winners else None
        lead_from = len(leaders)
        while lead_from > 0 and leaders[lead_from - 1] == first:
            lead_from -= 1
        decided[min(9, (10 * lead_from) // max(len(leaders), 1))] += 1
        for standing in result.standings:
            for key, value in standing.figures.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    figure_sums[key] += value
                    figure_counts[key] += 1
    done = max(found.finished, 1)
    found.average_steps = round(steps_total / done, 2)
    found.decided_at = dict(sorted(decided.items()))
    found.wins_by_strategy = {s: round(wins_strategy[s] / seats_strategy[s], 4) for s in sorted(seats_strategy)}
    found.wins_by_seat = {p: round(wins_seat[p] / done, 4) for p in range(1, count + 1)}
    found.figures = {k: round(figure_sums[k] / figure_counts[k], 3) for k in sorted(figure_sums)}
    found.events = {k: round(c / races, 2) for k, c in kinds.most_common(6)}
    found.examples = {k: examples[k] for k in found.events if k in examples}
    return found


HEADINGS = ("Win rate by starting position", "Win rate by strategy", "Races decided, by tenth of the race")


def chart_png(
    analysis: Analysis,
    title: str,
    headings: tuple[str, str, str] = HEADINGS,
    strategies: dict[str, str] | None = None,
) -> bytes:
    """A simple bar chart: win rate by starting position and by strategy (each by the word players read,
    ``strategies``), and when races are decided (``headings`` in the reader's language). Drawn in DejaVu
    Sans, whose glyphs cover the systems' names (Pillow's own font has no ``ś``)."""
    from PIL import Image, ImageDraw

    from bot.render.fonts import font

    named = strategies or {}
    groups: list[tuple[str, list[tuple[str, float]]]] = [
        (headings[0], [(f"{p}", v) for p, v in analysis.wins_by_seat.items()]),
        (headings[1], [(named.get(s, s), v) for s, v in analysis.wins_by_strategy.items()]),
        (
            headings[2],
            [(f"{10 * k}-{10 * k + 10}%", v / max(analysis.finished, 1)) for k, v in analysis.decided_at.items()],
        ),
    ]
    width, bar, gap = 720, 22, 6
    height = 50 + sum(34 + len(rows) * (bar + gap) for _, rows in groups)
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((16, 14), title, fill="black", font=font(16, bold=True))
    y = 44
    for heading, rows in groups:
        draw.text((16, y), heading, fill="black", font=font(14, bold=True))
        y += 24
        for label, value in rows:
            draw.text((16, y + 4), label[:22], fill="black", font=font(13))
            length = int(max(0.0, min(1.0, value)) * (width - 260))
            draw.rectangle((190, y, 190 + max(length, 1), y + bar), fill=(52, 120, 200))
            draw.text((198 + length, y + 4), f"{value:.0%}", fill="black", font=font(13))
            y += bar + gap
        y += 10
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _lower_priority() -> None:
    os.nice(NICENESS)


class Analyser:
    """The analysis process (started on first use) and the per-server queue in front of it."""

    def __init__(self, processes: bool = True) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._locks: dict[int, asyncio.Lock] = {}

    def busy(self, server_id: int) -> bool:
        """True while an analysis of this server runs (a new one waits its turn)."""
        lock = self._locks.get(server_id)
        return lock is not None and lock.locked()

    async def run(
        self,
        server_id: int,
        ruleset_id: str,
        stage: Mapping[str, Any] | str | None,
        races: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> Analysis:
        """The analysis, after any earlier one of the same server has finished."""
        lock = self._locks.setdefault(server_id, asyncio.Lock())
        async with lock:
            loop = asyncio.get_running_loop()
            if not self.processes:
                return await loop.run_in_executor(None, analyse, ruleset_id, stage, races, seed, options)
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
                )
            return await loop.run_in_executor(self._pool, analyse, ruleset_id, stage, races, seed, options)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
