"""/stage analyse: all-bot races summed up generically, the same for one seed, one at a time per server."""

from __future__ import annotations

import asyncio
import io
import os
import threading
import time
from typing import Any

import pytest
from PIL import Image

from bot.services import analysis
from engine.registry import RULESET_IDS, get_ruleset

STAGES: dict[str, Any] = {
    "flamme_rouge": None,
    "tabella": {"table": "classic", "rows": 2},
    "wyscig": {"deck": "classic_96", "stages": 1},
    "mind_cycling": {"course": ["plains", "mountain"], "strip_length": 6, "rocks": 2, "supply_spaces": 1},
}


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_same_seed_gives_the_same_figures(ruleset_id: str) -> None:
    """Two analyses with one seed agree to the last figure; another seed is another sample."""
    first = analysis.analyse(ruleset_id, STAGES[ruleset_id], 6, seed=11)
    assert first == analysis.analyse(ruleset_id, STAGES[ruleset_id], 6, seed=11)
    assert first.finished == 6
    assert first.average_steps >= 1
    assert sum(first.decided_at.values()) == first.finished


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_win_rates_add_up_over_seats_and_cover_every_strategy(ruleset_id: str) -> None:
    """Every finished race has a winner seat; each strategy of the rule system took seats in turn."""
    rules = get_ruleset(ruleset_id)
    found = analysis.analyse(ruleset_id, STAGES[ruleset_id], 8, seed=3)
    assert sum(found.wins_by_seat.values()) >= 1 - 0.01, "every finished race has at least one winner"
    assert set(found.wins_by_seat) == set(range(1, len(found.wins_by_seat) + 1))
    assert set(found.wins_by_strategy) == set(rules.strategies)
    assert all(0 <= rate <= 1 for rate in found.wins_by_strategy.values())


def test_the_figures_are_the_systems_own() -> None:
    """Penalties in Wyścig and event counts come from the standings' figures and the events, not from this module."""
    found = analysis.analyse("wyscig", STAGES["wyscig"], 5, seed=2)
    assert "penalty_minutes" in found.figures
    assert all(kind.startswith("wk.") for kind in found.events)


def test_the_chart_is_a_png_picture() -> None:
    """The analysis comes with a bar chart."""
    found = analysis.analyse("tabella", STAGES["tabella"], 4, seed=1)
    image = Image.open(io.BytesIO(analysis.chart_png(found, "Tabella · Ridge")))
    assert image.format == "PNG" and image.width == 720


async def test_analyses_of_one_server_wait_their_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two analyses of one server never overlap; another server's may run alongside."""
    spans: dict[str, tuple[float, float]] = {}
    lock = threading.Lock()

    def slow(ruleset_id: str, stage: Any, races: int, seed: int, options: Any = None) -> analysis.Analysis:
        start = time.monotonic()
        time.sleep(0.15)
        with lock:
            spans[f"{races}"] = (start, time.monotonic())
        return analysis.Analysis(ruleset_id, races, seed)

    monkeypatch.setattr(analysis, "analyse", slow)
    analyser = analysis.Analyser(processes=False)
    first = asyncio.create_task(analyser.run(1, "tabella", None, 1, 0))
    await asyncio.sleep(0.05)
    assert analyser.busy(1) and not analyser.busy(2)
    await asyncio.gather(first, analyser.run(1, "tabella", None, 2, 0), analyser.run(2, "tabella", None, 3, 0))
    assert spans["2"][0] >= spans["1"][1], "the second analysis of server 1 started before the first ended"
    assert spans["3"][0] < spans["1"][1], "server 2 waited for server 1"


async def test_the_analysis_runs_in_a_separate_lower_priority_process() -> None:
    """The races run in another process, niced below the bot, and give the same figures as inline."""
    analyser = analysis.Analyser()
    try:
        found = await analyser.run(1, "wyscig", STAGES["wyscig"], 3, 5)
        assert found == analysis.analyse("wyscig", STAGES["wyscig"], 3, 5)
        assert analyser._pool is not None
        pid = analyser._pool.submit(os.getpid).result()
        niceness = analyser._pool.submit(os.nice, 0).result()
        assert pid != os.getpid()
        assert niceness >= min(os.nice(0) + analysis.NICENESS, 19)
    finally:
        analyser.close()


@pytest.mark.parametrize("ruleset_id", ["tabella", "mind_cycling"])
def test_races_shared_out_in_parts_sum_to_the_same_figures(ruleset_id: str) -> None:
    """The tallies of races 0-2 and 3-6 of an analysis, summed, are the analysis of races 0-6 exactly."""
    whole = analysis.analyse(ruleset_id, STAGES[ruleset_id], 7, 11)
    parts = analysis.race_tallies(ruleset_id, STAGES[ruleset_id], 11, 0, 3) + analysis.race_tallies(
        ruleset_id, STAGES[ruleset_id], 11, 3, 7
    )
    count = analysis._count(ruleset_id, STAGES[ruleset_id], None)
    assert analysis.summarise(ruleset_id, 7, 11, count, parts) == whole
    assert whole.finished == 7 and sum(whole.decided_at.values()) == 7


async def test_an_analysis_shared_out_over_two_processes_gives_the_inline_figures() -> None:
    """Two niced processes share the races (4 and 5 of 9) and the figures are the inline analysis's."""
    analyser = analysis.Analyser(parts=2)
    try:
        found = await analyser.run(1, "mind_cycling", STAGES["mind_cycling"], 9, 3)
        assert found == analysis.analyse("mind_cycling", STAGES["mind_cycling"], 9, 3)
        assert analyser.parts == 2 and analyser._pool is not None
    finally:
        analyser.close()
