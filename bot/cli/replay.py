"""``gregario replay`` and ``gregario stages``: read a record or a catalogue and print it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.cli import brief
from engine.race import Race, StepPlayed, replay
from engine.record import RecordError, parse_record
from engine.registry import get_ruleset
from engine.ruleset import Event


def replay_summary(race: Race, events: list[list[Event]]) -> dict[str, Any]:
    """The ``replay --json`` object: finished, standings, final public state, the opening events and the
    events per step."""
    result = race.result()
    return {
        "finished": result.finished,
        "provisional": result.provisional,
        "standings": [s.model_dump(mode="json") for s in result.standings],
        "state": race.ruleset.public_view(race.state),
        "opening": [e.model_dump(mode="json") for e in race.opening],
        "events": [[e.model_dump(mode="json") for e in step] for step in events],
    }


def render_standings(race: Race) -> str:
    """The standings as aligned text lines: place, name, the system's figures."""
    names = {e.id: e.name for e in race.header.entrants}
    lines = []
    for s in race.result().standings:
        figures = ", ".join(f"{k} {v}" for k, v in s.figures.items())
        lines.append(f"{s.place:>3}. {names.get(s.entrant, s.entrant):<20} {figures}")
    return "\n".join(lines)


def replay_command(path: str, *, as_json: bool) -> int:
    """Replay ``path``; exit status 2 with a message naming the step and entrant for an illegal order."""
    source = "standard input" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        text = data.decode("utf-8")
    except OSError as exc:
        print(f"gregario replay: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"gregario replay: {source} is not UTF-8 text; a race record is a JSON file", file=sys.stderr)
        return 2
    steps: list[list[Event]] = []

    def keep(n: int, played: StepPlayed) -> None:
        steps.append(played.events)

    try:
        race = replay(parse_record(text), keep)
    except RecordError as exc:
        print(f"gregario replay: {brief(str(exc))}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(replay_summary(race, steps), ensure_ascii=False, sort_keys=True))
        return 0
    if race.opening:
        print("— start")
        for event in race.opening:
            print(f"  {event.message.text}")
    for n, events in enumerate(steps, start=1):
        print(f"— step {n}")
        for event in events:
            print(f"  {event.message.text}")
    result = race.result()
    state = "finished" if result.finished else "in progress"
    if result.provisional:
        state += " (provisional)"
    print(f"\nStandings ({state}):")
    print(render_standings(race))
    return 0


def stages_command(ruleset_id: str, stage: str | None) -> int:
    """List a rule system's presets, or draw one stage as text."""
    ruleset = get_ruleset(ruleset_id)
    if stage:
        try:
            print(ruleset.stage_board(stage, {}))
        except ValueError as exc:
            print(f"gregario stages: {exc}", file=sys.stderr)
            return 2
        return 0
    print(f"{ruleset.name}: {len(ruleset.presets())} stages")
    for preset in ruleset.presets():
        label = f" [{preset.label}]" if preset.label else ""
        print(f"- {preset.name}{label}: {preset.summary}")
    return 0
