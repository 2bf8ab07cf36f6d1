"""Flamme Rouge (base game, Peloton, Meteo): the rules of ``docs/rules/flamme-rouge.md``."""

from engine.flamme_rouge.ruleset import FlammeRouge

RULESET = FlammeRouge()

__all__ = ["RULESET", "FlammeRouge"]
