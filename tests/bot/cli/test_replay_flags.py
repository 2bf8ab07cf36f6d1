"""``gregario replay --publish / --steps / --reveal``: what was published, every step, and what was hidden."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.engine.test_announcements_in_record import _gazzetta_race

WYSCIG: dict[str, Any] = {
    "format": "gregario.race/1",
    "ruleset": "wyscig",
    "seed": 2026,
    "stage": {"deck": "itemised_108", "stages": 1},
    "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bob", "name": "Bob"}, {"id": "carla", "name": "Carla"}],
    "setup": {
        "seats": ["anna", "bob", "carla"],
        "leader": "anna",
        "hands": {"anna": [45, 47, 44], "bob": [46, 42, "descent"], "carla": [48, 41, "climb"]},
        "pile": [43, 50, 40],
    },
    "steps": [{"anna": "play 47"}, {"bob": "play 46 +1"}],
}


def _run(
    tmp_path: Path, record: dict[str, Any], *flags: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status = main(["replay", str(path), *flags])
    out, err = capsys.readouterr()
    return status, out, err


def test_replay_publish_publishes_what_is_pending(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A finished Tabella record without its Gazzetta: provisional, unless --publish brings it out."""
    record = _gazzetta_race()
    status, out, _ = _run(tmp_path, record, "--json", capsys=capsys)
    assert status == 0 and json.loads(out)["provisional"] is True
    status, out, _ = _run(tmp_path, record, "--json", "--publish", capsys=capsys)
    summary = json.loads(out)
    assert status == 0 and summary["provisional"] is False
    assert [(a["kind"], a["after_step"]) for a in summary["announcements"]] == [("gazzetta", 1)]
    assert summary["standings"][0]["entrant"] == "luca"


def test_a_recorded_gazzetta_is_shown_in_the_text_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The record says the Gazzetta came out after step 1: the log shows it there, and the standings stand."""
    record = {**_gazzetta_race(), "announcements": [{"kind": "gazzetta", "after_step": 1}]}
    status, out, _ = _run(tmp_path, record, capsys=capsys)
    assert status == 0
    assert "— the news is out" in out and "(provisional)" not in out and "gazzetta" not in out.split("Standings")[0]
    status, out, _ = _run(tmp_path, record, "--publish", capsys=capsys)
    assert status == 0 and out.count("— the news is out") == 1


def test_steps_give_every_step_public_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Anna leads with 47, then Bob plays 46 with a descent: the state after step 1 has L = 47 and Anna's card
    alone on the table; after step 2 both cards; the start (step 0) has nothing played."""
    status, out, _ = _run(tmp_path, WYSCIG, "--json", "--steps", capsys=capsys)
    assert status == 0
    steps = json.loads(out)["steps"]
    assert [s["step"] for s in steps] == [0, 1, 2]
    assert steps[0]["state"]["played"] == []
    assert steps[1]["state"]["reference"] == 47 and [p["card"] for p in steps[1]["state"]["played"]] == [47]
    assert [(p["card"], p["descents"]) for p in steps[2]["state"]["played"]] == [(47, 0), (46, 1)]
    assert [e["kind"] for e in steps[1]["events"]] == ["wk.pace"]
    assert "private" not in steps[1]


def test_reveal_adds_each_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --reveal, Anna's hand at the start holds 45 47 44 and, after she played the 47, no longer holds it."""
    status, out, _ = _run(tmp_path, WYSCIG, "--json", "--steps", "--reveal", capsys=capsys)
    assert status == 0
    summary = json.loads(out)
    start, after = summary["steps"][0]["private"]["anna"], summary["steps"][1]["private"]["anna"]
    assert {44, 45, 47} <= set(start["hand"]["speeds"])
    assert 47 not in after["hand"]["speeds"] and {44, 45} <= set(after["hand"]["speeds"])
    assert "hand" not in summary["steps"][1]["state"]  # the public state keeps hands hidden
    assert set(summary["private"]) == {"anna", "bob", "carla"}


def test_steps_without_json_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--steps only makes sense with --json: one line, exit status 2."""
    status, _, err = _run(tmp_path, WYSCIG, "--steps", capsys=capsys)
    assert status == 2 and err.strip() == "gregario replay: --steps and --reveal go with --json"


def test_simulate_writes_the_gazzetta_it_published(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A simulated Tabella race publishes its Gazzetta at once; its record says so and replays as final."""
    path = tmp_path / "sim.json"
    assert main(["simulate", "-r", "tabella", "-n", "1", "--seed", "3", "--record", str(path)]) == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["announcements"] == [{"kind": "gazzetta", "after_step": len(record["steps"])}]
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["provisional"] is False
