"""Mind Cycling: a cycling race without dice or cards (rules: ``docs/rules/mind-cycling.md``)."""

from __future__ import annotations

from engine.mind_cycling.ruleset import MindCyclingRuleset

RULESET = MindCyclingRuleset()

__all__ = ["RULESET", "MindCyclingRuleset"]
