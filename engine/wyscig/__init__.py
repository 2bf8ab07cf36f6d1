"""Wyścig kolarski: a Polish card race over several stages (``docs/rules/wyscig-kolarski.md``)."""

from __future__ import annotations

from engine.wyscig.ruleset import WyscigRuleset

RULESET = WyscigRuleset()

__all__ = ["RULESET", "WyscigRuleset"]
