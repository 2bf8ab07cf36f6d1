"""What players read for the bots: a rider's name for each seat and a word for how it rides, never the
strategy's code (``Bot 1 (heuristic)``). The name is kept with the seat (it is the entrant's name in the
race record); the word is said in the reader's language wherever the seat is shown."""

from __future__ import annotations

from bot.i18n import t

NAMES = (
    "Fausto",
    "Jeannie",
    "Eddy",
    "Annemiek",
    "Gino",
    "Marianne",
    "Miguel",
    "Paola",
    "Bernard",
    "Leontien",
    "Tadej",
    "Elisa",
)
"""The bots' names, seat after seat (a twelfth bot and later ones add a number)."""

STYLES = {
    "heuristic": "bots.style.heuristic",
    "simple": "bots.style.simple",
    "first": "bots.style.first",
    "peloton": "bots.style.peloton",
    "muscle": "bots.style.muscle",
    "cautious": "bots.style.cautious",
    "aggressive": "bots.style.aggressive",
    "steady": "bots.style.steady",
    "attacker": "bots.style.attacker",
    "opportunist": "bots.style.opportunist",
    "naive": "bots.style.naive",
}
"""How each rule system's bot strategies ride, as players read it (every catalogue key written whole)."""


def bot_name(number: int) -> str:
    """The name of the ``number``-th bot of a race (from 1)."""
    base = NAMES[(number - 1) % len(NAMES)]
    rounds = (number - 1) // len(NAMES)
    return base if rounds == 0 else f"{base} {rounds + 1}"


def style(strategy: str | None, locale: str | None = "en") -> str:
    """A word for how a bot rides ("steady", "cautious"); a strategy without one by its own name."""
    key = STYLES.get(str(strategy))
    return t(key, locale) if key is not None else str(strategy or "")
