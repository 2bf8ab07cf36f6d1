"""Cards and decks (§3.1). A card is a small int: its value, except the few special cards below.

Ints keep the hot path cheap and the state plain JSON. The exhaustion card is worth 2 but must stay
distinguishable from the Sprinteur's energy 2 (D26), so it has its own code, as do Attack! and Muscle.
"""

from __future__ import annotations

from engine.rng import Rng

EXHAUSTION = 0
"""An exhaustion card (value 2)."""
ATTACK = 10
"""The Peloton's Attack! card: front rider 2, rear rider 9 (§7.2)."""
MUSCLE = 11
"""The Muscle card added to a Muscle Sprinteur deck (value 5, §7.3)."""

ROULEUR_DECK: tuple[int, ...] = (3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7)
SPRINTEUR_DECK: tuple[int, ...] = (2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 9, 9, 9)
PELOTON_DECK: tuple[int, ...] = (*ROULEUR_DECK, ATTACK, ATTACK)
MUSCLE_SPRINTEUR_DECK: tuple[int, ...] = (*SPRINTEUR_DECK, MUSCLE)

EMPTY_BOT_DECK_VALUE = 2
"""D20, D21: a bot whose deck is empty moves 2."""

_VALUES = {EXHAUSTION: 2, MUSCLE: 5}
_LABELS = {EXHAUSTION: "exhaustion 2", ATTACK: "Attack!", MUSCLE: "Muscle 5"}
_CODES = {"E": EXHAUSTION, "X": EXHAUSTION, "A": ATTACK, "M": MUSCLE}


_REFILL = 1 << 40


def shuffle(cards: list[int], rng: Rng) -> None:
    """Shuffle a deck in place (Fisher-Yates) with the race's generator.

    One 64-bit draw serves several swaps: each index is the remainder of the draw divided by the number of
    candidates, and the quotient is kept for the next swap until fewer than 40 bits are left. With at most a
    few dozen cards the bias is below 2**-34 per swap; a deck costs 3 draws instead of 14 (this runs at every
    reshuffle of every race). :meth:`Rng.shuffle_packed` is that shuffle, its draws written out.
    """
    rng.shuffle_packed(cards, _REFILL)


VALUES: tuple[int, ...] = tuple(_VALUES.get(c, c) for c in range(MUSCLE + 1))
"""``VALUES[card]``: :func:`value` as a table, for the movement loop."""
LABELS: tuple[str, ...] = tuple(_LABELS.get(c, str(c)) for c in range(MUSCLE + 1))


def value(card: int) -> int:
    """The movement value of an energy, exhaustion or Muscle card (not Attack!, which depends on the rider)."""
    return _VALUES.get(card, card)


def label(card: int) -> str:
    return _LABELS.get(card, str(card))


def parse_card(item: int | str) -> int:
    """A card in a setup: an int value, or ``"E"`` (exhaustion), ``"A"`` (Attack!), ``"M"`` (Muscle)."""
    if isinstance(item, int):
        if item in (EXHAUSTION, ATTACK, MUSCLE) or 2 <= item <= 9:
            return item
        raise ValueError(f"{item} is not a card (energy 2-9, 'E' exhaustion, 'A' Attack!, 'M' Muscle)")
    code = _CODES.get(item.strip().upper())
    if code is None:
        if item.strip().isdigit():
            return parse_card(int(item))
        raise ValueError(f"{item!r} is not a card (energy 2-9, 'E' exhaustion, 'A' Attack!, 'M' Muscle)")
    return code
