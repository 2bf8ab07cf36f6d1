"""Standings print from the result's own column description, the same in ``play``, ``replay`` and ``simulate``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.cli.play import play
from bot.i18n import t
from engine.race import Race, replay
from engine.record import parse_record
from engine.registry import available_rulesets
from engine.ruleset import Result

RULESETS = [r.id for r in available_rulesets()]
SHORT = {"wyscig": ["--stage", '{"stages": 2}']}


def table(out: str, heading: str) -> list[list[str]]:
    """The standings table printed after ``heading``: its lines cut into cells (two spaces or more apart)."""
    import re

    block = out.split(heading, 1)[1].strip("\n").split("\n\n")[0]
    lines = [line for line in block.splitlines() if line.strip()]
    rows = []
    for line in lines:
        if not re.match(r"\s*(#|\d+\.)\s", line):
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


def recorded(path: Path) -> Race:
    """The race a saved record replays to."""
    return replay(parse_record(path.read_text(encoding="utf-8")))


def check_table(rows: list[list[str]], race: Race) -> Result:
    """The printed table has the result's columns in its order, one row per standing, and each cell is the
    standing's figure (places first)."""
    result = race.result()
    assert rows[0] == ["#", "Entrant", *(t(c.label) for c in result.columns)]
    from bot.cli.replay import race_names

    names = race_names(race, short=True)
    assert len(rows) == 1 + len(result.standings)
    for row, s in zip(rows[1:], result.standings, strict=True):
        assert row[0] == f"{s.place}." and row[1] == names[s.entrant]
        for cell, c in zip(row[2:], result.columns, strict=True):
            value = s.figures.get(c.key)
            if value is None:
                assert cell == "-"
            elif c.format == "per_rider":
                shown = ", ".join(f"{names[rider]} {'-' if v is None else v}" for rider, v in value.items())
                assert cell == shown, "each rider by its kind, never its id"
            elif c.format == "list" and c.words:
                assert cell == ", ".join(t(c.words[v]) for v in value) or "-"  # words (medal names), in English
            elif c.format == "list":
                assert cell.split() == ([shown_number(v, c.kind) for v in value] or ["-"])
            else:
                assert cell == shown_number(value, c.kind)
    text = "\n".join("  ".join(r) for r in rows)
    for raw in ("{", "[", "None", "'"):
        assert raw not in text, f"raw Python {raw!r} in the standings:\n{text}"
    return result


def shown_number(value: int, kind: str) -> str:
    """A figure as a player reads it: a time in hours and minutes, penalty minutes as minutes, else as is."""
    if kind == "time":
        return f"{value // 60}:{value % 60:02d}"
    if kind == "minutes":
        return f"{value} min" if value < 60 else f"{value // 60}:{value % 60:02d}"
    return str(value)


def minutes(clock: str) -> int:
    """A time as the table prints it (hours and minutes, ``6:44``) in minutes."""
    hours, rest = clock.split(":")
    assert len(rest) == 2, clock
    return int(hours) * 60 + int(rest)


def check_rules(ruleset_id: str, rows: list[list[str]]) -> None:
    """What the rules say about the printed figures, where it is cheap to check (read from the cells)."""
    head = rows[0]
    cells = [dict(zip(head, row, strict=True)) for row in rows[1:]]
    places = [int(c["#"].rstrip(".")) for c in cells]
    assert places == sorted(places) and places[0] == 1
    if ruleset_id == "flamme_rouge":
        # D25: teams rank by their best-placed rider; every rider has a place, each place once.
        riders = [[int(pair.split()[-1]) for pair in c["Rider places"].split(", ")] for c in cells]
        best = [min(r) for r in riders]
        assert best == sorted(best) and best[0] == 1
        assert sorted(p for r in riders for p in r) == list(range(1, 1 + sum(len(r) for r in riders)))
    elif ruleset_id == "wyscig":
        # D19: the total is the sum of the stage times (penalties are inside them); lower is better.
        totals = [minutes(c["Total time"]) for c in cells]
        for c in cells:
            assert minutes(c["Total time"]) == sum(minutes(x) for x in c["Stage times"].split())
        assert totals == sorted(totals)
    elif ruleset_id == "tabella":
        # §7: 10, 8, 5, 3, 2 points for the first five, 1 below; ranked by Velocità.
        for c in cells:
            if c["Status"] == "finished":
                place = int(c["#"].rstrip("."))
                assert int(c["Points"]) == ((10, 8, 5, 3, 2)[place - 1] if place <= 5 else 1)
        speeds = [int(c["Velocità"]) for c in cells if c["Status"] == "finished"]
        assert speeds == sorted(speeds, reverse=True)
    elif ruleset_id == "mind_cycling" and "Medals" in head:
        # D21: more medals ranks higher; the count is the number of medals named.
        for c in cells:
            named = [] if c["Medals won"] == "-" else c["Medals won"].split(", ")
            assert int(c["Medals"]) == len(named)
        medals = [int(c["Medals"]) for c in cells]
        assert medals == sorted(medals, reverse=True)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_simulate_and_replay_print_the_columns_the_result_describes(
    ruleset_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seeded all-bot race: simulate and replay print the same table, headed by the result's labels."""
    record = tmp_path / "race.json"
    argv = ["simulate", "-r", ruleset_id, "--races", "1", "--seed", "11", "--players", "3", "--record", str(record)]
    assert main([*argv, *SHORT.get(ruleset_id, [])]) == 0
    simulated = table(capsys.readouterr().out, "standings of the last race (the system's own classification):\n")
    race = recorded(record)
    race.publish()  # simulate publishes held-back news before its classification
    check_table(simulated, race)
    check_rules(ruleset_id, simulated)
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    replayed = table(out, "):\n")
    check_table(replayed, recorded(record))
    assert replayed[0] == simulated[0]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_play_prints_the_final_standings_from_the_result(ruleset_id: str, tmp_path: Path) -> None:
    """A terminal race (always the first choice): the final table is the recorded race's result, by column."""
    record = tmp_path / "race.json"
    args = build_parser().parse_args(
        ["play", "--ruleset", ruleset_id, "--seed", "4", "--record", str(record), *SHORT.get(ruleset_id, [])]
    )
    out = io.StringIO()
    assert play(args, io.StringIO("1\n" * 3000), out) == 0
    rows = table(out.getvalue(), "Final standings:\n")
    race = recorded(record)
    race.publish()
    check_table(rows, race)
    check_rules(ruleset_id, rows)


def test_the_state_of_the_standings_reads_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A finished Tabella race whose Gazzetta is still held back reads "finished, provisional", once; the same
    record with its published Gazzetta (as simulate writes it) reads "finished"."""
    record = tmp_path / "race.json"
    assert main(["simulate", "-r", "tabella", "--races", "1", "--seed", "5", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert "Standings (finished):" in capsys.readouterr().out
    held_back = json.loads(record.read_text(encoding="utf-8"))
    assert held_back.pop("announcements"), "simulate records the Gazzetta it published"
    record.write_text(json.dumps(held_back), encoding="utf-8")
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Standings (finished, provisional):" in out
    assert "(provisional)" not in out
