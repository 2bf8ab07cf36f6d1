"""Mind Cycling: a cycling race without dice or cards (rules: ``docs/rules/mind-cycling.md``)."""

from __future__ import annotations

from engine.mind_cycling.ruleset import MindCycling

RULESET = MindCycling()

__all__ = ["RULESET", "MindCycling"]
