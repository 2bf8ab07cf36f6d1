"""The terminal speaks the game's words too (issue 23): a whole ``gregario play`` race of each rule system
against bots, then ``gregario replay`` of its record, scanned for internal codes (:mod:`tests.scan`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.cli.play import HUMAN_ID, play
from bot.cli.replay import replay_command
from engine.race import replay
from engine.record import parse_record
from engine.registry import available_rulesets
from tests.scan import counts, scan

SHORT = {"wyscig": ["--stage", '{"stages": 1}']}


@pytest.mark.parametrize("ruleset_id", [r.id for r in available_rulesets()])
def test_play_and_replay_name_every_rider(ruleset_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A race against two bots and its replay: no path, id, underscore name, repr or None on screen."""
    path = tmp_path / "race.json"
    argv = ["play", "--ruleset", ruleset_id, "--seed", "4", "--opponents", "2", "--record", str(path)]
    out = io.StringIO()
    assert play(build_parser().parse_args([*argv, *SHORT.get(ruleset_id, [])]), io.StringIO("1\n" * 3000), out) == 0
    assert replay_command(str(path), as_json=False) == 0
    shown = out.getvalue().replace(str(path), "the record") + capsys.readouterr().out
    race = replay(parse_record(path.read_text(encoding="utf-8")))
    # The human's id ("you") is an English word: it is looked for as a rider's prefix only, like the others.
    ids = {e.id for e in race.header.entrants if e.id != HUMAN_ID}
    ids |= {rider for s in race.result().standings for rider in s.riders if rider != HUMAN_ID}
    findings = scan([("terminal", line) for line in shown.splitlines()], ids)
    assert "Final standings" in shown and "Standings (finished)" in shown
    assert not findings, f"{counts(findings)}: " + "\n".join(map(str, findings[:20]))
