"""``gregario replay``: a record replays the same in a fresh process; bad records are refused precisely."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.replay import replay_summary
from engine.registry import available_rulesets, get_ruleset
from engine.ruleset import Entrant
from tests.engine.random_orders import play_randomly
from tests.logged import LoggedRace

RULESETS = [r.id for r in available_rulesets()]


def gregario(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The ``gregario`` command in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def played_race(ruleset_id: str, seed: int, order_seed: int, players: int = 2) -> LoggedRace:
    ruleset = get_ruleset(ruleset_id)
    low, high = ruleset.player_limits(None, {})
    n = max(low, min(players, high))
    humans = [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, n + 1)]
    race = LoggedRace.start(ruleset_id, ruleset.default_entrants(humans, {}), seed)
    play_randomly(race, random.Random(order_seed))
    return race


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("ruleset_id", RULESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    order_seed=st.integers(min_value=0, max_value=2**31 - 1),
    players=st.integers(min_value=1, max_value=4),
)
def test_a_played_race_replays_identically_in_a_fresh_process(
    ruleset_id: str, seed: int, order_seed: int, players: int
) -> None:
    """Random seeds and random legal orders: the JSON record replays to the same events, state and standings."""
    race = played_race(ruleset_id, seed, order_seed, players)
    expected = canonical(replay_summary(race, race.events))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "race.json"
        path.write_text(race.full_record.to_json(), encoding="utf-8")
        first = gregario("replay", str(path), "--json")
        second = gregario("replay", str(path), "--json")
    assert first.returncode == 0, first.stderr
    assert canonical(json.loads(first.stdout)) == expected
    assert first.stdout == second.stdout


def test_a_malformed_record_names_the_offending_field(tmp_path: Path) -> None:
    """A record with a nameless entrant and a text seed is refused, each field named, exit status 2."""
    record = {
        "format": "gregario.race/1",
        "ruleset": "flamme_rouge",
        "seed": "soon",
        "entrants": [{"id": "anna"}],
        "steps": [],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = gregario("replay", str(path), "--json")
    assert out.returncode == 2
    assert "seed:" in out.stderr
    assert "entrants.0.name:" in out.stderr


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": "gregario.race/9"}, "format:"),
        ({"ruleset": "tour_de_farce"}, "unknown rule system 'tour_de_farce'"),
        ({"steps": [{"zed": "r5 s9"}]}, "step 1 has an order from zed, who is not an entrant"),
        ({"surprise": 1}, "surprise: Extra inputs are not permitted"),
    ],
)
def test_malformed_envelopes_are_refused_precisely(tmp_path: Path, change: dict[str, Any], expected: str) -> None:
    """Wrong format, unknown rule system, a stranger's order or an unknown key: a precise message."""
    record = {
        "format": "gregario.race/1",
        "ruleset": "flamme_rouge",
        "seed": 1,
        "entrants": [{"id": "anna", "name": "Anna"}],
        "steps": [],
        **change,
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = gregario("replay", str(path))
    assert out.returncode == 2
    assert expected in out.stderr


def test_a_record_that_is_not_json_is_refused(tmp_path: Path) -> None:
    """Broken JSON gets exit status 2 and says so."""
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    out = gregario("replay", str(path))
    assert out.returncode == 2
    assert "not valid JSON" in out.stderr


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_an_illegal_order_stops_the_replay_naming_step_and_entrant(ruleset_id: str, tmp_path: Path) -> None:
    """A human order replaced by nonsense stops the replay at its step, naming the entrant."""
    race = played_race(ruleset_id, 5, 5)
    record = json.loads(race.full_record.to_json())
    human_ids = {e["id"] for e in record["entrants"] if "bot" not in e}
    for n, step in enumerate(record["steps"], start=1):  # noqa: B007 - n names the spoiled step
        humans_here = sorted(set(step) & human_ids)
        if humans_here:
            step[humans_here[0]] = "ciao bella 999"
            break
    else:
        pytest.fail("the race had no human order to spoil")
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = gregario("replay", str(path), "--json")
    assert out.returncode == 2
    assert f"step {n}, {humans_here[0]}:" in out.stderr


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_an_unknown_bot_strategy_is_refused_before_any_step(ruleset_id: str, tmp_path: Path) -> None:
    """A bot seat saying "nosuch" stops the replay at once: exit status 2, one line naming the seat."""
    race = played_race(ruleset_id, 3, 3)
    record = json.loads(race.full_record.to_json())
    record["entrants"][1]["bot"] = "nosuch"
    path = tmp_path / "nosuch.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = gregario("replay", str(path))
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert out.stderr.startswith("gregario replay: entrants.1.bot: unknown bot 'nosuch'")


def test_replay_shows_the_opening_of_a_wyscig_race(tmp_path: Path) -> None:
    """Wyścig's first deal and first turn come before step 1, in the text and as ``opening`` in JSON."""
    race = played_race("wyscig", 4, 4, players=3)
    assert race.opening, "a Wyścig race opens with its deal"
    path = tmp_path / "race.json"
    path.write_text(race.full_record.to_json(), encoding="utf-8")
    data = json.loads(gregario("replay", str(path), "--json").stdout)
    assert data["opening"] == [e.model_dump(mode="json") for e in race.opening]
    text = gregario("replay", str(path)).stdout
    assert text.index("— the start") < text.index("— Stage 1, lap 1"), "the laps counted as players count them"
    assert race.opening[0].message.text in text.split("— Stage 1, lap 1")[0]
