"""Tabella del Destino: the Italian play-by-message race (``docs/rules/tabella-del-destino.md``)."""

from __future__ import annotations

from engine.tabella.ruleset import TabellaRuleset

RULESET = TabellaRuleset()

__all__ = ["RULESET", "TabellaRuleset"]
