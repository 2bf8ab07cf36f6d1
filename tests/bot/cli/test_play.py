"""``gregario play``: a person plays a whole race in the terminal by answering the prompts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.cli.play import play
from engine.registry import available_rulesets

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
