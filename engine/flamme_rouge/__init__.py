"""Flamme Rouge (base game, Peloton, Meteo): the rules of ``docs/rules/flamme-rouge.md``."""

from engine.flamme_rouge.ruleset import FlammeRougeRuleset

RULESET = FlammeRougeRuleset()

__all__ = ["RULESET", "FlammeRougeRuleset"]
