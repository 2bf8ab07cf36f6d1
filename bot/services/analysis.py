"""``/stage analyse``: how a stage plays, from a few hundred all-bot races.

The races run in separate processes of their own at low priority (``os.nice``), shared out between
them (:class:`Analyser`), so live races (the engine workers, the event loop) stay responsive; one
analysis runs at a time per server and the next waits its turn. The figures come only from the
engine's generic interface: the steps played, each step's leader (``Ruleset.leader``: who ``result()``
puts first; a race is *decided* at the step after which its winner led to the end), the winner's seat
and strategy, the standings' numeric figures and the counts of event kinds. The same seed gives the
same figures.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import multiprocessing
import os
from collections import Counter, defaultdict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.race import Rollout
from engine.registry import get_ruleset
from engine.ruleset import Entrant

NICENESS = 10
"""How much lower than the bot the analysis processes run (``os.nice``)."""
PARTS = 2
"""Analysis processes at most (fewer on a machine with fewer cores): an analysis's races are shared out."""
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


@dataclass
class RaceTally:
    """What one race adds to an analysis (plain data: it crosses the process boundary). An analysis is the
    tallies of its races summed in race order, so one split over processes sums to the same figures."""

    seats: list[str]
    """The strategy of each seat, in seat order."""
    kinds: dict[str, int]
    """Events by kind, in the order the kinds first occurred."""
    finished: bool = False
    steps: int = 0
    winners: list[tuple[str, int]] = field(default_factory=list)
    """(strategy, seat from 1) of each entrant placed first."""
    decided: int = 0
    """The tenth of the race (0-9) at whose end the winner took the lead for good."""
    figures: list[tuple[str, float]] = field(default_factory=list)
    """Every numeric figure of every standing, in the result's order."""
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    """One event of each kind the race told (its message as JSON), the first of its kind."""
    columns: list[dict[str, Any]] = field(default_factory=list)
    """The result's columns (JSON), for headings."""


def _count(ruleset_id: str, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any] | None) -> int:
    """Seats per race: :data:`SEATS` within the rule system's limits."""
    limits = get_ruleset(ruleset_id).player_limits(_ground(stage), dict(options or {}))
    return max(limits.minimum, min(SEATS, limits.maximum))


def _ground(stage: Mapping[str, Any] | str | None) -> Any:
    return dict(stage) if isinstance(stage, Mapping) else stage


def race_tallies(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    seed: int,
    first: int,
    stop: int,
    options: Mapping[str, Any] | None = None,
) -> list[RaceTally]:
    """The tallies of races ``first`` to ``stop - 1`` of an analysis seeded ``seed`` (race ``n`` has seed
    ``seed + n`` and the strategies rotated by ``n``)."""
    rules = get_ruleset(ruleset_id)
    ground = _ground(stage)
    count = _count(ruleset_id, stage, options)
    out: list[RaceTally] = []
    for n in range(first, stop):
        seats = _seats(rules.strategies, count, n)
        # A rollout: the race the full driver would play on this seed, without its record.
        race = Rollout.start(ruleset_id, seats, seed + n, stage=ground, options=dict(options or {}))
        kinds: Counter[str] = Counter()
        examples: dict[str, dict[str, Any]] = {}
        leaders: list[str | None] = []
        while not race.finished and len(leaders) < STEP_LIMIT:
            for event in race.step(events=True):
                kinds[event.kind] += 1
                if event.kind not in examples:
                    examples[event.kind] = event.message.model_dump(mode="json")
            leaders.append(rules.leader(race.state))  # what result() says, without building it
        for event in race.publish():
            kinds[event.kind] += 1
        tally = RaceTally(seats=[e.bot or "" for e in seats], kinds=dict(kinds), examples=examples)
        out.append(tally)
        result = race.result()
        if not result.finished or not result.standings:
            continue
        tally.finished = True
        tally.columns = [c.model_dump(mode="json") for c in result.columns]
        tally.steps = len(leaders)
        strategy_of = {e.id: e.bot or "" for e in seats}
        position_of = {e.id: i + 1 for i, e in enumerate(seats)}
        winners = [s.entrant for s in result.standings if s.place == 1]
        tally.winners = [(strategy_of.get(w, w), position_of.get(w, 0)) for w in winners]
        leader: str | None = winners[0] if winners else None
        lead_from = len(leaders)
        while lead_from > 0 and leaders[lead_from - 1] == leader:
            lead_from -= 1
        tally.decided = min(9, (10 * lead_from) // max(len(leaders), 1))
        tally.figures = [
            (key, value)
            for standing in result.standings
            for key, value in standing.figures.items()
            if isinstance(value, int | float) and not isinstance(value, bool)
        ]
    return out


def summarise(ruleset_id: str, races: int, seed: int, count: int, tallies: list[RaceTally]) -> Analysis:
    """The analysis of ``tallies`` (every race's, in race order), for seats of ``count`` entrants."""
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
    for tally in tallies:
        kinds.update(tally.kinds)
        for kind, example in tally.examples.items():
            examples.setdefault(kind, example)  # the first race that told the kind
        if not tally.finished:
            continue
        found.finished += 1
        found.columns = found.columns or tally.columns
        steps_total += tally.steps
        seats_strategy.update(tally.seats)
        for strategy, seat in tally.winners:
            wins_strategy[strategy] += 1
            wins_seat[seat] += 1
        decided[tally.decided] += 1
        for key, value in tally.figures:
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


def analyse(
    ruleset_id: str,
    stage: Mapping[str, Any] | str | None,
    races: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Analysis:
    """``races`` all-bot races on ``stage`` with ``options`` (seeds ``seed``, ``seed + 1``...), summed up."""
    tallies = race_tallies(ruleset_id, stage, seed, 0, races, options)
    return summarise(ruleset_id, races, seed, _count(ruleset_id, stage, options), tallies)


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
    """The analysis processes (started on first use) and the per-server queue in front of them.

    An analysis's races are split into ``parts`` runs of consecutive races, one per process (niced, so
    live races go first), and their tallies summed in race order: the same figures as one process, in
    about ``1 / parts`` of the time on a machine with that many cores free."""

    def __init__(self, processes: bool = True, parts: int | None = None) -> None:
        self.processes = processes
        self.parts = max(1, parts if parts is not None else min(PARTS, os.cpu_count() or 1))
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
                    self.parts, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
                )
            pool = self._pool
            bounds = [races * i // self.parts for i in range(self.parts + 1)]
            parts = await asyncio.gather(
                *(
                    loop.run_in_executor(pool, race_tallies, ruleset_id, stage, seed, low, high, options)
                    for low, high in itertools.pairwise(bounds)
                    if high > low
                )
            )
            tallies = [tally for part in parts for tally in part]
            return summarise(ruleset_id, races, seed, _count(ruleset_id, stage, options), tallies)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
