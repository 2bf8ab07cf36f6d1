"""``gregario simulate``: all-bot races with wins by seat and strategy, and the last race's standings."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.cli.simulate import wilson_interval
from engine.registry import available_rulesets

SHORT = {"wyscig": ["--stage", '{"stages": 1}']}


def test_the_wilson_interval_of_half_of_a_hundred() -> None:
    """50 wins in 100 races: 95 % interval 40.4 %..59.6 % (worked by hand from the Wilson formula)."""
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-4)
    assert high == pytest.approx(0.59617, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 0.0)


@pytest.mark.parametrize("ruleset", [r for r in available_rulesets()], ids=lambda r: r.id)
def test_simulate_counts_every_win_and_prints_the_classification(ruleset, capsys) -> None:  # type: ignore[no-untyped-def]
    """Three races between two strategies: three winners counted, the standings of the last printed."""
    strategies = [s for s in ruleset.strategies if s not in ("peloton", "muscle")][:2]
    argv = ["simulate", "-r", ruleset.id, "--races", "3", "--seed", "1", "--players", "2", *SHORT.get(ruleset.id, [])]
    assert main([*argv, "--bots", ",".join(strategies)]) == 0
    out = capsys.readouterr().out
    assert "races per second" in out
    wins = out.split("wins by seat:")[1].split("wins by strategy")[0]
    counted = sum(int(line.split()[1]) for line in wins.strip().splitlines())
    assert counted >= 3  # ties share a win (Tabella D30)
    assert "standings of the last race" in out


def test_an_unknown_strategy_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt bot name stops with exit status 2 and the list of strategies."""
    assert main(["simulate", "-r", "flamme_rouge", "--bots", "heuristik", "--races", "1"]) == 2
    assert "heuristic" in capsys.readouterr().err
