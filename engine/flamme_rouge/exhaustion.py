"""Exhaustion (§6.7, D3, D18): a racing rider with a completely empty square in front takes a card."""

from __future__ import annotations

from engine.flamme_rouge.cards import EXHAUSTION
from engine.flamme_rouge.movement import Occupancy
from engine.flamme_rouge.state import Rider


def take_exhaustion(occ: Occupancy, riders: list[Rider], finish: int) -> list[int]:
    """Give an exhaustion card (into the recycled pile) to every rider that must take one; their indexes.

    D18: an empty lane beside the rider ahead does not count, only an empty square. D3: riders past the
    line take none (a racing rider just before it does). Peloton and Muscle riders never take any.
    """
    out: list[int] = []
    for i, r in enumerate(riders):
        if r.square <= 0 or r.off or r.bot or r.square >= finish:
            continue
        if (r.square + 1) not in occ:
            r.recycled = (*r.recycled, EXHAUSTION)  # piles are tuples, shared between copies of a state
            r.exhaustion += 1
            out.append(i)
    return out
