"""Standings as text, from the result's own description of its figures: shared by the terminal's tables and
the bot's final posts, so neither knows the rule system."""

from __future__ import annotations

from typing import Any


def figure_text(value: Any, fmt: str) -> str:
    """One figure as a table cell: ``per_rider`` values as ``rider value`` pairs, lists space-separated,
    a missing figure (``None``) as ``-``."""
    if value is None:
        return "-"
    if fmt == "per_rider" and isinstance(value, dict):
        return ", ".join(f"{rider} {figure_text(v, 'number')}" for rider, v in value.items())
    if fmt == "list" and isinstance(value, list):
        return " ".join(figure_text(v, "number") for v in value) or "-"
    return str(value)
