"""The words of an order (rules §5.2, §6, §8.1, D9): the starts, directions, specials and where each may be
used, shared by the text syntax (:mod:`engine.tabella.syntax`) and the checks (:mod:`engine.tabella.orders`)
so that neither imports the other's internals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.messages import Message, cached_msg
from engine.tabella.state import ROUNDS

START_NAMES = {
    "a": "A",
    "aggressiva": "A",
    "b": "B",
    "bersagliera": "B",
    "c": "C",
    "cavaliera": "C",
}
START_TITLES = {"A": "Aggressiva", "B": "Bersagliera", "C": "Cavaliera"}
DIRECTIONS = {"s": "S", "d": "D", "r": "R"}
PUSH_DIRECTIONS = {"up": "up", "su": "up", "down": "down", "giu": "down", "giù": "down"}
SPECIAL_NAMES = {
    "V": "Vigorilla",
    "G": "Gomitata",
    "J": "Gancio di traino",
    "B": "Bottigliata",
    "X": "Scia",
    "P": "Mi alzo in piedi sui pedali",
    "V2": "stolen Vigorilla (V2)",
    "B2": "stolen bottle throw (B2)",
}
TRUE_WORDS = {"yes", "y", "si", "sì", "true", "1", "on"}
FALSE_WORDS = {"no", "n", "false", "0", "off"}
_ALL = frozenset(range(9))
# D9: where each special may be used (V2/B2 wherever V/B are, except the start).
ALLOWED_ROUNDS: dict[str, frozenset[int]] = {
    "V": _ALL,
    "G": _ALL,
    "J": frozenset(range(1, 5)),
    "B": _ALL,
    "X": frozenset(range(1, 6)),
    "P": _ALL,
    "V2": frozenset(range(1, 9)),
    "B2": frozenset(range(1, 9)),
}
NEEDS_TARGET = frozenset({"G", "J", "B", "B2"})


SPECIAL_TEXTS = {
    "V": ("td.special.v", "Vigorilla"),
    "G": ("td.special.g", "Gomitata"),
    "J": ("td.special.j", "Gancio di traino"),
    "B": ("td.special.b", "Bottigliata"),
    "X": ("td.special.x", "Scia"),
    "P": ("td.special.p", "Mi alzo in piedi sui pedali"),
    "V2": ("td.special.v2", "stolen Vigorilla (V2)"),
    "B2": ("td.special.b2", "stolen bottle throw (B2)"),
}
"""Each special's name as a message of its own (the English text is ``SPECIAL_NAMES``'), so a label or a
refusal naming a special is worded whole by a translator."""


def special_name(code: str) -> Message:
    """How a player reads the special ``code`` in a message: ``Gancio di traino``, ``stolen Vigorilla (V2)``."""
    return cached_msg(*SPECIAL_TEXTS[code])


def part_name(label: str) -> Message:
    """How a player reads a round label in a message: ``move 3``, ``sprint 2``, ``start`` (a message of its own,
    so a refusal's ``where`` is translated too)."""
    if label == "start":
        return cached_msg("td.part.start", "start")
    if label.startswith("m"):
        return cached_msg("td.part.move", "move {number}", number=int(label[1]))
    return cached_msg("td.part.sprint", "sprint {number}", number=int(label[1]))


def counter_name(label: str) -> Message:
    """The round ``label`` (``m3``) as the race's one counter names it on the post, the panel and the
    picture: "the start", "Move 3", "Sprint 2", "the finish"; the labels stay the plan syntax's notation."""
    if label == "start":
        return cached_msg("td.counter.start", "the start")
    if label == "finished":
        return cached_msg("td.counter.finish", "the finish")
    if label.startswith("m"):
        return cached_msg("td.counter.move", "Move {number}", number=int(label[1]))
    return cached_msg("td.counter.sprint", "Sprint {number}", number=int(label[1]))


def allowed_text(code: str) -> str:
    rounds = sorted(ALLOWED_ROUNDS[code])
    return ", ".join(ROUNDS[r] for r in rounds)


@dataclass(frozen=True)
class OrderContext:
    """What validation needs from the race: who orders, who else races, which rounds the order covers."""

    entrant: str
    names: Mapping[str, str]
    """Entrant id -> display name, every rider of the race."""
    mode: str
    rounds: tuple[int, ...]
    """Rounds this order may hold (plan: every round from the current one; live: the current one)."""
    used: frozenset[str] = frozenset()
    """Specials already used (live mode)."""

    @property
    def live_round(self) -> int | None:
        return self.rounds[0] if self.mode == "live" else None
