"""``gregario replay`` and ``gregario stages``: read a record or a catalogue and print it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.inputs import brief
from bot.i18n import DEFAULT_LOCALE, named, t
from bot.progress import counter
from bot.render.registry import rider_names
from bot.standings import figure_text
from engine.race import Race, StepPlayed, replay
from engine.record import Announced, RecordError, parse_record
from engine.registry import get_ruleset
from engine.ruleset import PROGRESS_KEY, Event, Result


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


def race_names(race: Race, short: bool = False) -> dict[str, str]:
    """What a player reads for each entrant and rider id of the race: names, riders by player and kind
    (``short``: by kind alone, inside the entrant's own row of the standings)."""
    names = {e.id: e.name for e in race.header.entrants}
    return rider_names(race.ruleset.id, race.ruleset.public_view(race.state), names, DEFAULT_LOCALE, short)


def render_standings(race: Race) -> str:
    """The standings as an aligned table from the result's own column description (:class:`Column`): a
    heading line, then one line per standing with its place, name and each column's value."""
    return standings_table(race.result(), race_names(race, short=True))


def standings_table(result: Result, names: dict[str, str]) -> str:
    """``result``'s standings as aligned text: the columns it describes, in its order, headed by their
    labels (translated by :func:`bot.i18n.t`); nothing here knows the rule system."""
    header = ["#", t("cli.standings.entrant"), *(t(c.label) for c in result.columns)]
    rows = [
        [
            f"{s.place}.",
            names.get(s.entrant, s.entrant),
            *(figure_text(s.figures.get(c.key), c.format, c.words, None, names, c.kind) for c in result.columns),
        ]
        for s in result.standings
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        first = cells[0].rjust(widths[0])
        return "  ".join([first, *(c.ljust(w) for c, w in zip(cells[1:], widths[1:], strict=True))]).rstrip()

    return "\n".join(line(row) for row in [header, *rows])


def standings_state(result: Result) -> str:
    """Where the standings stand: in progress, finished, or finished but provisional (news held back)."""
    if not result.finished:
        return t("cli.standings.in_progress")
    return t("cli.standings.provisional") if result.provisional else t("cli.standings.finished")


def _views(race: Race, events: list[Event], number: int, reveal: bool) -> dict[str, Any]:
    """One entry of ``replay --json --steps``: the step's number, events and public state after it (and
    with ``--reveal`` each entrant's private view: hands, plans)."""
    view: dict[str, Any] = {
        "step": number,
        "events": [e.model_dump(mode="json") for e in events],
        "state": race.ruleset.public_view(race.state),
    }
    if reveal:
        view["private"] = {who: race.ruleset.private_view(race.state, who) for who in race.entrants}
    return view


def replay_command(
    path: str, *, as_json: bool, publish: bool = False, every_step: bool = False, reveal: bool = False
) -> int:
    """Replay ``path``; exit status 2 with a message naming the step and entrant for an illegal order.

    The record's announcements are published where it says; ``publish`` publishes what is still pending
    after the last step. With ``as_json``, ``every_step`` adds each step's public state and events
    (``steps``, the start as step 0) and ``reveal`` each entrant's private view (there and at the end)."""
    if (every_step or reveal) and not as_json:
        print("gregario replay: --steps and --reveal go with --json", file=sys.stderr)
        return 2
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
    published: list[tuple[Announced, list[Event]]] = []
    states: list[dict[str, Any]] = []

    def keep(n: int, played: StepPlayed) -> None:
        steps.append(played.events)

    def announce(announced: Announced, events: list[Event]) -> None:
        published.append((announced, events))

    markers: dict[int, dict[str, Any]] = {}

    def look(n: int, race: Race) -> None:
        markers[n] = race.ruleset.public_view(race.state).get(PROGRESS_KEY) or {}
        if every_step:
            states.append(_views(race, steps[n - 1] if n else race.opening, n, reveal))

    try:
        race = replay(parse_record(text), keep, announce, look)
    except RecordError as exc:
        print(f"gregario replay: {brief(str(exc))}", file=sys.stderr)
        return 2
    if publish:
        pending = race.ruleset.pending_announcement(race.state)
        events = race.publish()
        if pending is not None:
            published.append((race.announced[-1], events))
    if as_json:
        summary = replay_summary(race, steps)
        if published:
            summary["announcements"] = [
                {**a.model_dump(mode="json"), "events": [e.model_dump(mode="json") for e in ev]} for a, ev in published
            ]
        if every_step:
            summary["steps"] = states
        if reveal:
            summary["private"] = {who: race.ruleset.private_view(race.state, who) for who in race.entrants}
        print(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return 0
    names = race_names(race)
    if race.opening:
        print("— " + t("race.counter.start"))
        for event in race.opening:
            print(f"  {named(event.message, None, names)}")
    shown = ""
    for n, events in enumerate(steps, start=1):
        now = counter(markers.get(n - 1), None)  # the round the step played, as its post says
        if now != shown:
            print(f"— {now}")
            shown = now
        for event in events:
            print(f"  {named(event.message, None, names)}")
        for announced, news in published:
            if announced.after_step == n:
                print("— " + t("cli.published"))
                for event in news:
                    print(f"  {named(event.message, None, names)}")
    print(f"\nStandings ({standings_state(race.result())}):")
    print(render_standings(race))
    return 0


def stages_command(ruleset_id: str, stage: str | None) -> int:
    """List a rule system's presets, or draw one stage as text."""
    ruleset = get_ruleset(ruleset_id)
    if stage:
        try:
            print(t(ruleset.stage_board(stage, {})))
        except ValueError as exc:
            print(f"gregario stages: {exc}", file=sys.stderr)
            return 2
        return 0
    print(f"{ruleset.name}: {len(ruleset.presets())} presets")
    for preset in ruleset.presets():
        label = f" [{t(preset.label)}]" if preset.label else ""
        print(f"- {preset.name}{label}: {t(preset.summary)}")
    return 0
