"""Seats for terminal races: the players, the bots that fill the table, and the race seed."""

from __future__ import annotations

import secrets
from typing import Any

from bot.bots import bot_name, style
from bot.cli.inputs import UsageError
from bot.i18n import t
from engine.ruleset import Entrant, Ruleset


def new_seed(seed: int | None) -> int:
    """The given seed, or a fresh one (the terminal is not the engine: it may use the OS's entropy)."""
    return seed if seed is not None else secrets.randbelow(2**31)


def bot_seats(ruleset: Ruleset[Any], count: int, strategies: list[str], start: int = 0) -> list[Entrant]:
    """``count`` bot seats, strategies cycled from position ``start`` (seat rotation)."""
    seats = []
    for i in range(count):
        strategy = strategies[(start + i) % len(strategies)]
        # A rider's name and how it rides, in the terminal's English ("Fausto, steady bot").
        name = t("bots.terminal_name", name=bot_name(i + 1), style=style(strategy))
        seats.append(Entrant(id=f"bot{i + 1}", name=name, bot=strategy))
    return seats


def parse_strategies(ruleset: Ruleset[Any], text: str | None) -> list[str]:
    """A comma-separated list of strategy names, checked against the rule system's."""
    if not text:
        return [ruleset.default_strategy]
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in ruleset.strategies]
    if unknown:
        raise UsageError(
            f"unknown bot {', '.join(unknown)} for {ruleset.name}; choose from {', '.join(ruleset.strategies)}"
        )
    return names
