"""The movement phase (§5.2, §6.1-6.4, §6.8): movement values, front-to-back order, blocking.

The board during a step is an occupancy map: square -> list of rider indexes per lane (-1 = free),
holding only occupied squares, so "is square n empty?" is ``n not in occ``.
"""

from __future__ import annotations

from engine.flamme_rouge.state import RaceState, Rider
from engine.flamme_rouge.track import Track

Occupancy = dict[int, list[int]]


def occupancy(state: RaceState) -> Occupancy:
    """Who stands where: every placed rider still on the track (crossed riders too until they leave, D5)."""
    occ: Occupancy = {}
    lanes = state.track.lanes
    for i, r in enumerate(state.riders):
        if r.square > 0 and not r.off:
            row = occ.get(r.square)
            if row is None:
                row = occ[r.square] = [-1] * lanes[r.square]
            row[r.lane - 1] = i
    return occ


def movement_order(riders: list[Rider]) -> list[int]:
    """5.2: indexes of the racing riders, front to back: higher square first, then the right-hand lane."""
    keyed = [(-r.square, r.lane, i) for i, r in enumerate(riders) if r.crossed == 0 and r.square > 0]
    keyed.sort()  # (square, lane) is unique per rider, so the index never decides
    return [k[2] for k in keyed]


def target_square(track: Track, start: int, card_value: int, clip: bool) -> int:
    """6.1 (D14): the square a move aims at before blocking.

    Minimum speed of the starting square first (D15, D16), then the ascent rule (6.2) (the track's table,
    :func:`~engine.flamme_rouge.track.aim`), then the end-of-track clip (D4, ``"clip"`` only).
    """
    target = track.targets[start][card_value]
    if clip and target > track.last:
        target = track.last
    return target


def move(occ: Occupancy, track: Track, riders: list[Rider], index: int, target: int) -> tuple[int, int]:
    """5.2: move rider ``index`` to the rightmost free lane of ``target``, or of the first square behind it
    with a free lane; blocked back to its own square it keeps its lane (D17). Returns ``(square, lane)``."""
    rider = riders[index]
    start = rider.square
    lanes = track.lanes
    for sq in range(target, start, -1):
        row = occ.get(sq)
        if row is None:
            row = occ[sq] = [-1] * lanes[sq]
            lane = 0
        elif -1 in row:  # a test, not a ValueError caught: blocked moves are common in a pack
            lane = row.index(-1)
        else:
            continue
        row[lane] = index
        old = occ[start]
        old[rider.lane - 1] = -1
        if max(old) < 0:
            del occ[start]
        rider.square = sq
        rider.lane = lane + 1
        return sq, lane + 1
    return start, rider.lane
