"""Drawing a hand (§5.1): draw, reshuffle the recycled pile only when the deck runs out, exhaustion if empty.

A hand is a pure function of the rider's deck, its recycled pile and a generator seeded from the state,
so ``awaited``, ``validate``, the bots and ``resolve`` all see the same hand without storing it: the
second rider's hand exists only once the order reaches it (D27), yet nothing is drawn twice.
"""

from __future__ import annotations

from engine.flamme_rouge.cards import EXHAUSTION, shuffle
from engine.flamme_rouge.state import Drawn, RaceState
from engine.rng import Rng

HAND_SIZE = 4
METEO_HAND = {"tailwind": 5, "headwind": 3}
"""D10: a rider on a tailwind tile draws 5, on a headwind tile 3."""


Pile = tuple[int, ...]
"""A deck or recycled pile: immutable, so the copies of a state share it safely until one replaces it."""


def draw(deck: Pile, recycled: Pile, size: int, rng: Rng) -> tuple[list[int], Pile, Pile]:
    """``(hand, deck after, recycled after)``: the hand is the caller's own list; the piles are tuples.

    5.1: a deck that still holds the whole hand is drawn as it is; otherwise draw what is left, shuffle
    the recycled pile into a new deck and go on; if no card is left at all, the hand is one exhaustion
    card from the supply (D19: unlimited).
    """
    if len(deck) >= size:
        return list(deck[:size]), deck[size:], recycled
    hand = list(deck)
    fresh = list(recycled)
    shuffle(fresh, rng)
    need = size - len(hand)
    hand += fresh[:need]
    rest = tuple(fresh[need:])
    if not hand:
        return [EXHAUSTION], (), ()
    return hand, rest, ()


def hand_rng(state: RaceState, index: int) -> Rng:
    """The generator of rider ``index``'s reshuffle this step (derived from the state, never advanced):
    ``Rng.from_seed(state.rng, index + 1)``."""
    return Rng.split(state.rng, index + 1)


def hand_of(state: RaceState, index: int, size: int | None = None) -> tuple[list[int], Pile, Pile]:
    """The hand rider ``index`` draws now: ``(hand, deck after, recycled after)``; the hand is a new list.

    ``size`` defaults to D10's: 4, or the Meteo size of the tile the rider stands on at the start of the
    energy phase."""
    rider = state.riders[index]
    if size is not None:
        n = size
    elif rider.square <= 0:
        n = HAND_SIZE
    else:
        wind = state.track.wind[rider.square]
        n = METEO_HAND.get(wind, HAND_SIZE) if wind else HAND_SIZE
    deck = rider.deck
    if len(deck) >= n:  # the common case, without building a generator
        return list(deck[:n]), deck[n:], rider.recycled
    key = (index, n)
    cached = state.hands.get(key)
    if cached is None:
        cached = state.hands[key] = draw(deck, rider.recycled, n, hand_rng(state, index))
    hand, rest, recycled = cached
    return hand[:], rest, recycled


def deal(state: RaceState, index: int) -> Drawn:
    """The energy-phase hand rider ``index`` draws now, with the piles it leaves (:func:`hand_of` at D10's
    size, without its cache): the hand is a new list. :func:`drawn` caches it for the bots' orders, the
    checks and the round; a rollout's bot round draws it once and plays from it at once."""
    rider = state.riders[index]
    square = rider.square
    wind = state.track.wind[square] if square > 0 else ""
    n = METEO_HAND.get(wind, HAND_SIZE) if wind else HAND_SIZE
    deck = rider.deck
    if len(deck) >= n:  # the common case, without building a generator
        return list(deck[:n]), deck[n:], rider.recycled
    return draw(deck, rider.recycled, n, Rng.split(state.rng, index + 1))  # hand_rng


def drawn(state: RaceState, index: int) -> list[int]:
    """Rider ``index``'s energy-phase hand now (``hand_of(state, index)[0]``), cached for this state: the
    strategies, ``validate`` and ``awaited`` all read it. Shared: callers must not change it."""
    key = ("hand", index)  # drawn_all, spelt out: this runs for every rider of every bot's order
    cache = state.cache
    got: Drawn | None = cache.get(key)
    if got is None:
        got = cache[key] = deal(state, index)
    return got[0]


def drawn_all(state: RaceState, index: int) -> Drawn:
    """:func:`hand_of` for the energy phase, cached for this state (``(hand, deck after, recycled after)``):
    the hand :func:`drawn` reads, and the piles the round leaves. Shared: callers must not change the hand."""
    key = ("hand", index)
    got: Drawn | None = state.cache.get(key)
    if got is None:
        got = state.cache[key] = deal(state, index)
    return got


def pick(hand: list[int], wanted: int) -> int | None:
    """The card of ``hand`` a chosen value plays: D26, a 2 is an exhaustion card whenever the hand holds one."""
    if wanted == 2 and EXHAUSTION in hand:
        return EXHAUSTION
    if wanted in hand:
        return wanted
    return None


def hand_values(hand: list[int]) -> list[int]:
    """The values a player may name, ascending, one per distinct value."""
    values = set(hand)
    if EXHAUSTION in values:  # D26: the exhaustion card is named 2
        values.discard(EXHAUSTION)
        values.add(2)
    return sorted(values)
