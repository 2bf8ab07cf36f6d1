"""How a post tells a step: riders by their names, the one counter, and a summary rather than a cut."""

from __future__ import annotations

from typing import Any

from bot.exts.race._text import counter, events_text, standings_text
from bot.i18n import named
from bot.render.registry import rider_names
from engine.race import Race
from engine.ruleset import Entrant
from tests.scan import codes, counters


def _tabella_events(riders: int) -> list[dict[str, Any]]:
    race = Race.start("tabella", [Entrant(id=f"b{i}", name=f"Rider {i}", bot="cautious") for i in range(riders)], 3)
    events = []
    while not race.finished:
        events += [e.model_dump(mode="json") for e in race.play_step({}).events]
    return events


def test_a_long_tabella_step_is_summarised_not_cut() -> None:
    """Twelve riders' whole plan in one post: the finish and the last sprint stay, in order, within the limit."""
    events = _tabella_events(12)
    text = events_text(events, "en", 1900)
    assert len(text) <= 1900
    lines = text.splitlines()
    told = [e["message"]["text"] for e in events]
    assert f"• {told[-2]}" in lines or f"• {told[-1]}" in lines, "the end of the race is told"
    last_sprint = next(e["message"]["text"] for e in reversed(events) if e["kind"] == "td.sprint")
    finish = next(e["message"]["text"] for e in events if e["kind"] == "td.finish")
    assert f"• {last_sprint}" in lines and f"• {finish}" in lines
    shown = [line[2:] for line in lines[:-1]]
    assert shown == [t for t in told if t in shown], "what is shown keeps the race's order"
    assert lines[-1] == f"…and {len(told) - len(shown)} more events."


def test_a_short_step_is_told_whole() -> None:
    """Events that fit are all told, with no summary line."""
    events = _tabella_events(2)[:3]
    assert events_text(events, "en", 1900).count("\n") == 2


def test_flamme_rouge_riders_are_named_by_player_and_kind() -> None:
    """`red-r plays 4` reads "Carol's Rouleur plays 4"; the standings' per-rider figures are a small table."""
    race = Race.start(
        "flamme_rouge", [Entrant(id="u1", name="Carol"), Entrant(id="u2", name="Dan")], 2, options={"grid": "random"}
    )
    names = rider_names("flamme_rouge", race.ruleset.public_view(race.state), {"u1": "Carol", "u2": "Dan"}, "en")
    opening = [named(e.message, "en", names) for e in race.opening]
    assert opening and all("Carol's " in line or "Dan's " in line for line in opening), opening
    assert not any(codes(line, ids=names) for line in opening)
    while not race.finished:
        race.play_step({e: race.ruleset.auto_order(race.state, e) for e in race.ruleset.awaited_ids(race.state)})
    result = race.result()
    text = standings_text(
        [s.model_dump() for s in result.standings], names, "en", [c.model_dump() for c in result.columns]
    )
    assert "  · Carol's Rouleur: Rider places " in text and "{" not in text
    assert not codes(text, ids=[r for s in result.standings for r in s.riders])


def test_the_counter_is_the_progress_markers() -> None:
    """Round, stage and lap, or the system's own name, never a step number."""
    assert counter({"unit": "round", "number": 3}, "en") == "Round 3"
    assert counter({"unit": "stage", "number": 2, "lap": 4}, "en") == "Stage 2, lap 4"
    move = {"key": "td.counter.move", "params": {"number": 3}, "text": "Move 3"}
    assert counter({"unit": "round", "number": 4, "label": move}, "en") == "Move 3"
    assert counter({"unit": "round", "number": 4, "label": move}, "it") == "Mossa 3"
    assert counter(None, "en") == "the start"


def test_the_scan_finds_each_kind_of_code_and_spares_the_platforms_marks() -> None:
    """Paths, underscores, reprs, ids, rider ids and None are found; mentions and timestamps are not."""
    found = {f.kind for f in codes("So far: cards.r: 3 · itemised_108 {'blue-r': 1} u1577442429433284295 None")}
    assert found == {"dotted path", "underscore identifier", "python repr", "discord id", "none or bool"}
    assert {f.kind for f in codes("red-r plays 4", ids=["red-r"])} == {"rider id"}
    assert not codes("Deadline <t:1796180034:R>. <@1577442429433284295>, see race-12.json, e.g. A 3R 2S 1D")


def test_the_scan_finds_a_counter_that_is_not_in_words() -> None:
    """A headline, panel title or picture title naming the moment by a label (``m3``) or by a counter of its
    own (``stage 1/3 · lap 2``) is found; the counter's words are not."""
    leaked = [
        ("post", "**Tabella del Destino · race #3 · m3**\n• Anna moves"),
        ("DM panel", "Tabella del Destino · race #3 · start"),
        ("post alt text", "Wyścig kolarski · stage 1/3 · lap 2\nL = 47 km/h"),
    ]
    assert [f.code for f in counters(leaked)] == ["m3", "start", "stage 1/3"]
    fine = [
        ("post", "**Tabella del Destino · race #3 · Move 3**"),
        ("DM panel", "Flamme Rouge · race #3 · Round 4\nYour Rouleur"),
        ("post", "**Wyścig kolarski · race #2 · Stage 1, lap 2**"),
        ("post alt text", "Wyścig kolarski · Stage 2, lap 1\nL = 47 km/h"),
        ("post alt text", "Tabella del Destino · Sprint 2 · rows 1-3"),
        ("post", "**Mind Cycling · race #5 · result**"),
    ]
    assert counters(fine) == []
