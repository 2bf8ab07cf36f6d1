"""``gregario play``: a person plays a whole race in the terminal by answering the prompts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.cli.play import HUMAN_ID, number_range, play
from engine.messages import Message
from engine.registry import available_rulesets
from engine.ruleset import InputField

# Short races, so a whole one is played per test: (extra command-line arguments per rule system).
SHORT = {
    "flamme_rouge": [],
    "tabella": [],
    "wyscig": ["--stage", '{"stages": 1}'],
    "mind_cycling": [],
}


def run_play(argv: list[str], answers: str) -> str:
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    assert play(args, io.StringIO(answers), out) == 0
    return out.getvalue()


@pytest.mark.parametrize("ruleset_id", [r.id for r in available_rulesets()])
def test_choosing_the_first_choice_every_time_plays_a_whole_race(ruleset_id: str) -> None:
    """Typing 1 at every prompt is always legal, and the race reaches its final standings."""
    text = run_play(["--ruleset", ruleset_id, "--seed", "4", *SHORT[ruleset_id]], "1\n" * 3000)
    assert "Final standings" in text
    assert "Player" in text.split("Final standings")[1]


@pytest.mark.parametrize("ruleset_id", [r.id for r in available_rulesets()])
def test_nonsense_gets_the_engines_message_and_the_prompt_again(ruleset_id: str) -> None:
    """Gibberish is refused with a message; quitting ends the race politely, nothing crashes."""
    text = run_play(["--ruleset", ruleset_id, "--seed", "4", *SHORT[ruleset_id]], "ciao bella 999\nquit\n")
    assert "Race abandoned." in text
    lines = text.split("ciao")[0] if "ciao" in text else text
    assert lines  # the race was shown before the first prompt


def test_the_record_of_a_terminal_race_is_saved(tmp_path: Path) -> None:
    """--record writes the race record, which replays."""
    path = tmp_path / "race.json"
    ruleset_id = available_rulesets()[0].id
    run_play(["--ruleset", ruleset_id, "--seed", "9", "--record", str(path), *SHORT[ruleset_id]], "1\n" * 3000)
    from engine.record import parse_record
    from tests.logged import logged_replay

    race = logged_replay(parse_record(path.read_text(encoding="utf-8")))
    assert race.result().finished


def test_rules_and_stages_print_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    """`gregario rules` prints a summary and `gregario stages` lists every preset."""
    for ruleset in available_rulesets():
        assert main(["rules", ruleset.id]) == 0
        assert main(["stages", ruleset.id]) == 0
        out = capsys.readouterr().out
        for preset in ruleset.presets():
            assert preset.name in out


def test_the_terminal_publishes_the_gazzetta_before_the_final_standings() -> None:
    """Tabella's held-back Gazzetta is published at once in the terminal: the standings are final."""
    text = run_play(["--ruleset", "tabella", "--seed", "4", "--opponents", "3"], "1\n" * 3000)
    assert "The next morning:" in text
    assert "Final standings:" in text
    assert "(provisional)" not in text.split("Final standings")[1]


@pytest.mark.parametrize(
    ("ruleset_id", "menu", "part"),
    [
        ("mind_cycling", "lane to seek", '"lane"'),
        ("mind_cycling", "steps", '"distance"'),
        ("tabella", "Add a special", '"specials"'),
    ],
)
def test_the_numbered_menus_offer_the_optional_parts(ruleset_id: str, menu: str, part: str, tmp_path: Path) -> None:
    """Typing 1 everywhere reaches Mind Cycling's steps and lane and Tabella's specials, which the record then holds."""
    record = tmp_path / "race.json"
    text = run_play(["--ruleset", ruleset_id, "--seed", "4", "--record", str(record)], "1\n" * 3000)
    assert menu in text and "(optional: press Enter to skip)" in text
    steps = json.loads(record.read_text(encoding="utf-8"))["steps"]
    mine = [json.dumps(step[HUMAN_ID]) for step in steps if isinstance(step.get(HUMAN_ID), dict)]
    assert any(part in order for order in mine)


def test_enter_skips_an_optional_part_and_the_race_goes_on() -> None:
    """Pressing Enter at every optional menu still plays a whole Mind Cycling race (the parts are left out)."""
    answers = "\n".join(["1", ""] * 3000) + "\n"
    text = run_play(["--ruleset", "mind_cycling", "--seed", "4"], answers)
    assert "Final standings" in text


def test_a_number_without_an_upper_bound_reads_as_such() -> None:
    """Tabella's sprint takes any whole number from 0 (D16): "0 or more", never "0 to None"."""
    sprint = InputField(
        ["s1"], Message("td.field.sprint", {"n": 1}, "Sprint 1: intensity"), "number", [], 0, None, True
    )
    assert number_range(sprint) == "a number, 0 or more"
    assert number_range(InputField(["d"], sprint.label, "number", [], 0, 4, False)) == "a number from 0 to 4"


@pytest.mark.parametrize("preset", ["Sprint de Montagne", "Avenue Corso Paseo", "Stage 8"])
def test_a_flamme_rouge_preset_is_raced_by_its_name_as_the_listing_shows_it(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`gregario stages` lists 'Sprint de Montagne [origin unverified]'; `play --stage` takes that very text."""
    assert main(["stages", "flamme_rouge"]) == 0
    listed = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(f"- {preset} ["))
    as_listed = listed.removeprefix("- ").split("]:", 1)[0] + "]"
    assert as_listed != preset  # the listing marks it with its label
    text = run_play(["--ruleset", "flamme_rouge", "--seed", "3", "--stage", as_listed], "quit\n")
    assert f"{preset} · round 1" in text  # the board names the stage it is racing
